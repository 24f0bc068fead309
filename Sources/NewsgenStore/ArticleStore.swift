public import Foundation
public import NewsgenModel

/// What the store remembers about fetching one source.
public struct SourceState: Sendable, Hashable, Codable {
    public var lastAttempt: Date?
    public var lastSuccess: Date?
    public var httpStatus: Int?
    public var lastError: String?
    /// Since when the source has been failing (the first failure after the last success).
    public var failingSince: Date?
    public var etag: String?
    public var lastModified: String?
    public var title: String?
    public var homepage: String?
    public var format: FeedFormat?

    public init() {}

    /// After a successful fetch: fresh, no error, the validators and the source's own details.
    mutating func recordSuccess(_ content: SourceContent, at date: Date) {
        lastAttempt = date
        lastSuccess = date
        httpStatus = nil
        lastError = nil
        failingSince = nil
        etag = content.etag
        lastModified = content.lastModified
        title = content.title
        homepage = content.homepage
        format = content.format
    }

    /// After a 304: as fresh as a success, the cached articles still current.
    mutating func recordNotModified(at date: Date) {
        lastAttempt = date
        lastSuccess = date
        httpStatus = 304
        lastError = nil
        failingSince = nil
    }

    /// After a failed fetch: the error, and since when the source has been failing.
    mutating func recordFailure(_ error: SourceError, at date: Date) {
        lastAttempt = date
        httpStatus = error.status
        lastError = error.message
        if failingSince == nil { failingSince = date }
    }
}

/// Why the store failed: the operation, the file or folder, and the cause (GRDB or file-system error).
public enum StoreError: Error, CustomStringConvertible {
    /// What a failed transaction was doing.
    public enum Operation: String, Sendable {
        case read, write
    }

    /// The folder the cache goes in does not exist and cannot be created.
    case cannotCreateFolder(folder: URL, cause: any Error)
    /// The cache file cannot be opened (or, when there is none, created).
    case cannotOpen(file: URL, cause: any Error)
    /// An unusable cache was moved aside, and a new one cannot be created in its place.
    case cannotCreate(file: URL, cause: any Error)
    /// An unusable cache file (or its `-wal` or `-shm` file) cannot be moved aside.
    case cannotMoveAside(file: URL, cause: any Error)
    /// A read or write of the open cache failed.
    case failed(Operation, file: URL, cause: any Error)
    /// A cache row holds what newsgen never writes: `column` (only categories are checked) of article `articleKey`.
    case corruptRow(file: URL, articleKey: String, column: String)

    public var description: String {
        switch self {
        case .cannotCreateFolder(let folder, let cause):
            "\(folder.path): cannot create the cache folder (\(FileProblem.describe(cause)))"
        case .cannotOpen(let file, let cause):
            "cache: \(file.path): cannot be opened (\(cause))"
        case .cannotCreate(let file, let cause):
            "cache: \(file.path): cannot be created (\(cause))"
        case .cannotMoveAside(let file, let cause):
            "cache: cannot move \(file.path) aside (\(FileProblem.describe(cause)))"
        case .failed(let operation, let file, let cause):
            "cannot \(operation.rawValue) \(file.lastPathComponent) (\(cause))"
        case .corruptRow(let file, let articleKey, let column):
            "cannot read \(file.lastPathComponent) (article \(articleKey): its \(column) in the cache are not a JSON array of strings)"
        }
    }
}

/// Keeps articles and fetch state between builds, so a failed fetch falls back to recent data and saved
/// articles outlive their source's list.
public protocol ArticleStore: Sendable {
    /// The fetch state of each of these sources that has one, read at once.
    func states(of sourceIDs: [String]) async throws(StoreError) -> [String: SourceState]
    /// Each listed source's last articles in list order, as stored: `sourceID` names the source that wrote it last
    /// (a story two sources list is stored once).
    func lists(of sourceIDs: [String]) async throws(StoreError) -> [String: [Article]]
    /// Every stored article of these sources, listed now or not (the archive), newest first.
    func archive(of sourceIDs: Set<String>) async throws(StoreError) -> [Article]
    /// A successful fetch: the source's list is replaced by `content.articles`.
    func recordSuccess(of sourceID: String, content: SourceContent, at date: Date) async throws(StoreError)
    /// 304s: each of these sources' cached list is still current. One write for all of them.
    func recordNotModified(of sourceIDs: [String], at date: Date) async throws(StoreError)
    func recordFailure(of sourceID: String, error: SourceError, at date: Date) async throws(StoreError)
    /// Keeps the data of every article in `saved`, the complete set: articles left out lose that protection.
    func keepSaved(_ saved: [SavedSnapshot], at date: Date) async throws(StoreError)
    /// The kept data of saved articles, by saved entry key.
    func savedArticles(ids: Set<String>) async throws(StoreError) -> [String: Article]
    /// What extraction kept for these story links (`StoryExtraction`), by link; links never tried are absent.
    func extractions(of urls: [String]) async throws(StoreError) -> [String: StoryExtraction]
    /// Keeps extraction outcomes by story link, replacing what was kept for the same links.
    func recordExtractions(_ extractions: [String: StoryExtraction]) async throws(StoreError)
    /// What fetching these image URLs gave (`StoredImage`), by URL; images never asked for are absent.
    func images(of urls: [String]) async throws(StoreError) -> [String: StoredImage]
    /// Keeps image outcomes by URL, replacing what was kept for the same URLs.
    func recordImages(_ images: [String: StoredImage]) async throws(StoreError)
    /// Forgets the images not shown since `cutoff`; returns the hashes no image kept has any more (their files can go).
    func pruneImages(notShownSince cutoff: Date) async throws(StoreError) -> Set<String>
    /// The group each of these stories was given (`StoryGrouping`), by story id; stories never grouped are absent.
    func storyGroups(of ids: [String]) async throws(StoreError) -> [String: String]
    /// Keeps the groups given to stories (story id → group key). A story keeps the group it was first given: a group
    /// kept for it before is not replaced. Stories the cache does not hold are left out; a pruned story's group goes with it.
    func recordStoryGroups(_ groups: [String: String]) async throws(StoreError)
    /// Removes articles not seen since `cutoff` that no source lists and nobody saved, and the extractions of links no
    /// article has any more; returns how many articles.
    func prune(notSeenSince cutoff: Date) async throws(StoreError) -> Int
    func statistics() async throws(StoreError) -> StoreStatistics
    /// Nothing more is written for now: a store with a log may start flushing it. Returns at once.
    func settle()
}

