public import Foundation

/// How a source fared in this build, and the articles it contributes.
public struct SourceReport: Sendable {
    public enum Status: Sendable, Hashable {
        /// Fetched (or read from its file) now.
        case fetched
        /// The server answered 304; the cached articles are current.
        case notModified
        /// Fetched less than its refresh interval ago; served from the cache without a request.
        case recent(lastSuccess: Date)
        /// `--offline`: served from a cache younger than maxCacheAgeDays.
        case offline(lastSuccess: Date)
        /// The fetch failed; served from a cache younger than maxCacheAgeDays. `since` is when the source began failing,
        /// as far as anyone knows (`nil` when it was not tried, as without its provider).
        case stale(lastSuccess: Date, error: String, since: Date?)
        /// The fetch failed (or was not allowed) and nothing young enough is cached; nothing is shown. `since` as above.
        case unavailable(since: Date?, error: String)
    }

    public var config: SourceConfig
    public var status: Status
    /// The name pages show: the configured name, else the feed's title, else the id.
    public var name: String
    public var homepage: String?
    public var format: FeedFormat?
    /// The articles pages and feeds show (empty when unavailable).
    public var articles: [Article]
    /// Whether the articles were read from the source in this build (a response with a body, a
    /// local file that changed), not taken from the cache: then the site may well change.
    package var readNow = false

    public init(config: SourceConfig, status: Status, name: String, homepage: String? = nil, format: FeedFormat? = nil, articles: [Article]) {
        self.config = config
        self.status = status
        self.name = name
        self.homepage = homepage
        self.format = format
        self.articles = articles
    }

    public var id: String { config.id }

    /// Fresh in the sense of the exit status contract: fetched now, not modified, within its refresh
    /// interval, or read from a young enough cache under `--offline`.
    public var isFresh: Bool {
        switch status {
        case .fetched, .notModified, .recent, .offline: true
        case .stale, .unavailable: false
        }
    }
}
