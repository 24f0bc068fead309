import AsyncHTTPClient
import Foundation
import Hummingbird
import Testing
@testable import NewsgenModel
@testable import NewsgenFetch
import NewsgenTestSupport

/// Fetching over real HTTP from a server on 127.0.0.1 that the test starts.
@Suite("HTTP fetching")
struct HTTPFetchTests {
    let feed: Data
    let gzippedFeed: Data

    init() throws {
        feed = try TestSupport.fixture("world.xml")
        gzippedFeed = try TestSupport.fixture("world.xml.gz")
    }

    func source(_ url: URL) -> SourceConfig {
        SourceConfig(id: "world", kind: .feed(.remote(url)))
    }

    @discardableResult
    func withFetcher<T>(timeout: Duration = .seconds(60), maximumBytes: Int = 10 * 1_048_576, _ body: (HTTPFetcher) async throws -> T) async throws -> T {
        let fetcher = HTTPFetcher(timeout: timeout, maximumBytes: maximumBytes)
        do {
            let result = try await body(fetcher)
            try await fetcher.shutdown()
            return result
        } catch {
            try await fetcher.shutdown()
            throw error
        }
    }

    func fetch(_ url: URL, etag: String? = nil, fetcher: HTTPFetcher) async throws(SourceError) -> FetchOutcome {
        try await FeedProvider(http: fetcher, articlesPerSource: 10, retry: .none).fetch(FetchRequest(source: source(url), etag: etag))
    }

