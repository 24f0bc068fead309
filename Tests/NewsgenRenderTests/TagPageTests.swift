import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenValidate
@testable import NewsgenRender
import NewsgenTestSupport

/// Pages for the stories' own tags (their feeds' categories): which tags get one, their slugs
/// and names, the links to them, their feeds, and that a new story touches only its tags' pages.
@Suite("Tag pages")
struct TagPageTests {
    static let start = TestSupport.date("2026-11-21T18:00:00Z")

    let folder: URL

    init() throws {
        folder = try TestSupport.temporaryFolder()
    }

    func config() throws -> SiteConfig {
        let json = """
            {"baseURL": "https://news.example.org/", "sources": [{"id": "wire", "category": "World", "feed": "https://wire.example/feed"},
             {"id": "other", "category": "Sport", "feed": "https://other.example/feed"}]}
            """
        return try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
    }

    /// A story of `source`, `number` hours before the start.
    static func story(_ number: Int, _ source: String, _ title: String, tags: [String], summary: String = "") -> Article {
        Article(id: "https://\(source).example/\(number)", sourceID: source, title: title, summary: summary,
                url: "https://\(source).example/\(number)", published: start.addingTimeInterval(Double(-number * 3600)), categories: tags)
    }

    func render(_ stories: [Article], carrying published: CarryIndex? = nil) async throws -> RenderedSite {
        let config = try config()
        let reports = config.sources.map { source in
            SourceReport(config: source, status: .fetched, name: source.id.capitalized, articles: stories.filter { $0.sourceID == source.id })
        }
        let content = SiteContent(config: config, sources: reports, favorites: [], readLater: [], generated: Self.start)
        let templates = try await TemplateSet.load(folder: TestSupport.repository.appendingPathComponent("Templates"), builtInIfMissing: false)
        return try await SiteRenderer(templates: templates, content: content).render(carrying: published)
    }

    func write(_ site: RenderedSite, to output: URL) throws {
        for file in site.files {
            let url = output.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.data.write(to: url)
        }
    }

    static func text(_ site: RenderedSite, _ path: String) -> String? {
        site.files.first { $0.path == path }.map { String(decoding: $0.data, as: UTF8.self) }
    }

    static let stories = [
        story(1, "wire", "Harbour reopens", tags: ["Café", "Harbour", "Solo"]),
        story(2, "wire", "Talks resume", tags: [" café ", "日本"]),
        story(3, "other", "Cup final", tags: ["cafe", "harbour", "日本", ""]),
        story(4, "other", "Late winner", tags: ["Football"]),
    ]

    @Test("a tag two stories share gets a page; spellings folding to one slug are one tag; a one-story tag and one with no slug get none")
    func whichTags() async throws {
        let site = try await render(Self.stories)
        let paths = Set(site.paths)
        #expect(paths.contains("tags/index.html"))
        #expect(paths.contains("tags/cafe/index.html") && paths.contains("tags/harbour/index.html"))
        #expect(paths.filter { $0.hasPrefix("tags/") }.count == 3, "no page for Solo, Football or 日本: \(paths.filter { $0.hasPrefix("tags/") }.sorted())")
        for kind in ["rss", "atom", "json"] {
            #expect(paths.contains("feeds/tags/cafe.\(kind)") && paths.contains("feeds/tags/harbour.\(kind)"))
        }
        #expect(!paths.contains { $0.contains("solo") || $0.contains("football") })

        let cafe = try #require(Self.text(site, "tags/cafe/index.html"))
        #expect(cafe.contains("<h1>Café</h1>"), "the spelling most stories use")
        #expect(["Harbour reopens", "Talks resume", "Cup final"].allSatisfy(cafe.contains) && !cafe.contains("Late winner"))
        #expect(cafe.range(of: "Harbour reopens").map { cafe[$0.upperBound...].contains("Cup final") } == true, "newest first")
        #expect(cafe.contains(#"href="../../feeds/tags/cafe.atom""#))
        let index = try #require(Self.text(site, "tags/index.html"))
        #expect(index.contains(#"<li><a href="../tags/cafe/">Café</a> <span class="count">3 stories</span></li>"#))
        #expect(index.contains(#"<li><a href="../tags/harbour/">Harbour</a> <span class="count">2 stories</span></li>"#))

        // Rows link the tags that have a page, and only those; a story's page names all its tags.
        let front = try #require(Self.text(site, "index.html"))
        #expect(front.contains(#"<a class="tag" href="tags/cafe/">Café</a>"#))
        #expect(!front.contains(">Solo<") && !front.contains("日本"))
        let story = try #require(site.files.first { $0.path.hasPrefix("articles/harbour-reopens-") }.map { String(decoding: $0.data, as: UTF8.self) })
        #expect(story.contains(#"<a class="tag" href="../../tags/cafe/">Café</a> <a class="tag" href="../../tags/harbour/">Harbour</a> <span class="tag">Solo</span>"#))
        let other = try #require(site.files.first { $0.path.hasPrefix("articles/cup-final-") }.map { String(decoding: $0.data, as: UTF8.self) })
        #expect(other.contains(#"<span class="tag">日本</span>"#))

        #expect(Self.text(site, "feeds/sources.opml")?.contains("https://news.example.org/feeds/tags/cafe.rss") == true)
        #expect(Self.text(site, "sitemap.xml")?.contains("https://news.example.org/tags/harbour/") == true)

        // Every link leads to a page of the site, and the tags' feeds pass their formats' rules.
        let output = folder.appendingPathComponent("out")
        try write(site, to: output)
        let report = await SiteValidator.validate(directory: output, baseURL: URL(string: "https://news.example.org/"))
        #expect(report.problems.isEmpty, "\(report.problems.map(\.description).joined(separator: "\n"))")
    }

