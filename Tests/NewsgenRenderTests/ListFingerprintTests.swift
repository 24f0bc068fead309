import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenRender
import NewsgenTestSupport

/// A list page's rows are fingerprinted from the stories they show (`ArticleRows.feed`), not
/// built, so a carried list page builds no row. Whatever a row shows must change the
/// fingerprint of every page showing it; an incremental build then renders exactly the files
/// whose bytes changed, and carries only files whose bytes are what rendering would give.
@Suite("List page fingerprints")
struct ListFingerprintTests {
    typealias Inputs = PageFingerprintTests.Inputs

    /// The pages that list stories in rows: not a story's own page, not a feed or an index.
    static func isList(_ path: String) -> Bool {
        path.hasSuffix(".html") && !path.hasPrefix("articles/")
    }

    @Test("each value a row shows changes the fingerprint of every file whose bytes change, and an incremental build renders those and carries the rest", arguments: [
        "title", "summary", "author", "no author", "url", "no url", "image", "published", "no date", "outlet",
        "source name", "source gone", "favorite", "read later", "saved a day later", "site title", "base URL",
        "a tag gains a page", "the image becomes a static file", "another story", "guid", "less than a second later",
    ])
    func rows(_ change: String) async throws {
        var before = try Inputs()
        if change == "the image becomes a static file" { before.article.imageURL = "https://news.example.org/images/1.jpg" }
        if change == "saved a day later" {
            // Saved before the story's date, so that the list's newest time stays the story's:
            // only the row's "Saved" mark shows the change.
            before.favorite = true
            before.savedAt = PageFingerprintTests.now.addingTimeInterval(-3 * 86_400)
        }
        let after = try #require(try before.changed(change), "no such change: \(change)")
        let old = try await PageFingerprintTests.site(before)
        let new = try await PageFingerprintTests.site(after)
        let oldBytes = Dictionary(uniqueKeysWithValues: old.files.map { ($0.path, $0.data) })
        let newBytes = Dictionary(uniqueKeysWithValues: new.files.map { ($0.path, $0.data) })
        let changed = Set(newBytes.keys.filter { newBytes[$0] != oldBytes[$0] })
        if !["guid", "less than a second later"].contains(change) {
            #expect(changed.contains(where: Self.isList), "a list page shows \(change), so the test means something")
        }
        for path in changed {
            #expect(new.fingerprints[path] != old.fingerprints[path], "\(path) shows \(change) differently")
        }
        let incremental = try await PageFingerprintTests.site(after, carrying: old.fingerprints)
        #expect(changed.isSubset(of: Set(incremental.files.map(\.path))), "every file that shows \(change) differently is rendered again")
        for file in incremental.files {
            #expect(file.data == newBytes[file.path], "\(file.path) is what a full render gives")
        }
        for path in incremental.carried {
            #expect(oldBytes[path] == newBytes[path], "\(path) is carried only when its bytes would not change")
        }
        if change == "another story" {
            #expect(incremental.carried.contains(SitePaths.file(forPage: SitePaths.sourcePage("world"))),
                    "a list that does not show the story is carried")
        }
    }
}
