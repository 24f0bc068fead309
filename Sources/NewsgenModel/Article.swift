public import Foundation
import Synchronization

/// One news article, from any kind of source, as the rest of the pipeline sees it. Text fields are plain text
/// without characters XML forbids, except `content`, which is sanitized HTML; URLs are absolute http(s).
/// Stored copy-on-write, as a site puts each story in many lists.
public struct Article: Sendable, Hashable, Codable {
    private var storage: Storage

    /// The storage key: the normalized URL, or `source:guid` when the article has no URL.
    public var id: String {
        get { storage.id }
        set { unique().id = newValue }
    }
    public var sourceID: String {
        get { storage.sourceID }
        set { unique().sourceID = newValue }
    }
    public var title: String {
        get { storage.title }
        set { unique().title = newValue }
    }
    public var summary: String {
        get { storage.summary }
        set { unique().summary = newValue }
    }
    public var author: String? {
        get { storage.author }
        set { unique().author = newValue }
    }
    public var url: String? {
        get { storage.url }
        set { unique().url = newValue }
    }
    public var imageURL: String? {
        get { storage.imageURL }
        set { unique().imageURL = newValue }
    }
    public var published: Date? {
        get { storage.published }
        set { unique().published = newValue }
    }
    /// The tags the source gave the article.
    public var categories: [String] {
        get { storage.categories }
        set { unique().categories = newValue }
    }
    /// The identifier the source gave the article (RSS guid, Atom id, JSON Feed id).
    public var guid: String? {
        get { storage.guid }
        set { unique().guid = newValue }
    }
    /// The full story, sanitized: an XHTML-compatible fragment of allowed elements and absolute http(s) URLs that a
    /// page may include as is. `nil` when the feed gives only a summary.
    public var content: String? {
        get { storage.content }
        set { unique().content = newValue }
    }
    /// The outlet when the source gathers many (NewsAPI's `source.name`, RSS `<source>`); `nil` when it is the outlet.
    public var outlet: String? {
        get { storage.outlet }
        set { unique().outlet = newValue }
    }

    public init(
        id: String, sourceID: String, title: String, summary: String = "", author: String? = nil,
        url: String? = nil, imageURL: String? = nil, published: Date? = nil,
        categories: [String] = [], guid: String? = nil, content: String? = nil, outlet: String? = nil
    ) {
        storage = Storage(id: id, sourceID: sourceID, title: title, summary: summary, author: author, url: url, imageURL: imageURL,
                          published: published, categories: categories, guid: guid, content: content, outlet: outlet)
    }

    /// The fields. Changed only through `unique()`, so never while shared: storage reachable from several threads is
    /// only read, which makes it safe to send (the digests, written after sharing, have their own `Mutex`).
    private final class Storage: @unchecked Sendable {
        var id: String
        var sourceID: String
        var title: String
        var summary: String
        var author: String?
        var url: String?
        var imageURL: String?
        var published: Date?
        var categories: [String]
        var guid: String?
        var content: String?
        var outlet: String?
        /// The digests of these fields once made (`digests(making:)`); forgotten before they change.
        let digests = Mutex<ArticleDigests?>(nil)

        init(id: String, sourceID: String, title: String, summary: String, author: String?, url: String?, imageURL: String?,
             published: Date?, categories: [String], guid: String?, content: String?, outlet: String?) {
            self.id = id
            self.sourceID = sourceID
            self.title = title
            self.summary = summary
            self.author = author
            self.url = url
            self.imageURL = imageURL
            self.published = published
            self.categories = categories
            self.guid = guid
            self.content = content
            self.outlet = outlet
        }

        func copy() -> Storage {
            Storage(id: id, sourceID: sourceID, title: title, summary: summary, author: author, url: url, imageURL: imageURL,
                    published: published, categories: categories, guid: guid, content: content, outlet: outlet)
        }
    }

    /// Equal for two articles only while they share storage, and so are equal in every field.
    package var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// The storage, copied first if shared; about to change, so its digests are forgotten.
    private mutating func unique() -> Storage {
        if isKnownUniquelyReferenced(&storage) {
            storage.digests.withLock { $0 = nil }
        } else {
            storage = storage.copy()
        }
        return storage
    }

