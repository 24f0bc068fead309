import Foundation
import Hummingbird
import Testing
@testable import NewsgenFetch
import NewsgenTestSupport

/// Story pages fetched for extraction, from a real server on 127.0.0.1.
@Suite("Story page fetcher")
struct StoryPageFetcherTests {
    func withFetcher<T: Sendable>(_ body: (StoryPageFetcher) async throws -> T) async throws -> T {
        let pages = StoryPageFetcher()
        do {
            let result = try await body(pages)
            try await pages.shutdown()
            return result
        } catch {
            try await pages.shutdown()
            throw error
        }
    }

    @Test("an HTML page with its charset and final address; robots.txt read once for many pages")
    func page() async throws {
        let log = RequestLog()
        try await withTestServer({ router in
            router.get("robots.txt") { request, _ in
                log.record(request)
                return Response.body(Data("User-agent: *\nAllow: /\n".utf8))
            }
            router.get("moved") { request, _ in
                log.record(request)
                return Response(status: .movedPermanently, headers: [.location: "/page"])
            }
            router.get("page") { request, _ in
                log.record(request)
                return Response.body(Data("<p>caf\u{E9}</p>".utf8), headers: [.contentType: "text/html; charset=\"ISO-8859-1\""])
            }
        }) { base in
            try await withFetcher { pages in
                async let first = pages.page(at: base.appendingPathComponent("moved"), timeout: .seconds(60))
                async let second = pages.page(at: base.appendingPathComponent("page"), timeout: .seconds(60))
                let (moved, direct) = try await (first, second)
                #expect(moved.url.path == "/page", "the address after the redirect")
                #expect(moved.charset == "ISO-8859-1")
                #expect(direct.bytes == Array("<p>caf\u{E9}</p>".utf8))
            }
            #expect(log.all.filter { $0.path == "/robots.txt" }.count == 1)
        }
    }

    @Test("robots.txt: a 404 allows everything, a 5xx nothing (for now), a Disallow its paths (for good)")
    func robots() async throws {
        try await withTestServer({ router in
            router.get("page") { _, _ in Response.body(Data("<p>x</p>".utf8), headers: [.contentType: "text/html"]) }
        }) { base in
            try await withFetcher { pages in
                _ = try await pages.page(at: base.appendingPathComponent("page"), timeout: .seconds(60))
            }
        }
        try await withTestServer({ router in
            router.get("robots.txt") { _, _ in Response(status: .serviceUnavailable) }
            router.get("page") { _, _ in Response.body(Data("<p>x</p>".utf8), headers: [.contentType: "text/html"]) }
        }) { base in
            try await withFetcher { pages in
                await #expect {
                    _ = try await pages.page(at: base.appendingPathComponent("page"), timeout: .seconds(60))
                } throws: { error in
                    guard let problem = error as? StoryPageProblem, case .robotsUnavailable = problem else { return false }
                    return !problem.isLasting
                }
            }
        }
        try await withTestServer({ router in
            router.get("robots.txt") { _, _ in Response.body(Data("User-agent: newsgen\nDisallow: /page\n".utf8)) }
            router.get("page") { _, _ in Response.body(Data("<p>x</p>".utf8), headers: [.contentType: "text/html"]) }
        }) { base in
            try await withFetcher { pages in
                await #expect(throws: StoryPageProblem.disallowedByRobots) {
                    _ = try await pages.page(at: base.appendingPathComponent("page"), timeout: .seconds(60))
                }
            }
        }
    }

    @Test("a PDF is refused by its type, a 404 for good, a 503 for now")
    func refusals() async throws {
        try await withTestServer({ router in
            router.get("paper") { _, _ in Response.body(Data("%PDF-1.7".utf8), headers: [.contentType: "application/pdf"]) }
            router.get("gone") { _, _ in Response(status: .notFound) }
            router.get("busy") { _, _ in Response(status: .serviceUnavailable) }
        }) { base in
            try await withFetcher { pages in
                await #expect(throws: StoryPageProblem.notHTML(contentType: "application/pdf")) {
                    _ = try await pages.page(at: base.appendingPathComponent("paper"), timeout: .seconds(60))
                }
                await #expect(throws: StoryPageProblem.status(404)) {
                    _ = try await pages.page(at: base.appendingPathComponent("gone"), timeout: .seconds(60))
                }
                #expect(StoryPageProblem.status(404).isLasting)
                #expect(!StoryPageProblem.status(503).isLasting)
                #expect(StoryPageProblem.notHTML(contentType: "application/pdf").isLasting)
            }
        }
    }
}