extension ArticleStore {
    public func settle() {}

    public func state(of sourceID: String) async throws(StoreError) -> SourceState? {
        try await states(of: [sourceID])[sourceID]
    }

    /// A 304: the cached list is still current.
    public func recordNotModified(of sourceID: String, at date: Date) async throws(StoreError) {
        try await recordNotModified(of: [sourceID], at: date)
    }

    /// A source's last articles in list order, as it shows them (`shown(asListedBy:)`).
    public func articles(of sourceID: String) async throws(StoreError) -> [Article] {
        (try await lists(of: [sourceID])[sourceID] ?? []).shown(asListedBy: sourceID)
    }
}

extension [Article] {
    /// The list as this source shows it: a story two sources list is stored as whichever wrote it last.
    package func shown(asListedBy sourceID: String) -> [Article] {
        map { article in
            var article = article
            article.sourceID = sourceID
            return article
        }
    }
}

/// A saved entry's key with the article it shows.
public struct SavedSnapshot: Sendable {
    public var entryKey: String
    public var article: Article

    public init(entryKey: String, article: Article) {
        self.entryKey = entryKey
        self.article = article
    }
}

/// A store that lives as long as the process: for tests, and for builds without a cache.
package actor MemoryStore: ArticleStore {
    private var states: [String: SourceState] = [:]
    private var lists: [String: [Article]] = [:]
    private var saved: [String: Article] = [:]
    private var extracted: [String: StoryExtraction] = [:]
    private var imagesKept: [String: StoredImage] = [:]
    private var groups: [String: String] = [:]

    public init() {}

    public func storyGroups(of ids: [String]) throws(StoreError) -> [String: String] {
        var found: [String: String] = [:]
        for id in ids { found[id] = groups[id] }
        return found
    }

    public func recordStoryGroups(_ groups: [String: String]) throws(StoreError) {
        self.groups.merge(groups) { kept, _ in kept }
    }

    public func images(of urls: [String]) throws(StoreError) -> [String: StoredImage] {
        var found: [String: StoredImage] = [:]
        for url in urls { found[url] = imagesKept[url] }
        return found
    }

    public func recordImages(_ images: [String: StoredImage]) throws(StoreError) {
        imagesKept.merge(images) { _, new in new }
    }

    public func pruneImages(notShownSince cutoff: Date) throws(StoreError) -> Set<String> {
        let gone = imagesKept.filter { $0.value.lastShown < cutoff }
        imagesKept = imagesKept.filter { $0.value.lastShown >= cutoff }
        let kept = Set(imagesKept.values.compactMap(\.hash))
        return Set(gone.values.compactMap(\.hash)).subtracting(kept)
    }

    public func extractions(of urls: [String]) throws(StoreError) -> [String: StoryExtraction] {
        var found: [String: StoryExtraction] = [:]
        for url in urls { found[url] = extracted[url] }
        return found
    }

    public func recordExtractions(_ extractions: [String: StoryExtraction]) throws(StoreError) {
        extracted.merge(extractions) { _, new in new }
    }

    public func states(of sourceIDs: [String]) throws(StoreError) -> [String: SourceState] {
        states.filter { sourceIDs.contains($0.key) }
    }

    /// Each source's list is kept as that source wrote it.
    public func lists(of sourceIDs: [String]) throws(StoreError) -> [String: [Article]] {
        lists.filter { sourceIDs.contains($0.key) }
    }

    public func archive(of sourceIDs: Set<String>) throws(StoreError) -> [Article] {
        // Sorted by id for a stable order across runs.
        lists.filter { sourceIDs.contains($0.key) }.sorted { $0.key < $1.key }.flatMap(\.value).sortedNewestFirst().deduplicated()
    }

    public func recordSuccess(of sourceID: String, content: SourceContent, at date: Date) throws(StoreError) {
        states[sourceID, default: SourceState()].recordSuccess(content, at: date)
        lists[sourceID] = content.articles
    }

    public func recordNotModified(of sourceIDs: [String], at date: Date) throws(StoreError) {
        for sourceID in sourceIDs { states[sourceID, default: SourceState()].recordNotModified(at: date) }
    }

    public func recordFailure(of sourceID: String, error: SourceError, at date: Date) throws(StoreError) {
        states[sourceID, default: SourceState()].recordFailure(error, at: date)
    }

    public func keepSaved(_ saved: [SavedSnapshot], at date: Date) throws(StoreError) {
        self.saved = Dictionary(saved.map { ($0.entryKey, $0.article) }, uniquingKeysWith: { first, _ in first })
    }

    public func prune(notSeenSince cutoff: Date) throws(StoreError) -> Int { 0 }

    public func statistics() throws(StoreError) -> StoreStatistics {
        StoreStatistics(articles: lists.values.reduce(0) { $0 + $1.count }, sources: states.count, saved: saved.count, bytes: 0)
    }

    public func savedArticles(ids: Set<String>) throws(StoreError) -> [String: Article] {
        saved.filter { ids.contains($0.key) }
    }
}
