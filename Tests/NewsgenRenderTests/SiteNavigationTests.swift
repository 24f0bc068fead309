import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenRender
import NewsgenTestSupport

/// The masthead's tabs, Archive and Tags among them, and the archive's words for readers.
@Suite("Site navigation")
struct SiteNavigationTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    static func render(keepDays: Int = 30) async throws -> RenderedSite {
        let folder = try TestSupport.temporaryFolder()
        let json = #"{"baseURL": "https://news.example.org/", "keepDays": \#(keepDays), "sources": [{"id": "wire", "feed": "https://wire.example/feed"}]}"#
        let config = try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
        let stories = (1...2).map { number in
            Article(id: "https://wire.example/\(number)", sourceID: "wire", title: "Story \(number)", url: "https://wire.example/\(number)",
                    published: now.addingTimeInterval(Double(-number * 3600)), categories: ["Harbour"])
        }
        let content = SiteContent(config: config, sources: [SourceReport(config: config.sources[0], status: .fetched, name: "Wire", articles: stories)],
                                  favorites: [], readLater: [], generated: now)
        let templates = try await TemplateSet.load(folder: TestSupport.repository.appendingPathComponent("Templates"), builtInIfMissing: false)
        return try await SiteRenderer(templates: templates, content: content).render(carrying: nil)
    }

    static func text(_ site: RenderedSite, _ path: String) throws -> String {
        try #require(site.files.first { $0.path == path }.map { String(decoding: $0.data, as: UTF8.self) })
    }

    /// The tabs of a page's masthead, as "title href mark".
    static func tabs(_ page: String) -> [String] {
        page.matches(of: /<li><a href="([^"]*)"( aria-current="page"| class="in-section")?>([^<]*)<\/a><\/li>/).map { match in
            "\(match.3) \(match.1)" + (match.2.map { $0.contains("aria-current") ? " current" : " section" } ?? "")
        }
    }

    @Test("every page's masthead has the Archive and Tags tabs, marked on the archive's and the tags' pages")
    func mastheadTabs() async throws {
        let site = try await Self.render()
        func tabs(_ path: String) throws -> [String] { Self.tabs(try Self.text(site, path)) }
        #expect(try tabs("index.html") == [
            "Headlines ./ current", "Sources sources/", "Favorites favorites/", "Read Later read-later/", "Archive archive/", "Tags tags/",
        ])
        #expect(try tabs("archive/index.html").suffix(2) == ["Archive ../archive/ current", "Tags ../tags/"])
        #expect(try tabs("archive/2026/11/21/index.html").suffix(2) == ["Archive ../../../../archive/ section", "Tags ../../../../tags/"])
        #expect(try tabs("tags/index.html").suffix(2) == ["Archive ../archive/", "Tags ../tags/ current"])
        #expect(try tabs("tags/harbour/index.html").suffix(2) == ["Archive ../../archive/", "Tags ../../tags/ section"])
        let front = try Self.text(site, "index.html")
        let footer = try #require(front.firstMatch(of: /<footer[\s\S]*<\/footer>/)).0
        #expect(!footer.contains("archive/") && !footer.contains("tags/"), "the masthead links them; the footer need not")
    }

    @Test("the archive speaks of days, not of the cache", arguments: [(30, "Stories from the last 30 days, day by day, newest first."),
                                                                     (1, "Stories from the last day, day by day, newest first.")])
    func archiveWords(keepDays: Int, intro: String) async throws {
        let site = try await Self.render(keepDays: keepDays)
        let archive = try Self.text(site, "archive/index.html")
        #expect(archive.contains("<p class=\"intro\">\(intro)</p>"))
        for file in site.files where file.path.hasSuffix(".html") {
            #expect(!String(decoding: file.data, as: UTF8.self).contains("cache"), "\(file.path) speaks of the cache")
        }
    }
}
