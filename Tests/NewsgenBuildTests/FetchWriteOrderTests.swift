import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// The sources are fetched at once, and two of them may list one story, which the cache keeps
/// once: their lists go into the cache in site.json's order, whichever fetch ends last, so the
/// copy kept (and every page that later shows the story from the cache) does not depend on the
/// network's timing.
@Suite("Fetched lists written in site.json's order")
struct FetchWriteOrderTests {
    /// Serves every source as `base` does, `slow` a moment after the others.
    struct Delaying: SourceProvider {
        var base: any SourceProvider
        var slow: String

        func handles(_ source: SourceConfig) -> Bool { base.handles(source) }

        func fetch(_ request: FetchRequest) async throws(SourceError) -> FetchOutcome {
            if request.source.id == slow { try? await Task.sleep(for: .milliseconds(300)) }
            return try await base.fetch(request)
        }
    }

    @Test("a story two sources list is kept as the later of them in site.json lists it, whichever fetch ends last",
          arguments: ["north", "south"])
    func laterSourceKeepsTheStory(slow: String) async throws {
        // "north" and "south" (in that order in site.json) list the story "shared", each with a title of its own.
        let site = try CachedListsTests()
        let logger = TestSupport.recordingLogger().0
        let store = try SQLiteStore.open(at: site.config.cache, logger: logger)
        defer { store.close() }
        let feeds = FeedProvider(http: nil, articlesPerSource: site.config.articlesPerSource, retry: .none,
                                 now: { Date().addingTimeInterval(3600) })
        let build = Build(config: site.config, options: .init(refresh: true), providers: [Delaying(base: feeds, slow: slow)],
                          store: store, now: { CachedListsTests.now }, logger: logger)
        let report = try await build.run()
        #expect(report.sources.allSatisfy { $0.readNow })

        let kept = try #require(try await store.lists(of: ["north"])["north"]?.first { $0.url == "https://example.com/shared" })
        #expect(kept.sourceID == "south", "the story is kept as \(kept.sourceID) lists it")
        #expect(kept.title == "Bridge reopens, says the South Desk")
    }
}
