import Foundation

/// The bytes a render writes, in one block of memory that becomes the file's `Data` without a
/// copy.
///
/// An archive day of a large site renders to tens of megabytes, which this keeps in memory
/// once: the block grows with realloc(3), which moves a large block by remapping its pages
/// rather than copying them, and `data()` hands it to `Data` to free.
struct OutputBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = Self.allocate(self.capacity)
    }

    deinit {
        free(base)
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(capacity) else { fatalError("out of memory: cannot allocate \(capacity) bytes for a page") }
        return memory.assumingMemoryBound(to: UInt8.self)
    }

    /// Room for `extra` more bytes.
    private mutating func reserve(_ extra: Int) {
        let needed = count + extra
        guard needed > capacity else { return }
        var grown = capacity
        while grown < needed { grown *= 2 }
        guard let moved = realloc(base, grown) else { fatalError("out of memory: cannot grow a page to \(grown) bytes") }
        base = moved.assumingMemoryBound(to: UInt8.self)
        capacity = grown
    }

    subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "an output byte out of range")
        return base[index]
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Puts `bytes` at `index`, moving what follows.
    mutating func insert(_ bytes: [UInt8], at index: Int) {
        precondition(index >= 0 && index <= count, "an insertion out of range")
        guard !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + index + bytes.count).update(from: base + index, count: count - index)
        bytes.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { (base + index).update(from: start, count: source.count) }
        }
        count += bytes.count
    }

    /// The bytes as `Data`, which frees them.
    consuming func data() -> Data {
        let data = Data(bytesNoCopy: base, count: count, deallocator: .free)
        discard self
        return data
    }
}
