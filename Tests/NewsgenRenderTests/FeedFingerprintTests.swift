import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenRender
import NewsgenTestSupport

/// A feed is fingerprinted from the list it is written from and the site's context, not from
/// its bytes, so an unchanged feed is not written at all. Whatever a feed shows must change its
/// fingerprint; an incremental build then writes exactly the feeds whose bytes changed.
@Suite("Feed fingerprints")
struct FeedFingerprintTests {
    typealias Inputs = PageFingerprintTests.Inputs

    /// Whether a path is one of the site's feeds (the search index is not).
    static func isFeed(_ path: String) -> Bool {
        path.hasPrefix("feeds/") || [".rss", ".atom", ".json"].contains { path.hasSuffix($0) } && !path.hasPrefix("search/")
    }

    @Test("each value a feed shows changes the fingerprints of the feeds that show it, and only their files are written again", arguments: [
        "title", "summary", "author", "no author", "url", "no url", "image", "published", "no date", "content", "categories",
        "outlet", "source name", "favorite", "site title", "site description", "site language", "base URL", "another story",
    ])
    func shown(_ change: String) async throws {
        let before = try Inputs()
        let after = try #require(try before.changed(change), "no such change: \(change)")
        let old = try await PageFingerprintTests.site(before)
        let new = try await PageFingerprintTests.site(after)
        let oldBytes = Dictionary(uniqueKeysWithValues: old.files.filter { Self.isFeed($0.path) }.map { ($0.path, $0.data) })
        let newBytes = Dictionary(uniqueKeysWithValues: new.files.filter { Self.isFeed($0.path) }.map { ($0.path, $0.data) })
        let changed = Set(newBytes.keys.filter { newBytes[$0] != oldBytes[$0] })
        #expect(!changed.isEmpty, "the change is shown in a feed, so the test means something")
        for path in changed {
            #expect(new.fingerprints[path] != old.fingerprints[path], "\(path) shows \(change) differently")
        }
        let incremental = try await PageFingerprintTests.site(after, carrying: old.fingerprints)
        let rendered = Set(incremental.files.map(\.path).filter(Self.isFeed))
        #expect(changed.isSubset(of: rendered), "every feed that shows \(change) differently is written again")
        for file in incremental.files where Self.isFeed(file.path) {
            #expect(file.data == newBytes[file.path])
        }
        if change == "another story" {
            #expect(!rendered.contains(SitePaths.sourceFeed("world") + ".rss"), "a feed that does not show the story is carried")
        }
    }

    @Test("the feed's list and its entries have the fields the fingerprint feeds (a new one must be fed too)")
    func fields() throws {
        let entry = FeedList.Entry(article: Article(id: "a", sourceID: "s", title: "t"), fallbackLink: "")
        #expect(Mirror(reflecting: entry).children.count == 2)
        let list = FeedList(title: "", description: "", pagePath: "", feedPath: "", entries: [entry], updated: nil)
        #expect(Mirror(reflecting: list).children.count == 6)
        #expect(Mirror(reflecting: FeedContext(baseURL: URL(fileURLWithPath: "/"), language: "en", siteTitle: "")).children.count == 4)
    }
}
