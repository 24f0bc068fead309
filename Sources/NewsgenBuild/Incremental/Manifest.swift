package import Foundation
package import NewsgenRender

/// What the last build published, kept beside the cache: for each file of the site, the
/// fingerprint of what it was made from and what the file on disk was then (inode, size,
/// modification time).
///
/// The next build carries a file over only when its fingerprint is unchanged **and** the file
/// in the output folder is still the very file that was published (same inode, size and
/// time). So a manifest that is out of date (a crash between the swap and saving it, a file
/// edited by hand, another tool writing into the folder) can only make newsgen render more,
/// never publish a page that is not what rendering would give.
package struct Manifest: Codable, Sendable, Equatable {
    /// The format of this file; another number is read as no manifest (format 1 had no `input`).
    package static let formatVersion = 2

    package struct Entry: Codable, Sendable, Equatable {
        package var fingerprint: Fingerprint
        package var inode: UInt64
        package var size: Int64
        /// Modification time, in nanoseconds since 1970.
        package var modified: Int64
    }

    package var format = Manifest.formatVersion
    /// The folder the files were published to.
    package var output: String
    package var files: [String: Entry]
    /// The fingerprint of the whole input of the build that published these files
    /// (`InputFingerprint`); `nil` when unknown, which renders.
    package var input: Fingerprint?

    package init(output: URL, files: [String: Entry], input: Fingerprint? = nil) {
        self.output = output.standardizedFileURL.path
        self.files = files
        self.input = input
    }

    /// Where the manifest of a site whose cache is `cache` lives: beside it.
    package static func location(cache: URL) -> URL {
        cache.deletingPathExtension().appendingPathExtension("manifest.json")
    }

    /// The manifest at `file`, or `nil` when there is none or it cannot be used (another
    /// format, unreadable, another output folder): the build then renders everything.
    package static func load(from file: URL, output: URL) -> Manifest? {
        guard let data = FileManager.default.contents(atPath: file.path),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data),
              manifest.format == formatVersion,
              manifest.output == output.standardizedFileURL.path
        else { return nil }
        return manifest
    }

    /// Writes the manifest atomically (a temporary file renamed into place).
    package func save(to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(self).write(to: file, options: .atomic)
    }

    /// The published site as this manifest recorded it, compared with what the output holds now.
    package struct Comparison: Sendable {
        package var manifest: Manifest
        /// The fingerprints of the recorded files that are still, on disk, the very files recorded.
        package var carry: CarryIndex
        /// Whether every recorded file is still the file recorded and the output holds nothing
        /// else (`Publisher.holdsExactly`): the output is, file for file, what was published.
        package var isIntact: Bool
    }

    /// Compares what was published with the output folder, stat-ing each recorded file once.
    package func compared(with publisher: Publisher) -> Comparison {
        var fingerprints: [String: Fingerprint] = [:]
        fingerprints.reserveCapacity(files.count)
        // Paths as strings: URL.appendingPathComponent asks the file system whether each is a folder.
        let root = publisher.output.path
        for (path, entry) in files where Self.stat(root + "/" + path) == entry.onDisk {
            fingerprints[path] = entry.fingerprint
        }
        let intact = fingerprints.count == files.count && publisher.holdsExactly(Set(files.keys))
        return Comparison(manifest: self, carry: CarryIndex(fingerprints: fingerprints), isIntact: intact)
    }

    /// The manifest of the site now in `output`: each path's fingerprint with its file's identity.
    /// A path whose file cannot be examined is left out (the next build renders it).
    package static func recording(_ fingerprints: [String: Fingerprint], output: URL, input: Fingerprint? = nil) -> Manifest {
        var files: [String: Entry] = [:]
        for (path, fingerprint) in fingerprints {
            guard let disk = stat(output.path + "/" + path) else { continue }
            files[path] = Entry(fingerprint: fingerprint, inode: disk.inode, size: disk.size, modified: disk.modified)
        }
        return Manifest(output: output, files: files, input: input)
    }

    /// A regular file's identity on disk.
    struct OnDisk: Equatable {
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    static func stat(_ file: URL) -> OnDisk? {
        stat(file.path)
    }

    static func stat(_ path: String) -> OnDisk? {
        var status = Foundation.stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        return OnDisk(inode: UInt64(status.st_ino), size: Int64(status.st_size), modified: modified)
    }
}

extension Manifest.Entry {
    var onDisk: Manifest.OnDisk { Manifest.OnDisk(inode: inode, size: size, modified: modified) }
}
