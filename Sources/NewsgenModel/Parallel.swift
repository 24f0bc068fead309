import Foundation

/// The one bounded-parallel map: rendering, validation, publishing and fetching all go through it.
package enum Parallel {
    /// The cores this process may use (`ProcessInfo.activeProcessorCount`), read once: each
    /// read looks at the control group's CPU quota files again, about 0.3 ms, and every map
    /// and each build's start asked.
    package static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// `transform` applied to every item, at most `maxConcurrent` at a time (every core by
    /// default), results in the items' order.
    ///
    /// Items are handed out one at a time, in order, to whichever of the `maxConcurrent` workers
    /// is free, so a worker that drew cheap items takes more of them (contiguous chunks left one
    /// core with all the heavy pages). Put the costliest items first for the shortest run.
    ///
    /// Items `isLarge` marks run one at a time: while one runs, the next waits and the items
    /// after it are handed out; it goes first once the one running is done. (A site's largest
    /// pages hold tens of megabytes each while they are made, checked and written: at 100,000
    /// stories, two made at once raised the build's peak of memory by about 20 MiB.)
    package static func map<T: Sendable, R: Sendable>(
        _ items: [T], maxConcurrent: Int = Parallel.cores,
        isLarge: (T) -> Bool = { _ in false },
        _ transform: @escaping @Sendable (T) async -> R
    ) async -> [R] {
        let queue = WorkQueue(large: items.map(isLarge))
        let workers = max(1, min(maxConcurrent, items.count))
        // Each result goes straight to its item's place: gathered per worker, then merged,
        // sorted and mapped, a site's results (100,000 at 100,000 stories) were copied three
        // times over at the end of rendering.
        let results = Results<R>(count: items.count)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    while let index = queue.next() {
                        results.put(await transform(items[index]), at: index)
                        queue.done(index)
                    }
                }
            }
        }
        return results.array()
    }

    /// `transform` applied to every item, at most `maxConcurrent` at a time and at most
    /// `maxPerKey` at a time of the items that share a key (items with a `nil` key have no such
    /// limit); results in the items' order.
    ///
    /// Items start in order, except that one whose key is at its limit is passed over for the
    /// next one that may start: the fetch stage keys sources by host, so a slow host holds
    /// `maxPerKey` slots and the others go on around it.
    package static func map<T: Sendable, R: Sendable>(
        _ items: [T], maxConcurrent: Int, maxPerKey: Int, key: (T) -> String?,
        _ transform: @escaping @Sendable (T) async -> R
    ) async -> [R] {
        let keys = items.map(key)
        let limit = max(1, maxConcurrent)
        let perKey = max(1, maxPerKey)
        var waiting = Array(items.indices)
        var running: [String: Int] = [:]
        var results: [R?] = Array(repeating: nil, count: items.count)
        await withTaskGroup(of: (Int, R).self) { group in
            var active = 0
            while true {
                var position = 0
                while active < limit, position < waiting.count {
                    let index = waiting[position]
                    if let key = keys[index] {
                        guard running[key, default: 0] < perKey else {
                            position += 1
                            continue
                        }
                        running[key, default: 0] += 1
                    }
                    waiting.remove(at: position)
                    active += 1
                    let item = items[index]
                    group.addTask { (index, await transform(item)) }
                }
                guard let (index, result) = await group.next() else { break }
                active -= 1
                if let key = keys[index] { running[key, default: 1] -= 1 }
                results[index] = result
            }
        }
        return results.compactMap { $0 }
    }
}