    @Test("the client is made at the first request: reading local files makes none, and starts no threads")
    func clientMadeWhenFirstNeeded() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appendingPathComponent("world.xml")
        try feed.write(to: file)
        let feed = self.feed
        try await withTestServer({ router in
            router.get("feed.xml") { _, _ in Response.body(feed, headers: [.contentType: "application/rss+xml"]) }
        }) { base in
            try await withFetcher { fetcher in
                let provider = FeedProvider(http: fetcher, articlesPerSource: 10, retry: .none)
                let local = try await provider.fetch(FetchRequest(source: SourceConfig(id: "world", kind: .feed(.file(file)))))
                guard case .fetched = local else {
                    Issue.record("expected the local file's content")
                    return
                }
                #expect(!fetcher.madeClient)
                guard case .fetched = try await fetch(base.appendingPathComponent("feed.xml"), fetcher: fetcher) else {
                    Issue.record("expected the served feed's content")
                    return
                }
                #expect(fetcher.madeClient)
            }
        }
        // Shut down without a request: nothing to release.
        let unused = HTTPFetcher()
        try await unused.shutdown()
        #expect(!unused.madeClient)
    }

    @Test("a feed over http, with newsgen's User-Agent")
    func fetchesFeed() async throws {
        let log = RequestLog()
        let feed = self.feed
        try await withTestServer({ router in
            router.get("feed.xml") { request, _ in
                log.record(request)
                return Response.body(feed, headers: [.contentType: "application/rss+xml"])
            }
        }) { base in
            try await withFetcher { fetcher in
                guard case .fetched(let content) = try await fetch(base.appendingPathComponent("feed.xml"), fetcher: fetcher) else {
                    Issue.record("expected content")
                    return
                }
                #expect(content.format == .rss2)
                #expect(content.title == "The Meridian Post")
                #expect(content.articles.count == 8)
                #expect(log.last?["user-agent"]?.hasPrefix("newsgen/") == true)
            }
        }
    }

    @Test("gzip-encoded answers are decompressed")
    func gzip() async throws {
        let gzipped = gzippedFeed
        try await withTestServer({ router in
            router.get("feed.xml") { request, _ in
                #expect(request.headers[.acceptEncoding]?.contains("gzip") == true)
                return Response.body(gzipped, headers: [.contentType: "application/rss+xml", .contentEncoding: "gzip"])
            }
        }) { base in
            try await withFetcher { fetcher in
                guard case .fetched(let content) = try await fetch(base.appendingPathComponent("feed.xml"), fetcher: fetcher) else {
                    Issue.record("expected content")
                    return
                }
                #expect(content.articles.count == 8)
            }
        }
    }

    @Test("conditional GET: the validators go back, a 304 means not modified")
    func conditionalGet() async throws {
        let log = RequestLog()
        let feed = self.feed
        try await withTestServer({ router in
            router.get("feed.xml") { request, _ in
                log.record(request)
                if request.headers[.ifNoneMatch] == "\"v1\"" { return Response(status: .notModified) }
                return Response.body(feed, headers: [.eTag: "\"v1\"", .lastModified: "Sat, 21 Nov 2026 08:00:00 GMT"])
            }
        }) { base in
            try await withFetcher { fetcher in
                let url = base.appendingPathComponent("feed.xml")
                guard case .fetched(let content) = try await fetch(url, fetcher: fetcher) else {
                    Issue.record("expected content")
                    return
                }
                #expect(content.etag == "\"v1\"")
                #expect(content.lastModified == "Sat, 21 Nov 2026 08:00:00 GMT")
                guard case .notModified = try await fetch(url, etag: content.etag, fetcher: fetcher) else {
                    Issue.record("expected 304")
                    return
                }
                #expect(log.count == 2)
            }
        }
    }

    @Test("errors name what went wrong", arguments: ["missing", "huge", "slow", "loop", "html"])
    func errors(path: String) async throws {
        let feed = self.feed
        try await withTestServer({ router in
            router.get("missing") { _, _ in Response(status: .notFound) }
            router.get("huge") { _, _ in Response.body(Data(count: 200_000) + feed) }
            router.get("slow") { _, _ in
                try await Task.sleep(for: .seconds(2))
                return Response.body(feed)
            }
            router.get("loop") { _, _ in Response(status: .found, headers: [.location: "/loop"]) }
            router.get("html") { _, _ in Response.body(Data("<html><body>Sorry</body></html>".utf8), headers: [.contentType: "text/html"]) }
        }) { base in
            // Only the slow server is meant to hit the timeout; the others get time to spare on a busy machine.
            try await withFetcher(timeout: .seconds(path == "slow" ? 1 : 20), maximumBytes: 100_000) { fetcher in
                let expected = [
                    "missing": "HTTP 404 from 127.0.0.1", "huge": "larger than", "slow": "no complete answer within 1 s",
                    "loop": "redirect", "html": "not an RSS, Atom or JSON feed (found an HTML page)",
                ][path] ?? ""
                await #expect {
                    try await fetch(base.appendingPathComponent(path), fetcher: fetcher)
                } throws: { error in
                    let message = (error as? SourceError)?.message ?? ""
                    return message.contains(expected)
                }
            }
        }
    }

    @Test("redirects are followed")
    func redirect() async throws {
        let feed = self.feed
        try await withTestServer({ router in
            router.get("old") { _, _ in Response(status: .movedPermanently, headers: [.location: "/new"]) }
            router.get("new") { _, _ in Response.body(feed) }
        }) { base in
            try await withFetcher { fetcher in
                guard case .fetched(let content) = try await fetch(base.appendingPathComponent("old"), fetcher: fetcher) else {
                    Issue.record("expected content")
                    return
                }
                #expect(content.articles.count == 8)
            }
        }
    }

    @Test("a closed port is a connection error, not a crash")
    func refused() async throws {
        try await withFetcher(timeout: .seconds(2)) { fetcher in
            await #expect(throws: SourceError.self) {
                try await fetch(URL(string: "http://127.0.0.1:9/feed.xml")!, fetcher: fetcher)
            }
        }
    }

    @Test("a body's gzip encoding is checked: a bomb is too large, a damaged stream says so", arguments: ["bomb", "garbage", "truncated"])
    func badEncoding(path: String) async throws {
        let bomb = try TestSupport.fixture("zeros-16MiB.gz")
        let truncated = gzippedFeed.prefix(gzippedFeed.count / 2)
        try await withTestServer({ router in
            let gzip: HTTPFields = [.contentType: "application/rss+xml", .contentEncoding: "gzip"]
            router.get("bomb") { _, _ in Response.body(bomb, headers: gzip) }
            router.get("garbage") { _, _ in Response.body(Data("this is not gzip at all, only plain text".utf8), headers: gzip) }
            router.get("truncated") { _, _ in Response.body(Data(truncated), headers: gzip) }
        }) { base in
            try await withFetcher(maximumBytes: 1_048_576) { fetcher in
                let expected = [
                    "bomb": "the response is larger than 1 MiB",
                    "garbage": "the response's gzip or deflate encoding is damaged",
                    "truncated": "the response's gzip or deflate encoding is damaged",
                ][path] ?? ""
                do throws(HTTPFetchError) {
                    let response = try await fetcher.get(base.appendingPathComponent(path))
                    Issue.record("expected an error, got HTTP \(response.status) with \(response.body.count) bytes")
                } catch {
                    #expect(error.description == expected)
                }
                await #expect {
                    try await fetch(base.appendingPathComponent(path), fetcher: fetcher)
                } throws: { error in
                    (error as? SourceError)?.message == expected
                }
            }
        }
    }
}
