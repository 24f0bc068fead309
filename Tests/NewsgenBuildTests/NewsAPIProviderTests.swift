import Foundation
import Hummingbird
import Logging
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// NewsAPI against a loopback server that answers with fixture responses.
@Suite("NewsAPI provider")
struct NewsAPIProviderTests {
    typealias Kit = NewsAPITestSupport

    func provider(_ config: SiteConfig, _ fetcher: HTTPFetcher, environment: [String: String] = Kit.environment,
                  retry: RetryPolicy = RetryPolicy.fast(), logger: Logger = .silent) -> NewsAPIProvider {
        NewsAPIProvider(config: config, http: fetcher, environment: environment, retry: retry, logger: logger)
    }

    func fetchAll(_ provider: NewsAPIProvider, _ sources: [SourceConfig]) async throws -> [String: FetchOutcome] {
        try await withThrowingTaskGroup(of: (String, FetchOutcome).self) { group in
            for source in sources {
                group.addTask { (source.id, try await provider.fetch(FetchRequest(source: source))) }
            }
            var outcomes: [String: FetchOutcome] = [:]
            for try await (id, outcome) in group { outcomes[id] = outcome }
            return outcomes
        }
    }

    // MARK: - Requests

    @Test("25 source ids, fetched at once, make 2 requests (20 + 5) with pageSize 100; each source gets its own articles")
    func batching() async throws {
        let log = RequestLog()
        try await withTestServer({ router in
            router.get("v2/top-headlines") { request, _ in
                log.record(request)
                let ids = request.uri.queryParameters["sources"].map { $0.split(separator: ",").map(String.init) } ?? []
                return Response.json(Kit.answer(forSources: ids))
            }
        }) { server in
            let sources = (1...25).map { SourceConfig(id: "s\($0)", kind: .newsapi(.source("outlet-\($0)"))) }
            let config = try Kit.config(server: server, sources: sources)
            try await withHTTPFetcher(followRedirects: false) { fetcher in
                let outcomes = try await fetchAll(provider(config, fetcher), sources)
                #expect(log.count == 2)
                let batches = log.all.map { $0.query["sources"]?.split(separator: ",").map(String.init) ?? [] }
                #expect(batches.map(\.count).sorted() == [5, 20])
                #expect(Set(batches.flatMap { $0 }) == Set((1...25).map { "outlet-\($0)" }))
                #expect(log.all.allSatisfy { $0.query["pageSize"] == "100" && $0.path == "/v2/top-headlines" })
                for number in 1...25 {
                    let articles = outcomes["s\(number)"]?.content?.articles ?? []
                    #expect(articles.map(\.url) == ["https://outlet-\(number).example/story"], "s\(number)")
                    #expect(outcomes["s\(number)"]?.content?.title == "Outlet outlet-\(number)")
                }
            }
        }
    }

    @Test("requestPerSource: one request per source, pageSize = articlesPerSource")
    func requestPerSource() async throws {
        let log = RequestLog()
        try await withTestServer({ router in
            router.get("v2/top-headlines") { request, _ in
                log.record(request)
                return Response.json(Kit.answer(forSources: [request.uri.queryParameters["sources"].map(String.init) ?? ""]))
            }
        }) { server in
            let sources = ["a", "b", "c"].map { SourceConfig(id: $0, kind: .newsapi(.source("outlet-\($0)"))) }
            let config = try Kit.config(server: server, sources: sources, requestPerSource: true, articlesPerSource: 7)
            try await withHTTPFetcher(followRedirects: false) { fetcher in
                let outcomes = try await fetchAll(provider(config, fetcher), sources)
                #expect(log.count == 3)
                #expect(Set(log.all.compactMap { $0.query["sources"] }) == ["outlet-a", "outlet-b", "outlet-c"])
                #expect(log.all.allSatisfy { $0.query["pageSize"] == "7" })
                #expect(outcomes["b"]?.content?.articles.first?.url == "https://outlet-b.example/story")
            }
        }
    }

    @Test("a quiet source that a busy one crowds out of the shared page keeps its cache (not modified)")
    func starvedSource() async throws {
        try await withTestServer({ router in
            router.get("v2/top-headlines") { _, _ in
                Response.json(Kit.answer(forSources: Array(repeating: "busy", count: 100), totalResults: 340))
            }
        }) { server in
            let sources = [SourceConfig(id: "busy", kind: .newsapi(.source("busy"))), SourceConfig(id: "quiet", kind: .newsapi(.source("quiet")))]
            let config = try Kit.config(server: server, sources: sources)
            try await withHTTPFetcher(followRedirects: false) { fetcher in
                let outcomes = try await fetchAll(provider(config, fetcher), sources)
                #expect(outcomes["busy"]?.content?.articles.count == 10)
                guard case .notModified? = outcomes["quiet"] else {
                    Issue.record("the starved source should keep its cached articles, got \(String(describing: outcomes["quiet"]))")
                    return
                }
            }
        }
    }

