import Foundation
package import Logging
package import NewsgenModel

/// Reads `json` sources: a custom news API or local file answering with the origins/003 payload:
/// ```json
/// { "status": "ok", "totalResults": 3,
///   "news": [ { "id": 155, "source": { "id": null, "name": "Coindesk.com" }, "tags": [ { "name": "fintech", "id": 11 } ],
///               "author": "…", "title": "…", "description": "…", "url": "…", "urlToImage": null,
///               "publishedAt": "2020-02-02T16:20:00Z", "content": "… [+1998 chars]" } ] }
/// ```
/// Tags become categories. Ids may be numbers or strings, `source.id` may be null; an item without `url` is keyed by
/// source and id. Remote APIs use a conditional GET, retried under the policy.
package struct JSONNewsProvider: SourceProvider {
    let http: HTTPFetcher?
    let articlesPerSource: Int
    let retry: RetryPolicy
    let maximumBytes: Int
    let logger: Logger

    /// `http` is `nil` when the build may make no request (`--offline`).
    public init(http: HTTPFetcher?, articlesPerSource: Int, retry: RetryPolicy = .standard, maximumBytes: Int = 10 * 1_048_576, logger: Logger = .silent) {
        self.http = http
        self.articlesPerSource = articlesPerSource
        self.retry = retry
        self.maximumBytes = maximumBytes
        self.logger = logger
    }

    public func handles(_ source: SourceConfig) -> Bool {
        if case .json = source.kind { return true }
        return false
    }

    public func fetch(_ request: FetchRequest) async throws(SourceError) -> FetchOutcome {
        guard case .json(let location) = request.source.kind else { throw .wrongKind(expected: "a JSON news API source") }
        switch location {
        case .file(let url):
            let data = try LocalFile.read(url, limit: maximumBytes)
            return .fetched(try content(data, name: url.lastPathComponent, path: url.path, source: request.source))
        case .remote(let url):
            guard let http else { throw .offline }
            let host = url.host ?? url.absoluteString
            let (result, attempts) = await http.get(url, headers: [("Accept", "application/json")], etag: request.etag, lastModified: request.lastModified, timeout: request.timeout,
                                                    retrying: retry, subject: "source \"\(request.source.id)\"", logger: logger)
            let response: HTTPResponse
            switch result {
            case .failure(let error): throw .transport(error, host: host, attempts: attempts)
            case .success(let answer): response = answer
            }
            if response.status == 304 { return .notModified }
            guard (200..<300).contains(response.status) else {
                let payload = NewsPayload.decode(response.body)
                let detail = (payload?.message ?? payload?.code).map { Text.serverMessage($0) }
                throw .httpStatus(response.status, host: host, serverMessage: detail, attempts: attempts)
            }
            var content = try content(response.body, name: host, path: nil, source: request.source)
            content.etag = response.header("ETag")
            content.lastModified = response.header("Last-Modified")
            return .fetched(content)
        }
    }

    /// `name` may be shown on pages (host or file name); `path`, a local file's full path, goes only to the log.
    private func content(_ data: Data, name: String, path: String?, source: SourceConfig) throws(SourceError) -> SourceContent {
        func failure(_ problem: SourceError.PayloadProblem) -> SourceError {
            .badPayload(problem, name: name, path: path)
        }
        guard let payload = NewsPayload.decode(data) else {
            throw failure(.notAnObject)
        }
        if let status = payload.status, status.lowercased() != "ok" {
            throw failure(.status(Text.serverMessage(status, limit: 40), detail: (payload.message ?? payload.code).map { Text.serverMessage($0) }))
        }
        guard let items = payload.items, payload.itemsKey == "news" else {
            throw failure(.noNewsList)
        }
        return SourceContent(
            format: .newsJSON,
            articles: NewsPayload.articles(items, sourceID: source.id, limit: articlesPerSource, categories: true, format: .newsJSON)
        )
    }
}
