import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenRender
@testable import NewsgenValidate
@testable import NewsgenBuild
import NewsgenXML
import NewsgenTestSupport

/// Sites built through the whole pipeline from feeds made at random: items without links or
/// guids, tags repeated and spelled in other cases, one story in several sources, guids and
/// links repeated, fields empty or missing, lists of none, one or many stories, saved entries
/// that name stories in every way an entry can. Whatever a source gives, the build either shows
/// it or reports the source: it never writes a file its own validation rejects, and no page or
/// feed of a list shows a story twice.
@Suite("Sites from generated feeds", .serialized)
struct GeneratedFeedsTests {
    typealias Generator = SeededGenerator

    enum Format: CaseIterable {
        case rss, atom, json
    }

    /// One item as a feed writes it; `nil` leaves the field out.
    struct Item {
        var title: String?
        var link: String?
        var guid: String?
        var summary: String?
        var author: String?
        var published: Date?
        var tags: [String] = []
    }

    struct Feed {
        var id: String
        var format: Format
        var category: String?
        var items: [Item]
        var file: String {
            switch format {
            case .rss: "\(id).xml"
            case .atom: "\(id).atom"
            case .json: "\(id).json"
            }
        }
    }

    /// The inputs of a site: its feeds and saved entries, made from one seed.
    struct World {
        static let now = TestSupport.date("2026-11-21T12:00:00Z")
        static let words = ["Harbour", "cranes", "return", "talks", "resume", "comet", "seen", "at", "dawn", "map", "of", "the",
                            "deep", "élection", "«results»", "Fish & chips", "<best>", "a \"quote\"", "it's"]
        static let tags = ["One", "one", " ONE ", "Two", "two", "TWO", "Économie", "economie", "日本", "", "  ", "C++", "c", "World", "world"]
        static let categories: [String?] = [nil, "World", "world", "WORLD", "Science", "Économie"]

        var feeds: [Feed] = []
        var favorites: [[String: String]] = []
        var readLater: [[String: String]] = []
        var articlesPerSource: Int

        init(using generator: inout Generator) {
            articlesPerSource = [1, 3, 10, 60].randomElement(using: &generator) ?? 10
            var made: [Item] = []
            for number in 0..<Int.random(in: 1...4, using: &generator) {
                let format = Format.allCases.randomElement(using: &generator) ?? .rss
                // None, one, a few, or more than the site keeps.
                let count = [0, 1, Int.random(in: 2...6, using: &generator), Int.random(in: 20...70, using: &generator)]
                    .randomElement(using: &generator) ?? 1
                var items: [Item] = []
                for _ in 0..<count {
                    // A story another source (or this one) carries already, as it is or under a headline of its own.
                    if !made.isEmpty, Int.random(in: 0..<5, using: &generator) == 0, var copy = made.randomElement(using: &generator) {
                        if Bool.random(using: &generator) { copy.title = Self.phrase(using: &generator) }
                        items.append(copy)
                        continue
                    }
                    let item = Self.item(made: made, using: &generator)
                    made.append(item)
                    items.append(item)
                }
                feeds.append(Feed(id: "s\(number)", format: format, category: Self.categories.randomElement(using: &generator) ?? nil, items: items))
            }
            // Saved entries, one story now and then named twice in one list (by its link and its guid, say).
            let listed = feeds.flatMap { feed in feed.items.map { (feed.id, $0) } }
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let story = listed.randomElement(using: &generator)
                let ways = (0..<5).shuffled(using: &generator).prefix(Int.random(in: 1...3, using: &generator))
                let entries = ways.map { Self.savedEntry(story, way: $0, using: &generator) }
                if Bool.random(using: &generator) { favorites += entries } else { readLater += entries }
            }
        }

        static func phrase(using generator: inout Generator) -> String {
            (0..<Int.random(in: 1...5, using: &generator)).map { _ in words.randomElement(using: &generator) ?? "news" }.joined(separator: " ")
        }

