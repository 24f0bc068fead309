public import Foundation
public import Logging
public import NewsgenModel
public import NewsgenConfig


/// The sources a user can choose from, for the Sources tab and `newsgen sources`. The free plan allows 100
/// requests a day, so the list is cached in `newsapi-sources.json` and refetched only when a day old or in another
/// language (`build --refresh` does not force it; delete the file).
public struct NewsAPICatalog: Sendable {
    /// `nil` without a key, or when no request may be made.
    let client: NewsAPIClient?
    let keyVariable: String
    /// Whether a build shows the list: a key is set and the site has NewsAPI sources.
    let enabledForBuild: Bool
    /// The site's language, as NewsAPI knows it ("en").
    public let language: String
    /// The cache file; `nil` for none.
    public var file: URL?
    public var maximumAge: TimeInterval = 86_400
    /// Where `sources(language:now:)` warns (a cache file it cannot write).
    let logger: Logger

    /// `http` is `nil` when no request may be made and must not follow redirects; `file` defaults to beside the cache.
    public init(
        config: SiteConfig, http: HTTPFetcher?, environment: [String: String] = ProcessInfo.processInfo.environment,
        retry: RetryPolicy = .standard, file: URL? = nil, logger: Logger = .silent
    ) {
        let key = APIKey(environment: environment, variable: config.newsapi.apiKeyEnv)
        keyVariable = config.newsapi.apiKeyEnv
        client = key.flatMap { key in
            http.map { NewsAPIClient(baseURL: config.newsapi.baseURL, key: key, keyVariable: config.newsapi.apiKeyEnv, http: $0, retry: retry, logger: logger) }
        }
        enabledForBuild = key != nil && config.sources.contains { if case .newsapi = $0.kind { true } else { false } }
        language = NewsAPIProvider.newsAPILanguage(config.language)
        self.file = file ?? Self.defaultFile(for: config)
        self.logger = logger
    }

    /// `<cache folder>/newsapi-sources.json`
    public static func defaultFile(for config: SiteConfig) -> URL {
        config.cache.deletingLastPathComponent().appendingPathComponent("newsapi-sources.json")
    }

    /// The list for a build; `nil` without NewsAPI sources or key. Uses a cached list under a day old (any age
    /// offline); a failed fetch falls back to the cache with a warning.
    public func load(now: Date, offline: Bool, logger: Logger) async -> NewsAPISourceList? {
        guard enabledForBuild else { return nil }
        let cached = readCache(language: language)
        if offline { return cached }
        if let cached, now.timeIntervalSince(cached.fetchedAt) < maximumAge { return cached }
        do throws(SourceError) {
            let list = try await fetch(language: language, now: now)
            if let problem = writeCache(list) { logger.warning("NewsAPI sources list: \(problem)") }
            return list
        } catch {
            let fallback = cached.map { "; showing the list from \(Dates.readable($0.fetchedAt))" } ?? ""
            logger.warning("NewsAPI sources list: \(error)\(fallback)")
            return cached
        }
    }

    /// The list for `newsgen sources`: cached if under a day old and in the site's language, else fetched and cached
    /// (a failed cache write is only a warning).
    public func sources(language requested: String? = nil, now: Date) async throws(SourceError) -> NewsAPISourceList {
        let language = requested.map(NewsAPIProvider.newsAPILanguage) ?? self.language
        let isSiteLanguage = language == self.language
        if isSiteLanguage, let cached = readCache(language: language), now.timeIntervalSince(cached.fetchedAt) < maximumAge {
            return cached
        }
        let list = try await fetch(language: language, now: now)
        if isSiteLanguage, let problem = writeCache(list) { logger.warning("NewsAPI sources list: \(problem)") }
        return list
    }

    private func fetch(language: String, now: Date) async throws(SourceError) -> NewsAPISourceList {
        guard let client else {
            throw .missingKey(variable: keyVariable)
        }
        let body = try await client.get("top-headlines/sources", query: [("language", language)], subject: "the NewsAPI sources list")
        guard let answer = try? JSONDecoder().decode(SourcesAnswer.self, from: body), let sources = answer.sources else {
            throw .missingList("sources", host: client.baseURL.host ?? "")
        }
        return NewsAPISourceList(fetchedAt: now, language: language, sources: sources.compactMap(\.source))
    }

    func readCache(language: String) -> NewsAPISourceList? {
        guard let file, let data = try? Data(contentsOf: file) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let list = try? decoder.decode(NewsAPISourceList.self, from: data), list.language == language else { return nil }
        return list
    }

    /// Writes the cache file atomically; returns the problem, if any.
    func writeCache(_ list: NewsAPISourceList) -> String? {
        guard let file else { return nil }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(list).write(to: file, options: .atomic)
            return nil
        } catch {
            return "cannot write \(file.path) (\(FileProblem.describe(error)))"
        }
    }

    /// NewsAPI's answer; sources without an id or a name are dropped, other fields may be null.
    private struct SourcesAnswer: Decodable {
        var sources: [Entry]?

        struct Entry: Decodable {
            var id: String?
            var name: String?
            var description: String?
            var url: String?
            var category: String?
            var language: String?
            var country: String?

            var source: NewsAPISource? {
                func clean(_ text: String?) -> String {
                    Text.collapsingWhitespace(Text.removingForbiddenCharacters(text ?? ""))
                }
                guard let id = id.map(clean), !id.isEmpty, let name = name.map(clean), !name.isEmpty else { return nil }
                return NewsAPISource(
                    id: id, name: name, description: clean(description),
                    url: URLNormalizer.absoluteHTTP(url, base: nil),
                    category: clean(category), language: clean(language), country: clean(country)
                )
            }
        }
    }
}
