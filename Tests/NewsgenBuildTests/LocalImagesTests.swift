import Foundation
import Hummingbird
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// An outlet whose feed shows an ordinary image, hostile ones, and one inside a story's text; counts image requests.
final class ImageOutlet: @unchecked Sendable {
    let log = RequestLog()
    private let lock = NSLock()
    private var _stories = ImageOutlet.all
    var stories: [String] { get { lock.withLock { _stories } } set { lock.withLock { _stories = newValue } } }

    /// Story name → the image its item shows, and how the server answers for it.
    static let all = ["wide", "bomb", "svg", "truncated", "html", "mislabelled", "cmyk", "animated", "busy"]

    func feed(base: String) -> String {
        var xml = "<rss version=\"2.0\" xmlns:content=\"http://purl.org/rss/1.0/modules/content/\"><channel><title>Pictures</title><link>\(base)/</link>"
        for (index, story) in stories.enumerated() {
            xml += "<item><title>The \(story) picture</title><link>\(base)/story/\(story)</link><description>About \(story).</description>"
            xml += "<enclosure url=\"\(base)/img/\(story)\" type=\"image/jpeg\" length=\"0\"/>"
            if story == "wide" {
                xml += "<content:encoded><![CDATA[<p>On the quay.</p><img src=\"/img/rotated\" alt=\"The quay at dawn\" width=\"9\"/><p>And a bomb:</p><img src=\"/img/bomb\" alt=\"\"/>]]></content:encoded>"
            }
            xml += "<pubDate>Sat, 21 Nov 2026 10:\(10 + index):00 GMT</pubDate></item>"
        }
        return xml + "</channel></rss>"
    }

    func routes(_ router: Router<BasicRequestContext>) {
        router.get("feed.xml") { request, _ in
            let host = request.head.authority ?? "127.0.0.1"
            return Response.body(Data(self.feed(base: "http://\(host)").utf8))
        }
        router.get("img/:name") { request, context in
            self.log.record(request)
            let name = context.parameters.get("name") ?? ""
            func fixture(_ file: String, _ type: String) throws -> Response {
                Response.body(try TestSupport.fixture("images/\(file)"), headers: [.contentType: type])
            }
            switch name {
            case "wide": return try fixture("wide.jpg", "image/jpeg")
            case "rotated": return try fixture("rotated.jpg", "image/jpeg")
            case "bomb": return try fixture("bomb.png", "image/png")
            case "svg": return try fixture("image.svg", "image/svg+xml")
            case "truncated": return try fixture("truncated.jpg", "image/jpeg")
            case "html": return try fixture("notfound.html", "image/jpeg")
            case "mislabelled": return try fixture("wide.jpg", "text/html")
            case "cmyk": return try fixture("cmyk.jpg", "image/jpeg")
            case "animated": return try fixture("animated.gif", "image/gif")
            default: return Response(status: .serviceUnavailable)
            }
        }
    }

    var imageRequests: Int { log.count }
}

/// `"images": "local"` (the default) end to end: a real server, a real SQLite cache, libvips.
@Suite("Local images")
struct LocalImagesTests {
    static let start = TestSupport.date("2026-11-21T12:00:00Z")

    let folder: URL
    let outlet = ImageOutlet()

    init() throws {
        folder = try TestSupport.temporaryFolder()
    }

    func config(base: URL) throws -> SiteConfig {
        let json = """
            {"baseURL": "https://news.example.org/", "templates": "\(TestSupport.repository.appendingPathComponent("Templates").path)",
             "sources": [{"id": "pictures", "feed": "\(base.appendingPathComponent("feed.xml").absoluteString)"}]}
            """
        return try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
    }

    @discardableResult
    func build(_ config: SiteConfig, at date: Date) async throws -> (BuildReport, LogRecorder) {
        let (logger, recorder) = TestSupport.recordingLogger()
        let store = try SQLiteStore.open(at: config.cache, logger: logger)
        defer { store.close() }
        let images = HTTPFetcher(maximumBytes: LocalImages.maximumBytes)
        defer { Task { try? await images.shutdown() } }
        let report = try await withHTTPFetcher(timeout: .seconds(60)) { fetcher in
            try await TestBuild.run(config, options: .init(refresh: true), store: store, http: fetcher, imageHTTP: images, at: date, logger: logger)
        }
        return (report, recorder)
    }

