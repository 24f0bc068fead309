import Foundation
public import NewsgenModel

/// What a provider is asked for: the source, and the last success's validators for a conditional GET.
public struct FetchRequest: Sendable {
    public var source: SourceConfig
    public var etag: String?
    public var lastModified: String?
    /// Each request's deadline, connect to last byte; `nil` for the fetcher's own.
    public var timeout: Duration?

    public init(source: SourceConfig, etag: String? = nil, lastModified: String? = nil, timeout: Duration? = nil) {
        self.source = source
        self.etag = etag
        self.lastModified = lastModified
        self.timeout = timeout
    }
}


/// The answer of a provider.
public enum FetchOutcome: Sendable {
    /// New content.
    case fetched(SourceContent)
    /// The server answered 304: what the cache holds is still current.
    case notModified
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
    /// `nil` when the provider can work; otherwise the fetch stage skips it, showing its sources from the cache or as
    /// unavailable, with one warning.
    var unavailable: ProviderUnavailable? { get }
}

extension SourceProvider {
    public var unavailable: ProviderUnavailable? { nil }
}
