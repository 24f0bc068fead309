import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// Stories about the same event from several sources, built into a site with a real cache: the front page and category
/// pages show the event once with "Also covered by", story pages list the other coverage, feeds keep every story, and the
/// groups stay as they are from one cron run to the next.
@Suite("Story groups in a build")
struct StoryGroupBuildTests {
    static let now = TestSupport.date("2026-10-03T12:00:00Z")

    struct Item {
        var title: String
        var summary: String
        var slug: String
        var hoursAgo: Double
    }

    static let wireFerry = Item(title: "Ferry with 212 aboard runs aground off Skerra island",
                                summary: "A passenger ferry carrying 212 people ran aground off Skerra island in thick fog; nobody was hurt.",
                                slug: "ferry", hoursAgo: 5)
    static let heraldFerry = Item(title: "Skerra ferry grounding: all 212 passengers safe",
                                  summary: "All 212 passengers and crew were taken off safely after the ferry ran aground in fog off Skerra island.",
                                  slug: "ferry", hoursAgo: 4.5)
    static let ledgerFerry = Item(title: "Skerra ferry route suspended after grounding with 212 aboard",
                                  summary: "The operator suspended sailings to Skerra island after its ferry ran aground in fog with 212 people aboard.",
                                  slug: "ferry", hoursAgo: 3)
    static let wireOthers = [
        Item(title: "Stocks rise as rate-cut bets lift banks", summary: "The All-Share ended at 8,412, with bank shares in front.",
             slug: "markets-friday", hoursAgo: 20),
        Item(title: "Teachers walk out in 600 schools over pay", summary: "Teachers in about 600 schools went on strike over pay.",
             slug: "teachers", hoursAgo: 8),
    ]
    static let heraldOthers = [
        Item(title: "New tram line to the airport opens", summary: "Line 7 links the city centre with the airport in 24 minutes.",
             slug: "tram", hoursAgo: 7),
    ]
    static let ledgerOthers = [
        Item(title: "Miners pull All-Share down 0.8 percent", summary: "The All-Share fell 0.8 percent to 8,345, led by mining stocks.",
             slug: "markets-saturday", hoursAgo: 1),
    ]

    /// A site of three local feeds: two World sources and a Business one, each in its own folder with a cache and a record.
    struct Site {
        var folder: URL
        var config: SiteConfig

        init(groupStories: Bool? = nil) throws {
            folder = try TestSupport.temporaryFolder()
            let switchLine = groupStories.map { "\"groupStories\": \($0)," } ?? ""
            let json = """
                {"title": "Groups", "baseURL": "https://news.example.org/", "cache": "cache/site.sqlite", "images": "none", \(switchLine)
                 "sources": [{"id": "wire", "name": "Northwire", "feed": "wire.xml", "category": "World"},
                             {"id": "herald", "name": "Capital Herald", "feed": "herald.xml", "category": "World"},
                             {"id": "ledger", "name": "Ledger Daily", "feed": "ledger.xml", "category": "Business"}]}
                """
            config = try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
            config.output = folder.appendingPathComponent("public")
        }

        func write(_ source: String, _ items: [Item]) throws {
            let entries = items.map { item -> String in
                let date = StoryGroupBuildTests.now.addingTimeInterval(-item.hoursAgo * 3600)
                return """
                    <item><title>\(item.title)</title><link>https://\(source).example/\(item.slug)</link>
                    <description>\(item.summary)</description><pubDate>\(Dates.rfc822(date))</pubDate></item>
                    """
            }.joined(separator: "\n")
            try Data("""
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>\(source)</title><link>https://\(source).example/</link>
                <description>\(source)</description>
                \(entries)
                </channel></rss>
                """.utf8).write(to: folder.appendingPathComponent("\(source).xml"))
        }

        /// One build with the site's SQLite cache and record of what was published.
        @discardableResult
        func build() async throws -> BuildReport {
            let store = try SQLiteStore.open(at: config.cache, logger: TestSupport.recordingLogger().0)
            defer { store.close() }
            return try await TestBuild.run(config, options: .init(refresh: true), store: store,
                                           manifest: Manifest.location(cache: config.cache), at: StoryGroupBuildTests.now).0
        }

        func page(_ path: String) throws -> String {
            try String(decoding: Data(contentsOf: config.output.appendingPathComponent(path)), as: UTF8.self)
        }

