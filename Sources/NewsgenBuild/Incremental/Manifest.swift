package import Foundation
package import NewsgenRender

/// What the last build published, kept beside the cache: for each file of the site, the
/// fingerprint of what it was made from and what the file on disk was then (inode, size,
/// modification time), and for each folder what it was (inode, modification time).
///
/// The next build carries a file over only when its fingerprint is unchanged **and** the file
/// in the output folder is still the very file that was published (same inode, size and
/// time). So a manifest that is out of date (a crash between the swap and saving it, a file
/// edited by hand, another tool writing into the folder) can only make newsgen render more,
/// never publish a page that is not what rendering would give.
///
/// The folders' times tell whether anything was added to the output: a folder's modification
/// time moves whenever a name in it is created, removed or renamed, so a folder with the time
/// it was published with still holds exactly what it held (reading every folder of a site of
/// 10,000 stories, as the check did before, took a nothing-new build about 0.1 s).
///
/// The file is text, one record a line, since a cron run reads and writes it every 15 minutes
/// (as JSON through Codable it cost a new-story build about 0.2 s):
///
///     newsgen manifest 3
///     output /srv/site/public
///     input 5d41…                      (or "-": unknown)
///     folder <inode> <mtime> articles/a-story
///     file <fingerprint> <inode> <size> <mtime> articles/a-story/index.html
///
/// Times are nanoseconds since 1970. A path is the rest of its line, with `\` written `\\` and
/// a line break `\n`.
package struct Manifest: Sendable, Equatable {
    /// The format of this file; another number is read as no manifest (format 1 had no `input`,
    /// format 2 was JSON without folders).
    package static let formatVersion = 3

    package struct Entry: Sendable, Equatable {
        package var fingerprint: Fingerprint
        package var inode: UInt64
        package var size: Int64
        /// Modification time, in nanoseconds since 1970.
        package var modified: Int64
    }

    /// A folder of the site as it was published.
    package struct Folder: Sendable, Equatable {
        package var inode: UInt64
        /// Modification time, in nanoseconds since 1970.
        package var modified: Int64
    }

    /// The folder the files were published to.
    package var output: String
    package var files: [String: Entry]
    /// Every folder of the published site, "" for the output folder itself; `nil` when not
    /// recorded, which makes the output count as changed.
    package var folders: [String: Folder]?
    /// The fingerprint of the whole input of the build that published these files
    /// (`InputFingerprint`); `nil` when unknown, which renders.
    package var input: Fingerprint?

    package init(output: URL, files: [String: Entry], folders: [String: Folder]? = nil, input: Fingerprint? = nil) {
        self.init(output: output.standardizedFileURL.path, files: files, folders: folders, input: input)
    }

    private init(output: String, files: [String: Entry], folders: [String: Folder]?, input: Fingerprint?) {
        self.output = output
        self.files = files
        self.folders = folders
        self.input = input
    }

    /// Where the manifest of a site whose cache is `cache` lives: beside it.
    package static func location(cache: URL) -> URL {
        cache.deletingPathExtension().appendingPathExtension("manifest")
    }

    /// The manifest at `file`, or `nil` when there is none or it cannot be used (another
    /// format, unreadable, another output folder): the build then renders everything.
    package static func load(from file: URL, output: URL) -> Manifest? {
        guard let data = FileManager.default.contents(atPath: file.path),
              let manifest = Manifest(text: data),
              manifest.output == output.standardizedFileURL.path
        else { return nil }
        return manifest
    }

    /// Writes the manifest atomically (a temporary file renamed into place), and removes the
    /// JSON manifest an earlier newsgen kept beside it (`<cache>.manifest.json`).
    package func save(to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file, options: .atomic)
        try? FileManager.default.removeItem(at: file.appendingPathExtension("json"))
    }

    /// The published site as this manifest recorded it, compared with what the output holds now.
    package struct Comparison: Sendable {
        package var manifest: Manifest
        /// The fingerprints of the recorded files that are still, on disk, the very files recorded.
        package var carry: CarryIndex
        /// Whether every recorded file and folder is still the one recorded (so the output holds
        /// nothing else) and the output still is newsgen's site: the output is, file for file,
        /// what was published.
        package var isIntact: Bool
    }

    /// Compares what was published with the output folder, stat-ing each recorded file and folder once.
    package func compared(with publisher: Publisher) -> Comparison {
        var fingerprints: [String: Fingerprint] = [:]
        fingerprints.reserveCapacity(files.count)
        // Paths as strings: URL.appendingPathComponent asks the file system whether each is a folder.
        let root = publisher.output.path
        for (path, entry) in files where Self.stat(root + "/" + path) == entry.onDisk {
            fingerprints[path] = entry.fingerprint
        }
        let intact = fingerprints.count == files.count && foldersAreIntact(below: root) && publisher.holdsMarker()
        return Comparison(manifest: self, carry: CarryIndex(fingerprints: fingerprints), isIntact: intact)
    }

    /// Whether each recorded folder is still the folder recorded, with the time it was
    /// published with: then no name in it was added, removed or renamed since.
    private func foldersAreIntact(below root: String) -> Bool {
        guard let folders, folders[""] != nil else { return false }
        return folders.allSatisfy { path, folder in
            Self.folderStat(path.isEmpty ? root : root + "/" + path) == folder
        }
    }

    /// The manifest of the site now in `output`: each path's fingerprint with its file's
    /// identity, and the identity of every folder. A path whose file cannot be examined is left
    /// out (the next build renders it); a folder that cannot be, leaves the folders unrecorded
    /// (the next build publishes).
    package static func recording(_ fingerprints: [String: Fingerprint], output: URL, input: Fingerprint? = nil) -> Manifest {
        var files: [String: Entry] = [:]
        files.reserveCapacity(fingerprints.count)
        var folderPaths: Set<String> = [""]
        let root = output.path
        for (path, fingerprint) in fingerprints {
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                guard folderPaths.insert(String(folder)).inserted else { break }
            }
            guard let disk = stat(root + "/" + path) else { continue }
            files[path] = Entry(fingerprint: fingerprint, inode: disk.inode, size: disk.size, modified: disk.modified)
        }
        var folders: [String: Folder]? = [:]
        for path in folderPaths {
            guard let folder = folderStat(path.isEmpty ? root : root + "/" + path) else {
                folders = nil
                break
            }
            folders?[path] = folder
        }
        return Manifest(output: output, files: files, folders: folders, input: input)
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
        return OnDisk(inode: UInt64(status.st_ino), size: Int64(status.st_size), modified: Self.nanoseconds(status.st_mtim))
    }

    /// A folder's identity on disk (not a link to one).
    static func folderStat(_ path: String) -> Folder? {
        var status = Foundation.stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return Folder(inode: UInt64(status.st_ino), modified: Self.nanoseconds(status.st_mtim))
    }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

