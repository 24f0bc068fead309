import Foundation
import Testing
@testable import NewsgenStore
import NewsgenModel
import NewsgenTestSupport

/// What extraction gave each story link, kept in a real SQLite file.
@Suite("Extractions in the cache")
struct ExtractionStoreTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    @Test("each outcome survives closing and opening the cache")
    func roundTrip() async throws {
        let file = try TestSupport.temporaryFolder().appendingPathComponent("cache.sqlite")
        let kept: [String: StoryExtraction] = [
            "https://a.example/1": StoryExtraction(.article(html: "<p>Full &amp; text</p>"), attempted: Self.now),
            "https://a.example/2": StoryExtraction(.none(reason: "The page has no article."), attempted: Self.now),
            "https://a.example/3": StoryExtraction(.failed(reason: "HTTP 503"), attempted: Self.now, attempts: 2),
        ]
        let store = try SQLiteStore.open(at: file, logger: TestSupport.recordingLogger().0)
        try await store.recordExtractions(kept)
        store.close()
        let reopened = try SQLiteStore.open(at: file, logger: TestSupport.recordingLogger().0)
        defer { reopened.close() }
        #expect(try await reopened.extractions(of: Array(kept.keys) + ["https://a.example/never"]) == kept)
    }

    @Test("retention drops the extractions of links no article has any more")
    func pruned() async throws {
        let store = try SQLiteStore.open(at: try TestSupport.temporaryFolder().appendingPathComponent("cache.sqlite"), logger: TestSupport.recordingLogger().0)
        defer { store.close() }
        let listed = Article(id: "https://a.example/kept", sourceID: "s", title: "Kept", url: "https://a.example/kept")
        try await store.recordSuccess(of: "s", content: SourceContent(format: .rss2, articles: [listed]), at: Self.now)
        try await store.recordExtractions([
            "https://a.example/kept": StoryExtraction(.article(html: "<p>Kept</p>"), attempted: Self.now),
            "https://a.example/gone": StoryExtraction(.article(html: "<p>Gone</p>"), attempted: Self.now),
        ])
        _ = try await store.prune(notSeenSince: Self.now)
        #expect(Set(try await store.extractions(of: ["https://a.example/kept", "https://a.example/gone"]).keys) == ["https://a.example/kept"])
    }

    @Test("only a page that could not be had is asked for again: after six hours, three times in all")
    func due() {
        let article = StoryExtraction(.article(html: "<p>x</p>"), attempted: Self.now)
        let none = StoryExtraction(.none(reason: "no article"), attempted: Self.now)
        let failed = StoryExtraction(.failed(reason: "HTTP 503"), attempted: Self.now)
        let later = Self.now + RetryLater.after
        #expect(!article.isDue(at: later + 86_400 * 30))
        #expect(!none.isDue(at: later + 86_400 * 30))
        #expect(!failed.isDue(at: later - 1))
        #expect(failed.isDue(at: later))
        #expect(!StoryExtraction(.failed(reason: "HTTP 503"), attempted: Self.now, attempts: RetryLater.attempts).isDue(at: later))
    }
}
