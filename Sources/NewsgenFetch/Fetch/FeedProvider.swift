package import Foundation
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
    /// The clock a local file's change time is compared with (`LocalFile.validator`).
    let now: @Sendable () -> Date
    /// How many of its sources' documents are read at once (the build makes one provider).
    let slots = ParsingSlots()

    /// `http` is `nil` when the build may make no request (`--offline`).
    public init(http: HTTPFetcher?, articlesPerSource: Int, maximumBytes: Int = 10 * 1_048_576, retry: RetryPolicy = .standard, logger: Logger = .silent,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.http = http
        self.articlesPerSource = articlesPerSource
        self.maximumBytes = maximumBytes
        self.retry = retry
        self.logger = logger
        self.now = now
    }

    /// The time a document may take to read when the request names no timeout.
    static let defaultTimeout: Duration = .seconds(30)

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
            // Like a 304: a file still matching its validator (the request's ETag) would parse to what the cache holds.
            // Taken before reading, so a file changing while read no longer matches.
            let validator = LocalFile.validator(url, reading: "feed \(articlesPerSource) \(maximumBytes)", now: now())
            if let validator, validator == request.etag { return .notModified }
            // Read inside the parsing slot, so waiting sources hold no bytes.
            var content = try await slots.run { () throws(SourceError) in
                try parse(LocalFile.read(url, limit: maximumBytes), name: url.path, base: nil, request: request)
            }
            content.etag = validator
            return .fetched(content)
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
            var content = try await slots.run { () throws(SourceError) in
                try parse(response.body, name: url.absoluteString, base: url, request: request)
            }
            content.etag = response.header("ETag")
            content.lastModified = response.header("Last-Modified")
            return .fetched(content)
        }
    }

    /// Parsing gets the request's deadline over again, from now: a feed slow to read is stopped like one slow to
    /// send. The fetch budget's end or a stop signal cancels the task, which stops the parse too.
    private func parse(_ data: Data, name: String, base: URL?, request: FetchRequest) throws(SourceError) -> SourceContent {
        let source = request.source
        let feed: ParsedFeed
        do {
            feed = try FeedParser.parse(data, url: name, limits: .within(seconds: (request.timeout ?? Self.defaultTimeout).seconds))
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

/// Local source files, size-capped. Pages name the file only (`cannot read missing.xml (no such file)`); the log
/// line has its full path.
enum LocalFile {
    /// A file changed this recently gets no validator: timestamps are coarse, so a same-size rewrite within the same
    /// tick would look unchanged.
    static let settleSeconds: Double = 2

    /// The source's ETag for a local file, made without reading it: device, inode, size, modification and change time
    /// (which nobody can set back), plus `reading` (newsgen version and parse settings). `nil` when the file cannot be
    /// examined or changed within `settleSeconds` of `now`.
    static func validator(_ url: URL, reading settings: String, now: Date) -> String? {
        var status = stat()
        guard stat(url.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let changed = Double(status.st_ctim.tv_sec) + Double(status.st_ctim.tv_nsec) / 1e9
        guard now.timeIntervalSince1970 - changed >= settleSeconds else { return nil }
        return "file \(status.st_dev):\(status.st_ino) \(status.st_size) \(status.st_mtim.nanoseconds) \(status.st_ctim.nanoseconds) "
            + "newsgen \(NewsgenVersion.string) \(settings)"
    }

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