    func output(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("public").appendingPathComponent(path), encoding: .utf8)
    }

    func storyPage(_ story: String) throws -> String {
        let articles = folder.appendingPathComponent("public/articles")
        let slug = try #require(try FileManager.default.contentsOfDirectory(atPath: articles.path).first { $0.hasPrefix("the-\(story)-picture") })
        return try String(contentsOf: articles.appendingPathComponent("\(slug)/index.html"), encoding: .utf8)
    }

    /// Each published image file with its inode and modification time: equal only if no file was written again.
    func imageFileDates() throws -> [String: String] {
        let images = folder.appendingPathComponent("public/images")
        var dates: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: images.path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: images.appendingPathComponent(name).path)
            dates[name] = "\(attributes[.systemFileNumber] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        }
        return dates
    }

    func publishedImages() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("public/images").path))
    }

    @Test("images are served from the site with srcset and sizes; hostile ones are left out; a nothing-new run fetches none and writes nothing")
    func local() async throws {
        let outlet = self.outlet
        try await withTestServer(outlet.routes) { base in
            let config = try config(base: base)
            let (report, log) = try await build(config, at: Self.start)
            #expect(report.exitStatus == 0, "a bad image is no failing source")

            let front = try output("index.html")
            let list = try output("sources/pictures/index.html")
            let element = try #require(list.split(separator: "\n").map(String.init).first { $0.contains(#"<img class="thumb""#) && $0.contains("1280w") }, "\(list)")
            let hash = try #require(element.firstMatch(of: /images\/([0-9a-f]+)-640\.webp/)?.output.1)
            #expect(element.contains(#"srcset="../../images/\#(hash)-320.webp 320w, ../../images/\#(hash)-640.webp 640w, ../../images/\#(hash)-1280.webp 1280w""#), "\(element)")
            #expect(element.contains(#"width="640" height="427""#) && element.contains(#"sizes=""#))
            #expect(try publishedImages().isSuperset(of: ["\(hash)-320.webp", "\(hash)-640.webp", "\(hash)-1280.webp"]))
            #expect(front.contains("img-src 'self'\""), "the Content-Security-Policy allows the site's own images only")

            // Not one image a reader's browser would fetch from another host.
            for (path, bytes) in try TestSupport.fileBytes(below: folder.appendingPathComponent("public")) where path.hasSuffix(".html") {
                let page = String(decoding: bytes, as: UTF8.self)
                #expect(!page.contains(#"src="http"#) && !page.contains("srcset=\"http"), "\(path)")
            }
            for story in ["bomb", "svg", "truncated", "html", "mislabelled", "busy"] {
                #expect(try !storyPage(story).contains("<img"), "\(story): left out, never a broken picture")
            }
            #expect(try storyPage("cmyk").contains(#"<img class="hero" src="../../images/"#))
            #expect(try storyPage("animated").contains(#"width="1" height="1""#), "the GIF's first frame")
            let page = try storyPage("wide")
            #expect(page.contains(#"width="300" height="400" alt="The quay at dawn" loading="lazy"/>"#), "the text's image, turned upright: \(page)")
            #expect(!page.contains("/img/bomb"), "the text's hostile image is left out")
            #expect(page.contains(#"<meta property="og:image" content="https://news.example.org/images/\#(hash)-1280.webp"/>"#))

            for (story, reason) in [("bomb", "20000×20000 pixels"), ("svg", "not as an image"), ("truncated", "cannot be decoded"),
                                    ("html", "not an image"), ("mislabelled", "served as text/html"), ("busy", "HTTP 503")] {
                #expect(log.all.contains { $0.contains("/img/\(story)") && $0.contains(reason) }, "\(story): \(log.all)")
            }

            // An hour later nothing is new: no image is asked for (the failure waits six hours) and no image file is written.
            let requests = outlet.imageRequests
            let written = try imageFileDates()
            try await build(config, at: Self.start + 3600)
            #expect(outlet.imageRequests == requests)
            #expect(try imageFileDates() == written)

            // Forty days on the story is gone from the feed and the cache: its image leaves the site and the cache.
            outlet.stories = ["cmyk"]
            try await build(config, at: Self.start + 40 * 86_400)
            #expect(try !publishedImages().contains { $0.hasPrefix(String(hash)) })
            let kept = try FileManager.default.contentsOfDirectory(atPath: LocalImages.folder(cache: config.cache).path)
            #expect(!kept.contains { $0.hasPrefix(String(hash)) }, "\(kept)")
        }
    }

    @Test("a host that does not answer costs one failure per build, not one per image")
    func deadHost() async throws {
        let (socket, port) = try TestSupport.refusingPort()
        defer { close(socket) }
        let feed = folder.appendingPathComponent("feed.xml")
        var xml = "<rss version=\"2.0\"><channel><title>Dead pictures</title><link>https://dead.example/</link>"
        for index in 0..<8 {
            xml += "<item><title>Story \(index)</title><link>https://dead.example/\(index)</link>"
            xml += "<enclosure url=\"http://127.0.0.1:\(port)/img/\(index).jpg\" type=\"image/jpeg\" length=\"0\"/></item>"
        }
        try (xml + "</channel></rss>").write(to: feed, atomically: true, encoding: .utf8)
        let json = """
            {"baseURL": "https://news.example.org/", "templates": "\(TestSupport.repository.appendingPathComponent("Templates").path)",
             "sources": [{"id": "dead", "feed": "feed.xml"}]}
            """
        let config = try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
        let (report, log) = try await build(config, at: Self.start)
        #expect(report.exitStatus == 0)
        let line = try #require(log.all.first { $0.contains("images: 127.0.0.1 did not answer") }, "\(log.all)")
        let skipped = line.firstMatch(of: /its other (\d+) images are left for the next build/).flatMap { Int($0.output.1) } ?? 0
        #expect(skipped >= 8 - FetchLimits.perHost, "\(line)")
        #expect(try !output("index.html").contains("<img"))
    }

    @Test("images remote links them as the feed gives them; none shows no image")
    func otherModes() async throws {
        let outlet = self.outlet
        try await withTestServer(outlet.routes) { base in
            for mode in ["remote", "none"] {
                let json = """
                    {"baseURL": "https://news.example.org/", "templates": "\(TestSupport.repository.appendingPathComponent("Templates").path)",
                     "output": "\(mode)-site", "cache": "\(mode)-cache/cache.sqlite", "images": "\(mode)",
                     "sources": [{"id": "pictures", "feed": "\(base.appendingPathComponent("feed.xml").absoluteString)"}]}
                    """
                let config = try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
                try await build(config, at: Self.start)
                let front = try String(contentsOf: config.output.appendingPathComponent("index.html"), encoding: .utf8)
                if mode == "remote" {
                    #expect(front.contains(#"<img class="thumb" src="\#(base.absoluteString)/img/cmyk""#), "\(front)")
                    #expect(front.contains("img-src 'self' https: http:\""))
                } else {
                    #expect(!front.contains("<img"))
                    #expect(front.contains("img-src 'self'\""))
                }
            }
            #expect(outlet.imageRequests == 0, "neither fetches an image")
        }
    }
}
