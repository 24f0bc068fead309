public import Foundation

/// One news article, from any kind of source, as the rest of the pipeline sees it.
///
/// Every text field is plain text (no markup) with the characters XML forbids removed, except
/// `content`, which is sanitized HTML; every URL is an absolute http(s) URL.
public struct Article: Sendable, Hashable, Codable {
    /// The storage key: the normalized URL, or `source:guid` when the article has no URL.
    public var id: String
    public var sourceID: String
    public var title: String
    public var summary: String
    public var author: String?
    public var url: String?
    public var imageURL: String?
    public var published: Date?
    /// The tags the source gave the article.
    public var categories: [String]
    /// The identifier the source gave the article (RSS guid, Atom id, JSON Feed id).
    public var guid: String?
    /// The full story as the feed carries it, already sanitized: an XHTML-compatible fragment
    /// of allowed elements and absolute http(s) URLs that a page may include as it is.
    /// `nil` when the feed gives only a summary.
    public var content: String?
    /// The outlet that published the story when the source gathers many (NewsAPI's
    /// `source.name`, an RSS item's `<source>`); `nil` when the source is the outlet itself.
    public var outlet: String?

    public init(
        id: String, sourceID: String, title: String, summary: String = "", author: String? = nil,
        url: String? = nil, imageURL: String? = nil, published: Date? = nil,
        categories: [String] = [], guid: String? = nil, content: String? = nil, outlet: String? = nil
    ) {
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
            switch (lhs.element.published, rhs.element.published) {
            case let (left?, right?) where left != right: left > right
            case (_?, nil): true
            case (nil, _?): false
            default: lhs.offset < rhs.offset
            }
        }.map(\.element)
    }

    /// Drops later articles whose normalized URL, or else whose guid, was already seen.
    package func deduplicated() -> [Article] {
        var normalized = URLNormalizer.Memo()
        return deduplicated(normalizing: &normalized)
    }

    /// The same, normalizing each URL through `normalized`, which remembers the URLs it has
    /// seen: a site deduplicates the same stories more than once (the headlines, then the archive).
    package func deduplicated(normalizing normalized: inout URLNormalizer.Memo) -> [Article] {
        var seenURLs = Set<String>()
        var seenGUIDs = Set<String>()
        return filter { article in
            if let url = article.url.flatMap({ normalized.normalize($0) }) {
                if !seenURLs.insert(url).inserted { return false }
            }
            if let guid = article.guid, !guid.isEmpty {
                if !seenGUIDs.insert("\(article.sourceID)\u{0}\(guid)").inserted { return false }
            }
            return true
        }
    }
}
