import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenRender
import NewsgenTestSupport

/// The saved lists' pages: a list's own badge would be on every row of it, so its page leaves it out; other pages keep it.
@Suite("Saved list pages")
struct SavedListPageTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    static func story(_ number: Int) -> Article {
        Article(id: "https://wire.example/\(number)", sourceID: "wire", title: "Story \(number)",
                url: "https://wire.example/\(number)", published: now.addingTimeInterval(Double(-number * 3600)))
    }

    /// Story 1 is a favorite, story 2 on Read Later, story 3 on both.
    static func render() async throws -> RenderedSite {
        let folder = try TestSupport.temporaryFolder()
        let json = #"{"baseURL": "https://news.example.org/", "sources": [{"id": "wire", "feed": "https://wire.example/feed"}]}"#
        let config = try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
        let stories = (1...3).map(story)
        func saved(_ article: Article) -> SavedArticle {
            SavedArticle(entry: SavedEntry(url: article.url, savedAt: now), article: article, matched: true)
        }
        let content = SiteContent(
            config: config, sources: [SourceReport(config: config.sources[0], status: .fetched, name: "Wire", articles: stories)],
            favorites: [saved(stories[0]), saved(stories[2])], readLater: [saved(stories[1]), saved(stories[2])], generated: now
        )
        let templates = try await TemplateSet.load(folder: TestSupport.repository.appendingPathComponent("Templates"), builtInIfMissing: false)
        return try await SiteRenderer(templates: templates, content: content).render(carrying: nil)
    }

    static func text(_ site: RenderedSite, _ path: String) throws -> String {
        try #require(site.files.first { $0.path == path }.map { String(decoding: $0.data, as: UTF8.self) })
    }

    static func count(_ text: String, in page: String) -> Int {
        page.components(separatedBy: text).count - 1
    }

    @Test("Favorites shows no Favorite badge and Read Later no Read later badge; each shows the other's, and the front page both")
    func badges() async throws {
        let site = try await Self.render()
        let favorites = try Self.text(site, "favorites/index.html")
        #expect(Self.count("badge-favorite", in: favorites) == 0)
        #expect(Self.count("badge-later", in: favorites) == 1, "story 3 is on Read Later too")
        let later = try Self.text(site, "read-later/index.html")
        #expect(Self.count("badge-later", in: later) == 0)
        #expect(Self.count("badge-favorite", in: later) == 1, "story 3 is a favorite too")
        let front = try Self.text(site, "index.html")
        #expect(Self.count("badge-favorite", in: front) == 2 && Self.count("badge-later", in: front) == 2)
    }
}
