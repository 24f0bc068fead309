package import Foundation
import NewsgenModel
package import NewsgenRender

/// What the last build published, kept beside the cache: each file's input fingerprint and on-disk identity (inode, size,
/// mtime), and each folder's identity (inode, mtime).
///
/// A file is carried over only when its fingerprint is unchanged **and** the output still holds the very file published.
/// So a stale manifest (a crash before saving it, a hand edit, another tool) can only make newsgen render more, never
/// publish a page rendering would not give. A folder's mtime moves whenever a name in it changes, so a folder with its
/// published time still holds exactly what it held.
///
/// Text, one record a line, in path order (times in nanoseconds since 1970; in paths `\` is `\\`, a line break `\n`):
///
///     newsgen manifest 3
///     output /srv/site/public
///     input 5d41…                      (or "-": unknown)
///     folder <inode> <mtime> articles/a-story
///     file <fingerprint> <inode> <size> <mtime> articles/a-story/index.html
///     story <number> <key>             (each story's number in the search index, `SearchNumbering`; key in hex)
package struct Manifest: Sendable, Equatable {
    /// The format of this file; another number is read as no manifest.
    package static let formatVersion = 4

    package struct Entry: Sendable, Equatable {
        package var fingerprint: Fingerprint
        package var inode: UInt64
        package var size: Int64
        package var modified: Int64

        var onDisk: OnDisk { OnDisk(inode: inode, size: size, modified: modified) }
    }

    package struct Folder: Sendable, Equatable {
        package var inode: UInt64
        package var modified: Int64
    }

    package var output: String
    package var files: [String: Entry]
    /// Every folder of the published site, "" for the output itself; `nil` (unrecorded) makes the output count as changed.
    package var folders: [String: Folder]?
    /// The fingerprint of the build's whole input (`InputFingerprint`); `nil` when unknown, which renders.
    package var input: Fingerprint?
    /// The numbers the published search index gives its stories.
    package var searchNumbering = SearchNumbering.none

    package init(output: URL, files: [String: Entry], folders: [String: Folder]? = nil, input: Fingerprint? = nil) {
        self.output = output.standardizedFileURL.path
        self.files = files
        self.folders = folders
        self.input = input
    }

    package static func location(cache: URL) -> URL {
        cache.deletingPathExtension().appendingPathExtension("manifest")
    }

    /// Where the record of the previous site (the one the last publish replaced, kept for the next build to stage in)
    /// lives, given the manifest's location.
    package static func previousSiteLocation(manifest: URL) -> URL {
        manifest.deletingPathExtension().appendingPathExtension("previous.manifest")
    }

    /// The manifest at `file`, or `nil` when missing or unusable (another format, unreadable, another output folder).
    package static func load(from file: URL, output: URL) -> Manifest? {
        guard let data = try? Data(contentsOf: file), let manifest = Manifest(text: data),
              manifest.output == output.standardizedFileURL.path
        else { return nil }
        return manifest
    }

    /// Writes the manifest atomically (a temporary file renamed into place) and removes any older JSON manifest.
    package func save(to file: URL) throws {
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        do {
            try Data(text.utf8).write(to: temporary)
            guard rename(temporary.path, file.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            unlink(temporary.path)
            throw error
        }
        try? FileManager.default.removeItem(at: file.appendingPathExtension("json"))
    }

    package struct Comparison: Sendable {
        package var manifest: Manifest
        /// The fingerprints of the recorded files that are still, on disk, the very files recorded.
        package var carry: CarryIndex
        /// Whether every recorded file is still the one recorded and the output still carries newsgen's marker.
        package var filesAreIntact: Bool
        /// Whether every recorded folder is still the one recorded; `nil` when not examined (`examiningFolders(of:)`).
        package var foldersAreIntact: Bool?

        /// Whether the output is exactly what was published; false while the folders are not examined.
        package var isIntact: Bool { filesAreIntact && foldersAreIntact == true }

        package func examiningFolders(of publisher: Publisher) -> Comparison {
            guard foldersAreIntact == nil else { return self }
            var examined = self
            examined.foldersAreIntact = filesAreIntact && OpenFolder(publisher.output).map(manifest.foldersAreIntact(below:)) == true
            return examined
        }
    }

    /// Compares what was published with the output, stat-ing each recorded file (and, with `folders`, each folder) once
    /// below the open output. Only a build that may publish nothing needs the folders.
    package func compared(with publisher: Publisher, examiningFolders folders: Bool = true) -> Comparison {
        guard let output = OpenFolder(publisher.output) else {
            return Comparison(manifest: self, carry: CarryIndex(fingerprints: [:]), filesAreIntact: false, foldersAreIntact: false)
        }
        var intact: [String: Fingerprint] = [:]
        intact.reserveCapacity(files.count)
        for (path, entry) in files where Self.stat(path, in: output.descriptor) == entry.onDisk {
            intact[path] = entry.fingerprint
        }
        let filesAreIntact = intact.count == files.count && publisher.holdsMarker()
        return Comparison(manifest: self, carry: CarryIndex(fingerprints: intact), filesAreIntact: filesAreIntact,
                          foldersAreIntact: folders ? filesAreIntact && foldersAreIntact(below: output) : nil)
    }

    /// What a folder holds, known from its record: its files (each with its inode) and its folders.
    package struct Listing: Sendable {
        package var files: [String: UInt64]
        package var folders: [String: Folder]
    }

    /// What the site in `folder` (held open, whatever it is renamed to) holds, from the record at `file` of the site
    /// published as `output`, when every recorded folder is still the one recorded; `nil` otherwise or when unreadable.
    package static func listing(from file: URL, output: URL, of folder: OpenFolder) -> Listing? {
        guard let record = load(from: file, output: output), let folders = record.folders,
              foldersAreIntact(folders, below: folder)
        else { return nil }
        return Listing(files: record.files.mapValues(\.inode), folders: folders)
    }

    /// Whether each recorded folder still has its recorded identity: then no name in it changed since.
    fileprivate func foldersAreIntact(below root: OpenFolder) -> Bool {
        folders.map { Self.foldersAreIntact($0, below: root) } ?? false
    }

    private static func foldersAreIntact(_ folders: [String: Folder], below root: OpenFolder) -> Bool {
        guard folders[""] != nil else { return false }
        return folders.allSatisfy { path, folder in
            folderStat(path.isEmpty ? "." : path, in: root.descriptor) == folder
        }
    }

    /// The manifest of the site now in `output`. A file that cannot be examined is left out (the next build renders it);
    /// a folder that cannot be leaves the folders unrecorded (the next build publishes).
    ///
    /// With `previous`, every path not in `rendered` was carried over as recorded, so its record is taken from there.
    /// `examining` (default `output`) may be the staging folder opened before its rename; `known` folders are not examined.
    package static func recording(_ fingerprints: [String: Fingerprint], output: URL, examining folder: OpenFolder? = nil,
                                  input: Fingerprint? = nil, previous: [String: Entry]? = nil, rendered: Set<String> = [],
                                  folders known: KnownFolders? = nil) -> Manifest {
        guard let opened = folder ?? OpenFolder(output) else {
            return Manifest(output: output, files: [:], folders: nil, input: input)
        }
        let root = opened.descriptor
        var files: [String: Entry] = [:]
        files.reserveCapacity(fingerprints.count)
        var complete = true
        for (path, fingerprint) in fingerprints {
            if !rendered.contains(path), let carried = previous?[path], carried.fingerprint == fingerprint {
                files[path] = carried
            } else if let disk = stat(path, in: root) {
                files[path] = Entry(fingerprint: fingerprint, inode: disk.inode, size: disk.size, modified: disk.modified)
            } else {
                complete = false
            }
        }
        var folders: [String: Folder]? = [:]
        for path in SitePathFolders.folders(holding: fingerprints.keys, includingRoot: true) {
            guard let folder = known?.folder(path) ?? folderStat(path.isEmpty ? "." : path, in: root) else {
                folders = nil
                break
            }
            folders?[path] = folder
        }
        // Without folders, the record is never taken for the whole site: an unexamined file would be a name it lacks.
        return withExtendedLifetime(opened) { Manifest(output: output, files: files, folders: complete ? folders : nil, input: input) }
    }

    /// The folders as recorded, when nothing changed them but the names `changed`: the folders holding a changed name,
    /// every folder above them, and folders the record lacks are not known.
    package struct KnownFolders: Sendable {
        private let recorded: [String: Folder]
        private let changed: Set<String>

        package init(recorded: [String: Folder], changed: [String]) {
            self.recorded = recorded
            self.changed = SitePathFolders.folders(holding: changed, includingRoot: true)
        }

        func folder(_ path: String) -> Folder? {
            changed.contains(path) ? nil : recorded[path]
        }
    }

    struct OnDisk: Equatable {
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    static func stat(_ file: URL) -> OnDisk? {
        stat(file.path)
    }

    static func stat(_ path: String) -> OnDisk? {
        stat(path, in: AT_FDCWD)
    }

    /// The identity of the regular file at `path` (not a link) below the open `folder`.
    static func stat(_ path: String, in folder: Int32) -> OnDisk? {
        var status = Foundation.stat()
        guard statAt(folder, path, &status), (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return OnDisk(inode: UInt64(status.st_ino), size: Int64(status.st_size), modified: status.st_mtim.nanoseconds)
    }

    static func folderStat(_ path: String) -> Folder? {
        folderStat(path, in: AT_FDCWD)
    }

    /// The identity of the folder at `path` (not a link) below the open `folder`.
    static func folderStat(_ path: String, in folder: Int32) -> Folder? {
        var status = Foundation.stat()
        guard statAt(folder, path, &status), (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return Folder(inode: UInt64(status.st_ino), modified: status.st_mtim.nanoseconds)
    }

    private static func statAt(_ folder: Int32, _ path: String, _ status: inout Foundation.stat) -> Bool {
        path.withCString { fstatat(folder, $0, &status, AT_SYMLINK_NOFOLLOW) } == 0
    }
}

// MARK: - The text of the file

extension Manifest {
    private static let header = "newsgen manifest \(formatVersion)"

    /// The file's text, records in path order so the same site gives the same file.
    var text: String {
        var text = "\(Self.header)\noutput \(Self.escape(output))\ninput \(input?.hex ?? "-")\n"
        for (path, folder) in (folders ?? [:]).sorted(by: { $0.key < $1.key }) {
            text += "folder \(folder.inode) \(folder.modified) \(Self.escape(path))\n"
        }
        for (path, entry) in files.sorted(by: { $0.key < $1.key }) {
            text += "file \(entry.fingerprint.hex) \(entry.inode) \(entry.size) \(entry.modified) \(Self.escape(path))\n"
        }
        for (key, number) in searchNumbering.numbers.sorted(by: { $0.value < $1.value }) {
            text += "story \(number) \(String(key, radix: 16))\n"
        }
        return text
    }

    /// The manifest in `data`; `nil` for another format or any line that does not read.
    init?(text data: Data) {
        // As an array: slicing `Data` byte by byte is several times slower.
        let bytes = [UInt8](data)
        guard bytes.last == UInt8(ascii: "\n") else { return nil }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()[...]
        func field(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        guard let header = lines.popFirst(), field(header) == Self.header,
              let outputLine = lines.popFirst(), outputLine.starts(with: "output ".utf8),
              let output = Self.unescape(Substring(field(outputLine.dropFirst("output ".count)))),
              let inputLine = lines.popFirst(), inputLine.starts(with: "input ".utf8)
        else { return nil }
        let inputHex = field(inputLine.dropFirst("input ".count))
        let input = inputHex == "-" ? nil : Fingerprint(hex: inputHex)
        guard inputHex == "-" || input != nil else { return nil }
        var files: [String: Entry] = [:]
        var folders: [String: Folder] = [:]
        var stories: [UInt64: Int] = [:]
        files.reserveCapacity(lines.count)
        for line in lines {
            let parts = line.split(separator: UInt8(ascii: " "), maxSplits: line.starts(with: "file ".utf8) ? 5 : 3,
                                   omittingEmptySubsequences: false).map(field)
            switch parts.first {
            case "file":
                guard parts.count == 6, let fingerprint = Fingerprint(hex: parts[1]), let inode = UInt64(parts[2]),
                      let size = Int64(parts[3]), let modified = Int64(parts[4]), let path = Self.unescape(Substring(parts[5])),
                      !path.isEmpty
                else { return nil }
                files[path] = Entry(fingerprint: fingerprint, inode: inode, size: size, modified: modified)
            case "folder":
                guard parts.count == 4, let inode = UInt64(parts[1]), let modified = Int64(parts[2]),
                      let path = Self.unescape(Substring(parts[3]))
                else { return nil }
                folders[path] = Folder(inode: inode, modified: modified)
            case "story":
                guard parts.count == 3, let number = Int(parts[1]), number >= 0, let key = UInt64(parts[2], radix: 16) else { return nil }
                stories[key] = number
            default:
                return nil
            }
        }
        self.output = output
        self.files = files
        self.folders = folders.isEmpty ? nil : folders
        self.input = input
        searchNumbering = SearchNumbering(numbers: stories)
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

/// A folder held open, so that what is below it can be read whatever it is renamed meanwhile.
package final class OpenFolder: Sendable {
    let descriptor: Int32

    package init?(_ folder: URL) {
        descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor < 0 { return nil }
    }

    /// Whether `path` names this very folder (the same device and inode), as it may after a rename.
    package func isFolder(at path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(descriptor, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    deinit {
        close(descriptor)
    }
}
