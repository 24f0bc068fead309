import Foundation

/// A file's bytes mapped into memory read-only (mmap(2)), as `Data` that keeps the mapping
/// while any copy of it lives; a file smaller than a page, or one that cannot be mapped, is read
/// into memory instead.
///
/// The manifests are read this way (`Manifest.load`, `Manifest.listing(from:)`): the lines of
/// the records kept as they were are copied from these bytes into the next manifest at the
/// build's end, and a page mapped from the page cache is neither allocated nor copied. Once a
/// manifest is read, the pages that reading touched are handed back (`releasePages`): they
/// counted in the process's memory through the whole build for nothing, two manifests of 28 MB
/// each at 100,000 stories, and a cron run of that site peaked at 445–449 MiB with them, 393–395
/// without (BENCHMARKS.md, "Step 147").
struct MappedFile: Sendable {
    /// The file's bytes.
    let bytes: Data
    /// The mapping `bytes` reads, when they are mapped.
    private let mapping: Mapping?

    /// The bytes of the regular file at `file`; `nil` when it cannot be opened or read.
    init?(_ file: URL) {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        if let mapping = Mapping(descriptor, size: Int(status.st_size)) {
            // The closure holds the mapping for as long as `Data` holds the bytes.
            bytes = Data(bytesNoCopy: mapping.base, count: mapping.size, deallocator: .custom { _, _ in withExtendedLifetime(mapping) {} })
            self.mapping = mapping
        } else {
            do {
                bytes = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readToEnd() ?? Data()
            } catch {
                return nil
            }
            mapping = nil
        }
    }

    /// Lets the system take back the pages of the file read so far (madvise(2), MADV_DONTNEED):
    /// the bytes stay readable, and a page read again comes back from the file, still in the
    /// page cache. (Only newsgen writes a manifest, and always whole, renamed onto the old one:
    /// the file mapped keeps its bytes.) Bytes read into memory are left as they are.
    func releasePages() {
        guard let mapping else { return }
        _ = madvise(mapping.base, mapping.size, MADV_DONTNEED)
    }

    /// A file's pages mapped read-only, unmapped when the last reference goes.
    private final class Mapping: @unchecked Sendable {
        let base: UnsafeMutableRawPointer
        let size: Int

        /// The file open at `descriptor`, of `size` bytes, mapped; `nil` when it is smaller
        /// than a page (not worth a mapping) or cannot be mapped.
        init?(_ descriptor: Int32, size: Int) {
            guard size >= Int(sysconf(Int32(_SC_PAGESIZE))),
                  let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED
            else { return nil }
            self.base = base
            self.size = size
        }

        deinit { munmap(base, size) }
    }
}
