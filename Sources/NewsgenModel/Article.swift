public import Foundation
import Synchronization

/// One news article, from any kind of source, as the rest of the pipeline sees it.
///
/// Every text field is plain text (no markup) with the characters XML forbids removed, except
/// `content`, which is sanitized HTML; every URL is an absolute http(s) URL.
///
/// A value, stored copy-on-write: a site puts each story in many lists (its source's, the
/// archive, its day, its tags, the feeds), and a copy is one reference.
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
    /// The full story as the feed carries it, already sanitized: an XHTML-compatible fragment
    /// of allowed elements and absolute http(s) URLs that a page may include as it is.
    /// `nil` when the feed gives only a summary.
    public var content: String? {
        get { storage.content }
        set { unique().content = newValue }
    }
    /// The outlet that published the story when the source gathers many (NewsAPI's
    /// `source.name`, an RSS item's `<source>`); `nil` when the source is the outlet itself.
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

    /// The fields. Changed only through `unique()`, so never while another article shares them:
    /// a storage reachable from more than one thread is only read, which makes it safe to send
    /// (the digests, written after sharing, are behind their own `Mutex`).
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

    /// The storage's identity: equal for two articles only while they share their storage
    /// (one is a copy of the other, unchanged since), and so are equal in every field.
    package var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// The storage, copied first when another article shares it; about to change, so its
    /// digests are forgotten (a copy starts without them).
    private mutating func unique() -> Storage {
        if isKnownUniquelyReferenced(&storage) {
            storage.digests.withLock { $0 = nil }
        } else {
            storage = storage.copy()
        }
        return storage
    }

    /// Digests of the fields (`ArticleDigests`), made by `make` the first time they are asked
    /// for and kept with the fields until one of them changes: a story is fed into the build's
    /// input fingerprint, into that of each feed list that holds it, and into the fingerprint of
    /// each page that shows it. Two articles that share their storage share them; `make` must
    /// depend on the fields alone.
    package func digests(making make: (Article) -> ArticleDigests) -> ArticleDigests {
        if let known = storage.digests.withLock({ $0 }) { return known }
        let made = make(self)
        storage.digests.withLock { $0 = made }
        return made
    }

    /// The digests `digests(making:)` made or was given, when they are known.
    package var knownDigests: ArticleDigests? { storage.digests.withLock { $0 } }

    /// The article, with `digests` taken as the ones `digests(making:)` makes of its fields:
    /// made by the same function before, and kept beside them (the cache keeps each story's
    /// with its row).
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
    /// The fields, as a struct of them would show them (`InputFingerprintTests` counts them).
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

    /// The places of the stories in the order the archive lists them: newest first, articles
    /// without a date after dated ones, and among equals by id, so that a story's place does
    /// not depend on whether a source lists it now or only the cache still holds it. Copies
    /// with one id keep their order: the listed copy, first, is the one deduplication keeps.
    package func archiveOrder() -> [Int] {
        indices.sorted { lhs, rhs in
            Article.isNewer(self[lhs], than: self[rhs]) ?? (self[lhs].id != self[rhs].id ? self[lhs].id < self[rhs].id : lhs < rhs)
        }
    }

    /// Each story's URL normalized (`nil` for none), in order: what deduplication compares.
    package func normalizedURLs() -> [String?] {
        map { $0.url.flatMap(URLNormalizer.normalize) }
    }

    /// Drops later articles that are a story seen before: one with its id (the key it is stored
    /// under, which for a story without a URL or guid is its title within its source), its
    /// normalized URL, or its guid within its source. What is left holds each story once, so a
    /// feed written from it gives every entry an id of its own (`FeedContext.entryID`).
    package func deduplicated() -> [Article] {
        deduplicated(urls: normalizedURLs())
    }

    /// The same, with each story's normalized URL made beforehand (`urls[i]` of `self[i]`,
    /// `nil` for none).
    package func deduplicated(urls: [String?]) -> [Article] {
        placesKept(urls: urls).map { self[$0] }
    }

    /// The places of the stories `deduplicated(urls:)` keeps, in order. The stories' keys are
    /// hashed first, then looked up in order by their hashes, and compared in full only when a
    /// hash was seen before.
    package func placesKept(urls: [String?]) -> [Int] {
        placesKept(urls: urls, hashes: indices.map { KeyHashes(url: urls[$0], self[$0]) })
    }

    /// `placesKept(urls:)` with the keys' hashes given (`hashes[i]` of `self[i]`, `nil` where the
    /// story has no such key): the tests give every key one hash, so that each is compared in full.
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

/// The hashes of what deduplication compares a story by: its id, its normalized URL, and its
/// guid within its source (a GUID is unique within its source only); `nil` for none.
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

/// Keys seen, by their hashes: the place of the first key seen with each hash, and the places
/// of any other keys with a hash seen before (two keys of one hash, which `same` tells apart).
private struct SeenKeys {
    private var first: [Int: Int]
    private var sharingHash: [Int: [Int]] = [:]

    init(capacity: Int) {
        first = Dictionary(minimumCapacity: capacity)
    }

    /// Records the key at `place`, of hash `hash`; `false` when a key seen before is the same
    /// (`same(placeOfThatKey)`).
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
    /// Whether `lhs` comes before `rhs` newest first (a dated story before an undated one);
    /// `nil` when their times are equal, or both have none.
    fileprivate static func isNewer(_ lhs: Article, than rhs: Article) -> Bool? {
        switch (lhs.published, rhs.published) {
        case let (left?, right?) where left != right: left > right
        case (_?, nil): true
        case (nil, _?): false
        default: nil
        }
    }
}
