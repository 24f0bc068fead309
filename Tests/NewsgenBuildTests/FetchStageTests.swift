import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// What the fetch stage tells a person about a source it cannot show.
@Suite("Fetch stage")
struct FetchStageTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")
    static let remote = SourceConfig(id: "hn", name: "Hacker News", kind: .feed(.remote(URL(string: "http://127.0.0.1:9/feed.xml")!)))

    func offline(_ store: MemoryStore) async throws -> (SourceReport, LogRecorder) {
        let config = try NewsAPITestSupport.config(server: URL(string: "http://127.0.0.1:9")!, sources: [Self.remote])
        let (logger, recorder) = TestSupport.recordingLogger()
        let reports = await FetchStage(config: config, providers: [FeedProvider(http: nil, articlesPerSource: 10)], store: store,
                                       now: Self.now, offline: true, refresh: false, logger: logger).run()
        return (try #require(reports.first), recorder)
    }

    func content() -> SourceContent {
        SourceContent(format: .rss2, articles: [Article(id: "a", sourceID: "hn", title: "A story", url: "https://example.com/a", published: Self.now)])
    }

    @Test("--offline, never fetched: says so, and what to do")
    func neverFetched() async throws {
        let (report, log) = try await offline(MemoryStore())
        #expect(log.warnings == ["source \"hn\": offline, and it has never been fetched (run a build without --offline first)"])
        #expect(!report.isFresh)
    }

    @Test("--offline, fetched but never successfully: not 'never fetched'")
    func neverSucceeded() async throws {
        let store = MemoryStore()
        try await store.recordFailure(of: "hn", error: SourceError("HTTP 503 from 127.0.0.1"), at: Self.now.addingTimeInterval(-3_600))
        let (_, log) = try await offline(store)
        #expect(log.warnings == ["source \"hn\": offline, and no fetch of it has succeeded yet (run a build without --offline once it answers)"])
    }

    @Test("--offline, last success 9 days ago: says how old, against maxCacheAgeDays")
    func tooOld() async throws {
        let store = MemoryStore()
        try await store.recordSuccess(of: "hn", content: content(), at: Self.now.addingTimeInterval(-9 * 86_400))
        let (report, log) = try await offline(store)
        #expect(log.warnings == ["source \"hn\": offline, and it was last fetched 9 days ago, older than maxCacheAgeDays (7)"])
        #expect(report.articles.isEmpty)
    }

    @Test("--offline, last success 2 days ago: shown from the cache, no warning")
    func youngEnough() async throws {
        let store = MemoryStore()
        try await store.recordSuccess(of: "hn", content: content(), at: Self.now.addingTimeInterval(-2 * 86_400))
        let (report, log) = try await offline(store)
        #expect(log.warnings.isEmpty)
        #expect(report.articles.count == 1)
        #expect(report.isFresh)
    }
}