        /// The story page whose headline is `title`, with its path.
        func storyPage(_ title: String) throws -> (path: String, html: String) {
            let folder = config.output.appendingPathComponent("articles")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let html = try page("articles/\(name)/index.html")
                if html.contains("<h1>\(title)</h1>") || html.contains(">\(title)</h1>") { return ("articles/\(name)/", html) }
            }
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "the page of \(title)"])
        }

        func groups() async throws -> [String: String] {
            let store = try SQLiteStore.open(at: config.cache, logger: TestSupport.recordingLogger().0)
            defer { store.close() }
            return try await store.storyGroups(of: ["wire", "herald", "ledger"].map { "https://\($0).example/ferry" })
        }
    }

    /// How many rows of `html` have `title` as their headline.
    static func rows(titled title: String, in html: String) -> Int {
        html.components(separatedBy: ">\(title)</a></h").count - 1
    }

    static func grouped() async throws -> Site {
        let site = try Site()
        try site.write("wire", [wireFerry] + wireOthers)
        try site.write("herald", [heraldFerry] + heraldOthers)
        try site.write("ledger", [ledgerFerry] + ledgerOthers)
        try await site.build()
        return site
    }

    @Test("the front page shows an event once, led by its earliest story, with links to the other outlets' story pages")
    func frontPage() async throws {
        let site = try await Self.grouped()
        let front = try site.page("index.html")
        #expect(Self.rows(titled: Self.wireFerry.title, in: front) == 1)
        #expect(!front.contains(Self.heraldFerry.title) && !front.contains(Self.ledgerFerry.title))
        let herald = try site.storyPage(Self.heraldFerry.title).path
        let ledger = try site.storyPage(Self.ledgerFerry.title).path
        #expect(front.contains("Also covered by <a href=\"\(herald)\">Capital Herald</a>, <a href=\"\(ledger)\">Ledger Daily</a>"),
                "\(front)")
        // The Business section keeps its other story; the other stories show as before.
        for item in Self.wireOthers + Self.heraldOthers + Self.ledgerOthers { #expect(front.contains(item.title), "\(item.title)") }
        let world = try site.page("categories/world/index.html")
        #expect(Self.rows(titled: Self.wireFerry.title, in: world) == 1 && !world.contains(Self.heraldFerry.title))
        #expect(world.contains("Also covered by"))
    }

    @Test("a story page lists the other outlets' stories of its event; feeds, tags and archive keep every story")
    func storyPageAndFeeds() async throws {
        let site = try await Self.grouped()
        let herald = try site.storyPage(Self.heraldFerry.title).html
        let wire = try site.storyPage(Self.wireFerry.title).path
        let ledger = try site.storyPage(Self.ledgerFerry.title).path
        #expect(herald.contains("<h2 id=\"coverage-title\">Also covered by</h2>"))
        #expect(herald.contains("<a href=\"../../\(wire)\">\(Self.wireFerry.title)</a> <span class=\"source\">Northwire</span>"), "\(herald)")
        #expect(herald.contains("<a href=\"../../\(ledger)\">\(Self.ledgerFerry.title)</a>"))
        let unrelated = try site.storyPage(Self.heraldOthers[0].title).html
        #expect(!unrelated.contains("coverage-title"))
        for feed in ["feeds/headlines.rss", "feeds/headlines.atom", "feeds/headlines.json"] {
            let text = try site.page(feed)
            for item in [Self.wireFerry, Self.heraldFerry, Self.ledgerFerry] { #expect(text.contains(item.title), "\(feed): \(item.title)") }
        }
        let worldFeed = try site.page("feeds/categories/world.rss")
        #expect(worldFeed.contains(Self.wireFerry.title) && worldFeed.contains(Self.heraldFerry.title))
        let day = try site.page("archive/2026/10/03/index.html")
        for item in [Self.wireFerry, Self.heraldFerry, Self.ledgerFerry] { #expect(day.contains(item.title)) }
        #expect(!day.contains("Also covered by"))
        let source = try site.page("sources/herald/index.html")
        #expect(source.contains(Self.heraldFerry.title))
    }

    @Test("\"groupStories\": false shows every story on its own")
    func off() async throws {
        let site = try Site(groupStories: false)
        try site.write("wire", [Self.wireFerry] + Self.wireOthers)
        try site.write("herald", [Self.heraldFerry] + Self.heraldOthers)
        try site.write("ledger", [Self.ledgerFerry] + Self.ledgerOthers)
        try await site.build()
        let front = try site.page("index.html")
        for item in [Self.wireFerry, Self.heraldFerry, Self.ledgerFerry] { #expect(front.contains(item.title)) }
        #expect(!front.contains("Also covered by"))
        let herald = try site.storyPage(Self.heraldFerry.title).html
        #expect(!herald.contains("coverage-title"))
        #expect(try await site.groups().isEmpty, "nothing is grouped, so nothing is kept")
    }

    @Test("a new story joins its event's group: old groups stay, the pages showing the group change, a run with nothing new writes nothing")
    func cronRuns() async throws {
        let site = try Site()
        try site.write("wire", [Self.wireFerry] + Self.wireOthers)
        try site.write("herald", [Self.heraldFerry] + Self.heraldOthers)
        try site.write("ledger", Self.ledgerOthers)
        try await site.build()
        let before = try await site.groups()
        let wireID = "https://wire.example/ferry"
        #expect(before == [wireID: wireID, "https://herald.example/ferry": wireID])
        let quiet = try await site.build()
        #expect(quiet.filesWritten == 0 && !quiet.published, "nothing new: \(quiet.filesWritten) files written")

        try site.write("ledger", [Self.ledgerFerry] + Self.ledgerOthers)
        let next = try await site.build()
        #expect(next.published)
        let after = try await site.groups()
        #expect(after == [wireID: wireID, "https://herald.example/ferry": wireID, "https://ledger.example/ferry": wireID])
        // The lead's page and the front page were written again with the new coverage.
        #expect(try site.storyPage(Self.wireFerry.title).html.contains(Self.ledgerFerry.title))
        #expect(try site.page("index.html").contains("Ledger Daily</a></p>"))
        let quietAgain = try await site.build()
        #expect(quietAgain.filesWritten == 0 && !quietAgain.published)
    }
}