    @Test("a tag's name: its most used capitalised spelling, else its lower-case one capitalised; ties by code point", arguments: [
        (["economy": 3, "Economy": 1], "Economy"),
        (["technology": 8], "Technology"),
        (["ios": 2, "iOS": 1], "iOS"),
        (["AI": 1, "Ai": 1, "ai": 5], "AI"),
        (["e-commerce": 1, "E-Commerce": 1, "E-commerce": 1], "E-Commerce"),
        (["日本": 2], "日本"),
    ] as [([String: Int], String)])
    func tagName(counts: [String: Int], name: String) {
        #expect(SiteModelBuilder.tagName(counts) == name)
    }

    @Test("case variants are one tag with one name everywhere, the index in case-insensitive order, its URL the slug")
    func caseVariants() async throws {
        let site = try await render([
            Self.story(1, "wire", "Rates hold", tags: ["economy", "banking"]),
            Self.story(2, "wire", "Rates rise", tags: ["Economy", "Banking"]),
            Self.story(3, "other", "Chips sell", tags: ["economy", "technology"]),
            Self.story(4, "other", "Apps sell", tags: ["technology", "apple"]),
            Self.story(5, "other", "Phones sell", tags: ["Apple"]),
        ])
        let index = try #require(Self.text(site, "tags/index.html"))
        let entries = index.matches(of: /<li><a href="\.\.\/tags\/([a-z-]+)\/">([^<]+)<\/a>/).map { "\($0.1)=\($0.2)" }
        #expect(entries == ["apple=Apple", "banking=Banking", "economy=Economy", "technology=Technology"])
        #expect(Self.text(site, "tags/technology/index.html")?.contains("<h1>Technology</h1>") == true)
        let front = try #require(Self.text(site, "index.html"))
        #expect(front.contains(#"<a class="tag" href="tags/economy/">Economy</a>"#) && !front.contains(">economy<"), "rows name it so too")
    }

    @Test("a row leaves out the tag named like its section; the story's page and the tag's page keep it")
    func sectionTag() async throws {
        let site = try await render([Self.story(1, "wire", "Ports busy", tags: ["World", "Ports"]), Self.story(2, "wire", "Ports calm", tags: ["world", "Ports"])])
        let front = try #require(Self.text(site, "index.html"))
        #expect(front.contains(#"<a class="tag" href="tags/ports/">Ports</a>"#))
        #expect(!front.contains(#"href="tags/world/""#), "the World section's rows do not say World again")
        #expect(site.paths.contains("tags/world/index.html"))
        let story = try #require(site.files.first { $0.path.hasPrefix("articles/ports-busy-") }.map { String(decoding: $0.data, as: UTF8.self) })
        #expect(story.contains(#"<a class="tag" href="../../tags/world/">World</a>"#))
    }

    @Test("with no tag on two stories, the tags page says so and no row links a tag")
    func noTags() async throws {
        let site = try await render([Self.story(1, "wire", "Alone", tags: ["One"]), Self.story(2, "wire", "Also alone", tags: ["Two"])])
        #expect(Self.text(site, "tags/index.html")?.contains("No tags yet") == true)
        #expect(Self.text(site, "index.html")?.contains(#"class="tag""#) == false)
    }

    @Test("a new story changes its tags' pages and feeds, not another tag's, which an incremental build carries")
    func newStory() async throws {
        let before = [
            Self.story(2, "wire", "Alpha one", tags: ["Alpha"]), Self.story(3, "wire", "Alpha two", tags: ["Alpha"]),
            Self.story(4, "other", "Beta one", tags: ["Beta"]), Self.story(5, "other", "Beta two", tags: ["Beta"]),
        ]
        let first = try await render(before)
        let again = try await render(before, carrying: CarryIndex(fingerprints: first.fingerprints))
        #expect(again.files.isEmpty, "nothing changed, so every file is carried: \(again.files.map(\.path))")

        let after = [Self.story(1, "wire", "Alpha three", tags: ["alpha"])] + before
        let second = try await render(after, carrying: CarryIndex(fingerprints: first.fingerprints))
        let rendered = Set(second.files.map(\.path))
        #expect(second.carried.contains("tags/beta/index.html"))
        #expect(rendered.contains("tags/alpha/index.html") && rendered.contains("tags/index.html"))
        for kind in ["rss", "atom", "json"] {
            #expect(rendered.contains("feeds/tags/alpha.\(kind)"))
            #expect(second.carried.contains("feeds/tags/beta.\(kind)"))
        }
        #expect(Self.text(second, "tags/alpha/index.html")?.contains("Alpha three") == true)

        // A full render agrees, byte for byte, with what was carried.
        let full = try await render(after)
        let firstBytes = Dictionary(uniqueKeysWithValues: first.files.map { ($0.path, $0.data) })
        for path in second.carried {
            #expect(full.files.first { $0.path == path }?.data == firstBytes[path], "\(path)")
        }
    }
}