    @Test("country and category go to top-headlines; q goes to everything with sortBy=publishedAt and the site's language")
    func parameterForms() async throws {
        let log = RequestLog()
        let body = try Kit.fixture("top-headlines.json")
        try await withTestServer({ router in
            router.get("v2/top-headlines") { request, _ in log.record(request); return Response.json(body) }
            router.get("v2/everything") { request, _ in log.record(request); return Response.json(body) }
        }) { server in
            let headlines = SourceConfig(id: "us-business", kind: .newsapi(.topHeadlines(["country": "us", "category": "business"])))
            let search = SourceConfig(id: "swift", kind: .newsapi(.everything(["q": "swift +concurrency & actors"])))
            let detailed = SourceConfig(id: "detailed", kind: .newsapi(.everything([
                "q": "harbour", "domains": "meridianwire.example,valleycourier.example", "from": "2026-11-01",
                "sortBy": "relevancy", "searchIn": "title,description",
            ])))
            let config = try Kit.config(server: server, sources: [headlines, search, detailed], language: "pt-BR")
            try await withHTTPFetcher(followRedirects: false) { fetcher in
                let provider = provider(config, fetcher)
                for source in [headlines, search, detailed] {
                    _ = try await provider.fetch(FetchRequest(source: source))
                }
            }
            let entries = log.all
            try #require(entries.count == 3)
            #expect(entries[0].path == "/v2/top-headlines")
            #expect(entries[0].query == ["country": "us", "category": "business", "pageSize": "10"])
            #expect(entries[1].path == "/v2/everything")
            #expect(entries[1].query == ["q": "swift +concurrency & actors", "sortBy": "publishedAt", "language": "pt", "pageSize": "10"])
            #expect(entries[1].uri.contains("q=swift%20%2Bconcurrency%20%26%20actors"), "a plus stays a plus: \(entries[1].uri)")
            #expect(entries[2].query == [
                "q": "harbour", "domains": "meridianwire.example,valleycourier.example", "from": "2026-11-01",
                "sortBy": "relevancy", "searchIn": "title,description", "language": "pt", "pageSize": "10",
            ])
        }
    }

    // MARK: - Responses

    @Test("nullable fields, fractional seconds, placeholders dropped, the [+N chars] tail trimmed")
    func responses() async throws {
        let body = try Kit.fixture("top-headlines.json")
        try await withTestServer({ router in
            router.get("v2/top-headlines") { _, _ in Response.json(body) }
        }) { server in
            let source = SourceConfig(id: "uk", kind: .newsapi(.topHeadlines(["country": "gb"])))
            let config = try Kit.config(server: server, sources: [source])
            let content = try await withHTTPFetcher(followRedirects: false) { fetcher in
                try #require(try await provider(config, fetcher).fetch(FetchRequest(source: source)).content)
            }
            #expect(content.format == .newsAPI)
            let articles = content.articles
            #expect(articles.count == 4, "the two [Removed] placeholders are dropped")
            #expect(!articles.contains { $0.title == "[Removed]" || $0.url?.contains("removed.com") == true })

            let cranes = try #require(articles.first { $0.title.hasPrefix("Harbour cranes") })
            let fraction = try #require(cranes.published).timeIntervalSince(TestSupport.date("2026-11-21T08:15:30Z"))
            #expect(abs(fraction - 0.123) < 0.0005, "fractional seconds kept: \(fraction)")
            #expect(cranes.summary == "Port operators restarted all twelve cranes on Saturday morning.", "description as plain text")
            #expect(cranes.author == "Ada Okafor")
            #expect(cranes.imageURL == "https://meridianwire.example/images/cranes.jpg")
            #expect(cranes.url == "https://meridianwire.example/2026/11/21/harbour-cranes?utm_source=newsapi")
            #expect(cranes.sourceID == "uk")

            let market = try #require(articles.first { $0.title.hasPrefix("Night market") })
            #expect(market.author == nil)
            #expect(market.imageURL == nil)
            #expect(market.published == TestSupport.date("2026-11-21T07:40:00Z"), "whole seconds")
            #expect(market.summary.hasPrefix("The night market returned"), "no description: the content stands in")
            #expect(!market.summary.contains("[+") && !market.summary.contains("chars]"), "\(market.summary)")
            #expect(market.summary.hasSuffix("Traders said the…"), "\(market.summary)")

            let tram = try #require(articles.first { $0.title.hasPrefix("Tram line") })
            #expect(tram.published == TestSupport.date("2026-11-20T16:02:11.5Z"), "fraction and offset")
            #expect(articles.map(\.title).first == cranes.title, "newest first")
        }
    }

    @Test("the [+N chars] marker", arguments: [
        ("Cut here… [+1234 chars]", "Cut here…"),
        ("Cut here...[+12 chars]", "Cut here…"),
        ("Cut here [+7 chars]\r\n", "Cut here…"),
        ("Whole text, no marker", "Whole text, no marker"),
        ("[+99 chars]", ""),
    ])
    func truncationMarker(input: String, expected: String) {
        #expect(NewsPayload.trimmingTruncationMarker(input) == expected)
    }

    // MARK: - Errors

    static let codes = [
        "apiKeyMissing", "apiKeyInvalid", "apiKeyDisabled", "apiKeyExhausted", "rateLimited", "sourcesTooMany",
        "sourceDoesNotExist", "parameterInvalid", "parametersMissing", "maximumResultsReached", "unexpectedError",
    ]

    @Test("each NewsAPI error is one warning line naming the source and the code", arguments: codes)
    func errorCodes(code: String) async throws {
        let cases = try JSONSerialization.jsonObject(with: Kit.fixture("errors.json")) as? [[String: Any]] ?? []
        let entry = try #require(cases.first { ($0["body"] as? [String: String])?["code"] == code })
        let status = try #require(entry["httpStatus"] as? Int)
        let message = (entry["body"] as? [String: String])?["message"] ?? ""
        let log = RequestLog()
        try await withTestServer({ router in
            router.get("v2/top-headlines") { request, _ in
                log.record(request)
                return Response.newsAPIError(code, message, status: status)
            }
        }) { server in
            let source = SourceConfig(id: "us-business", kind: .newsapi(.topHeadlines(["country": "us"])))
            let config = try Kit.config(server: server, sources: [source])
            let (logger, recorder) = TestSupport.recordingLogger()
            let reports = try await withHTTPFetcher(followRedirects: false) { fetcher in
                await Kit.fetchStage(config, providers: [provider(config, fetcher, logger: logger)], logger: logger)
            }
            #expect(recorder.warnings.count == 1)
            let line = try #require(recorder.warnings.first)
            #expect(line.hasPrefix("source \"us-business\": NewsAPI \(code): "), "\(line)")
            #expect(!line.contains("\n"))
            #expect(line.contains(NewsAPIError.explanation(code, keyVariable: "NEWS_API_KEY")))
            guard case .unavailable(_, let error) = reports.first?.status else {
                Issue.record("expected unavailable, got \(String(describing: reports.first?.status))")
                return
            }
            #expect(error.hasPrefix("NewsAPI \(code):"))
            let retried = status == 429 && code != "apiKeyExhausted" || status >= 500
            #expect(log.count == (retried ? 3 : 1), "\(code) (HTTP \(status)) is \(retried ? "" : "not ")retried")
        }
    }

    @Test("429 is retried after Retry-After, then the answer is used")
    func retryAfter429() async throws {
        let log = RequestLog()
        let body = try Kit.fixture("top-headlines.json")
        try await withTestServer({ router in
            router.get("v2/top-headlines") { request, _ in
                log.record(request)
                if log.count == 1 {
                    var response = Response.newsAPIError("rateLimited", "You have made too many requests recently.", status: 429)
                    response.headers[.retryAfter] = "2"
                    return response
                }
                return Response.json(body)
            }
        }) { server in
            let source = SourceConfig(id: "uk", kind: .newsapi(.topHeadlines(["country": "gb"])))
            let config = try Kit.config(server: server, sources: [source])
            let sleeps = SleepLog()
            let content = try await withHTTPFetcher(followRedirects: false) { fetcher in
                try await provider(config, fetcher, retry: RetryPolicy.fast(sleeps: sleeps)).fetch(FetchRequest(source: source)).content
            }
            #expect(content?.articles.count == 4)
            #expect(log.count == 2)
            #expect(sleeps.all == [.seconds(2)], "waited what Retry-After asked, not the 10 ms backoff")
        }
    }

    @Test("500 is retried with exponential backoff; 401 is not retried")
    func retry500Not401() async throws {
        let log = RequestLog()
        let body = try Kit.fixture("top-headlines.json")
        try await withTestServer({ router in
            router.get("v2/top-headlines") { request, _ in
                log.record(request)
                if request.uri.queryParameters["country"] == "xx" {
                    return Response.newsAPIError("apiKeyInvalid", "Your API key is invalid or incorrect.", status: 401)
                }
                let attempts = log.all.filter { $0.query["country"] == "gb" }.count
                return attempts < 3 ? Response(status: .internalServerError) : Response.json(body)
            }
        }) { server in
            let flaky = SourceConfig(id: "uk", kind: .newsapi(.topHeadlines(["country": "gb"])))
            let rejected = SourceConfig(id: "xx", kind: .newsapi(.topHeadlines(["country": "xx"])))
            let config = try Kit.config(server: server, sources: [flaky, rejected])
            let sleeps = SleepLog()
            try await withHTTPFetcher(followRedirects: false) { fetcher in
                let provider = provider(config, fetcher, retry: RetryPolicy.fast(sleeps: sleeps))
                let recovered = try await provider.fetch(FetchRequest(source: flaky))
                #expect(recovered.content?.articles.count == 4)
                #expect(log.count == 3)
                #expect(sleeps.all == [.milliseconds(10), .milliseconds(20)])
                await #expect {
                    try await provider.fetch(FetchRequest(source: rejected))
                } throws: { error in
                    (error as? SourceError)?.message.hasPrefix("NewsAPI apiKeyInvalid:") == true
                }
                #expect(log.count == 4, "a 401 is asked once")
            }
        }
    }

    @Test("500 until the attempts run out: the error says how many were made")
    func retriesExhausted() async throws {
        let log = RequestLog()
        try await withTestServer({ router in
            router.get("v2/top-headlines") { request, _ in
                log.record(request)
                return Response(status: .serviceUnavailable)
            }
        }) { server in
            let source = SourceConfig(id: "uk", kind: .newsapi(.topHeadlines(["country": "gb"])))
            let config = try Kit.config(server: server, sources: [source])
            _ = try await withHTTPFetcher(followRedirects: false) { fetcher in
                await #expect {
                    try await provider(config, fetcher).fetch(FetchRequest(source: source))
                } throws: { error in
                    (error as? SourceError)?.message == "HTTP 503 from 127.0.0.1 (3 attempts)"
                }
            }
            #expect(log.count == 3)
        }
    }

    // MARK: - The key

    @Test("the key travels in X-Api-Key only: not in the URL, not in a log line, not in an error")
    func keyOnlyInHeader() async throws {
        let log = RequestLog()
        let body = try Kit.fixture("top-headlines.json")
        try await withTestServer({ router in
            router.get("v2/top-headlines") { request, _ in
                log.record(request)
                if request.uri.queryParameters["country"] == "xx" {
                    // A server that echoes the key back must not get it into our messages.
                    return Response.newsAPIError("apiKeyInvalid", "Your API key \(Kit.key) is invalid or incorrect.", status: 401)
                }
                return Response.json(body)
            }
            router.get("v2/everything") { request, _ in
                log.record(request)
                return Response(status: .serviceUnavailable)
            }
        }) { server in
            let sources = [
                SourceConfig(id: "good", kind: .newsapi(.topHeadlines(["country": "gb"]))),
                SourceConfig(id: "bad", kind: .newsapi(.topHeadlines(["country": "xx"]))),
                SourceConfig(id: "down", kind: .newsapi(.everything(["q": "harbour"]))),
            ]
            let config = try Kit.config(server: server, sources: sources)
            let (logger, recorder) = TestSupport.recordingLogger()
            let reports = try await withHTTPFetcher(followRedirects: false) { fetcher in
                await Kit.fetchStage(config, providers: [provider(config, fetcher, logger: logger)], logger: logger)
            }
            #expect(log.count == 5, "good once, bad once, down three times")
            for entry in log.all {
                #expect(entry.headers["x-api-key"] == Kit.key)
                #expect(!entry.uri.contains(Kit.key), "\(entry.uri)")
                #expect(!entry.uri.lowercased().contains("apikey"), "\(entry.uri)")
                #expect(entry.headers.filter { $0.value.contains(Kit.key) }.keys.sorted() == ["x-api-key"])
            }
            #expect(!recorder.all.isEmpty)
            #expect(recorder.all.allSatisfy { !$0.contains(Kit.key) }, "\(recorder.all)")
            #expect(recorder.all.contains { $0.contains("[API key]") }, "the echoed key is redacted: \(recorder.all)")
            #expect(recorder.all.contains { $0.contains("retrying") }, "retries are logged (at debug level)")
            for report in reports {
                #expect(!String(describing: report.status).contains(Kit.key))
            }
        }
    }

    @Test("a redirect is not followed: the key goes nowhere else")
    func noRedirect() async throws {
        let elsewhere = RequestLog()
        try await withTestServer({ router in
            router.get("v2/top-headlines") { _, _ in Response(status: .found, headers: [.location: "/elsewhere"]) }
            router.get("elsewhere") { request, _ in
                elsewhere.record(request)
                return Response.json(Data(#"{"status":"ok","articles":[]}"#.utf8))
            }
        }) { server in
            let source = SourceConfig(id: "uk", kind: .newsapi(.topHeadlines(["country": "gb"])))
            let config = try Kit.config(server: server, sources: [source])
            _ = try await withHTTPFetcher(followRedirects: false) { fetcher in
                await #expect {
                    try await provider(config, fetcher).fetch(FetchRequest(source: source))
                } throws: { error in
                    (error as? SourceError)?.message.contains("do not follow redirects") == true
                }
            }
            #expect(elsewhere.count == 0)
        }
    }

    @Test("no key: the fetch stage skips every NewsAPI source with one warning; a cached one is shown stale; feeds still fetch")
    func noKeyFetchStage() async throws {
        let feed = TestSupport.fixtures.appendingPathComponent("world.xml")
        let sources = [
            SourceConfig(id: "bbc", kind: .newsapi(.source("bbc-news"))),
            SourceConfig(id: "local", kind: .feed(.file(feed))),
            SourceConfig(id: "us-business", kind: .newsapi(.topHeadlines(["country": "us", "category": "business"]))),
            SourceConfig(id: "swift", kind: .newsapi(.everything(["q": "swift"]))),
        ]
        let config = try Kit.config(server: URL(string: "http://127.0.0.1:9")!, sources: sources)
        let now = TestSupport.date("2026-11-21T12:00:00Z")
        let store = MemoryStore()
        let cached = Article(id: "https://example.com/swift-6", sourceID: "swift", title: "Swift 6 ships")
        try await store.recordSuccess(of: "swift", content: SourceContent(format: .newsAPI, articles: [cached]), at: now.addingTimeInterval(-7200))
        let (logger, recorder) = TestSupport.recordingLogger()
        let reports = try await withHTTPFetcher(followRedirects: false) { fetcher in
            await Kit.fetchStage(config, providers: [FeedProvider(http: fetcher, articlesPerSource: 10), provider(config, fetcher, environment: [:])],
                                 logger: logger, store: store, now: now)
        }
        #expect(recorder.warnings == ["NEWS_API_KEY is not set; skipping 3 NewsAPI sources: bbc, us-business, swift"])
        let status = Dictionary(uniqueKeysWithValues: reports.map { ($0.id, $0.status) })
        #expect(status["local"] == .fetched)
        #expect(status["bbc"] == .unavailable(since: nil, error: "NEWS_API_KEY is not set"))
        #expect(status["us-business"] == .unavailable(since: nil, error: "NEWS_API_KEY is not set"))
        #expect(status["swift"] == .stale(lastSuccess: now.addingTimeInterval(-7200), error: "NEWS_API_KEY is not set", since: nil))
        #expect(reports.first { $0.id == "swift" }?.articles == [cached])
        #expect(try await store.state(of: "bbc") == nil, "a skipped source is not recorded as failing")
    }

    @Test("no key: unavailable, and fetch makes no request")
    func noKey() async throws {
        let source = SourceConfig(id: "uk", kind: .newsapi(.topHeadlines(["country": "gb"])))
        let config = try Kit.config(server: URL(string: "http://127.0.0.1:9")!, sources: [source])
        try await withHTTPFetcher(followRedirects: false) { fetcher in
            for environment in [[:], ["NEWS_API_KEY": "  "]] {
                let provider = provider(config, fetcher, environment: environment)
                #expect(provider.unavailable == ProviderUnavailable(reason: "NEWS_API_KEY is not set", kind: "NewsAPI"))
                await #expect(throws: SourceError.self) { try await provider.fetch(FetchRequest(source: source)) }
            }
            var named = config
            named.newsapi.apiKeyEnv = "MY_NEWS_KEY"
            #expect(NewsAPIProvider(config: named, http: fetcher, environment: ["MY_NEWS_KEY": "k"]).unavailable == nil)
            #expect(NewsAPIProvider(config: named, http: fetcher, environment: Kit.environment).unavailable?.reason == "MY_NEWS_KEY is not set")
        }
        let key = try #require(APIKey(environment: Kit.environment, variable: "NEWS_API_KEY"))
        #expect("\(key)" == "[API key]" && String(reflecting: key) == "[API key]", "the key never prints")
    }
}