    /// Digests of the fields, made by `make` on first request and kept until a field changes; articles sharing
    /// storage share them. `make` must depend on the fields alone.
    package func digests(making make: (Article) -> ArticleDigests) -> ArticleDigests {
        if let known = storage.digests.withLock({ $0 }) { return known }
        let made = make(self)
        storage.digests.withLock { $0 = made }
        return made
    }

    /// The digests `digests(making:)` made or was given, when they are known.
    package var knownDigests: ArticleDigests? { storage.digests.withLock { $0 } }

    /// The article, with `digests` taken as what `digests(making:)` would make (the cache stores them per row).
    package consuming func knowing(digests: ArticleDigests) -> Article {
        _ = unique()
        storage.digests.withLock { $0 = digests }
        return self
    }

    public static func == (lhs: Article, rhs: Article) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let (a, b) = (lhs.storage, rhs.storage)
        return a.id == b.id && a.sourceID == b.sourceID && a.title == b.title && a.summary == b.summary && a.author == b.author
            && a.url == b.url && a.imageURL == b.imageURL && a.published == b.published && a.categories == b.categories
            && a.guid == b.guid && a.content == b.content && a.outlet == b.outlet
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.id)
        hasher.combine(storage.sourceID)
        hasher.combine(storage.title)
        hasher.combine(storage.summary)
        hasher.combine(storage.author)
        hasher.combine(storage.url)
        hasher.combine(storage.imageURL)
        hasher.combine(storage.published)
        hasher.combine(storage.categories)
        hasher.combine(storage.guid)
        hasher.combine(storage.content)
        hasher.combine(storage.outlet)
    }

    private enum CodingKeys: String, CodingKey {
        case id, sourceID, title, summary, author, url, imageURL, published, categories, guid, content, outlet
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            sourceID: try container.decode(String.self, forKey: .sourceID),
            title: try container.decode(String.self, forKey: .title),
            summary: try container.decode(String.self, forKey: .summary),
            author: try container.decodeIfPresent(String.self, forKey: .author),
            url: try container.decodeIfPresent(String.self, forKey: .url),
            imageURL: try container.decodeIfPresent(String.self, forKey: .imageURL),
            published: try container.decodeIfPresent(Date.self, forKey: .published),
            categories: try container.decode([String].self, forKey: .categories),
            guid: try container.decodeIfPresent(String.self, forKey: .guid),
            content: try container.decodeIfPresent(String.self, forKey: .content),
            outlet: try container.decodeIfPresent(String.self, forKey: .outlet)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(sourceID, forKey: .sourceID)
        try container.encode(title, forKey: .title)
        try container.encode(summary, forKey: .summary)
        try container.encodeIfPresent(author, forKey: .author)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(imageURL, forKey: .imageURL)
        try container.encodeIfPresent(published, forKey: .published)
        try container.encode(categories, forKey: .categories)
        try container.encodeIfPresent(guid, forKey: .guid)
        try container.encodeIfPresent(content, forKey: .content)
        try container.encodeIfPresent(outlet, forKey: .outlet)
    }
}

extension Article: CustomReflectable {
    /// The fields, as a struct would show them (`InputFingerprintTests` counts them).
    public var customMirror: Mirror {
        Mirror(self, children: [
            "id": id as Any,
            "sourceID": sourceID as Any,
            "title": title as Any,
            "summary": summary as Any,
            "author": author as Any,
            "url": url as Any,
            "imageURL": imageURL as Any,
            "published": published as Any,
            "categories": categories as Any,
            "guid": guid as Any,
            "content": content as Any,
            "outlet": outlet as Any
        ], displayStyle: .struct)
    }
}

extension Article {
    /// The key an article is stored and de-duplicated under.
    package static func key(url: String?, guid: String?, sourceID: String) -> String? {
        if let url, let normalized = URLNormalizer.normalize(url) { return normalized }
        if let guid, !guid.isEmpty { return "\(sourceID):\(guid)" }
        return nil
    }
}

extension Array where Element == Article {
    /// Newest first; articles without a date after dated ones, keeping feed order among equals.
    package func sortedNewestFirst() -> [Article] {
        enumerated().sorted { lhs, rhs in
            Article.isNewer(lhs.element, than: rhs.element) ?? (lhs.offset < rhs.offset)
        }.map(\.element)
    }

