package import Foundation
import Synchronization
package import NewsgenModel
package import NewsgenRender

/// Writes rendered files into the staging folder on a thread of its own while rendering runs on the cores. The thread is
/// started by `init` and ended by `finish`, which waits for it: nothing is written into the folder after `finish` returns.
///
/// Files queue in memory; past `queueLimit` bytes `enqueue` waits, so a slow disk bounds memory. One thread writes every
/// file, since folders of one parent (the article folders share `articles/`) take that parent's lock. A file equal to the
/// published one is hard-linked, keeping its inode and mtime (what rsync and HTTP caches look at).
///
/// A reused staging folder (`Publisher.makeStaging(reusingPrevious:)`) is first pruned of every path the new site lacks
/// (`prepare(keeping:)`); files are then replaced, never written into, since they may be links to the served files. A
/// new staging folder gets its folders from a second thread (`makeFolders(of:)`), which also ends before `finish` returns.
///
/// State shared by the threads and the build's tasks is guarded by `condition` (or is a `Mutex`/`Atomic`): hence
/// `@unchecked Sendable`.
package final class StagingWriter: @unchecked Sendable {
    /// Bytes that may wait to be written before `enqueue` waits.
    package static let defaultQueueLimit = 8 << 20

    package let staging: URL
    private let stagingPath: String
    /// The published site's folder, when it exists.
    private let publishedPath: String?
    private let queueLimit: Int
    package let reused: Bool
    /// The reused folder's record (its manifest) and the folder it was published as; read on the thread (`Publisher.prune`).
    private let record: (file: URL, output: URL)?

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [OutputFile?] = []
    private var head = 0
    private var queuedBytes = 0
    private var unwritten = 0
    private var spaceWaiters: [CheckedContinuation<Void, Never>] = []
    /// Waiting for every queued file to be written (`written()`).
    private var emptyWaiters: [CheckedContinuation<Void, Never>] = []
    private var closed = false
    private var finished = false
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []
    private var failure: PublishError?
    private var summary = Publisher.WriteSummary()
    private var pruning: SiteLayout?
    private var kept = Publisher.Kept()

    /// The folders known to stand in the staging folder (made by either thread, with every folder above them).
    private let folders = Mutex<Set<String>>([""])
    /// Set when the writing thread is done: the folder-making thread stops at its next folder.
    private let stopMakingFolders = Atomic<Bool>(false)
    /// Whether a folder-making thread runs; guarded by `condition`, which it signals when it ends.
    private var makingFolders = false

    /// Starts the writing thread for `staging` (`reused` when it holds a previous site); files equal to the one at the same
    /// path below `output` are linked. `record`, if kept, is checked against the reused folder and then removed.
    package init(staging: URL, output: URL, reused: Bool = false, record: URL? = nil,
                 queueLimit: Int = StagingWriter.defaultQueueLimit) {
        self.staging = staging
        self.reused = reused
        self.record = reused ? record.map { ($0, output) } : nil
        stagingPath = staging.path
        var isFolder: ObjCBool = false
        publishedPath = FileManager.default.fileExists(atPath: output.path, isDirectory: &isFolder) && isFolder.boolValue ? output.path : nil
        self.queueLimit = max(1, queueLimit)
        let thread = Thread { [self] in drain() }
        thread.name = "newsgen staging writer"
        thread.start()
    }

    /// Tells the writer every path of the new site, before the first file, so a reused folder is pruned first.
    package func prepare(keeping layout: SiteLayout) {
        guard reused else { return }
        condition.lock()
        pruning = layout
        condition.signal()
        condition.unlock()
    }

    /// Creates the folders of `paths` in a new staging folder on a thread of its own, in path order, while files are made;
    /// the writing thread makes any still missing. Nothing for a reused folder. Called once, before the first file.
    package func makeFolders(of paths: [String]) {
        guard !reused else { return }
        condition.withLock { makingFolders = true }
        let thread = Thread { [self] in
            for path in paths {
                if stopMakingFolders.load(ordering: .relaxed) { break }
                // One that cannot be made is left to the writing thread, which reports why.
                _ = createFolders(above: path)
            }
            condition.lock()
            makingFolders = false
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "newsgen staging folders"
        thread.start()
    }

    /// What a reused staging folder kept when pruned (nothing for a new one), known once `finish` returned; a kept file
    /// with the published inode need not be linked again.
    package var keptFromPrevious: Publisher.Kept {
        condition.withLock { kept }
    }

    /// Queues `file`, waiting while the queue holds `queueLimit` bytes. After a failure files are dropped; `finish` reports it.
    package func enqueue(_ file: OutputFile) async {
        await withCheckedContinuation { (space: CheckedContinuation<Void, Never>) in resume(space, whenThereIsRoom: true) }
        append(file)
    }

    /// Waits until every file queued so far is written (or writing failed or stopped), without stopping the thread.
    package func written() async {
        await withCheckedContinuation { (empty: CheckedContinuation<Void, Never>) in
            condition.lock()
            let ready = unwritten == 0 || failure != nil || finished
            if !ready { emptyWaiters.append(empty) }
            condition.unlock()
            if ready { empty.resume() }
        }
    }

    /// Waits until every queued file is written, then stops the thread: files written and linked, or the first failure.
    package func finish() async throws(PublishError) -> Publisher.WriteSummary {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in resume(done, whenThereIsRoom: false) }
        return try outcome().get()
    }

    /// Resumes `waiter` once the queue has room (`true`) or the thread has stopped (`false`, which also closes the queue).
    private func resume(_ waiter: CheckedContinuation<Void, Never>, whenThereIsRoom room: Bool) {
        condition.lock()
        let ready: Bool
        if room {
            ready = queuedBytes < queueLimit || failure != nil || closed
            if !ready { spaceWaiters.append(waiter) }
        } else {
            closed = true
            condition.signal()
            ready = finished
            if !ready { finishWaiters.append(waiter) }
        }
        condition.unlock()
        if ready { waiter.resume() }
    }

    private func append(_ file: OutputFile) {
        condition.lock()
        defer { condition.unlock() }
        guard failure == nil, !closed else { return }
        queue.append(file)
        queuedBytes += file.data.count
        unwritten += 1
        condition.signal()
    }

    private func outcome() -> Result<Publisher.WriteSummary, PublishError> {
        condition.lock()
        defer { condition.unlock() }
        return failure.map { .failure($0) } ?? .success(summary)
    }

    /// The thread's loop: prunes a reused folder when told the new site's paths, then writes files in arrival order.
    private func drain() {
        let listing = readRecord()
        while let work = next() {
            let file: OutputFile
            switch work {
            case .prune(let layout):
                let kept = Publisher.prune(stagingPath, keeping: layout, listing: listing)
                condition.withLock { self.kept = kept }
                continue
            case .write(let next):
                file = next
            }
            let outcome = write(file)
            condition.lock()
            queuedBytes -= file.data.count
            unwritten -= 1
            switch outcome {
            case .success(let unchanged):
                if unchanged { summary.unchanged += 1 } else { summary.written += 1 }
            case .failure(let error):
                if failure == nil { failure = error }
                queue.removeAll()
                head = 0
                queuedBytes = 0
                unwritten = 0
            }
            var resumed = queuedBytes < queueLimit || failure != nil ? spaceWaiters : []
            if !resumed.isEmpty { spaceWaiters.removeAll() }
            if unwritten == 0 || failure != nil {
                resumed += emptyWaiters
                emptyWaiters.removeAll()
            }
            condition.unlock()
            for waiter in resumed { waiter.resume() }
        }
        // The folder-making thread stops before the folder is handed on: nothing is created in it after `finish` returns.
        stopMakingFolders.store(true, ordering: .relaxed)
        condition.lock()
        while makingFolders { condition.wait() }
        finished = true
        let waiters = finishWaiters + spaceWaiters + emptyWaiters
        finishWaiters.removeAll()
        spaceWaiters.removeAll()
        emptyWaiters.removeAll()
        condition.unlock()
        for waiter in waiters { waiter.resume() }
    }

    /// What the reused folder holds, from its record when that still describes it; the record is removed either way.
    private func readRecord() -> Manifest.Listing? {
        guard let record else { return nil }
        let listing = OpenFolder(staging).flatMap { Manifest.listing(from: record.file, output: record.output, of: $0) }
        try? FileManager.default.removeItem(at: record.file)
        return listing
    }

    private enum Work {
        case prune(SiteLayout)
        case write(OutputFile)
    }

    /// The next thing to do, waiting for it; `nil` once `finish` was called and no file is left.
    private func next() -> Work? {
        condition.lock()
        defer { condition.unlock() }
        while head == queue.count && pruning == nil && !closed { condition.wait() }
        if let layout = pruning {
            pruning = nil
            return .prune(layout)
        }
        guard head < queue.count else { return nil }
        let file = queue[head]
        queue[head] = nil
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return file.map(Work.write)
    }

    /// Writes one file (creating its folders first), or links the published file when equal: `true` for a link.
    private func write(_ file: OutputFile) -> Result<Bool, PublishError> {
        if let failure = createFolders(above: file.path) { return .failure(failure) }
        return Publisher.place(file.data, at: stagingPath + "/" + file.path, published: publishedPath.map { $0 + "/" + file.path })
    }

    /// Creates the folders above `path` not known to stand, parents first (on either thread).
    private func createFolders(above path: String) -> PublishError? {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let folder = String(path[..<slash])
        if folders.withLock({ $0.contains(folder) }) { return nil }
        if let failure = createFolders(above: folder) { return failure }
        let full = stagingPath + "/" + folder
        guard mkdir(full, 0o755) == 0 || errno == EEXIST else {
            return PublishError(URL(fileURLWithPath: full), .cannotCreateFolder, reason: String(cString: strerror(errno)))
        }
        folders.withLock { _ = $0.insert(folder) }
        return nil
    }
}
