import Foundation
import Hummingbird
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// A site whose feed links to its own story pages: a good article, hostile and broken pages, one robots.txt forbids,
/// and one that fails until told otherwise. Counts every request by path.
final class StoryPagesServer: @unchecked Sendable {
    let log = RequestLog()
    private let lock = NSLock()
    private var _flakyWorks = false
    var flakyWorks: Bool { get { lock.withLock { _flakyWorks } } set { lock.withLock { _flakyWorks = newValue } } }

    static let stories = ["good", "banner", "paper", "loop", "huge", "hostile", "legacy", "private", "flaky"]

    /// The article every page that has one carries, long enough to be one.
    static func article(_ lead: String) -> String {
        let sentences = (1...6).map { "Paragraph \($0) of the report tells how the harbour works went on through the night, with crews, cranes and barges." }
        return "<article><h2>\(lead)</h2>" + sentences.map { "<p>\($0)</p>" }.joined() + "</article>"
    }

    static func page(_ body: String, title: String = "A story") -> String {
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"/><title>\(title)</title></head><body>"
            + "<nav><a href=\"/\">Home</a> <a href=\"/world\">World</a></nav>\(body)<footer>© The Test Post</footer></body></html>"
    }

    func feed(base: URL) -> String {
        var xml = "<rss version=\"2.0\"><channel><title>Test Post</title><link>\(base.absoluteString)/</link>"
        for (index, story) in Self.stories.enumerated() {
            xml += "<item><title>The \(story) story</title><link>\(base.absoluteString)/story/\(story)</link>"
            xml += "<description>Summary of the \(story) story.</description><pubDate>Sat, 21 Nov 2026 \(10 + index / 6):\(10 + index):00 GMT</pubDate></item>"
        }
        return xml + "</channel></rss>"
    }

    func routes(_ router: Router<BasicRequestContext>) {
        let html: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        router.get("feed.xml") { request, _ in
            self.log.record(request)
            let host = request.head.authority ?? "127.0.0.1"
            return Response.body(Data(self.feed(base: URL(string: "http://\(host)")!).utf8))
        }
        router.get("robots.txt") { request, _ in
            self.log.record(request)
            return Response.body(Data("User-agent: *\nDisallow: /admin\n\nUser-agent: newsgen\nDisallow: /story/private\n".utf8))
        }
        router.get("story/good") { request, _ in
            self.log.record(request)
            return Response.body(Data(Self.page(Self.article("Harbour works finish early") + "<aside>Related: other news</aside>").utf8), headers: html)
        }
        router.get("story/banner") { request, _ in
            self.log.record(request)
            return Response.body(Data(Self.page("<div class=\"cookie-consent\"><p>We use cookies.</p><button>Accept</button></div>").utf8), headers: html)
        }
        router.get("story/paper") { request, _ in
            self.log.record(request)
            return Response.body(Data("%PDF-1.7 not a page".utf8), headers: [.contentType: "application/pdf"])
        }
        router.get("story/loop") { request, _ in
            self.log.record(request)
            return Response(status: .found, headers: [.location: "/story/loop2"])
        }
        router.get("story/loop2") { request, _ in
            self.log.record(request)
            return Response(status: .found, headers: [.location: "/story/loop"])
        }
        router.get("story/huge") { request, _ in
            self.log.record(request)
            return Response.body(Data(repeating: UInt8(ascii: "a"), count: 30 * 1_048_576), headers: html)
        }
        router.get("story/hostile") { request, _ in
            self.log.record(request)
            let article = Self.article("<span onclick=\"steal()\">Hostile</span> page<script>steal()</script>")
                .replacingOccurrences(of: "<p>Paragraph 2", with: "<p><a href=\"javascript:steal()\">Click</a> <img src=\"x.png\" onerror=\"steal()\"/>Paragraph 2")
            return Response.body(Data(Self.page(article).utf8), headers: html)
        }
        router.get("story/legacy") { request, _ in
            self.log.record(request)
            let page = Self.page(Self.article("Caf\u{E9} society reopens on the quay"))
            return Response.body(page.data(using: .windowsCP1252) ?? Data(), headers: [.contentType: "text/html; charset=windows-1252"])
        }
        router.get("story/private") { request, _ in
            self.log.record(request)
            return Response.body(Data(Self.page(Self.article("Not for robots")).utf8), headers: html)
        }
        router.get("story/flaky") { request, _ in
            self.log.record(request)
            guard self.flakyWorks else { return Response(status: .serviceUnavailable) }
            return Response.body(Data(Self.page(Self.article("Flaky at first")).utf8), headers: html)
        }
    }

    /// Requests for story pages (not the feed, not robots.txt).
    var pageRequests: [String] { log.all.map(\.path).filter { $0.hasPrefix("/story/") } }
}

/// `"fullText": "extract"`: stories get their page's article once, kept in a real SQLite cache; bad pages are a log line
/// each, never a failed build or a script on a page.
@Suite("Full text extracted from story pages")
struct FullTextExtractionTests {
    static let start = TestSupport.date("2026-11-21T12:00:00Z")

    let folder: URL
    let server = StoryPagesServer()

    init() throws {
        folder = try TestSupport.temporaryFolder()
    }

    func config(base: URL, fullText: String = "extract") throws -> SiteConfig {
        let json = """
            {"baseURL": "https://news.example.org/", "templates": "\(TestSupport.repository.appendingPathComponent("Templates").path)",
             "sources": [{"id": "post", "feed": "\(base.appendingPathComponent("feed.xml").absoluteString)", "fullText": "\(fullText)"}]}
            """
        return try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
    }