    /// Story places in archive order: newest first, undated after dated, equals by id, so a story's place does not
    /// depend on whether a source still lists it. Copies with one id keep their order (the listed copy is kept).
    package func archiveOrder() -> [Int] {
        indices.sorted { lhs, rhs in
            Article.isNewer(self[lhs], than: self[rhs]) ?? (self[lhs].id != self[rhs].id ? self[lhs].id < self[rhs].id : lhs < rhs)
        }
    }

    /// Each story's URL normalized (`nil` for none), in order: what deduplication compares.
    package func normalizedURLs() -> [String?] {
        map { $0.url.flatMap(URLNormalizer.normalize) }
    }

    /// Drops later articles that repeat a story: same id (for a story without URL or guid, its title within its
    /// source), normalized URL, or guid within its source. Each story is then left once, so a feed gives every
    /// entry its own id (`FeedContext.entryID`).
    package func deduplicated() -> [Article] {
        deduplicated(urls: normalizedURLs())
    }

    /// The same, with each story's normalized URL given (`urls[i]` of `self[i]`, `nil` for none).
    package func deduplicated(urls: [String?]) -> [Article] {
        placesKept(urls: urls).map { self[$0] }
    }

    /// The places `deduplicated(urls:)` keeps, in order. Keys are compared by hash first, in full only on a match.
    package func placesKept(urls: [String?]) -> [Int] {
        placesKept(urls: urls, hashes: indices.map { KeyHashes(url: urls[$0], self[$0]) })
    }

    /// `placesKept(urls:)` with given hashes (`nil` where a story lacks that key): tests give every key one hash so
    /// each is compared in full.
    package func placesKept(urls: [String?], hashes: [KeyHashes]) -> [Int] {
        var seenURLs = SeenKeys(capacity: count)
        var seenGUIDs = SeenKeys(capacity: count)
        var seenIDs = SeenKeys(capacity: count)
        return indices.filter { place in
            let article = self[place]
            if let url = urls[place], let hash = hashes[place].url {
                if !seenURLs.insert(hash, at: place, same: { urls[$0] == url }) { return false }
            }
            if let hash = hashes[place].guid {
                let isSame = { (other: Int) in self[other].guid == article.guid && self[other].sourceID == article.sourceID }
                if !seenGUIDs.insert(hash, at: place, same: isSame) { return false }
            }
            return seenIDs.insert(hashes[place].id, at: place, same: { self[$0].id == article.id })
        }
    }
}

/// Hashes of what deduplication compares: id, normalized URL, and guid within its source (unique only there).
package struct KeyHashes: Sendable {
    var id: Int
    var url: Int?
    var guid: Int?

    package init(id: Int, url: Int?, guid: Int?) {
        self.id = id
        self.url = url
        self.guid = guid
    }

    init(url: String?, _ article: Article) {
        self.id = article.id.hashValue
        self.url = url?.hashValue
        if let guid = article.guid, !guid.isEmpty {
            var hasher = Hasher()
            hasher.combine(article.sourceID)
            hasher.combine(guid)
            self.guid = hasher.finalize()
        } else {
            self.guid = nil
        }
    }
}

/// Keys seen by hash: the first place per hash, and the places of other keys sharing a hash (told apart by `same`).
private struct SeenKeys {
    private var first: [Int: Int]
    private var sharingHash: [Int: [Int]] = [:]

    init(capacity: Int) {
        first = Dictionary(minimumCapacity: capacity)
    }

    /// Records the key at `place`; `false` when a key seen before is the same (`same(placeOfThatKey)`).
    mutating func insert(_ hash: Int, at place: Int, same: (Int) -> Bool) -> Bool {
        guard let seen = first[hash] else {
            first[hash] = place
            return true
        }
        if same(seen) { return false }
        if sharingHash[hash]?.contains(where: same) == true { return false }
        sharingHash[hash, default: []].append(place)
        return true
    }
}

extension Article {
    /// Whether `lhs` is newer than `rhs` (dated before undated); `nil` when their times are equal or both missing.
    fileprivate static func isNewer(_ lhs: Article, than rhs: Article) -> Bool? {
        switch (lhs.published, rhs.published) {
        case let (left?, right?) where left != right: left > right
        case (_?, nil): true
        case (nil, _?): false
        default: nil
        }
    }
}