extension Manifest.Entry {
    var onDisk: Manifest.OnDisk { Manifest.OnDisk(inode: inode, size: size, modified: modified) }
}

// MARK: - The text of the file

extension Manifest {
    private static let header = "newsgen manifest \(formatVersion)"

    /// The file's text; records in the order of their paths, so the same site gives the same file.
    var text: String {
        var text = Self.header + "\n"
        text += "output " + Self.escape(output) + "\n"
        text += "input " + (input?.hex ?? "-") + "\n"
        for (path, folder) in (folders ?? [:]).sorted(by: { $0.key < $1.key }) {
            text += "folder \(folder.inode) \(folder.modified) " + Self.escape(path) + "\n"
        }
        for (path, entry) in files.sorted(by: { $0.key < $1.key }) {
            text += "file \(entry.fingerprint.hex) \(entry.inode) \(entry.size) \(entry.modified) " + Self.escape(path) + "\n"
        }
        return text
    }

    /// The manifest in `data`; `nil` for another format or any line that does not read.
    init?(text data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.popFirst() == Substring(Self.header),
              let outputLine = lines.popFirst(), outputLine.hasPrefix("output "),
              let inputLine = lines.popFirst(), inputLine.hasPrefix("input "),
              lines.popLast() == ""
        else { return nil }
        let inputHex = inputLine.dropFirst("input ".count)
        var input: Fingerprint?
        if inputHex != "-" {
            guard Self.isDigest(inputHex) else { return nil }
            input = Fingerprint(hex: String(inputHex))
        }
        var files: [String: Entry] = [:]
        files.reserveCapacity(lines.count)
        var folders: [String: Folder] = [:]
        for line in lines {
            if line.hasPrefix("file ") {
                let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
                guard fields.count == 6, Self.isDigest(fields[1]), let inode = UInt64(fields[2]), let size = Int64(fields[3]),
                      let modified = Int64(fields[4]), let path = Self.unescape(fields[5]), !path.isEmpty
                else { return nil }
                files[path] = Entry(fingerprint: Fingerprint(hex: String(fields[1])), inode: inode, size: size, modified: modified)
            } else if line.hasPrefix("folder ") {
                let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard fields.count == 4, let inode = UInt64(fields[1]), let modified = Int64(fields[2]),
                      let path = Self.unescape(fields[3])
                else { return nil }
                folders[path] = Folder(inode: inode, modified: modified)
            } else {
                return nil
            }
        }
        guard let output = Self.unescape(outputLine.dropFirst("output ".count)) else { return nil }
        self.init(output: output, files: files, folders: folders.isEmpty ? nil : folders, input: input)
    }

    private static func isDigest(_ text: Substring) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// A path on one line: `\` as `\\`, a line break as `\n`.
    static func escape(_ path: String) -> String {
        guard path.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\n") }) else { return path }
        return path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// The path `escape` wrote; `nil` for a `\` followed by anything but `\` or `n`.
    static func unescape(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return String(text) }
        var path = ""
        var escaped = false
        for character in text {
            if escaped {
                switch character {
                case "\\": path.append("\\")
                case "n": path.append("\n")
                default: return nil
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                path.append(character)
            }
        }
        return escaped ? nil : path
    }
}