extension Parallel {
    /// `first` and `second` at once, `second` on another core when one is free: for two parts
    /// of a few milliseconds each that a build would otherwise do one after the other on one
    /// core (recording what was published, writing its record).
    package static func both<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
        let a = Place<A>(), b = Place<B>()
        defer {
            a.pointer.deallocate()
            b.pointer.deallocate()
        }
        // concurrentPerform returns once both have run (the calling thread runs one of them),
        // each into its own place.
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { a.pointer.initialize(to: first()) } else { b.pointer.initialize(to: second()) }
                }
            }
        }
        return (a.pointer.move(), b.pointer.move())
    }

    /// `body` applied to parts of `items` on every core at once, the results joined in order:
    /// for one pass over ten thousand items that costs a few milliseconds on one core.
    ///
    /// Eight parts, each taken by whichever core is free (`concurrentPerform`): in two halves,
    /// one on each core, the half whose core a background task of the build shared (comparing
    /// the output with its record, examining the previous site) finished last, while the other
    /// core waited.
    package static func inParts<T: Sendable, R: Sendable>(_ items: [T], _ body: @Sendable (ArraySlice<T>) -> [R]) -> [R] {
        let ranges = Self.ranges(of: items.count, parts: min(partsPerPass, max(1, items.count)))
        let places = ranges.map { _ in Place<[R]>() }
        defer { places.forEach { $0.pointer.deallocate() } }
        withoutActuallyEscaping(body) { body in
            DispatchQueue.concurrentPerform(iterations: ranges.count) { part in
                places[part].pointer.initialize(to: body(items[ranges[part]]))
            }
        }
        var joined: [R] = []
        joined.reserveCapacity(places.reduce(0) { $0 + $1.pointer.pointee.count })
        for place in places { joined += place.pointer.move() }
        return joined
    }

    /// How many parts `inParts` makes.
    private static let partsPerPass = 8

    /// The places `0..<count` cut into `parts` ranges (at least one) of nearly equal size, in
    /// order: none is more than one place longer than another. Fewer places than parts leave
    /// some ranges empty.
    package static func ranges(of count: Int, parts: Int) -> [Range<Int>] {
        let parts = max(1, parts)
        return (0..<parts).map { part in count * part / parts..<count * (part + 1) / parts }
    }

    /// Memory for one result, written by one thread and read after it is done.
    private struct Place<T>: @unchecked Sendable {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    }
}

/// A place for each of `count` results, each written once, by the worker that drew its index
/// (`WorkQueue` gives each index to one worker), and read after every worker is done.
private final class Results<R>: @unchecked Sendable {
    private let places: UnsafeMutablePointer<R>
    private let count: Int

    init(count: Int) {
        self.count = count
        places = UnsafeMutablePointer<R>.allocate(capacity: max(count, 1))
    }

    func put(_ result: R, at index: Int) {
        (places + index).initialize(to: result)
    }

    /// The results in order, moved out of their places (every place must have been written).
    func array() -> [R] {
        Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress { base.moveInitialize(from: places, count: count) }
            initialized = count
        }
    }

    deinit {
        places.deallocate()
    }
}

/// Hands out the indices of the items, each once, in order, to whichever worker asks next; but
/// no large index while another is being worked on (`done` not yet called for it): a large
/// index passed over waits, and is handed out first once none is.
private final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let large: [Bool]
    private var nextIndex = 0
    private var waitingLarge: [Int] = []
    private var largeRunning = false

    init(large: [Bool]) {
        self.large = large
    }

    func next() -> Int? {
        lock.withLock {
            if !largeRunning, !waitingLarge.isEmpty {
                largeRunning = true
                return waitingLarge.removeFirst()
            }
            while nextIndex < large.count {
                let index = nextIndex
                nextIndex += 1
                guard large[index] else { return index }
                guard !largeRunning else {
                    waitingLarge.append(index)
                    continue
                }
                largeRunning = true
                return index
            }
            // Nothing left but large indices waiting for the one being worked on: the worker
            // on it takes them when it is done, one after the other.
            return nil
        }
    }

    /// Called by a worker once it is done with `index`.
    func done(_ index: Int) {
        guard large[index] else { return }
        lock.withLock { largeRunning = false }
    }
}

/// A value made on a thread of its own, started at once; `value` waits for it. For work that
/// runs beside the stages of a build and is needed only at some later point (a thread of its
/// own, not a task: whoever waits for it may be holding one of the cores' threads).
package final class Background<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Value?

    package init(_ make: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in
            let made = make()
            condition.withLock {
                result = made
                condition.broadcast()
            }
        }
    }

    /// The value, once made.
    package var value: Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result { return result }
            condition.wait()
        }
    }
}