    @discardableResult
    func build(_ config: SiteConfig, at date: Date, offline: Bool = false) async throws -> (BuildReport, LogRecorder) {
        let (logger, recorder) = TestSupport.recordingLogger()
        let store = try SQLiteStore.open(at: config.cache, logger: logger)
        defer { store.close() }
        let pages = offline ? nil : StoryPageFetcher()
        defer { if let pages { Task { try? await pages.shutdown() } } }
        return try await withHTTPFetcher(timeout: .seconds(60)) { fetcher in
            (try await TestBuild.run(config, options: .init(offline: offline, refresh: true), store: store, http: offline ? nil : fetcher,
                                     storyPages: pages, at: date, logger: logger), recorder)
        }
    }

    func storyPage(_ story: String) throws -> String {
        let articles = folder.appendingPathComponent("public/articles")
        let slug = try #require(try FileManager.default.contentsOfDirectory(atPath: articles.path).first { $0.hasPrefix("the-\(story)-story") })
        return try String(contentsOf: articles.appendingPathComponent("\(slug)/index.html"), encoding: .utf8)
    }

    func output(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("public").appendingPathComponent(path), encoding: .utf8)
    }

    @Test("the story page and the site's feeds carry the article; the next builds ask for no page again")
    func fullStories() async throws {
        let server = self.server
        try await withTestServer(server.routes) { base in
            let config = try config(base: base)
            let (report, log) = try await build(config, at: Self.start)
            #expect(report.exitStatus == 0, "a page without an article is not a failing source")
            let good = try storyPage("good")
            #expect(good.contains(#"<div class="story-body">"#))
            #expect(good.contains("Paragraph 6 of the report tells how the harbour works went on through the night"))
            #expect(!good.contains("© The Test Post"), "the page's furniture is not the article")
            #expect(try output("feeds/sources/post.rss").contains("Paragraph 6 of the report"), "RSS carries the text")
            #expect(try output("feeds/sources/post.json").contains("Paragraph 6 of the report"), "JSON Feed carries the text")
            #expect(try storyPage("legacy").contains("Café society reopens"), "windows-1252 read as such")

            let requested = server.pageRequests
            #expect(!requested.contains("/story/private"), "robots.txt is honoured")
            #expect(server.log.all.filter { $0.path == "/robots.txt" }.count == 1, "one robots.txt per site and build")
            #expect(log.warnings.contains { $0.contains("/story/private") && $0.contains("robots.txt disallows it") }, "\(log.warnings)")
            #expect(log.warnings.contains { $0.contains("/story/banner") && $0.contains("the page has no article") }, "\(log.warnings)")
            #expect(log.warnings.contains { $0.contains("/story/paper") && $0.contains("not an HTML page (application/pdf)") }, "\(log.warnings)")
            #expect(log.warnings.contains { $0.contains("/story/loop") && $0.contains("too many redirects") }, "\(log.warnings)")
            #expect(log.warnings.contains { $0.contains("/story/huge") && $0.contains("larger than 5 MiB") }, "\(log.warnings)")
            #expect(log.warnings.contains { $0.contains("/story/flaky") && $0.contains("HTTP 503") && $0.contains("trying again in 6 h") }, "\(log.warnings)")
            for story in ["banner", "paper", "huge", "private", "flaky"] {
                let page = try storyPage(story)
                #expect(!page.contains(#"<div class="story-body">"#), "\(story): no article")
                #expect(page.contains("Summary of the \(story) story."), "\(story): the feed's summary stays")
            }

            let published = try TestSupport.fileBytes(below: folder.appendingPathComponent("public"))
            for (path, bytes) in published {
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(!text.contains("steal()"), "\(path): nothing of the hostile page's script")
            }
            #expect(try storyPage("hostile").contains("Paragraph 6 of the report"), "the hostile page's text is kept")

            // An hour later: nothing is asked for again, and the pages keep their text from the cache.
            let before = server.pageRequests.count
            try await build(config, at: Self.start + 3600)
            #expect(server.pageRequests.count == before, "\(server.pageRequests.dropFirst(before))")
            #expect(try storyPage("good").contains("Paragraph 6 of the report"))

            // Seven hours later the page that could not be had is asked for once more, and now has its article.
            server.flakyWorks = true
            try await build(config, at: Self.start + 7 * 3600)
            #expect(Array(server.pageRequests.dropFirst(before)) == ["/story/flaky"])
            #expect(try storyPage("flaky").contains("Paragraph 6 of the report"))

            // Offline: no request at all, and the full texts stay.
            let requests = server.log.count
            try await build(config, at: Self.start + 8 * 3600, offline: true)
            #expect(server.log.count == requests)
            #expect(try storyPage("good").contains("Paragraph 6 of the report"))
        }
    }

    @Test("fullText feed (the default) fetches no story page")
    func feedOnly() async throws {
        let server = self.server
        try await withTestServer(server.routes) { base in
            try await build(try config(base: base, fullText: "feed"), at: Self.start)
            #expect(server.pageRequests.isEmpty)
            #expect(server.log.all.allSatisfy { $0.path == "/feed.xml" })
        }
    }

    @Test("a wrong fullText value names the key and the choices")
    func wrongValue() throws {
        let json = #"{"sources": [{"id": "a", "feed": "https://a.example/feed", "fullText": "all"}]}"#
        #expect {
            try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
        } throws: { error in
            let text = String(describing: error)
            return text.contains("sources[0].fullText") && text.contains(#"expected "feed""#) && text.contains(#""extract""#)
        }
    }
}
