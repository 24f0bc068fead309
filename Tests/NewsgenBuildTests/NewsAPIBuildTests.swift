import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import Logging
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenValidate
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// Whole builds of a site that mixes the sample feeds with NewsAPI sources, against a loopback NewsAPI.
@Suite("Build with NewsAPI")
struct NewsAPIBuildTests {
    typealias Kit = NewsAPITestSupport
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    static let newsAPISources = [
        SourceConfig(id: "wire", kind: .newsapi(.source("meridian-wire"))),
        SourceConfig(id: "ledger", name: "Ledger", category: "Business", kind: .newsapi(.source("northern-ledger"))),
        SourceConfig(id: "uk", name: "UK headlines", kind: .newsapi(.topHeadlines(["country": "gb"]))),
        SourceConfig(id: "harbour", name: "Harbour news", kind: .newsapi(.everything(["q": "harbour"]))),
    ]

    /// The repository's sample site plus the NewsAPI sources, publishing and caching in a temporary folder.
    func site(server: URL) throws -> (SiteConfig, URL) {
        let folder = try TestSupport.temporaryFolder()
        var config = try SiteConfig.load(from: TestSupport.repository.appendingPathComponent("site.json"))
        config.output = folder.appendingPathComponent("public")
        config.cache = folder.appendingPathComponent(".newsgen/cache.sqlite")
        config.newsapi.baseURL = server.appendingPathComponent("v2")
        config.sources += Self.newsAPISources
        return (config, folder)
    }

    func build(_ config: SiteConfig, environment: [String: String], fetcher: HTTPFetcher?, store: MemoryStore = MemoryStore(),
               at now: Date = Self.now, offline: Bool = false, retry: RetryPolicy = .fast()) async throws(BuildError) -> (BuildReport, LogRecorder) {
        let (logger, recorder) = TestSupport.recordingLogger()
        let build = Build(
            config: config, options: .init(offline: offline),
            providers: [
                FeedProvider(http: fetcher, articlesPerSource: config.articlesPerSource),
                NewsAPIProvider(config: config, http: fetcher, environment: environment, retry: retry, logger: logger),
                JSONNewsProvider(http: fetcher, articlesPerSource: config.articlesPerSource, retry: retry, logger: logger),
            ],
            catalog: NewsAPICatalog(config: config, http: fetcher, environment: environment, retry: retry, logger: logger),
            store: store, now: { now }, logger: logger
        )
        return (try await build.run(), recorder)
    }

