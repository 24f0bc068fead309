import Foundation
import Testing
@testable import NewsgenStore
import NewsgenModel
import NewsgenTestSupport

/// Each story's group, kept in a real SQLite file so later builds never regroup it.
@Suite("Story groups in the cache")
struct StoryGroupStoreTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    static func story(_ name: String, source: String = "s") -> Article {
        Article(id: "https://a.example/\(name)", sourceID: source, title: name, url: "https://a.example/\(name)")
    }

    @Test("a story's group survives closing and opening the cache, and is never replaced")
    func keptOnce() async throws {
        let file = try TestSupport.temporaryFolder().appendingPathComponent("cache.sqlite")
        let (a, b) = (Self.story("a"), Self.story("b", source: "t"))
        let store = try SQLiteStore.open(at: file, logger: TestSupport.recordingLogger().0)
        try await store.recordSuccess(of: "s", content: SourceContent(format: .rss2, articles: [a]), at: Self.now)
        try await store.recordSuccess(of: "t", content: SourceContent(format: .rss2, articles: [b]), at: Self.now)
        try await store.recordStoryGroups([a.id: a.id, b.id: a.id])
        try await store.recordStoryGroups([b.id: b.id])
        store.close()
        let reopened = try SQLiteStore.open(at: file, logger: TestSupport.recordingLogger().0)
        defer { reopened.close() }
        #expect(try await reopened.storyGroups(of: [a.id, b.id, "https://a.example/never"]) == [a.id: a.id, b.id: a.id])
    }

    @Test("a story the cache does not hold gets no group, and a pruned story's group goes with it")
    func onlyHeldStories() async throws {
        let store = try SQLiteStore.open(at: try TestSupport.temporaryFolder().appendingPathComponent("cache.sqlite"),
                                         logger: TestSupport.recordingLogger().0)
        defer { store.close() }
        let (kept, gone) = (Self.story("kept"), Self.story("gone"))
        try await store.recordSuccess(of: "s", content: SourceContent(format: .rss2, articles: [gone]), at: Self.now - 86_400 * 40)
        try await store.recordSuccess(of: "s", content: SourceContent(format: .rss2, articles: [kept]), at: Self.now)
        try await store.recordStoryGroups([kept.id: kept.id, gone.id: kept.id, "https://a.example/unknown": kept.id])
        #expect(try await store.storyGroups(of: [kept.id, gone.id, "https://a.example/unknown"]) == [kept.id: kept.id, gone.id: kept.id])
        _ = try await store.prune(notSeenSince: Self.now - 86_400 * 30)
        #expect(try await store.storyGroups(of: [kept.id, gone.id]) == [kept.id: kept.id])
    }
}