        static func item(made: [Item], using generator: inout Generator) -> Item {
            var item = Item()
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: item.title = nil
            case 1: item.title = ""
            case 2: item.title = "   "
            case 3: item.title = made.compactMap(\.title).randomElement(using: &generator) ?? "Item Title"
            default: item.title = phrase(using: &generator)
            }
            let number = made.count
            switch Int.random(in: 0..<9, using: &generator) {
            case 0, 1, 2: item.link = nil
            case 3: item.link = made.compactMap(\.link).randomElement(using: &generator)
            case 4: item.link = "HTTPS://Example.com/story/\(Int.random(in: 0...number, using: &generator))/?utm_source=feed#top"
            case 5: item.link = ["javascript:alert(1)", "mailto:desk@example.com", "/relative/\(number)", ""].randomElement(using: &generator)
            default: item.link = "https://example.com/story/\(number)"
            }
            switch Int.random(in: 0..<7, using: &generator) {
            case 0, 1, 2: item.guid = nil
            case 3: item.guid = made.compactMap(\.guid).randomElement(using: &generator)
            case 4: item.guid = ""
            case 5: item.guid = item.link
            default: item.guid = "urn:story:\(number)"
            }
            item.summary = [nil, "", phrase(using: &generator)].randomElement(using: &generator) ?? nil
            item.author = [nil, "", "Desk & Co", "Ann <ann@example.com>"].randomElement(using: &generator) ?? nil
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: item.published = nil
            case 1: item.published = made.compactMap(\.published).randomElement(using: &generator)
            default: item.published = World.now.addingTimeInterval(-Double(Int.random(in: 60...(4 * 86_400), using: &generator)))
            }
            item.tags = (0..<Int.random(in: 0...4, using: &generator)).map { _ in tags.randomElement(using: &generator) ?? "One" }
            return item
        }

        /// A saved entry naming `story` in one `way` (its link, its link in another spelling, its
        /// guid, the id newsgen keys a story without link or guid by), or, when the story has no
        /// such thing, a page no source lists.
        static func savedEntry(_ story: (source: String, item: Item)?, way: Int, using generator: inout Generator) -> [String: String] {
            guard let (source, item) = story else { return ["url": "https://example.com/elsewhere"] }
            switch way {
            case 0: if let link = item.link, link.hasPrefix("http") { return ["url": link] }
            case 1:
                if let link = item.link, link.hasPrefix("https://example.com/") {
                    return ["url": "HTTPS://EXAMPLE.com/" + link.dropFirst("https://example.com/".count) + "?utm_medium=x", "title": "Saved"]
                }
            case 2: if let guid = item.guid, !guid.isEmpty { return ["id": guid] }
            case 3: if let title = item.title?.trimmingCharacters(in: .whitespaces), !title.isEmpty { return ["id": "\(source):\(title)"] }
            default: break
            }
            return ["url": "https://example.com/elsewhere/\(Int.random(in: 0...2, using: &generator))"]
        }

        /// The feeds' files and saved.json in `folder`, and the site's config.
        func write(to folder: URL) throws -> SiteConfig {
            for feed in feeds {
                try Self.text(of: feed).write(to: folder.appendingPathComponent(feed.file), atomically: true, encoding: .utf8)
            }
            let saved: [String: Any] = ["favorites": favorites, "readLater": readLater]
            try JSONSerialization.data(withJSONObject: saved, options: [.sortedKeys]).write(to: folder.appendingPathComponent("saved.json"))
            let sources: [[String: Any]] = feeds.map { feed in
                var source: [String: Any] = ["id": feed.id, "feed": feed.file]
                if let category = feed.category { source["category"] = category }
                return source
            }
            let site: [String: Any] = ["baseURL": "https://peer.example/", "articlesPerSource": articlesPerSource, "sources": sources]
            let data = try JSONSerialization.data(withJSONObject: site, options: [.sortedKeys])
            return try SiteConfig.decode(data, file: folder.appendingPathComponent("site.json"))
        }

        static func text(of feed: Feed) throws -> String {
            func element(_ name: String, _ value: String?) -> String {
                value.map { "<\(name)>\(XMLWriter.escape($0, quotes: true))</\(name)>" } ?? ""
            }
            switch feed.format {
            case .rss:
                let items = feed.items.map { item in
                    "<item>" + element("title", item.title) + element("link", item.link) + element("guid", item.guid)
                        + element("description", item.summary) + element("dc:creator", item.author)
                        + element("pubDate", item.published.map(Dates.rfc822)) + item.tags.map { element("category", $0) }.joined() + "</item>"
                }
                return #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>"#
                    + "<title>Feed \(feed.id)</title>\n" + items.joined(separator: "\n") + "\n</channel></rss>\n"
            case .atom:
                let entries = feed.items.map { item in
                    "<entry>" + element("title", item.title) + element("id", item.guid)
                        + (item.link.map { "<link href=\"\(XMLWriter.escape($0, quotes: true))\"/>" } ?? "")
                        + element("updated", item.published.map(Dates.rfc3339)) + element("summary", item.summary)
                        + (item.author.map { "<author>\(element("name", $0))</author>" } ?? "")
                        + item.tags.map { "<category term=\"\(XMLWriter.escape($0, quotes: true))\"/>" }.joined() + "</entry>"
                }
                return #"<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">"#
                    + "<title>Feed \(feed.id)</title>\n" + entries.joined(separator: "\n") + "\n</feed>\n"
            case .json:
                let items: [[String: Any]] = feed.items.map { item in
                    var object: [String: Any] = ["tags": item.tags]
                    object["title"] = item.title
                    object["url"] = item.link
                    object["id"] = item.guid
                    object["summary"] = item.summary
                    object["authors"] = item.author.map { [["name": $0]] }
                    object["date_published"] = item.published.map(Dates.rfc3339)
                    return object
                }
                let object: [String: Any] = ["version": "https://jsonfeed.org/version/1.1", "title": "Feed \(feed.id)", "items": items]
                return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            }
        }
    }

    /// A build of the site in `folder`, with `store` as its cache, `hours` after the world's time.
    static func build(_ config: SiteConfig, store: MemoryStore, hours: Double) async throws(BuildError) -> BuildReport {
        try await TestBuild.run(config, options: .init(refresh: true), store: store, at: World.now.addingTimeInterval(hours * 3600)).0
    }

    /// What in the published site shows a story twice: a JSON feed with two items of one id, or
    /// a list page with two rows linking one story's page.
    static func repeats(in output: URL) throws -> [String] {
        var found: [String] = []
        for (path, data) in try TestSupport.fileBytes(below: output) {
            if path.hasPrefix("feeds/"), path.hasSuffix(".json") {
                let feed = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                let ids = (feed?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                if Set(ids).count != ids.count { found.append("\(path): \(ids.count) items, \(Set(ids).count) ids") }
            } else if path.hasSuffix(".html"), !path.hasPrefix("articles/") {
                let pages = String(decoding: data, as: UTF8.self).matches(of: /class="details" href="([^"]*)"/).map { String($0.output.1) }
                if Set(pages).count != pages.count { found.append("\(path): \(pages.count) rows, \(Set(pages).count) stories") }
            }
        }
        return found.sorted()
    }

    @Test("whatever the feeds hold, the site publishes, passes its own validation, and shows each story once in each list",
          arguments: Array(1...12) as [UInt64])
    func generatedSites(seed: UInt64) async throws {
        var generator = Generator(state: seed)
        var world = World(using: &generator)
        let folder = try TestSupport.temporaryFolder()
        let store = MemoryStore()
        // A first build, then a cron run an hour later after the feeds dropped some items: those
        // are shown from the cache, beside the copies the feeds still list.
        for run in 0..<2 {
            if run == 1 {
                for index in world.feeds.indices where !world.feeds[index].items.isEmpty {
                    world.feeds[index].items.removeFirst(Int.random(in: 0...world.feeds[index].items.count / 2, using: &generator))
                }
            }
            let config = try world.write(to: folder)
            let report: BuildReport
            do {
                report = try await Self.build(config, store: store, hours: Double(run))
            } catch {
                Issue.record("seed \(seed), run \(run): the build failed: \(error)")
                return
            }
            #expect(report.published, "seed \(seed), run \(run)")
            let stale = report.sources.filter { !$0.isFresh }.map(\.id)
            #expect(stale.isEmpty, "seed \(seed), run \(run): every generated feed is one newsgen reads")
            let repeated = try Self.repeats(in: config.output)
            #expect(repeated.isEmpty, "seed \(seed), run \(run): \(repeated.prefix(8))")
        }
    }

    /// A source's list read from a cache an older newsgen wrote, or saved entries that name one
    /// story twice, may repeat it: the site's lists still show it once.
    @Test("lists the content gives with a story repeated (a source's, a saved one) show it once, and the site is valid")
    func repeatedInContent() async throws {
        let json = #"{"baseURL": "https://peer.example/", "sources": [{"id": "qb", "feed": "one.xml"}]}"#
        let config = try SiteConfig.decode(Data(json.utf8), file: URL(fileURLWithPath: "/nonexistent/site.json"))
        let story = Article(id: "qb:Item Title", sourceID: "qb", title: "Item Title", categories: ["One"])
        var retold = story
        retold.summary = "The same story, told again"
        let linked = Article(id: "https://example.com/a", sourceID: "qb", title: "Linked", url: "https://example.com/a", categories: ["One"])
        let report = SourceReport(config: config.sources[0], status: .fetched, name: "QB", articles: [story, linked, retold, linked])
        let saved = [story, linked, story].map { SavedArticle(entry: SavedEntry(url: $0.url, id: $0.id), article: $0, matched: true) }
        let content = SiteContent(config: config, sources: [report], favorites: saved, readLater: [], archive: [retold, story],
                                  generated: World.now)
        let templates = try await TemplateSet.load(folder: TestSupport.repository.appendingPathComponent("Templates"), builtInIfMissing: false)
        let output = try TestSupport.temporaryFolder()
        for file in try await SiteRenderer(templates: templates, content: content).render() {
            let url = output.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.data.write(to: url)
        }
        let validation = await SiteValidator.validate(directory: output, baseURL: config.baseURL)
        #expect(validation.problems.isEmpty, "\(validation.problems.map(\.description).joined(separator: "\n"))")
        let repeated = try Self.repeats(in: output)
        #expect(repeated.isEmpty, "\(repeated)")
        let tag = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("feeds/tags/one.json"))) as? [String: Any]
        #expect((tag?["items"] as? [[String: Any]])?.count == 2, "two stories carry the tag")
        let source = try String(contentsOf: output.appendingPathComponent("sources/index.html"), encoding: .utf8)
        #expect(source.contains(#"<td class="count">2 articles</td>"#), "the source lists two stories")
    }

    /// The feed of issue 62: a tagged item with neither link nor guid, the only one of its source.
    @Test("a tagged item without link or guid publishes once in each list; its tag, one story's, gets no page")
    func taggedItemWithoutLink() async throws {
        let folder = try TestSupport.temporaryFolder()
        try """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Feed Title</title>
            <item><title>Item Title</title><dc:subject>One</dc:subject></item></channel></rss>
            """.write(to: folder.appendingPathComponent("one.xml"), atomically: true, encoding: .utf8)
        let config = try SiteConfig.decode(Data(#"{"baseURL": "https://peer.example/", "sources": [{"id": "qb", "feed": "one.xml"}]}"#.utf8),
                                           file: folder.appendingPathComponent("site.json"))
        let store = MemoryStore()
        for run in 0..<2 {
            let report = try await Self.build(config, store: store, hours: Double(run))
            #expect(report.exitStatus == 0)
            let paths = try TestSupport.fileBytes(below: config.output).keys
            #expect(!paths.contains { $0.hasPrefix("tags/one") || $0.hasPrefix("feeds/tags/") }, "one story's tag has no page: \(paths.sorted())")
            for path in ["feeds/headlines.json", "feeds/sources/qb.json", "feeds/categories/general.json"] {
                let feed = try JSONSerialization.jsonObject(with: Data(contentsOf: config.output.appendingPathComponent(path))) as? [String: Any]
                let titles = (feed?["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
                #expect(titles == ["Item Title"], "run \(run): \(path)")
            }
            let day = try String(contentsOf: config.output.appendingPathComponent("archive/index.html"), encoding: .utf8)
            #expect(day.contains("1 story"), "run \(run): the archive counts the story once")
            let repeated = try Self.repeats(in: config.output)
            #expect(repeated.isEmpty, "run \(run): \(repeated)")
        }
    }
}