    func read(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    /// A loopback NewsAPI: batches by `sources`, the fixture otherwise, and the sources list.
    func withNewsAPI<T: Sendable>(log: RequestLog, sourcesStatus: Int = 200, _ body: @Sendable (URL) async throws -> T) async throws -> T {
        let headlines = try Kit.fixture("top-headlines.json")
        let list = try Kit.fixture("sources.json")
        return try await withTestServer({ router in
            router.get("v2/top-headlines") { request, _ in
                log.record(request)
                if let ids = request.uri.queryParameters["sources"] {
                    return Response.json(Kit.answer(forSources: ids.split(separator: ",").map(String.init)))
                }
                return Response.json(headlines)
            }
            router.get("v2/everything") { request, _ in
                log.record(request)
                return Response.json(headlines)
            }
            router.get("v2/top-headlines/sources") { request, _ in
                log.record(request)
                if sourcesStatus != 200 {
                    return Response.newsAPIError("apiKeyInvalid", "Your API key is invalid or incorrect.", status: sourcesStatus)
                }
                return Response.json(list)
            }
        }, body)
    }

    @Test("no key: one warning for all NewsAPI sources, shown as unavailable, feeds built, exit status 3, no request")
    func noKey() async throws {
        let log = RequestLog()
        try await withNewsAPI(log: log) { server in
            let (config, _) = try site(server: server)
            try await withHTTPFetcher(followRedirects: false) { fetcher in
                let (report, recorder) = try await build(config, environment: ["HOME": "/root"], fetcher: fetcher)
                #expect(recorder.warnings == ["NEWS_API_KEY is not set; skipping 4 NewsAPI sources: wire, ledger, uk, harbour"])
                #expect(report.exitStatus == 3)
                let others = config.sources.filter { if case .newsapi = $0.kind { false } else { true } }
                #expect(report.sources.filter(\.isFresh).map(\.id) == others.map(\.id), "the feeds are fresh")
                for id in ["wire", "ledger", "uk", "harbour"] {
                    guard case .unavailable(_, let error)? = report.sources.first(where: { $0.id == id })?.status else {
                        Issue.record("\(id) should be unavailable")
                        continue
                    }
                    #expect(error == "NEWS_API_KEY is not set")
                }
                let sources = try read(config.output, "sources/index.html")
                #expect(sources.contains("Couldn’t be reached; no recent stories to show."), "never tried, so no since")
                #expect(!sources.contains("NEWS_API_KEY"), "how to set the key is the owner's business, in the log")
                #expect(!sources.contains("Available from NewsAPI"), "no key, no list, no error")
                #expect(try read(config.output, "index.html").contains("Night trains return"))
                #expect(await SiteValidator.validate(directory: config.output).isValid)
            }
            #expect(log.count == 0)
        }
    }

    @Test("no network: a NewsAPI source's page says once, in words, that it could not be reached; the error is in the log only")
    func noNetwork() async throws {
        let (socket, port) = try TestSupport.refusingPort()
        defer { close(socket) }
        let server = try #require(URL(string: "http://127.0.0.1:\(port)"))
        var edited = try site(server: server).0
        edited.sources = [SourceConfig(id: "bbc", name: "BBC News", kind: .newsapi(.source("bbc-news")))] + edited.sources.prefix(1)
        let config = edited
        let (report, recorder) = try await withHTTPFetcher(followRedirects: false) { fetcher in
            try await build(config, environment: Kit.environment, fetcher: fetcher, retry: .fast(sleeps: SleepLog()))
        }
        #expect(report.exitStatus == 3)
        #expect(recorder.warnings.contains("source \"bbc\": connection refused from 127.0.0.1 (3 attempts)"), "\(recorder.warnings)")

        let status = "Couldn’t be reached since Sat 21 Nov 2026, 12:00 UTC; no recent stories to show."
        func count(_ path: String) throws -> Int { try read(config.output, path).components(separatedBy: status).count - 1 }
        #expect(try count("sources/bbc/index.html") == 1, "one sentence on the source's page, not three")
        #expect(try count("sources/index.html") == 1)
        #expect(try read(config.output, "index.html").contains("BBC News: \(status)"))
        let files = try TestSupport.fileBytes(below: config.output)
        for text in ["connection refused", "127.0.0.1", "Unavailable"] {
            #expect(files.filter { $0.value.range(of: Data(text.utf8)) != nil }.keys.sorted() == [], "\(text) reaches no page or feed")
        }
        #expect(await SiteValidator.validate(directory: config.output).isValid)
    }

    @Test("with a key: articles, the Sources tab's NewsAPI list, and the key nowhere in the output or the cache")
    func withKey() async throws {
        let log = RequestLog()
        try await withNewsAPI(log: log) { server in
            let (config, folder) = try site(server: server)
            try await withHTTPFetcher(followRedirects: false) { fetcher in
                let (report, recorder) = try await build(config, environment: Kit.environment, fetcher: fetcher)
                #expect(report.exitStatus == 0, "\(recorder.warnings)")
                #expect(recorder.warnings.isEmpty, "\(recorder.warnings)")
                #expect(recorder.all.allSatisfy { !$0.contains(Kit.key) })
            }
            #expect(log.count == 4, "one batch for both source ids, one top-headlines, one everything, one sources list")
            #expect(log.all.filter { $0.query["sources"] == "meridian-wire,northern-ledger" }.count == 1)
            #expect(log.all.allSatisfy { $0.headers["x-api-key"] == Kit.key && !$0.uri.contains(Kit.key) })

            let wire = try read(config.output, "sources/wire/index.html")
            #expect(wire.contains("Story from meridian-wire"))
            #expect(wire.contains("Outlet meridian-wire"), "the source's name comes from NewsAPI")
            #expect(try read(config.output, "sources/uk/index.html").contains("Harbour cranes return to work"))
            #expect(!(try read(config.output, "sources/uk/index.html")).contains("[Removed]"))

            let sources = try read(config.output, "sources/index.html")
            #expect(sources.contains("Available from NewsAPI"))
            #expect(sources.contains("4 English sources, as NewsAPI listed them on"), "the entry without an id is dropped")
            #expect(sources.contains("2 selected"))
            #expect(sources.contains(#"<tr class="selected">"#))
            #expect(sources.contains(#"<a href="../sources/wire/">Meridian Wire</a>"#), "a selected source links to its page")
            #expect(sources.contains(#"<a href="../sources/ledger/">Northern Ledger</a>"#))
            #expect(sources.contains("<th scope=\"row\" class=\"name\">Circuit Daily <a class=\"homepage\" href=\"https://circuitdaily.example\""), "an unselected one does not")
            #expect(sources.contains("Chips, code &amp; the people who make them."))
            #expect(!sources.contains("javascript:"))
            #expect(!sources.contains("No id, dropped"))
            #expect(await SiteValidator.validate(directory: config.output).isValid)

            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
            let cacheFile = folder.appendingPathComponent(".newsgen/newsapi-sources.json")
            #expect(files.contains { $0.standardizedFileURL.path == cacheFile.path }, "the list is cached beside the cache")
            #expect(files.count > 50)
            for file in files {
                guard let data = try? Data(contentsOf: file) else { continue }
                #expect(data.range(of: Data(Kit.key.utf8)) == nil, "the key is in \(file.path)")
            }
        }
    }

    @Test("the sources list is fetched at most once a day; offline, the cached list is used")
    func sourcesListOnceADay() async throws {
        let log = RequestLog()
        try await withNewsAPI(log: log) { server in
            var (config, _) = try site(server: server)
            config.sources = [Self.newsAPISources[0]]
            let listRequests = { log.all.filter { $0.path == "/v2/top-headlines/sources" } }
            try await withHTTPFetcher(followRedirects: false) { fetcher in
                _ = try await build(config, environment: Kit.environment, fetcher: fetcher)
                #expect(listRequests().count == 1)
                #expect(listRequests().first?.query == ["language": "en"])
                let (_, later) = try await build(config, environment: Kit.environment, fetcher: fetcher, at: Self.now.addingTimeInterval(23 * 3600))
                #expect(listRequests().count == 1, "23 hours later: from the cache")
                #expect(later.warnings.isEmpty)
                #expect(try read(config.output, "sources/index.html").contains("Available from NewsAPI"))
                _ = try await build(config, environment: Kit.environment, fetcher: nil, at: Self.now.addingTimeInterval(30 * 86400), offline: true)
                #expect(listRequests().count == 1, "offline: no request")
                #expect(try read(config.output, "sources/index.html").contains("Available from NewsAPI"), "offline: the cached list, however old")
                _ = try await build(config, environment: Kit.environment, fetcher: fetcher, at: Self.now.addingTimeInterval(25 * 3600))
                #expect(listRequests().count == 2, "25 hours later: fetched again")
            }
        }
    }

    @Test("a failing sources list is one warning; the cached list (if any) stands in")
    func sourcesListFails() async throws {
        let log = RequestLog()
        try await withNewsAPI(log: log, sourcesStatus: 401) { server in
            var (config, _) = try site(server: server)
            config.sources = [Self.newsAPISources[0]]
            try await withHTTPFetcher(followRedirects: false) { fetcher in
                let (report, recorder) = try await build(config, environment: Kit.environment, fetcher: fetcher)
                #expect(recorder.warnings.count == 1)
                #expect(recorder.warnings.first?.hasPrefix("NewsAPI sources list: NewsAPI apiKeyInvalid:") == true, "\(recorder.warnings)")
                #expect(report.exitStatus == 0, "the list is not a source")
                #expect(!(try read(config.output, "sources/index.html")).contains("Available from NewsAPI"))

                let cached = NewsAPISourceList(fetchedAt: Self.now.addingTimeInterval(-3 * 86400), language: "en",
                                               sources: [NewsAPISource(id: "meridian-wire", name: "Meridian Wire (cached)", category: "general", language: "en")])
                _ = NewsAPICatalog(config: config, http: nil).writeCache(cached)
                let (_, again) = try await build(config, environment: Kit.environment, fetcher: fetcher)
                #expect(again.warnings.first?.contains("; showing the list from ") == true, "\(again.warnings)")
                #expect(try read(config.output, "sources/index.html").contains("Meridian Wire (cached)"))
            }
        }
    }
}
