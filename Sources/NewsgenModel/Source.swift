public import Foundation

/// One entry of `sources` in site.json.
public struct SourceConfig: Sendable, Hashable {
    /// Where a feed or JSON source is read from.
    public enum Location: Sendable, Hashable, CustomStringConvertible {
        case remote(URL)
        case file(URL)

        public var description: String {
            switch self {
            case .remote(let url): url.absoluteString
            case .file(let url): url.path
            }
        }
    }

    /// What NewsAPI is asked for.
    public enum NewsAPIQuery: Sendable, Hashable {
        /// `top-headlines?sources=<id>`
        case source(String)
        /// `top-headlines` with country/category (and other) parameters.
        case topHeadlines([String: String])
        /// `everything` with `q` (and other) parameters.
        case everything([String: String])
    }

    public enum Kind: Sendable, Hashable {
        case feed(Location)
        case newsapi(NewsAPIQuery)
        case json(Location)
    }

    /// Where a story's full text comes from.
    public enum FullText: String, Sendable, Hashable, CaseIterable {
        /// Only what the feed carries (`content:encoded`, Atom `content`, JSON Feed `content_html`).
        case feed
        /// What the feed carries; otherwise the article extracted from the story's page, fetched once.
        case extract
    }

    public var id: String
    /// The display name; `nil` means "use the feed's own title".
    public var name: String?
    /// The section the source's articles appear under on the front page.
    public var category: String?
    public var kind: Kind
    /// Overrides the site's (or NewsAPI's) refresh interval for this source.
    public var refreshMinutes: Int?
    /// Overrides the site's `timeoutSeconds`: one request's deadline, connect to last byte.
    public var timeoutSeconds: Double?
    public var fullText: FullText

    public init(id: String, name: String? = nil, category: String? = nil, kind: Kind, refreshMinutes: Int? = nil,
                timeoutSeconds: Double? = nil, fullText: FullText = .feed) {
        self.id = id
        self.name = name
        self.category = category
        self.kind = kind
        self.refreshMinutes = refreshMinutes
        self.timeoutSeconds = timeoutSeconds
        self.fullText = fullText
    }
}

/// The formats newsgen reads.
public enum FeedFormat: String, Sendable, Hashable, Codable {
    case rss2 = "RSS 2.0"
    case rss1 = "RSS 1.0"
    case atom = "Atom 1.0"
    case jsonFeed = "JSON Feed"
    case newsAPI = "NewsAPI"
    case newsJSON = "JSON news API"
}

/// A source's content as fetched now.
public struct SourceContent: Sendable {
    public var format: FeedFormat
    /// The title the source gives itself (the feed's title).
    public var title: String?
    /// The source's own home page, an absolute http(s) URL.
    public var homepage: String?
    public var articles: [Article]
    public var etag: String?
    public var lastModified: String?

    public init(format: FeedFormat, title: String? = nil, homepage: String? = nil, articles: [Article], etag: String? = nil, lastModified: String? = nil) {
        self.format = format
        self.title = title
        self.homepage = homepage
        self.articles = articles
        self.etag = etag
        self.lastModified = lastModified
    }
}

