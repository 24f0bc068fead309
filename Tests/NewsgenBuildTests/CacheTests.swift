import Foundation
import GRDB
import Hummingbird
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// A feed server whose answers the test changes between builds, and that counts requests.
final class FeedServer: @unchecked Sendable {
    enum Mode { case serve, fail, honour304 }
    private let lock = NSLock()
    private var _mode = Mode.serve
    private var _items: [String] = []
    private var _requests = 0
    private var _lastIfNoneMatch: String?

    var mode: Mode { get { lock.withLock { _mode } } set { lock.withLock { _mode = newValue } } }
    var items: [String] { get { lock.withLock { _items } } set { lock.withLock { _items = newValue } } }
    var requests: Int { lock.withLock { _requests } }
    var lastIfNoneMatch: String? { lock.withLock { _lastIfNoneMatch } }

    func respond(_ request: Request) -> Response {
        let (mode, items) = lock.withLock { () -> (Mode, [String]) in
            _requests += 1
            _lastIfNoneMatch = request.headers[.ifNoneMatch]
            return (_mode, _items)
        }
        let etag = "\"\(items.joined(separator: ",").hashValue)\""
        switch mode {
        case .fail: return Response(status: .serviceUnavailable)
        case .honour304 where request.headers[.ifNoneMatch] == etag: return Response(status: .notModified)
        default:
            var xml = "<rss version=\"2.0\"><channel><title>Test Daily</title><link>https://test.example/</link>"
            for (index, item) in items.enumerated() {
                xml += "<item><title>\(item) story</title><link>https://test.example/\(item)</link>"
                xml += "<description>Summary of \(item)</description><enclosure url=\"https://img.test.example/\(item).jpg\" type=\"image/jpeg\"/>"
                xml += "<pubDate>Sat, 21 Nov 2026 \(10 + index):00:00 GMT</pubDate></item>"
            }
            return Response.body(Data((xml + "</channel></rss>").utf8), headers: [.eTag: etag])
        }
    }
}

/// Builds against a real SQLite cache, a real loopback server and an injected clock.
@Suite("Cache and offline rules")
struct CacheTests {
    static let start = TestSupport.date("2026-11-21T12:00:00Z")
    static let day: TimeInterval = 86_400

    let folder: URL
    let server = FeedServer()

    init() throws {
        folder = try TestSupport.temporaryFolder()
    }

    func config(base: URL, saved: String? = nil, images: String = "local") throws -> SiteConfig {
        var json = """
            {"baseURL": "https://news.example.org/", "templates": "\(TestSupport.repository.appendingPathComponent("Templates").path)",
             "images": "\(images)", "sources": [{"id": "test", "feed": "\(base.appendingPathComponent("feed.xml").absoluteString)"}]
            """
        if let saved {
            try saved.write(to: folder.appendingPathComponent("saved.json"), atomically: true, encoding: .utf8)
            json += #", "saved": "saved.json""#
        }
        return try SiteConfig.decode(Data((json + "}").utf8), file: folder.appendingPathComponent("site.json"))
    }

    @discardableResult
    func build(_ config: SiteConfig, at date: Date, offline: Bool = false, refresh: Bool = false) async throws -> (BuildReport, LogRecorder) {
        let (logger, recorder) = TestSupport.recordingLogger()
        let store = try SQLiteStore.open(at: config.cache, logger: logger)
        return try await withHTTPFetcher(timeout: .seconds(5)) { fetcher in
            (try await TestBuild.run(config, options: .init(offline: offline, refresh: refresh), store: store, http: offline ? nil : fetcher,
                                     at: date, logger: logger), recorder)
        }
    }

