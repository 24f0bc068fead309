import Foundation
package import Logging
package import NewsgenModel
package import NewsgenConfig

/// Reads sources with a `newsapi` value from NewsAPI (https://newsapi.org/docs):
/// - `"newsapi": "bbc-news"` → `top-headlines?sources=…`, batched 20 ids per request (NewsAPI's limit) with
///   `pageSize=100`; the first source fetched triggers the request, others pick articles by `source.id`. A busy
///   source can fill the page and starve a quiet one, which then keeps its cache (reported not modified);
///   `newsapi.requestPerSource` trades quota for completeness.
/// - `{"country", "category", …}` → `top-headlines` with those parameters.
/// - `{"q", …}` → `everything`, `sortBy=publishedAt` and the site's language unless given.
/// The key comes from `newsapi.apiKeyEnv` and travels only in X-Api-Key; without it the provider is `unavailable`.
package struct NewsAPIProvider: SourceProvider {
    /// NewsAPI's limits.
    public static let maximumSourcesPerRequest = 20
    public static let maximumPageSize = 100

    /// `nil` without a key, or when no request may be made.
    let client: NewsAPIClient?
    let hasKey: Bool
    let settings: NewsAPISettings
    let language: String
    let articlesPerSource: Int
    let logger: Logger
    private let batches: Batches

    /// `config` lets source-id sources be batched; `http` is `nil` when no request may be made and must not follow
    /// redirects; the key is read from `environment`.
    public init(
        config: SiteConfig, http: HTTPFetcher?, environment: [String: String] = ProcessInfo.processInfo.environment,
        retry: RetryPolicy = .standard, logger: Logger = .silent
    ) {
        settings = config.newsapi
        language = Self.newsAPILanguage(config.language)
        articlesPerSource = config.articlesPerSource
        self.logger = logger
        let key = APIKey(environment: environment, variable: config.newsapi.apiKeyEnv)
        hasKey = key != nil
        client = key.flatMap { key in
            http.map { NewsAPIClient(baseURL: config.newsapi.baseURL, key: key, keyVariable: config.newsapi.apiKeyEnv,
                                     http: $0, retry: retry, logger: logger) }
        }
        var ids: [String] = []
        for source in config.sources {
            if case .newsapi(.source(let id)) = source.kind, !ids.contains(id) { ids.append(id) }
        }
        let groups = stride(from: 0, to: ids.count, by: Self.maximumSourcesPerRequest).map {
            Array(ids[$0..<min($0 + Self.maximumSourcesPerRequest, ids.count)])
        }
        batches = Batches(groups: config.newsapi.requestPerSource ? [] : groups)
    }

    /// NewsAPI knows two-letter languages: "pt-BR" is asked as "pt", by `LanguageTag`'s rule. Other input is passed
    /// lowercased.
    static func newsAPILanguage(_ tag: String) -> String {
        LanguageTag.primaryLanguage(of: tag) ?? tag.lowercased()
    }

    public func handles(_ source: SourceConfig) -> Bool {
        if case .newsapi = source.kind { return true }
        return false
    }

    public var unavailable: ProviderUnavailable? {
        hasKey ? nil : ProviderUnavailable(reason: "\(settings.apiKeyEnv) is not set", kind: "NewsAPI")
    }

    public func fetch(_ request: FetchRequest) async throws(SourceError) -> FetchOutcome {
        guard case .newsapi(let query) = request.source.kind else { throw .wrongKind(expected: "a NewsAPI source") }
        guard let client else {
            throw unavailable.map { .providerUnavailable(reason: $0.reason) } ?? .offline
        }
        let subject = "source \"\(request.source.id)\""
        let pageSize = min(articlesPerSource, Self.maximumPageSize)
        switch query {
        case .source(let id):
            let timeout = request.timeout
            let loader: @Sendable ([String]) async -> Result<NewsPayload, SourceError> = { ids in
                do throws(SourceError) {
                    return .success(try await Self.page(client, "top-headlines", [("sources", ids.joined(separator: ",")), ("pageSize", String(Self.maximumPageSize))],
                                                        subject: "NewsAPI sources \(ids.joined(separator: ","))", timeout: timeout))
                } catch {
                    return .failure(error)
                }
            }
            if let batch = await batches.page(containing: id, load: loader) {
                return try outcome(fromBatch: batch.get(), newsAPIID: id, sourceID: request.source.id)
            }
            let payload = try await Self.page(client, "top-headlines", [("sources", id), ("pageSize", String(pageSize))], subject: subject, timeout: request.timeout)
            return outcome(payload, sourceID: request.source.id, title: payload.items?.first { $0.sourceID == id }?.sourceName)
        case .topHeadlines(let parameters):
            var query = parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            query.append(("pageSize", String(pageSize)))
            return outcome(try await Self.page(client, "top-headlines", query, subject: subject, timeout: request.timeout), sourceID: request.source.id, title: nil)
        case .everything(var parameters):
            parameters["sortBy"] = parameters["sortBy"] ?? "publishedAt"
            parameters["language"] = parameters["language"] ?? language
            var query = parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            query.append(("pageSize", String(pageSize)))
            return outcome(try await Self.page(client, "everything", query, subject: subject, timeout: request.timeout), sourceID: request.source.id, title: nil)
        }
    }

    /// One source's share of its batch's answer.
    private func outcome(fromBatch payload: NewsPayload, newsAPIID: String, sourceID: String) -> FetchOutcome {
        let items = (payload.items ?? []).filter { $0.sourceID == newsAPIID }
        let pageCount = payload.items?.count ?? 0
        if items.isEmpty, let total = payload.totalResults, total > pageCount {
            logger.debug("source \"\(sourceID)\": none of its articles made the shared page (\(pageCount) of \(total)); keeping the cached ones (newsapi.requestPerSource avoids this)")
            return .notModified
        }
        return outcome(NewsPayload(items: items), sourceID: sourceID, title: items.first?.sourceName)
    }

    private func outcome(_ payload: NewsPayload, sourceID: String, title: String?) -> FetchOutcome {
        let articles = NewsPayload.articles(payload.items ?? [], sourceID: sourceID, limit: articlesPerSource, categories: false, format: .newsAPI)
        let name = title.map { Text.collapsingWhitespace(Text.removingForbiddenCharacters($0)) }
        return .fetched(SourceContent(format: .newsAPI, title: name?.isEmpty == false ? name : nil, articles: articles))
    }

    /// A page of articles; an answer without `articles` is an error.
    private static func page(_ client: NewsAPIClient, _ endpoint: String, _ query: [(String, String)], subject: String, timeout: Duration?) async throws(SourceError) -> NewsPayload {
        let body = try await client.get(endpoint, query: query, subject: subject, timeout: timeout)
        guard let payload = NewsPayload.decode(body), payload.itemsKey == "articles" else {
            throw .missingList("articles", host: client.baseURL.host ?? "")
        }
        return payload
    }

    /// The batched requests of one build: each group of ids is fetched once, on first need.
    private actor Batches {
        let groups: [[String]]
        private var pages: [Int: Task<Result<NewsPayload, SourceError>, Never>] = [:]

        init(groups: [[String]]) {
            self.groups = groups
        }

        /// The answer for the group holding `id`, or `nil` if no group does (one request per source).
        func page(containing id: String, load: @escaping @Sendable ([String]) async -> Result<NewsPayload, SourceError>) async -> Result<NewsPayload, SourceError>? {
            guard let index = groups.firstIndex(where: { $0.contains(id) }) else { return nil }
            if let task = pages[index] { return await task.value }
            let group = groups[index]
            let task = Task { await load(group) }
            pages[index] = task
            return await task.value
        }
    }
}

extension NewsPayload {
    /// A payload holding only `items`, as a source's share of a batch.
    init(items: [Item]) {
        self.items = items
        itemsKey = "articles"
    }
}
