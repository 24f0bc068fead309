import Foundation

/// What a provider is asked for: the source, and the validators of the last successful fetch
/// for a conditional GET.
public struct FetchRequest: Sendable {
    public var source: SourceConfig
    public var etag: String?
    public var lastModified: String?

    public init(source: SourceConfig, etag: String? = nil, lastModified: String? = nil) {
        self.source = source
        self.etag = etag
        self.lastModified = lastModified
    }
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

/// The answer of a provider.
public enum FetchOutcome: Sendable {
    /// New content.
    case fetched(SourceContent)
    /// The server answered 304: what the cache holds is still current.
    case notModified
}

/// Why one source could not be fetched; it reads as the end of "source X: …".
///
/// `message` is what the public pages show (and what the cache keeps): it names what happened
/// but never a path on the server. `description` is the log line's form, with the details only
/// the site's owner should see, such as the full path of a local feed file.
public struct SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// For the pages: no server paths.
    public var message: String
    /// HTTP status, when the server answered.
    public var status: Int?
    /// For the build's log, when it says more than `message`.
    public var detail: String?

    public init(_ message: String, status: Int? = nil, detail: String? = nil) {
        self.message = message
        self.status = status
        self.detail = detail
    }

    /// The log line's form: the detail when there is one, else the message.
    public var description: String { detail ?? message }
}

/// Why a provider can fetch none of its sources in this build, such as a missing API key.
public struct ProviderUnavailable: Sendable, Hashable {
    /// Starts the warning line: "NEWS_API_KEY is not set".
    public var reason: String
    /// What its sources are called in that line: "NewsAPI".
    public var kind: String

    public init(reason: String, kind: String) {
        self.reason = reason
        self.kind = kind
    }
}

/// Fetches the articles of one kind of source. Feeds, NewsAPI and JSON news APIs each have one.
public protocol SourceProvider: Sendable {
    /// Whether this provider serves the source.
    func handles(_ source: SourceConfig) -> Bool
    func fetch(_ request: FetchRequest) async throws(SourceError) -> FetchOutcome
    /// `nil` when the provider can work. Otherwise the fetch stage does not call it: its sources
    /// are shown from the cache or as unavailable, with one warning line for all of them.
    var unavailable: ProviderUnavailable? { get }
}

extension SourceProvider {
    public var unavailable: ProviderUnavailable? { nil }
}
