import Foundation
import Hummingbird
import Testing
@testable import NewsgenModel
@testable import NewsgenFetch
import NewsgenTestSupport

/// `newsgen add`'s search for a feed, against pages and feeds served on 127.0.0.1.
@Suite("Feed discovery")
struct FeedDiscoveryTests {
    let rss: Data
    let jsonFeed: Data
    let atom: Data

    init() throws {
        rss = try TestSupport.fixture("world.xml")
        jsonFeed = try Data(contentsOf: TestSupport.repository.appendingPathComponent("Samples/feeds/science.json"))
        atom = try Data(contentsOf: TestSupport.repository.appendingPathComponent("Samples/feeds/technology.atom"))
    }

    static func page(head: String) -> Data {
        Data("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>A site</title>\(head)</head><body><nav>News</nav><p>Hello</p></body></html>".utf8)
    }

    func discover(_ configure: (Router<BasicRequestContext>) -> Void, path: String) async throws -> Result<DiscoveredFeed, DiscoveryError> {
        try await withTestServer(configure) { base in
            try await withHTTPFetcher { http in
                do throws(DiscoveryError) {
                    return .success(try await FeedDiscovery(http: http).discover(base.appendingPathComponent(path)))
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    @Test("a page with one feed link: the relative href resolves against the page, and the feed reads")
    func oneLink() async throws {
        let (rss, log) = (self.rss, RequestLog())
        let result = try await discover({ router in
            router.get("section/page.html") { _, _ in
                Response.body(Self.page(head: #"<link rel="alternate" type="application/rss+xml" title="World" href="feeds/world.xml">"#),
                              headers: [.contentType: "text/html"])
            }
            router.get("section/feeds/world.xml") { request, _ in
                log.record(request)
                return Response.body(rss, headers: [.contentType: "application/rss+xml"])
            }
        }, path: "section/page.html")
        let feed = try result.get()
        #expect(feed.url.path == "/section/feeds/world.xml")
        #expect(feed.title == "The Meridian Post")
        #expect(feed.itemCount == 8)
        #expect(feed.format == .rss2)
        #expect(log.count == 1)
    }

    @Test("a page with two feed links: the error lists both, with titles and URLs")
    func twoLinks() async throws {
        let (rss, atom) = (self.rss, self.atom)
        let result = try await discover({ router in
            router.get("index.html") { _, _ in
                Response.body(Self.page(head: """
                    <link rel="alternate" type="application/rss+xml" href="/world.xml">
                    <link rel="alternate" type="application/atom+xml" title="Tech" href="/tech.atom">
                    <link rel="stylesheet" href="/style.css">
                    """), headers: [.contentType: "text/html"])
            }
            router.get("world.xml") { _, _ in Response.body(rss) }
            router.get("tech.atom") { _, _ in Response.body(atom) }
        }, path: "index.html")
        guard case .failure(.severalFeeds(_, let feeds)) = result else {
            Issue.record("expected several feeds, got \(result)")
            return
        }
        #expect(feeds.map(\.url.path) == ["/world.xml", "/tech.atom"])
        #expect(feeds.map(\.title) == ["The Meridian Post", "Circuit Weekly"])
        let message = DiscoveryError.severalFeeds(try #require(URL(string: "https://x.example/")), feeds).description
        #expect(message.contains("/world.xml") && message.contains("/tech.atom") && message.contains("\"The Meridian Post\""), "\(message)")
        #expect(message.contains("run again with the URL of the one to add"))
    }

    @Test("a page with no feed link: the common paths on the same origin are tried, /feed.xml is found")
    func commonPath() async throws {
        let (rss, log) = (self.rss, RequestLog())
        let result = try await discover({ router in
            router.get("blog/post.html") { request, _ in
                log.record(request)
                return Response.body(Self.page(head: ""), headers: [.contentType: "text/html"])
            }
            router.get("feed.xml") { request, _ in
                log.record(request)
                return Response.body(rss)
            }
        }, path: "blog/post.html")
        let feed = try result.get()
        #expect(feed.url.path == "/feed.xml")
        #expect(feed.title == "The Meridian Post")
        // Tried in order until one reads, on the origin's root, not beside the page.
        #expect(log.all.map(\.path) == ["/blog/post.html", "/feed.xml"])
    }

    @Test("no feed anywhere: the error says what was tried")
    func nothing() async throws {
        let result = try await discover({ router in
            router.get("index.html") { _, _ in Response.body(Self.page(head: ""), headers: [.contentType: "text/html"]) }
            router.get("rss") { _, _ in Response.body(Data("<html><body>not a feed</body></html>".utf8)) }
        }, path: "index.html")
        guard case .failure(.noFeed(_, let tried)) = result else {
            Issue.record("expected no feed, got \(result)")
            return
        }
        // URLComponents keeps the trailing slash of /feed/, which URL.path drops.
        #expect(tried.map { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.path } == ["/index.html"] + FeedDiscovery.commonPaths)
        #expect(tried[1].reason == "HTTP 404")
        #expect(tried.first { $0.url.path == "/rss" }?.reason.contains("not an RSS, Atom or JSON feed") == true)
        let message = try #require(result.failure).description
        #expect(message.contains("/feed, http://") && message.contains("/feed.json (HTTP 404)"), "\(message)")
        #expect(message.components(separatedBy: "(HTTP 404)").count == 2, "one reason for all the 404s: \(message)")
    }

    @Test("a feed URL is the feed itself; a JSON Feed reads too")
    func directFeeds() async throws {
        let (rss, jsonFeed) = (self.rss, self.jsonFeed)
        let direct = try await discover({ router in
            router.get("world.xml") { _, _ in Response.body(rss) }
        }, path: "world.xml").get()
        #expect(direct.url.path == "/world.xml")
        #expect(direct.itemCount == 8)
        let json = try await discover({ router in
            router.get("lab") { _, _ in
                Response.body(Self.page(head: #"<base href="/data/"><link rel="alternate" type="application/feed+json" title="Lab" href="feed.json">"#))
            }
            router.get("data/feed.json") { _, _ in Response.body(jsonFeed) }
        }, path: "lab").get()
        #expect(json.url.path == "/data/feed.json")
        #expect(json.format == .jsonFeed)
        #expect(json.title == "Lab Notes Daily")
    }

    @Test("a page that cannot be fetched: the reason")
    func unreachable() async throws {
        let result = try await discover({ router in
            router.get("gone") { _, _ in Response(status: .gone) }
        }, path: "gone")
        let gone = try #require(result.failure?.url)
        #expect(result.failure == .unreachable(gone, reason: "HTTP 410"))
        let (socket, port) = try TestSupport.refusingPort()
        defer { close(socket) }
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        let closed = try await withHTTPFetcher { http -> DiscoveryError? in
            do throws(DiscoveryError) {
                _ = try await FeedDiscovery(http: http).discover(url)
                return nil
            } catch {
                return error
            }
        }
        guard case .unreachable(_, let reason)? = closed else {
            Issue.record("expected unreachable, got \(String(describing: closed))")
            return
        }
        #expect(reason.contains("refused"), "\(reason)")
    }

    @Test("feed links: rel and type tokens, <base>, relative and absolute hrefs, each URL once")
    func links() throws {
        let page = try #require(URL(string: "https://site.example/a/b/page.html"))
        let html = Self.page(head: """
            <base href="/root/">
            <LINK REL="Alternate Home" TYPE="application/atom+xml; charset=utf-8" HREF="atom.xml" title=" Atom ">
            <link rel="alternate" type="application/json" href="https://api.example/x.json">
            <link rel="alternate" type="application/rss+xml" href="/root/atom.xml">
            <link rel="alternate" type="text/html" href="other.html">
            <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
            <link rel="canonical" type="application/rss+xml" href="nope.xml">
            """)
        let links = FeedLinks.find(inHTML: html, page: page)
        #expect(links.map(\.url.absoluteString) == ["https://site.example/root/atom.xml", "https://api.example/x.json"])
        #expect(links.first?.title == "Atom")
    }
}

extension Result where Failure == DiscoveryError {
    var failure: DiscoveryError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension DiscoveryError {
    var url: URL? {
        switch self {
        case .unreachable(let url, _), .noFeed(let url, _), .severalFeeds(let url, _): url
        }
    }
}
