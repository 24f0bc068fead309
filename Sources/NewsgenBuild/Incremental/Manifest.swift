package import Foundation
package import NewsgenModel
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
    /// The lines of the files' or the folders' records as the file had them, when they were kept
    /// (`load(from:output:keepingLinesOf:)`): the next manifest copies those of unchanged
    /// records (`splicedText`). Not part of what the manifest says.
    package var fileLines: RecordLines?
    package var folderLines: RecordLines?

    /// The kinds of record a manifest holds.
    package enum RecordKind: Sendable {
        case files, folders
    }

    package init(output: URL, files: [String: Entry], folders: [String: Folder]? = nil, input: Fingerprint? = nil) {
        self.init(output: output.standardizedFileURL.path, files: files, folders: folders, input: input)
    }

    private init(output: String, files: [String: Entry], folders: [String: Folder]?, input: Fingerprint?) {
        self.output = output
        self.files = files
        self.folders = folders
        self.input = input
    }

    /// Two manifests are equal when they record the same: the lines they were read from aside.
    package static func == (left: Manifest, right: Manifest) -> Bool {
        left.output == right.output && left.files == right.files && left.folders == right.folders && left.input == right.input
    }

    /// Where the manifest of a site whose cache is `cache` lives: beside it.
    package static func location(cache: URL) -> URL {
        cache.deletingPathExtension().appendingPathExtension("manifest")
    }

    /// Where the record of the previous site (the one the last publish replaced, kept beside
    /// the output for the next build to stage in) lives, given the manifest's location: the
    /// manifest that site was published with.
    package static func previousSiteLocation(manifest: URL) -> URL {
        manifest.deletingPathExtension().appendingPathExtension("previous.manifest")
    }

    /// The manifest at `file`, or `nil` when there is none or it cannot be used (another
    /// format, unreadable, another output folder): the build then renders everything. With
    /// `kind`, the lines of that kind of record are kept as the file has them (`fileLines`,
    /// `folderLines`).
    ///
    /// The file is mapped into memory, not read into it: the lines kept are written into the
    /// next manifest from there (`Text`), and a page mapped from the page cache is neither
    /// allocated nor copied (reading the last manifest and the previous site's record, 3 MB
    /// each at ten thousand stories, touched 1,500 pages of new memory in a new-story build).
    /// newsgen replaces a manifest by renaming another onto it, never by writing into it, so
    /// the bytes mapped stay as they were read. Once read, the file's pages are handed back
    /// (`MappedFile.releasePages`): the lines kept are read again, from the page cache, only
    /// when the next manifest is written.
    package static func load(from file: URL, output: URL, keepingLinesOf kind: RecordKind? = nil) -> Manifest? {
        guard let mapped = MappedFile(file) else { return nil }
        defer { mapped.releasePages() }
        guard let manifest = Manifest(text: mapped.bytes, keepingLinesOf: kind), manifest.output == output.standardizedFileURL.path
        else { return nil }
        return manifest
    }

    /// Writes the manifest atomically (a temporary file renamed into place), and removes the
    /// JSON manifest an earlier newsgen kept beside it (`<cache>.manifest.json`).
    package func save(to file: URL) throws {
        try Self.save(textParts, to: file)
    }

    /// Saves a manifest's text (`textParts`, made beforehand) as `save(to:)` does: the parts
    /// are written one after the other, never joined (at 100,000 files, joined and copied into
    /// `Data`, they were three copies of 23 MB at the end of a build).
    package static func save(_ text: Text, to file: URL) throws {
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure = text.write(to: descriptor)
        // On its way to the disk at once, not in the flush before the next build's swap.
        if failure == 0 { Publisher.startWriteback(descriptor) }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary.path, file.path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary.path)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
        try? FileManager.default.removeItem(at: file.appendingPathExtension("json"))
    }

    /// The published site as this manifest recorded it, compared with what the output holds now.
    package struct Comparison: Sendable {
        package var manifest: Manifest
        /// The fingerprints of the recorded files that are still, on disk, the very files recorded.
        package var carry: CarryIndex
        /// Whether every recorded file is still the one recorded and the output still is
        /// newsgen's site (its marker).
        package var filesAreIntact: Bool
        /// Whether every recorded folder is still the one recorded, so that the output holds
        /// nothing else; `nil` when not examined (`examiningFolders(of:)`).
        package var foldersAreIntact: Bool?

        /// Whether the output is, file for file and folder for folder, what was published:
        /// false while the folders are not examined.
        package var isIntact: Bool { filesAreIntact && foldersAreIntact == true }

        /// The comparison with the folders examined too, when they were not.
        package func examiningFolders(of publisher: Publisher) -> Comparison {
            guard foldersAreIntact == nil else { return self }
            var examined = self
            examined.foldersAreIntact = filesAreIntact && OpenFolder(publisher.output).map(manifest.foldersAreIntact(below:)) == true
            return examined
        }
    }

    /// Compares what was published with the output folder, stat-ing each recorded file (and,
    /// with `folders`, each recorded folder) once, below the output held open (a path walked
    /// from there, not from `/`, each time).
    ///
    /// The folders tell only whether the output holds something more than was published: a
    /// build needs that to publish nothing (the output already is its site), and a build with
    /// new content seldom does, so it leaves them for later (`examiningFolders(of:)`): at
    /// ten thousand stories they are ten thousand stats beside the building of the site's model.
    package func compared(with publisher: Publisher, examiningFolders folders: Bool = true) -> Comparison {
        guard let output = OpenFolder(publisher.output) else {
            return Comparison(manifest: self, carry: CarryIndex(fingerprints: [:]), filesAreIntact: false, foldersAreIntact: false)
        }
        let changed = files.compactMap { path, entry in Self.stat(path, in: output.descriptor) == entry.onDisk ? nil : path }
        // The recorded fingerprints, less those of files changed since (seldom any), looked up
        // in the record's own table rather than copied into one of their own.
        let (files, gone) = (files, Set(changed))
        let carry = CarryIndex(lookingUp: { path in gone.isEmpty || !gone.contains(path) ? files[path]?.fingerprint : nil })
        let filesAreIntact = changed.isEmpty && publisher.holdsMarker()
        return Comparison(manifest: self, carry: carry, filesAreIntact: filesAreIntact,
                          foldersAreIntact: folders ? filesAreIntact && foldersAreIntact(below: output) : nil)
    }

    /// What a folder holds, known from the record it was published with: its files (each with
    /// its inode) and its folders.
    package struct Listing: Sendable {
        package var files: [String: UInt64]
        package var folders: [String: Folder]
        /// The folders' lines, kept where they are in the record's bytes.
        package var folderLines: RecordLines?
    }

    /// What the site in `folder` (held open, whatever it is named meanwhile) holds, from the
    /// record at `file` of the site published as `output`, when the record still describes it
    /// name for name: every recorded folder is still the folder recorded, with its time. `nil`
    /// when it does not, has no folders recorded, or cannot be read (`load`).
    ///
    /// Only what pruning needs is kept (`Publisher.prune`): each file's inode, not the
    /// fingerprint, size and time a manifest keeps for carrying files. A path the manifest
    /// `sharing` records too is kept as that manifest's own text: the previous site's record and
    /// the last manifest name nearly the same paths, and at 100,000 files those were a table of
    /// 12 MB and 16 MB of text held twice.
    package static func listing(from file: URL, output: URL, of folder: OpenFolder, sharingPathsWith sharing: Manifest? = nil) -> Listing? {
        guard let mapped = MappedFile(file) else { return nil }
        defer { mapped.releasePages() }
        guard let read = records(in: mapped.bytes, keepingLinesOf: .folders, file: \.inode, share: { path(of: $0, as: $1, keptBy: sharing) }),
              read.output == output.standardizedFileURL.path, foldersAreIntact(read.folders, below: folder)
        else { return nil }
        return Listing(files: read.files, folders: read.folders, folderLines: read.folderLines)
    }

    /// `path` as the manifest `sharing` keeps it when it records it as a record of `kind` (the
    /// same text, held once), else `path` itself.
    private static func path(of path: String, as kind: RecordKind, keptBy sharing: Manifest?) -> String {
        switch kind {
        case .files:
            guard let files = sharing?.files, let place = files.index(forKey: path) else { return path }
            return files.keys[place]
        case .folders:
            guard let folders = sharing?.folders, let place = folders.index(forKey: path) else { return path }
            return folders.keys[place]
        }
    }

    /// Whether each recorded folder is still the folder recorded, with the time it was
    /// published with: then no name in it was added, removed or renamed since.
    fileprivate func foldersAreIntact(below root: OpenFolder) -> Bool {
        folders.map { Self.foldersAreIntact($0, below: root) } ?? false
    }

    private static func foldersAreIntact(_ folders: [String: Folder], below root: OpenFolder) -> Bool {
        guard folders[""] != nil else { return false }
        return folders.allSatisfy { path, folder in
            folderStat(path.isEmpty ? "." : path, in: root.descriptor) == folder
        }
    }

    /// The manifest of the site now in `output`: each path's fingerprint with its file's
    /// identity, and the identity of every folder. A path whose file cannot be examined is left
    /// out (the next build renders it); a folder that cannot be, leaves the folders unrecorded
    /// (the next build publishes).
    ///
    /// With `previous`, the files of the manifest of the site files were carried from, every
    /// path not in `rendered` must be a file carried over: `previous` records it with its
    /// fingerprint (a build carries a file only then), and it was found on disk as recorded when
    /// the build compared them. It is the very file the previous site had, linked into this one:
    /// its record is taken from there, not stat-ed again, and only the rendered paths are
    /// examined (rather than ten thousand paths looked up one by one). Had a carried file been
    /// replaced since, the next build finds another identity on disk and renders it. Without
    /// `previous`, every file is examined.
    ///
    /// The files examined are those in `examining` (by default `output`): a staging folder,
    /// opened before it is renamed `output`, holds the same files and folders with the same
    /// identities. They are examined below the open folder, whatever its name is meanwhile.
    /// The files are recorded on one core while the folders are examined on another.
    /// Folders the build knows (`folders`) are recorded as known, not stat-ed. `layout`, when
    /// given, holds the folders of the fingerprinted paths, gathered before.
    package static func recording(_ fingerprints: [String: Fingerprint], output: URL, examining folder: OpenFolder? = nil,
                                  input: Fingerprint? = nil, previous: [String: Entry]? = nil, rendered: Set<String> = [],
                                  folders known: KnownFolders? = nil, layout: SiteLayout? = nil) -> Manifest {
        let opened = folder ?? OpenFolder(output)
        let root = opened?.descriptor ?? -1
        // The folder is held open (its descriptor valid) until both parts are done.
        let (recorded, examined) = withExtendedLifetime(opened) { Parallel.both({ () -> (files: [String: Entry], complete: Bool) in
            if let previous {
                return recordingRendered(fingerprints, previous: previous, rendered: rendered, root: root)
            }
            var files: [String: Entry] = [:]
            files.reserveCapacity(fingerprints.count)
            var complete = root >= 0
            for (path, fingerprint) in fingerprints {
                guard root >= 0, let disk = stat(path, in: root) else {
                    complete = false
                    continue
                }
                files[path] = Entry(fingerprint: fingerprint, inode: disk.inode, size: disk.size, modified: disk.modified)
            }
            return (files, complete)
        }, { () -> [String: Folder]? in
            guard root >= 0 else { return nil }
            let paths = layout?.folders ?? SitePathFolders.folders(holding: fingerprints.keys, includingRoot: true)
            var folders: [String: Folder] = [:]
            folders.reserveCapacity(paths.count)
            for path in paths {
                if let folder = known?.folder(path) {
                    folders[path] = folder
                    continue
                }
                guard let folder = folderStat(path.isEmpty ? "." : path, in: root) else { return nil }
                folders[path] = folder
            }
            return folders
        }) }
        // A file that is there but could not be examined would be a name the record does not
        // list: without folders, the record is never taken for the whole of the site.
        return Manifest(output: output, files: recorded.files, folders: recorded.complete ? examined : nil, input: input)
    }

    /// The files' records when every path not rendered is carried as `previous` records it:
    /// `previous`'s records, the rendered paths examined below `root`, and the paths the site
    /// no longer has left out; whether every file could be examined.
    private static func recordingRendered(_ fingerprints: [String: Fingerprint], previous: [String: Entry], rendered: Set<String>,
                                          root: Int32) -> (files: [String: Entry], complete: Bool) {
        assert(fingerprints.allSatisfy { rendered.contains($0.key) || previous[$0.key]?.fingerprint == $0.value },
               "a path carried with a fingerprint its previous record does not have")
        var files = previous
        var unexamined = 0
        for path in rendered {
            guard let fingerprint = fingerprints[path] else { continue }
            guard root >= 0, let disk = stat(path, in: root) else {
                files[path] = nil
                unexamined += 1
                continue
            }
            files[path] = Entry(fingerprint: fingerprint, inode: disk.inode, size: disk.size, modified: disk.modified)
        }
        // Every path of the site is now recorded, but those that could not be examined: any
        // other record is of a file the site no longer has.
        if files.count != fingerprints.count - unexamined {
            files = files.filter { fingerprints[$0.key] != nil }
        }
        return (files, unexamined == 0 && root >= 0)
    }

    /// The folders of a site as its record has them, when nothing else changed them since but
    /// adding, replacing or removing the names `changed`: a folder's identity (inode and time)
    /// moves only when a name in it is added, removed or renamed. The folders holding a changed
    /// name, and every folder above them (and the site's own), are not known. A folder the record
    /// lacks is not known either.
    package struct KnownFolders: Sendable {
        private let recorded: [String: Folder]
        private let changed: Set<String>

        package init(recorded: [String: Folder], changed: [String]) {
            self.recorded = recorded
            self.changed = SitePathFolders.folders(holding: changed, includingRoot: true)
        }

        /// The folder at `path` as recorded, when it is known to be so.
        func folder(_ path: String) -> Folder? {
            changed.contains(path) ? nil : recorded[path]
        }
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
        stat(path, in: AT_FDCWD)
    }

    /// The identity of the regular file at `path` (not a link to one), below the open folder `folder`.
    static func stat(_ path: String, in folder: Int32) -> OnDisk? {
        var status = Foundation.stat()
        guard statAt(folder, path, &status), (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return OnDisk(inode: UInt64(status.st_ino), size: Int64(status.st_size), modified: status.st_mtim.nanoseconds)
    }

    /// A folder's identity on disk (not a link to one).
    static func folderStat(_ path: String) -> Folder? {
        folderStat(path, in: AT_FDCWD)
    }

    /// The identity of the folder at `path` (not a link to one), below the open folder `folder`.
    static func folderStat(_ path: String, in folder: Int32) -> Folder? {
        var status = Foundation.stat()
        guard statAt(folder, path, &status), (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return Folder(inode: UInt64(status.st_ino), modified: status.st_mtim.nanoseconds)
    }

    /// fstatat(2) of `path` below `folder`, not following a link. The path is handed over in
    /// place (`withCString`): passed as a `String` argument, each was first copied into an
    /// array of its own, ten thousand times per check of a site (2 ms of a new-story build).
    private static func statAt(_ folder: Int32, _ path: String, _ status: inout Foundation.stat) -> Bool {
        path.withCString { fstatat(folder, $0, &status, AT_SYMLINK_NOFOLLOW) } == 0
    }

}

extension Manifest.Entry {
    var onDisk: Manifest.OnDisk { Manifest.OnDisk(inode: inode, size: size, modified: modified) }
}

// MARK: - The text of the file

extension Manifest {
    private static let header = "newsgen manifest \(formatVersion)"

    /// The file's text; records in the order of their paths, so the same site gives the same file.
    var text: String { String(decoding: textParts.bytes, as: UTF8.self) }

    /// The file's text in three parts: the header, the folders' lines and the files' lines,
    /// written byte by byte (a cron run writes ten thousand records), to be written one after
    /// the other (`save`).
    package var textParts: Text {
        // The folders' records on one core while the files' are made on another: each part sorts
        // ten thousand paths.
        let (folderLines, fileLines) = Parallel.both({
            Self.lines(of: folders ?? [:], kind: "folder ", bytesEach: 80, fields: Self.fields(of:into:))
        }, {
            Self.lines(of: files, kind: "file ", bytesEach: 160, fields: Self.fields(of:into:))
        })
        var text = Text()
        text.append(Self.headerText(output: output, input: input))
        text.append(folderLines)
        text.append(fileLines)
        return text
    }

    /// A manifest's text as the pieces it is written in, one after the other (`save`): bytes
    /// made for it, and runs of lines of the file the last manifest was read from
    /// (`RecordLines.splicing`), written from where they were read rather than copied (a
    /// new-story build copied 3 MB of ten thousand unchanged lines, touching as much new memory).
    package struct Text: Sendable {
        private enum Piece {
            case made([UInt8])
            case read(Data)
        }

        private var pieces: [Piece] = []

        package init() {}

        /// Adds bytes made for the text, as a piece of their own: never joined to the piece
        /// before (a whole manifest's files' lines are 23 MB at 100,000 stories).
        mutating func append(_ bytes: [UInt8]) {
            if !bytes.isEmpty { pieces.append(.made(bytes)) }
        }

        /// Adds bytes of a file read, kept where they are (a slice of its `Data` shares its bytes).
        mutating func append(read bytes: Data) {
            if !bytes.isEmpty { pieces.append(.read(bytes)) }
        }

        mutating func append(_ text: Text) {
            pieces += text.pieces
        }

        /// The whole text as one array of bytes.
        package var bytes: [UInt8] {
            var joined: [UInt8] = []
            for piece in pieces {
                switch piece {
                case .made(let bytes): joined.append(contentsOf: bytes)
                case .read(let bytes): joined.append(contentsOf: bytes)
                }
            }
            return joined
        }

        /// Writes the pieces in order to `descriptor`; the `errno` of the first write that failed, else 0.
        func write(to descriptor: Int32) -> Int32 {
            for piece in pieces {
                let failure = switch piece {
                case .made(let bytes): bytes.withUnsafeBytes { Publisher.writeAll($0, to: descriptor) }
                case .read(let bytes): bytes.withUnsafeBytes { Publisher.writeAll($0, to: descriptor) }
                }
                if failure != 0 { return failure }
            }
            return 0
        }
    }

    /// The file's first three lines: the format, the output folder and the input's fingerprint.
    static func headerText(output: String, input: Fingerprint?) -> [UInt8] {
        Array("\(Self.header)\noutput \(Self.escape(output))\ninput \(input?.hex ?? "-")\n".utf8)
    }

    private static func fields(of entry: Entry, into out: inout RecordBytes) {
        out.field(entry.fingerprint)
        out.field(entry.inode)
        out.field(entry.size)
        out.field(entry.modified)
    }

    private static func fields(of folder: Folder, into out: inout RecordBytes) {
        out.field(folder.inode)
        out.field(folder.modified)
    }

    /// The line that records the file at `path`, as `textParts` writes it.
    static func line(_ path: String, _ entry: Entry) -> [UInt8] {
        line(kind: "file ", path: path) { fields(of: entry, into: &$0) }
    }

    /// The line that records the folder at `path`, as `textParts` writes it.
    static func line(_ path: String, _ folder: Folder) -> [UInt8] {
        line(kind: "folder ", path: path) { fields(of: folder, into: &$0) }
    }

    private static func line(kind: String, path: String, fields: (inout RecordBytes) -> Void) -> [UInt8] {
        var out = RecordBytes(capacity: 160)
        out.append(kind)
        fields(&out)
        out.append(escape(path))
        out.bytes.append(UInt8(ascii: "\n"))
        return out.bytes
    }

    /// A line for each record, in the order of their paths: its kind, its fields, its path.
    private static func lines<Record>(of records: [String: Record], kind: String, bytesEach: Int,
                                      fields: (Record, inout RecordBytes) -> Void) -> [UInt8] {
        var out = RecordBytes(capacity: records.count * bytesEach)
        // The places put in order rather than the records themselves: a merge sort moved the
        // ten thousand pairs of a path and its record (72 bytes each) several times over.
        let paths = Array(records.keys), values = Array(records.values)
        var order = Array(paths.indices)
        order.sort { paths[$0] < paths[$1] }
        for place in order {
            out.append(kind)
            fields(values[place], &out)
            out.append(escape(paths[place]))
            out.bytes.append(UInt8(ascii: "\n"))
        }
        return out.bytes
    }

    /// Bytes written field by field: a cron run writes ten thousand records.
    private struct RecordBytes {
        var bytes: [UInt8] = []

        init(capacity: Int) {
            bytes.reserveCapacity(capacity)
        }

        mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

        /// A field and the space after it.
        mutating func field(_ text: String) {
            append(text)
            bytes.append(UInt8(ascii: " "))
        }

        mutating func field(_ number: UInt64) { decimal(number, negative: false) }

        mutating func field(_ number: Int64) { decimal(number.magnitude, negative: number < 0) }

        /// A number in decimal and the space after it, written digit by digit: a String for
        /// each of a record's numbers was a third of making a manifest's text.
        private mutating func decimal(_ magnitude: UInt64, negative: Bool) {
            if negative { bytes.append(UInt8(ascii: "-")) }
            // Twenty digits hold any UInt64.
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            withUnsafeMutableBytes(of: &digits) { buffer in
                var rest = magnitude
                var count = 0
                repeat {
                    buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    count += 1
                } while rest > 0
                for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
            }
            bytes.append(UInt8(ascii: " "))
        }

        mutating func field(_ fingerprint: Fingerprint) {
            fingerprint.appendHex(to: &bytes)
            bytes.append(UInt8(ascii: " "))
        }
    }

    /// The manifest in `data`; `nil` for another format or any line that does not read.
    /// Read as bytes, a line at a time (splitting the text into Characters took a cron run 0.15 s).
    init?(text data: Data, keepingLinesOf kind: RecordKind? = nil) {
        guard let read = Self.records(in: data, keepingLinesOf: kind, file: { $0 }) else { return nil }
        self.init(output: read.output, files: read.files, folders: read.folders.isEmpty ? nil : read.folders, input: read.input)
        fileLines = read.fileLines
        folderLines = read.folderLines
    }

    /// What a manifest's file records, each file's record made by `file` from its line's
    /// entry; a path is passed through `share` (by kind) before it is kept.
    private struct Records<FileRecord> {
        var output: String
        var input: Fingerprint?
        var files: [String: FileRecord]
        var folders: [String: Folder]
        var fileLines: RecordLines?
        var folderLines: RecordLines?
    }

    /// The records in `data`, with the lines of `kind` kept where they are in its bytes (which
    /// they keep); `nil` for another format or any line that does not read.
    private static func records<FileRecord>(
        in data: Data, keepingLinesOf kind: RecordKind?, file record: (Entry) -> FileRecord,
        share: (String, RecordKind) -> String = { path, _ in path }
    ) -> Records<FileRecord>? {
        guard var read = data.withUnsafeBytes({
            Self.read(Lines($0.bindMemory(to: UInt8.self)), keepingLinesOf: kind, file: record, share: share)
        }) else { return nil }
        read.fileLines?.bytes = data
        read.folderLines?.bytes = data
        return read
    }

    private static func read<FileRecord>(_ lines: Lines, keepingLinesOf kind: RecordKind?, file record: (Entry) -> FileRecord,
                                         share: (String, RecordKind) -> String) -> Records<FileRecord>? {
        var lines = lines
        guard let header = lines.next(), header.elementsEqual(Self.header.utf8),
              let outputLine = lines.next(), outputLine.starts(with: "output ".utf8),
              let inputLine = lines.next(), inputLine.starts(with: "input ".utf8)
        else { return nil }
        let inputHex = inputLine.dropFirst("input ".count)
        var input: Fingerprint?
        if !inputHex.elementsEqual("-".utf8) {
            guard let digest = Fingerprint(hex: UnsafeBufferPointer(rebasing: inputHex)) else { return nil }
            input = digest
        }
        // Room for the records first: growing a dictionary to ten thousand of them hashes each again, several times.
        let counts = lines.recordCounts
        var files: [String: FileRecord] = [:]
        files.reserveCapacity(counts.files)
        var folders: [String: Folder] = [:]
        folders.reserveCapacity(counts.folders)
        var fileLines = kind == .files ? RecordLines(reservingCapacity: counts.files) : nil
        var folderLines = kind == .folders ? RecordLines(reservingCapacity: counts.folders) : nil
        while let line = lines.next() {
            if line.starts(with: "file ".utf8) {
                var fields = Fields(line.dropFirst("file ".count))
                guard let hex = fields.next(), let fingerprint = Fingerprint(hex: UnsafeBufferPointer(rebasing: hex)), let inode = fields.number(UInt64.self),
                      let size = fields.number(Int64.self), let modified = fields.number(Int64.self),
                      let read = unescape(fields.rest), !read.isEmpty
                else { return nil }
                let path = share(read, .files)
                files[path] = record(Entry(fingerprint: fingerprint, inode: inode, size: size, modified: modified))
                fileLines?.append(line, path: path)
            } else if line.starts(with: "folder ".utf8) {
                var fields = Fields(line.dropFirst("folder ".count))
                guard let inode = fields.number(UInt64.self), let modified = fields.number(Int64.self), let read = unescape(fields.rest)
                else { return nil }
                let path = share(read, .folders)
                folders[path] = Folder(inode: inode, modified: modified)
                folderLines?.append(line, path: path)
            } else {
                return nil
            }
        }
        // Every line ends with a line break, the last one too.
        guard lines.endedWithLineBreak, let output = unescape(outputLine.dropFirst("output ".count)) else { return nil }
        // A path recorded twice has its last line's record: only lines of distinct paths are copied.
        return Records(output: output, input: input, files: files, folders: folders,
                       fileLines: fileLines.flatMap { $0.count == files.count ? $0 : nil },
                       folderLines: folderLines.flatMap { $0.count == folders.count ? $0 : nil })
    }

    /// The lines of the file's bytes, without their line breaks.
    private struct Lines {
        let bytes: UnsafeBufferPointer<UInt8>
        var start = 0
        /// Whether the bytes ended with a line break (so that no line was cut short).
        private(set) var endedWithLineBreak = false

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// How many of the lines left are records of files and of folders, told by the second
        /// letter of their kind ("file ", "folder "): an estimate (the lines are read after).
        /// Line breaks are found with memchr(3): a byte at a time, this took a fifth of reading.
        var recordCounts: (files: Int, folders: Int) {
            var counts = (files: 0, folders: 0)
            guard let base = bytes.baseAddress else { return counts }
            var lineStart = start
            while lineStart + 1 < bytes.count {
                switch base[lineStart + 1] {
                case UInt8(ascii: "i"): counts.files += 1
                case UInt8(ascii: "o"): counts.folders += 1
                default: break
                }
                guard let found = memchr(base + lineStart, Int32(UInt8(ascii: "\n")), bytes.count - lineStart) else { break }
                lineStart = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base + 1
            }
            return counts
        }

        /// The next line, its break found with memchr(3).
        mutating func next() -> Slice<UnsafeBufferPointer<UInt8>>? {
            guard start < bytes.count, let base = bytes.baseAddress else { return nil }
            guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) else {
                defer { start = bytes.count }
                endedWithLineBreak = false
                return bytes[start...]
            }
            let end = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            defer { start = end + 1 }
            endedWithLineBreak = end + 1 == bytes.count
            return bytes[start..<end]
        }
    }

    /// The space-separated fields of a record, and the rest of it (its path).
    private struct Fields {
        var rest: Slice<UnsafeBufferPointer<UInt8>>

        init(_ line: Slice<UnsafeBufferPointer<UInt8>>) {
            rest = line
        }

        mutating func next() -> Slice<UnsafeBufferPointer<UInt8>>? {
            guard let space = rest.firstIndex(of: UInt8(ascii: " ")) else { return nil }
            defer { rest = rest[(space + 1)...] }
            return rest[..<space]
        }

        /// The next field as a decimal number ("-" first for a negative one); `nil` when it is not one or does not fit.
        mutating func number<Number: FixedWidthInteger>(_: Number.Type) -> Number? {
            guard let field = next() else { return nil }
            let negative = field.first == UInt8(ascii: "-")
            let digits = negative ? field.dropFirst() : field
            guard !digits.isEmpty, !negative || Number.isSigned else { return nil }
            var value: Number = 0
            for byte in digits {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                let digit = Number(byte - UInt8(ascii: "0"))
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
                guard !overflow, !overflow2 else { return nil }
                value = next
            }
            return value
        }
    }

    /// A path on one line: `\` as `\\`, a line break as `\n`.
    static func escape(_ path: String) -> String {
        guard path.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\n") }) else { return path }
        return path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// The path `escape` wrote; `nil` for a `\` followed by anything but `\` or `n`.
    private static func unescape(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        return unescape(Substring(String(decoding: bytes, as: UTF8.self)))
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

    /// Opens `folder`; `nil` when it cannot be opened as a folder (a link to one included).
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
