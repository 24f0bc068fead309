import Foundation
import Hummingbird
import Testing
@testable import NewsgenModel
@testable import NewsgenFetch
import NewsgenTestSupport

/// `json` sources: the payload contract of origins/003, over HTTP and from a file.
@Suite("JSON news API provider")
struct JSONNewsProviderTests {
    func fetch(_ location: SourceConfig.Location, http: HTTPFetcher?, etag: String? = nil, retry: RetryPolicy = RetryPolicy.fast()) async throws(SourceError) -> FetchOutcome {
        let source = SourceConfig(id: "team", kind: .json(location))
        return try await JSONNewsProvider(http: http, articlesPerSource: 10, retry: retry).fetch(FetchRequest(source: source, etag: etag))
    }

    /// The three items of the contract's example, checked as a user would see them.
    func expectContract(_ articles: [Article]) throws {
        #expect(articles.count == 3)
        let libre = try #require(articles.first { $0.title.hasPrefix("Libre Not Libra") })
        #expect(libre.url == nil, "the item has no url")
        #expect(libre.id == "team:155", "keyed by source and the numeric id")
        #expect(libre.categories == ["fintech"], "tags become categories")
        #expect(libre.author == "Adam B. Levine")
        #expect(libre.imageURL == "https://static.coindesk.com/wp-content/uploads/2016/05/Andreas_M_Antonopoulos_in_Zurich_2016-wiki.jpg")
        #expect(libre.published == TestSupport.date("2020-02-02T16:20:00Z"))
        #expect(libre.summary.hasPrefix("Years of jokes about"))

        let ideas = try #require(articles.first { $0.title == "The Limited Value Of Ideas" })
        #expect(ideas.categories.isEmpty, "no tags")
        #expect(ideas.imageURL == nil, "urlToImage null")
        #expect(ideas.id == "team:173")

        let crypto = try #require(articles.first { $0.title.hasPrefix("Crypto Weekend Gains") })
        #expect(crypto.url == "https://bitcoinist.com/crypto-weekend-gains-eth-ada-xrp-pump-on-sunday/")
        #expect(crypto.id == "https://bitcoinist.com/crypto-weekend-gains-eth-ada-xrp-pump-on-sunday")
        #expect(crypto.categories == ["fintech", "crypto"])
        #expect(articles.map(\.title).first == libre.title, "newest first")
    }

    @Test("the contract's example over HTTP: ids as numbers, null source ids, missing urls, tags as categories")
    func overHTTP() async throws {
        let log = RequestLog()
        let body = try TestSupport.fixture("newsapi/contract.json")
        try await withTestServer({ router in
            router.get("news") { request, _ in
                log.record(request)
                return Response.json(body)
            }
        }) { server in
            try await withHTTPFetcher { fetcher in
                let outcome = try await fetch(.remote(server.appendingPathComponent("news")), http: fetcher)
                let content = try #require(outcome.content)
                #expect(content.format == .newsJSON)
                try expectContract(content.articles)
            }
            #expect(log.last?["accept"] == "application/json")
            #expect(log.last?["x-api-key"] == nil, "no NewsAPI key goes to another API")
        }
    }

    @Test("a local file in the contract's format, read even without HTTP")
    func localFile() async throws {
        let file = TestSupport.fixtures.appendingPathComponent("newsapi/contract.json")
        let outcome = try await fetch(.file(file), http: nil)
        try expectContract(try #require(outcome.content).articles)
    }

    @Test("the content's [+N chars] tail is trimmed when it stands in for the description")
    func contentStandsIn() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appendingPathComponent("news.json")
        try #"""
            {"status": "ok", "totalResults": 1, "news": [
              {"id": "a1", "source": {"id": 97, "name": "Team"}, "tags": [{"name": "Releases", "id": 3}, "loose tag", 42],
               "title": "Version 2 ships", "description": null, "publishedAt": "2026-11-21T09:30:00.250Z",
               "content": "Version 2 ships today with offline mode… [+2041 chars]"}
            ]}
            """#.write(to: file, atomically: true, encoding: .utf8)
        let article = try #require(try await fetch(.file(file), http: nil).content?.articles.first)
        #expect(article.summary == "Version 2 ships today with offline mode…")
        #expect(article.categories == ["Releases", "loose tag"])
        #expect(article.id == "team:a1")
        #expect(article.published == TestSupport.date("2026-11-21T09:30:00.250Z"))
    }

    @Test("answers that break the contract are one clear error", arguments: [
        (#"{"status": "error", "code": "forbidden", "message": "Token expired"}"#, #"answered with status "error": Token expired"#),
        (#"{"status": "ok", "articles": []}"#, #"has no "news" list"#),
        ("<html>oops</html>", "is not a JSON object"),
        (#"{"status": "error", "message": "Token\u0007 expired,\n  try again"}"#, #"answered with status "error": Token expired, try again"#),
    ])
    func brokenContract(body: String, expected: String) async throws {
        try await withTestServer({ router in
            router.get("news") { _, _ in Response.json(Data(body.utf8)) }
        }) { server in
            _ = try await withHTTPFetcher { fetcher in
                await #expect {
                    try await fetch(.remote(server.appendingPathComponent("news")), http: fetcher)
                } throws: { error in
                    (error as? SourceError)?.message.contains(expected) == true
                }
            }
        }
    }

    @Test("503 is retried; 404 is not; a 304 keeps the cache")
    func retriesAndConditionalGet() async throws {
        let log = RequestLog()
        let body = try TestSupport.fixture("newsapi/contract.json")
        try await withTestServer({ router in
            router.get("flaky") { request, _ in
                log.record(request)
                if request.headers[.ifNoneMatch] == "\"v7\"" { return Response(status: .notModified) }
                let attempts = log.all.filter { $0.path == "/flaky" }.count
                return attempts == 1 ? Response(status: .serviceUnavailable) : Response.json(body, headers: [.eTag: "\"v7\""])
            }
            router.get("gone") { request, _ in
                log.record(request)
                return Response(status: .notFound)
            }
        }) { server in
            try await withHTTPFetcher { fetcher in
                let first = try await fetch(.remote(server.appendingPathComponent("flaky")), http: fetcher)
                #expect(first.content?.articles.count == 3)
                #expect(first.content?.etag == "\"v7\"")
                #expect(log.count == 2)
                guard case .notModified = try await fetch(.remote(server.appendingPathComponent("flaky")), http: fetcher, etag: "\"v7\"") else {
                    Issue.record("expected not modified")
                    return
                }
                await #expect {
                    try await fetch(.remote(server.appendingPathComponent("gone")), http: fetcher)
                } throws: { error in
                    (error as? SourceError)?.message == "HTTP 404 from 127.0.0.1"
                }
                #expect(log.all.filter { $0.path == "/gone" }.count == 1)
            }
        }
    }
}
