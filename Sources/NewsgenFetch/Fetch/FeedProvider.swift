import Foundation
package import Logging
package import NewsgenModel

/// Reads RSS, Atom and JSON Feed sources, from http(s) (conditional GET) or from local files.
package struct FeedProvider: SourceProvider {
    let http: HTTPFetcher?
    let articlesPerSource: Int
    let maximumBytes: Int
    /// Retries of 429, 5xx and connection failures.
    let retry: RetryPolicy
    /// Where retries are logged (debug).
    let logger: Logger

    /// `http` is `nil` when the build may make no request (`--offline`).
    public init(http: HTTPFetcher?, articlesPerSource: Int, maximumBytes: Int = 10 * 1_048_576, retry: RetryPolicy = .standard, logger: Logger = .silent) {
        self.http = http
        self.articlesPerSource = articlesPerSource
        self.maximumBytes = maximumBytes
        self.retry = retry
        self.logger = logger
    }

    public func handles(_ source: SourceConfig) -> Bool {
        if case .feed = source.kind { return true }
        return false
    }

    public func fetch(_ request: FetchRequest) async throws(SourceError) -> FetchOutcome {
        guard case .feed(let location) = request.source.kind else {
            throw .wrongKind(expected: "a feed source")
        }
        switch location {
        case .file(let url):
            let data = try LocalFile.read(url, limit: maximumBytes)
            return .fetched(try parse(data, name: url.path, base: nil, source: request.source))
        case .remote(let url):
            guard let http else { throw .offline }
            let accept = "application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.5"
            let (result, attempts) = await http.get(url, headers: [("Accept", accept)], etag: request.etag, lastModified: request.lastModified, timeout: request.timeout,
                                                    retrying: retry, subject: "source \"\(request.source.id)\"", logger: logger)
            let response: HTTPResponse
            switch result {
            case .success(let answer): response = answer
            case .failure(let error): throw .transport(error, attempts: attempts)
            }
            if response.status == 304 { return .notModified }
            guard (200..<300).contains(response.status) else {
                throw .httpStatus(response.status, host: url.host ?? url.absoluteString, attempts: attempts)
            }
            var content = try parse(response.body, name: url.absoluteString, base: url, source: request.source)
            content.etag = response.header("ETag")
            content.lastModified = response.header("Last-Modified")
            return .fetched(content)
        }
    }

    private func parse(_ data: Data, name: String, base: URL?, source: SourceConfig) throws(SourceError) -> SourceContent {
        let feed: ParsedFeed
        do {
            feed = try FeedParser.parse(data, url: name)
        } catch {
            throw .notAFeed(reason: error.description)
        }
        for repair in feed.repairs {
            logger.debug("source \"\(source.id)\": \(repair)")
        }
        return SourceContent(
            format: feed.format,
            title: feed.title,
            homepage: URLNormalizer.absoluteHTTP(feed.homepage, base: base),
            articles: feed.articles(sourceID: source.id, base: base, limit: articlesPerSource)
        )
    }
}

/// Reading local source files with a size cap and errors that read well. The pages name the
/// file only (`cannot read missing.xml (no such file)`); the log line carries its full path.
enum LocalFile {
    static func read(_ url: URL, limit: Int) throws(SourceError) -> Data {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = attributes?[.size] as? Int, size > limit {
            throw .localFile(.tooLarge(limit: limit), file: url)
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .localFile(.unreadable(FileProblem.describe(error)), file: url)
        }
    }
}