    func page(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("public").appendingPathComponent(path), encoding: .utf8)
    }

    /// How many times `text` occurs in the page at `path`.
    func occurrences(of text: String, in path: String) throws -> Int {
        try page(path).components(separatedBy: text).count - 1
    }

    /// The published files (pages, feeds, search index) that contain `text`.
    func files(containing text: String) throws -> [String] {
        try TestSupport.fileBytes(below: folder.appendingPathComponent("public"))
            .filter { $0.value.range(of: Data(text.utf8)) != nil }.keys.sorted()
    }

    func withServer(_ body: @escaping @Sendable (URL) async throws -> Void) async throws {
        let server = self.server
        try await withTestServer({ router in
            router.get("feed.xml") { request, _ in server.respond(request) }
        }, body)
    }

    @Test("online: a successful fetch replaces the source's cached list")
    func onlineReplaces() async throws {
        server.items = ["a", "b"]
        try await withServer { base in
            let config = try config(base: base)
            try await build(config, at: Self.start)
            server.items = ["c"]
            let (report, _) = try await build(config, at: Self.start + 3600, refresh: true)
            #expect(report.exitStatus == 0)
            let store = try SQLiteStore.open(at: config.cache, logger: TestSupport.recordingLogger().0)
            #expect(try await store.articles(of: "test").map(\.title) == ["c story"])
            #expect(try page("index.html").contains("c story"))
            #expect(try !page("index.html").contains("a story"))
            #expect(try page("archive/2026/11/21/index.html").contains("a story"), "the archive keeps what the source no longer lists")
        }
    }

    @Test("offline with a 6-day-old cache: the cached articles, with a note, exit 3")
    func sixDays() async throws {
        server.items = ["a", "b"]
        try await withServer { base in
            let config = try config(base: base)
            try await build(config, at: Self.start)
            server.mode = .fail
            let (report, log) = try await build(config, at: Self.start + 6 * Self.day, refresh: true)
            #expect(report.exitStatus == 3)
            #expect(log.warnings.first?.contains("source \"test\": HTTP 503 from 127.0.0.1; showing 2 cached articles from Sat 21 Nov 2026, 12:00 UTC") == true, "\(log.warnings)")
            let source = try page("sources/test/index.html")
            #expect(source.contains("a story"))
            let status = "Couldn’t be reached since Fri 27 Nov 2026, 12:00 UTC; showing stories from Sat 21 Nov 2026, 12:00 UTC."
            #expect(try occurrences(of: status, in: "sources/test/index.html") == 1, "once, in words")
            #expect(try occurrences(of: status, in: "sources/index.html") == 1)
            #expect(try occurrences(of: "Test Daily: " + status, in: "index.html") == 1)
            #expect(try files(containing: "HTTP 503") == [], "the error is the log's, not the readers'")
            #expect(try page("index.html").contains("b story"))
        }
    }

    @Test("a source still down an hour later, tried again: its pages keep their bytes")
    func stillDown() async throws {
        server.items = ["a", "b"]
        try await withServer { base in
            let config = try config(base: base)
            try await build(config, at: Self.start)
            server.mode = .fail
            try await build(config, at: Self.start + Self.day, refresh: true)
            let pages = ["index.html", "sources/index.html", "sources/test/index.html"]
            let before = try pages.map { try page($0) }
            let requests = server.requests
            let (report, _) = try await build(config, at: Self.start + Self.day + 3600, refresh: true)
            #expect(server.requests > requests, "tried again")
            #expect(report.exitStatus == 3)
            #expect(try pages.map { try page($0) } == before, "the same sentence, since the same first failure")
            #expect(before[2].contains("Couldn’t be reached since Sun 22 Nov 2026, 12:00 UTC; showing stories from Sat 21 Nov 2026, 12:00 UTC."))
        }
    }

    @Test("offline with a 7-day-old cache: an error message, no articles, exit 3")
    func sevenDays() async throws {
        server.items = ["a"]
        try await withServer { base in
            let config = try config(base: base)
            try await build(config, at: Self.start)
            server.mode = .fail
            try await build(config, at: Self.start + 2 * Self.day, refresh: true)
            let (report, _) = try await build(config, at: Self.start + 7 * Self.day, refresh: true)
            #expect(report.exitStatus == 3)
            let source = try page("sources/test/index.html")
            #expect(!source.contains("a story"))
            #expect(try occurrences(of: "Couldn’t be reached since Mon 23 Nov 2026, 12:00 UTC; no recent stories to show.", in: "sources/test/index.html") == 1,
                    "since the first failure after the last success")
            #expect(!source.contains("empty-state"), "the status says there is nothing to show; no box says it again")
            #expect(try page("index.html").contains("No news to show"), "the Headlines tab says why it is empty")
            #expect(try files(containing: "HTTP 503") == [])
        }
    }

    @Test("offline with an empty cache: an error message, exit 3")
    func emptyCache() async throws {
        server.mode = .fail
        try await withServer { base in
            let (report, _) = try await build(try config(base: base), at: Self.start)
            #expect(report.exitStatus == 3)
            #expect(try page("index.html").contains("None of the sources could be reached, and there are no recent stories to show."))
            #expect(try occurrences(of: "Couldn’t be reached since Sat 21 Nov 2026, 12:00 UTC; no recent stories to show.", in: "sources/test/index.html") == 1)
        }
    }

    @Test("conditional GET: validators are sent back and a 304 reuses the cache")
    func conditionalGet() async throws {
        server.items = ["a", "b"]
        server.mode = .honour304
        try await withServer { base in
            let config = try config(base: base)
            try await build(config, at: Self.start)
            #expect(server.lastIfNoneMatch == nil)
            let (report, _) = try await build(config, at: Self.start + 3600, refresh: true)
            #expect(server.requests == 2)
            #expect(server.lastIfNoneMatch != nil)
            #expect(report.sources.first?.status == .notModified)
            #expect(report.sources.first?.articles.count == 2)
            #expect(report.exitStatus == 0)
        }
    }

    @Test("refreshMinutes: a cron every 5 minutes does not refetch; --refresh does")
    func refreshInterval() async throws {
        server.items = ["a"]
        try await withServer { base in
            let config = try config(base: base)
            try await build(config, at: Self.start)
            let (report, _) = try await build(config, at: Self.start + 5 * 60)
            #expect(server.requests == 1)
            #expect(report.exitStatus == 0, "within its refresh interval, a source counts as fresh")
            #expect(report.sources.first?.articles.count == 1)
            try await build(config, at: Self.start + 16 * 60)
            #expect(server.requests == 2, "15 minutes by default")
            try await build(config, at: Self.start + 17 * 60, refresh: true)
            #expect(server.requests == 3)
        }
    }

    @Test("a source that just failed is not retried within its refresh interval, and stays reported as failed")
    func failedWithinInterval() async throws {
        server.items = ["a"]
        try await withServer { base in
            let config = try config(base: base)
            try await build(config, at: Self.start)
            server.mode = .fail
            let (failed, _) = try await build(config, at: Self.start + 20 * 60)
            #expect(failed.exitStatus == 3)
            let (report, log) = try await build(config, at: Self.start + 25 * 60)
            #expect(server.requests == 2, "no request 5 minutes after the failed one")
            #expect(report.exitStatus == 3, "still reported as failed, not as fresh")
            #expect(report.sources.first?.articles.count == 1, "the cache stands in")
            #expect(log.warnings.first?.contains("HTTP 503 from 127.0.0.1 (5 min ago; not retried within its refresh interval)") == true, "\(log.warnings)")
        }
    }

    @Test("--offline makes no request and builds from the cache")
    func offline() async throws {
        server.items = ["a", "b"]
        try await withServer { base in
            let config = try config(base: base)
            try await build(config, at: Self.start)
            let (report, _) = try await build(config, at: Self.start + Self.day, offline: true, refresh: true)
            #expect(server.requests == 1)
            #expect(report.exitStatus == 0, "a cache younger than maxCacheAgeDays is fresh under --offline")
            #expect(try page("index.html").contains("a story"))
        }
    }

    @Test("saved articles keep their data after their source stops listing them")
    func savedSurvive() async throws {
        server.items = ["a", "b"]
        try await withServer { base in
            // Images linked as the feed gives them, so the page shows the saved copy's image URL.
            let config = try config(base: base, saved: #"{"favorites": [{"url": "https://test.example/a"}]}"#, images: "remote")
            try await build(config, at: Self.start)
            server.items = ["c"]
            try await build(config, at: Self.start + 40 * Self.day, refresh: true)
            let favorites = try page("favorites/index.html")
            #expect(favorites.contains("a story"))
            #expect(favorites.contains("Summary of a"))
            #expect(favorites.contains("https://img.test.example/a.jpg"))
            #expect(!favorites.contains("Not listed by any source now"))
            let store = try SQLiteStore.open(at: config.cache, logger: TestSupport.recordingLogger().0)
            let statistics = try await store.statistics()
            #expect(statistics.articles == 2, "b was pruned after keepDays; a is saved, c is listed")
        }
    }

    @Test("a corrupt cache file is moved aside with a warning, and the build goes on")
    func corruptCache() async throws {
        server.items = ["a"]
        try await withServer { base in
            let config = try config(base: base)
            try FileManager.default.createDirectory(at: config.cache.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 0x42, count: 8192).write(to: config.cache)
            let (report, log) = try await build(config, at: Self.start)
            #expect(report.exitStatus == 0)
            #expect(log.warnings.contains { $0.contains("is not a usable SQLite database") && $0.contains("moved it to cache.sqlite.unusable-") }, "\(log.warnings)")
            let names = try FileManager.default.contentsOfDirectory(atPath: config.cache.deletingLastPathComponent().path)
            #expect(names.contains { $0.hasPrefix("cache.sqlite.unusable-") })
        }
    }

    @Test("a cache from a newer newsgen is moved aside, not misread")
    func futureSchema() async throws {
        server.items = ["a"]
        try await withServer { base in
            let config = try config(base: base)
            try await build(config, at: Self.start)
            let database = try DatabaseQueue(path: config.cache.path)
            try await database.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
            try database.close()
            let (report, log) = try await build(config, at: Self.start + 3600, refresh: true)
            #expect(report.exitStatus == 0)
            #expect(log.warnings.contains { $0.contains("was written by a newer newsgen") }, "\(log.warnings)")
        }
    }

    @Test("saved add and remove keep the order of keys and stable formatting")
    func savedEditing() throws {
        let file = folder.appendingPathComponent("saved.json")
        let original = """
            {
              "readLater": [],
              "favorites": [
                {
                  "title": "A",
                  "url": "https://example.com/a"
                }
              ]
            }

            """
        try original.write(to: file, atomically: true, encoding: .utf8)
        var editor = try SavedFileEditor(file: file)
        #expect(editor.add(url: "https://example.com/b", to: .readLater, title: "B", at: Self.start) == .added)
        #expect(editor.add(url: "HTTPS://EXAMPLE.com/b/", to: .readLater, title: nil, at: Self.start) == .alreadyThere)
        try editor.save()
        let added = try String(contentsOf: file, encoding: .utf8)
        #expect(added.contains("{\n      \"title\": \"A\",\n      \"url\""), "an entry's key order kept")
        #expect(added.hasPrefix("{\n  \"readLater\": [\n"), "order kept")
        #expect(added.contains(#""savedAt": "2026-11-21T12:00:00Z""#))
        var again = try SavedFileEditor(file: file)
        #expect(again.remove(url: "https://example.com/b", from: SavedListKind.allCases) == .removed(from: [.readLater]))
        try again.save()
        let removed = try String(contentsOf: file, encoding: .utf8)
        #expect(try SavedFile.decode(Data(removed.utf8), file: "saved.json") == SavedFile.decode(Data(original.utf8), file: "saved.json"))
        try again.save()
        #expect(try String(contentsOf: file, encoding: .utf8) == removed, "saving twice gives the same bytes")
        #expect(again.remove(url: "https://example.com/zzz", from: [.favorites]) == .notFound)
    }
}
