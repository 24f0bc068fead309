import CNewsgenShims
public import Foundation
package import Logging
import NewsgenModel
package import NewsgenRender

/// A problem with the output folder: refusing to replace it, or writing or swapping it; reads as one line naming the path.
public struct PublishError: Error, Sendable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        /// The output holds files newsgen did not write (the first few names, sorted, and how many in all).
        case holdsForeignFiles(shown: [String], count: Int)
        /// The output is a file, not a folder.
        case isAFile
        case cannotReadOutput
        case cannotCreateStaging
        case cannotCreateFolder
        case cannotWrite
        case cannotMovePreviousAside
        case cannotMoveIntoPlace
        /// The build was cancelled (SIGINT, SIGTERM) before the swap: the staging folder is removed.
        case stopped
    }

    /// The file or folder concerned.
    public var path: URL
    public var problem: Problem
    /// What the system said, when it said something.
    public var reason: String?

    public init(_ path: URL, _ problem: Problem, reason: String? = nil) {
        self.path = path
        self.problem = problem
        self.reason = reason
    }

    public var description: String {
        let because = reason.map { " (\($0))" } ?? ""
        let sentence: String
        switch problem {
        case .holdsForeignFiles(let shown, let count):
            let names = shown.joined(separator: ", ") + (count > shown.count ? " and \(count - shown.count) more" : "")
            sentence = "holds files newsgen did not write (\(names)), and a build replaces its output folder whole; "
                + "nothing was published. Choose an empty or new folder for output, or move these files away"
        case .isAFile:
            sentence = "is a file, not a folder; newsgen will not replace it. Choose another output folder, or move the file away"
        case .cannotReadOutput: sentence = "cannot read the output folder\(because)"
        case .cannotCreateStaging: sentence = "cannot create the staging folder\(because)"
        case .cannotCreateFolder: sentence = "cannot create folder\(because)"
        case .cannotWrite: sentence = "cannot write\(because)"
        case .cannotMovePreviousAside: sentence = "cannot move the previous site aside\(because)"
        case .cannotMoveIntoPlace: sentence = "cannot move the new site into place\(because)"
        case .stopped: sentence = "the build was stopped before publishing; nothing was published"
        }
        return "\(path.path): \(sentence)"
    }
}

private var systemReason: String { String(cString: strerror(errno)) }

/// Writes a site into a staging folder beside the output, then swaps it into place with one rename, so the served folder
/// only ever holds a whole, validated site. Only an empty folder or one carrying the marker file is ever replaced.
package struct Publisher: Sendable {
    public let output: URL

    public static let markerName = ".newsgen-site"

    static let marker = OutputFile(
        markerName,
        "This folder is a site published by newsgen. Each build replaces it whole: files added by hand are lost.\n"
    )

    /// Where a folder that could not be cleaned up is reported; the build goes on.
    let logger: Logger?

    public init(output: URL, logger: Logger? = nil) {
        self.output = output.standardizedFileURL
        self.logger = logger
    }

    /// Checks that the output may be replaced: missing, an empty folder, or a folder carrying the marker.
    public func checkReplaceable() throws(PublishError) {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: output.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            throw PublishError(output, .isAFile)
        }
        let entries: [String]
        do {
            entries = try fileManager.contentsOfDirectory(atPath: output.path).sorted()
        } catch {
            throw PublishError(output, .cannotReadOutput, reason: FileProblem.describe(error))
        }
        guard !entries.isEmpty, !entries.contains(Self.markerName), !isEarlierSite() else { return }
        throw PublishError(output, .holdsForeignFiles(shown: Array(entries.prefix(3)), count: entries.count))
    }

    /// What writing the staging folder did.
    public struct WriteSummary: Sendable {
        public var written = 0
        /// Files whose bytes equal the published ones: linked, not rewritten, so their mtime stays.
        public var unchanged = 0
    }

    private var stagingPrefix: String { ".\(output.lastPathComponent).staging-" }

    /// The site the last swap replaced, kept beside the output (never served) so the next build updates it in place
    /// as its staging folder, creating and deleting only what changed.
    package var previousSite: URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).previous", isDirectory: true)
    }

    /// A staging folder for a build, and whether it holds a previous site to update in place.
    package struct Staging: Sendable {
        package var folder: URL
        /// Whether the folder is the previous site (to be pruned and overwritten) rather than an empty folder.
        package var reused: Bool
    }

    /// The previous site renamed into a staging folder when there is one, else a new empty one.
    package func makeStaging(reusingPrevious: Bool) throws(PublishError) -> Staging {
        var status = stat()
        guard reusingPrevious, lstat(previousSite.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            return try Staging(folder: makeStaging(), reused: false)
        }
        let staging = try stagingName()
        if rename(previousSite.path, staging.path) == 0 { return Staging(folder: staging, reused: true) }
        // Someone else's folder now, or a file system that refuses: start from an empty folder.
        try create(staging)
        return Staging(folder: staging, reused: false)
    }

    /// Keeps `folder` as the previous site the next build starts from, or removes it; returns whether it was kept.
    @discardableResult
    package func keepForNextBuild(_ folder: URL) -> Bool {
        if FileManager.default.fileExists(atPath: previousSite.path) {
            remove(previousSite, what: "an earlier site")
        }
        if rename(folder.path, previousSite.path) != 0 {
            remove(folder, what: "the previous site")
            return false
        }
        return true
    }

    /// A new, empty staging folder next to the output (same file system, so the swap is a rename), once the
    /// staging folders of killed builds are removed.
    public func makeStaging() throws(PublishError) -> URL {
        let staging = try stagingName()
        try create(staging)
        return staging
    }

    /// A name for this build's staging folder, `.public.staging-<pid>-<random>` (the pid tells a later build
    /// whose it is); nothing is made there yet.
    private func stagingName() throws(PublishError) -> URL {
        try checkNotStopped()
        let parent = output.deletingLastPathComponent()
        removeLeftovers(in: parent)
        return parent.appendingPathComponent("\(stagingPrefix)\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
    }

    private func create(_ staging: URL) throws(PublishError) {
        let parent = staging.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw PublishError(parent, .cannotCreateStaging, reason: FileProblem.describe(error))
        }
    }

    /// Removes staging folders and previous sites whose process, named in the folder's name, no longer runs.
    private func removeLeftovers(in parent: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(stagingPrefix) {
            guard let pid = Int32(name.dropFirst(stagingPrefix.count).prefix { $0 != "-" }),
                  pid != ProcessInfo.processInfo.processIdentifier,
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            remove(parent.appendingPathComponent(name), what: "a build that was killed")
        }
    }

    /// Removes the staging folders this process made, for a build ended by a signal (never the served folder). Each is
    /// renamed first: the build's threads, possibly still at work, write by path, so they add nothing to it once moved.
    package func removeOwnStaging() {
        let parent = output.deletingLastPathComponent()
        let own = "\(stagingPrefix)\(ProcessInfo.processInfo.processIdentifier)-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(own) {
            let folder = parent.appendingPathComponent(name), stopped = parent.appendingPathComponent(name + "-stopped")
            remove(rename(folder.path, stopped.path) == 0 ? stopped : folder, what: "a build that was stopped")
        }
    }

    /// Throws `.stopped` once the build's task is cancelled: nothing more is written or swapped.
    private func checkNotStopped() throws(PublishError) {
        if Task.isCancelled { throw PublishError(output, .stopped) }
    }

    /// Whether the output is a site published before the marker existed: its headlines feed names newsgen as generator.
    private func isEarlierSite() -> Bool {
        guard let feed = FileHandle(forReadingAtPath: output.appendingPathComponent("feeds/headlines.rss").path) else { return false }
        defer { try? feed.close() }
        let start = (try? feed.read(upToCount: 4096)) ?? nil
        return start.map { String(decoding: $0, as: UTF8.self).contains("<generator>newsgen ") } ?? false
    }

    /// Creates the folders that `paths` (relative to `staging`) need, parents before children, skipping `existing`.
    package func createFolders(for paths: [String], in staging: URL, existing: (String) -> Bool = { _ in false }) async throws(PublishError) {
        var levels: [[String]] = []
        var seen: Set<String> = []
        for path in paths {
            var folder = (path as NSString).deletingLastPathComponent
            while !folder.isEmpty, !existing(folder), seen.insert(folder).inserted {
                let depth = folder.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) }
                while levels.count <= depth { levels.append([]) }
                levels[depth].append(folder)
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        // One thread: mkdir(2) takes the parent folder's lock, which the article folders share.
        let root = staging.path
        for folder in levels.joined() {
            let path = root + "/" + folder
            guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
                throw PublishError(URL(fileURLWithPath: path), .cannotCreateFolder, reason: systemReason)
            }
        }
    }

    static func syncToDisk(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            sync()
            return
        }
        _ = newsgen_sync_file_system(descriptor)
        close(descriptor)
    }

    /// Puts `data` at `target`: a hard link to `published` when that file holds the same bytes (keeping the inode and
    /// mtime that rsync and HTTP caches look at), else a new file; `true` for a link. Never writes into what stood there.
    static func place(_ data: Data, at target: String, published: String?) -> Result<Bool, PublishError> {
        if let published, contents(of: published, ifSize: data.count) == data, carry(published, to: target) == nil {
            return .success(true)
        }
        if let reason = writeFile(data, to: target) {
            return .failure(PublishError(URL(fileURLWithPath: target), .cannotWrite, reason: reason))
        }
        return .success(false)
    }

    /// Makes `target` a hard link to `published`, replacing whatever else stood there; `nil` when done, else the errno.
    static func carry(_ published: String, to target: String) -> String? {
        if link(published, target) == 0 { return nil }
        guard errno == EEXIST else { return systemReason }
        var source = stat(), existing = stat()
        guard lstat(published, &source) == 0, lstat(target, &existing) == 0 else { return systemReason }
        if source.st_dev == existing.st_dev && source.st_ino == existing.st_ino { return nil }
        guard (existing.st_mode & S_IFMT) != S_IFDIR, unlink(target) == 0 || errno == ENOENT else {
            return (existing.st_mode & S_IFMT) == S_IFDIR ? "a folder stands there" : systemReason
        }
        return link(published, target) == 0 ? nil : systemReason
    }

    /// What a reused staging folder kept when it was pruned, read from its folders or taken from its record.
    package struct Kept: Sendable {
        package var files: [String: UInt64] = [:]
        /// The files as the record has them: every one was kept but `removedFiles`.
        var recordedFiles: [String: UInt64]?
        var removedFiles: Set<String> = []
        package var folders: Set<String> = []
        /// The folders (inode and time) as the record has them; valid until a name is added to or removed from one.
        package var recordedFolders: [String: Manifest.Folder]?
        package var fromRecord: Bool { recordedFolders != nil }
        package var removed: [String] = []
        var removedFolders: Set<String> = []

        package func inode(of path: String) -> UInt64? {
            guard let recordedFiles else { return files[path] }
            return removedFiles.isEmpty || !removedFiles.contains(path) ? recordedFiles[path] : nil
        }

        /// Whether the folder at `path` was kept.
        package func holdsFolder(_ path: String) -> Bool {
            guard let recordedFolders else { return folders.contains(path) }
            return recordedFolders[path] != nil && !removedFolders.contains(path)
        }
    }

    /// Removes from a reused staging folder every entry the new site lacks: files not in `files`, folders that hold
    /// none of them, and anything neither a regular file nor a folder. Runs before any write, so no file stands where
    /// a folder is needed. `listing`, when given (`Manifest.listing`), replaces reading the folders.
    @discardableResult
    static func prune(_ root: String, keeping layout: SiteLayout, listing: Manifest.Listing? = nil) -> Kept {
        let (files, folders) = (layout.files, layout.folders)
        if let listing {
            return prune(root, keeping: files, folders: folders, listing: listing)
        }
        var kept = Kept()
        var pending = [""]
        while let folder = pending.popLast() {
            let full = folder.isEmpty ? root : root + "/" + folder
            guard let entries = entries(of: full) else { continue }
            for (name, kind, inode) in entries {
                let path = folder.isEmpty ? name : folder + "/" + name
                switch kind {
                case .folder where folders.contains(path):
                    pending.append(path)
                    kept.folders.insert(path)
                case .file where files.contains(path): kept.files[path] = inode
                case .folder: try? FileManager.default.removeItem(atPath: root + "/" + path)
                case .file, .other: _ = unlink(root + "/" + path)
                }
            }
        }
        return kept
    }

    /// `prune` from a known listing (the unlisted marker is always kept).
    private static func prune(_ root: String, keeping files: Set<String>, folders: Set<String>, listing: Manifest.Listing) -> Kept {
        var kept = Kept(recordedFiles: listing.files, recordedFolders: listing.folders)
        for path in listing.files.keys where !files.contains(path) {
            _ = unlink(root + "/" + path)
            kept.removedFiles.insert(path)
            kept.removed.append(path)
        }
        let removed = listing.folders.keys.filter { !$0.isEmpty && !folders.contains($0) }
        kept.removedFolders = Set(removed)
        // Outermost first: removing a folder removes what is below it.
        for path in removed.sorted(by: { $0.utf8.count < $1.utf8.count }) where FileManager.default.fileExists(atPath: root + "/" + path) {
            try? FileManager.default.removeItem(atPath: root + "/" + path)
        }
        kept.removed += removed
        return kept
    }

    /// The bytes of the regular file at `path` when it holds exactly `size` bytes, else `nil`.
    static func contents(of path: String, ifSize size: Int) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) == size else { return nil }
        var data = Data(count: size)
        let complete = data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) -> Bool in
            var offset = 0
            while offset < size, let base = buffer.baseAddress {
                let count = read(descriptor, base + offset, size - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        return complete ? data : nil
    }

    /// Writes `data` to a new file without an fsync: `swap(in:)` flushes the staging folder once before the rename.
    static func writeFile(_ data: Data, to path: String) -> String? {
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 && errno == EEXIST {
            // Never written into: in a reused staging folder the file may be a link to the served one.
            guard unlink(path) == 0 else { return systemReason }
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { return systemReason }
        var failure = data.withUnsafeBytes { writeAll($0, to: descriptor) }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        return failure == 0 ? nil : String(cString: strerror(failure))
    }

    /// Writes all of `bytes` to `descriptor`, retrying interrupted calls: 0, or the errno of the failed write.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += count
        }
        return 0
    }

    /// Writes files into the staging folder, hard-linking those identical to the published ones.
    public func write(_ files: [OutputFile], to staging: URL) async throws(PublishError) -> WriteSummary {
        try checkNotStopped()
        let output = self.output
        let files = files + [Self.marker]
        try await createFolders(for: files.map(\.path), in: staging)
        let results = await Parallel.map(files) { file -> Result<Bool, PublishError> in
            if Task.isCancelled { return .failure(PublishError(output, .stopped)) }
            // Paths as strings: URL.appendingPathComponent asks the file system whether each is a folder.
            return Self.place(file.data, at: staging.path + "/" + file.path, published: output.path + "/" + file.path)
        }
        var total = WriteSummary()
        for result in results {
            switch result {
            case .success(let unchanged):
                if unchanged { total.unchanged += 1 } else { total.written += 1 }
            case .failure(let error):
                throw error
            }
        }
        return total
    }

    /// Puts the staging folder in the output's place: one atomic exchange where the system can, else two renames
    /// (the output is missing for an instant, never half-written). Returns the previous site, set aside under the
    /// staging folder's name so a killed build leaves a leftover the next one removes; the caller keeps it.
    @discardableResult
    public func swap(in staging: URL) throws(PublishError) -> URL? {
        let fileManager = FileManager.default
        // The last moment a stop can still keep the previous site: after this, the swap is one rename.
        try checkNotStopped()
        // Checked again here: files may have appeared in the output while the build ran.
        try checkReplaceable()
        // One flush for the whole file system before the rename, so a power cut after the swap leaves no empty pages.
        Self.syncToDisk(staging)
        if !fileManager.fileExists(atPath: output.path) {
            guard rename(staging.path, output.path) == 0 else {
                throw PublishError(output, .cannotMoveIntoPlace, reason: systemReason)
            }
            return nil
        }
        if newsgen_exchange_paths(staging.path, output.path) == 0 {
            // The staging path now holds the previous site.
            return staging
        }
        let previous = staging.deletingLastPathComponent().appendingPathComponent(staging.lastPathComponent + ".previous")
        guard rename(output.path, previous.path) == 0 else {
            throw PublishError(output, .cannotMovePreviousAside, reason: systemReason)
        }
        guard rename(staging.path, output.path) == 0 else {
            let reason = systemReason
            _ = rename(previous.path, output.path)
            throw PublishError(output, .cannotMoveIntoPlace, reason: reason)
        }
        return previous
    }

    /// Removes the staging folders and previous sites that killed builds left; for a build that publishes nothing.
    package func removeLeftovers() {
        removeLeftovers(in: output.deletingLastPathComponent())
    }

    package func holdsMarker() -> Bool {
        FileManager.default.contents(atPath: output.appendingPathComponent(Self.markerName).path) == Self.marker.data
    }

    private enum EntryKind { case file, folder, other }

    /// The names in a folder with their kinds and inodes, without "." and ".."; `nil` when it cannot be read.
    private static func entries(of folder: String) -> [(name: String, kind: EntryKind, inode: UInt64)]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var entries: [(name: String, kind: EntryKind, inode: UInt64)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .folder
            case Int32(DT_UNKNOWN):
                var status = stat()
                guard lstat(folder + "/" + name, &status) == 0 else { return nil }
                switch status.st_mode & S_IFMT {
                case S_IFREG: kind = .file
                case S_IFDIR: kind = .folder
                default: kind = .other
                }
            default: kind = .other
            }
            entries.append((name, kind, UInt64(entry.pointee.d_ino)))
        }
        return entries
    }

    public func discard(_ staging: URL) {
        remove(staging, what: "an unpublished build")
    }

    /// Removes a folder of newsgen's beside the output; failing is a warning, since it takes disk space.
    private func remove(_ folder: URL, what: String) {
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
        do {
            try FileManager.default.removeItem(at: folder)
        } catch {
            // Shown even after a stop signal (see `StopSignals`): it asks someone to act.
            logger?.warning("\(folder.path): cannot remove this folder of \(what) (\(FileProblem.describe(error))); delete it by hand",
                            metadata: ["afterStop": "shown"])
        }
    }
}
