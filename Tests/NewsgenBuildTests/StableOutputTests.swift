import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenValidate
@testable import NewsgenFetch
@testable import NewsgenBuild
@testable import NewsgenRender
import NewsgenTestSupport

/// A cron run costs what changed: one new story rewrites the pages and feeds that list it, its
/// day of the archive and the archive's index, and leaves every other file's bytes alone.
@Suite("Stable output")
struct StableOutputTests {
    static let start = TestSupport.date("2026-11-21T18:00:00Z")

    let folder: URL

    init() throws {
        folder = try TestSupport.temporaryFolder()
    }

    /// An RSS feed of (title, pubDate) items.
    func writeFeed(_ name: String, _ items: [(String, String)]) throws {
        var xml = #"<?xml version="1.0"?><rss version="2.0"><channel><title>\#(name)</title><link>https://\#(name).example/</link><description>D</description>"#
        for (title, date) in items {
            let slug = title.lowercased().replacingOccurrences(of: " ", with: "-")
            xml += "<item><title>\(title)</title><link>https://\(name).example/\(slug)</link><pubDate>\(date)</pubDate></item>"
        }
        try (xml + "</channel></rss>").write(to: folder.appendingPathComponent("\(name).xml"), atomically: true, encoding: .utf8)
    }

    func config() throws -> SiteConfig {
        let json = """
            {"baseURL": "https://news.example.org/", "templates": "\(TestSupport.repository.appendingPathComponent("Templates").path)",
             "sources": [{"id": "wire", "category": "World", "feed": "wire.xml"}, {"id": "other", "category": "Sport", "feed": "other.xml"}]}
            """
        return try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
    }

    func build(_ config: SiteConfig, at date: Date) async throws -> BuildReport {
        let store = try SQLiteStore.open(at: config.cache, logger: TestSupport.recordingLogger().0)
        return try await TestBuild.run(config, options: .init(refresh: true), store: store, at: date).0
    }

    @Test("a story expiring from the cache rewrites its record shard, the chunks of its words and the manifest and delta of the search index; the other stories keep their numbers, so the other shards stay")
    func storyExpiring() async throws {
        let titles = (0..<60).map { "Story \($0) of the wire" }
        func feed(_ count: Int) throws {
            try writeFeed("wire", titles.prefix(count).enumerated().map { number, title in
                (title, Dates.rfc822(Self.start.addingTimeInterval(Double(-number * 600))))
            })
        }
        try writeFeed("other", [("Cup final", "Sat, 21 Nov 2026 10:00:00 GMT")])
        var config = try config()
        config.keepDays = 1
        config.articlesPerSource = 100
        let manifest = Manifest.location(cache: config.cache)
        func build(at date: Date) async throws -> [String: Data] {
            let store = try SQLiteStore.open(at: config.cache, logger: TestSupport.recordingLogger().0)
            let report = try await TestBuild.run(config, options: .init(refresh: true), store: store, manifest: manifest, at: date).0
            #expect(report.exitStatus == 0)
            return try TestSupport.fileBytes(below: config.output).filter { $0.key.hasPrefix("search/") }
        }
        try feed(60)
        let before = try await build(at: Self.start)
        // The wire no longer lists its oldest story; a day later the cache lets it go.
        try feed(59)
        _ = try await build(at: Self.start.addingTimeInterval(3_600))
        let after = try await build(at: Self.start.addingTimeInterval(86_400 + 7_200))

        let deltaFile = try #require(after["search/delta.json"])
        let delta = try #require(try JSONSerialization.jsonObject(with: deltaFile) as? [String: Any])
        #expect(delta["stories"] as? Int == 60, "the oldest story left the index")
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        let shards = changed.filter { $0.hasPrefix("search/records/") }
        #expect(shards == ["search/records/0.json"], "the oldest story's shard alone: \(shards.sorted())")
        #expect(changed.contains("search/manifest.json") && changed.contains("search/delta.json"))
        #expect(changed.count < before.count / 2, "\(changed.count) of \(before.count): \(changed.sorted())")
    }

    @Test("adding one story changes its day, the archive index and the pages and feeds that list it, nothing else")
    func oneStory() async throws {
        try writeFeed("wire", [
            ("Harbour reopens", "Sat, 21 Nov 2026 09:00:00 GMT"),
            ("Talks resume", "Fri, 20 Nov 2026 08:00:00 GMT"),
            ("Storm passes", "Thu, 19 Nov 2026 07:00:00 GMT"),
        ])
        try writeFeed("other", [
            ("Cup final", "Sat, 21 Nov 2026 10:00:00 GMT"),
            ("Late winner", "Thu, 19 Nov 2026 20:00:00 GMT"),
        ])
        let config = try config()
        let output = config.output
        let first = try await build(config, at: Self.start)
        #expect(first.exitStatus == 0)
        let before = try TestSupport.fileBytes(below: output)
        #expect(before["archive/2026/11/19/index.html"] != nil && before["archive/2026/11/20/index.html"] != nil)

        // A story of the 20th arrives, behind the newest: the wire's list gains it in the middle.
        try writeFeed("wire", [
            ("Harbour reopens", "Sat, 21 Nov 2026 09:00:00 GMT"),
            ("Ceasefire holds", "Fri, 20 Nov 2026 15:00:00 GMT"),
            ("Talks resume", "Fri, 20 Nov 2026 08:00:00 GMT"),
            ("Storm passes", "Thu, 19 Nov 2026 07:00:00 GMT"),
        ])
        let second = try await build(config, at: Self.start.addingTimeInterval(3600))
        #expect(second.exitStatus == 0)
        let after = try TestSupport.fileBytes(below: output)

        #expect(Set(before.keys).isSubset(of: Set(after.keys)), "nothing disappears")
        let added = Set(after.keys).subtracting(before.keys)
        #expect(added.count == 1 && added.allSatisfy { $0.hasPrefix("articles/ceasefire-holds-") }, "\(added.sorted())")
        let changed = Set(before.keys.filter { before[$0] != after[$0] })
        let feeds = ["feeds/headlines", "feeds/sources/wire", "feeds/categories/world"].flatMap { path in ["rss", "atom", "json"].map { "\(path).\($0)" } }
        let expected: Set<String> = Set([
            "archive/index.html", "archive/2026/11/20/index.html",
            "index.html", "sources/index.html", "sources/wire/index.html", "categories/world/index.html",
            // Behind the newest: the stories after it are renumbered, so the days of the manifest move too.
            "search/manifest.json", "search/delta.json", "search/records/0.json", "sitemap.xml",
        ] + feeds)
        #expect(changed == expected, "unexpected: \(changed.subtracting(expected).sorted()); unchanged: \(expected.subtracting(changed).sorted())")
        #expect(second.filesWritten == expected.count + added.count)
        let day = try String(contentsOf: output.appendingPathComponent("archive/2026/11/20/index.html"), encoding: .utf8)
        #expect(day.range(of: "Ceasefire holds").map { day[$0.upperBound...].contains("Talks resume") } == true, "newest first")
        let index = try String(contentsOf: output.appendingPathComponent("archive/index.html"), encoding: .utf8)
        #expect(index.contains("20 Nov 2026</time></a> <span class=\"count\">2 stories</span>"))
        #expect(await SiteValidator.validate(directory: output).isValid)
    }

    @Test("a story that leaves its source's list keeps its place on its day's page among stories of the same time: the page's bytes stay")
    func storyLeavingItsList() async throws {
        let time = "Fri, 20 Nov 2026 08:00:00 GMT"
        try writeFeed("wire", [("Harbour reopens", "Sat, 21 Nov 2026 09:00:00 GMT"), ("Alpha talks", time), ("Beta vote", time)])
        try writeFeed("other", [("Cup draw", time)])
        let config = try config()
        let day = "archive/2026/11/20/index.html"
        _ = try await build(config, at: Self.start)
        let before = try TestSupport.fileBytes(below: config.output)

        // The wire no longer lists "Alpha talks": the cache still has it, so its day still shows it.
        try writeFeed("wire", [("Ceasefire holds", "Sat, 21 Nov 2026 15:00:00 GMT"), ("Harbour reopens", "Sat, 21 Nov 2026 09:00:00 GMT"),
                               ("Beta vote", time)])
        let second = try await build(config, at: Self.start.addingTimeInterval(3600))
        #expect(second.exitStatus == 0)
        let after = try TestSupport.fileBytes(below: config.output)
        let page = try String(contentsOf: config.output.appendingPathComponent(day), encoding: .utf8)
        #expect(["Alpha talks", "Beta vote", "Cup draw"].allSatisfy(page.contains))
        #expect(after[day] == before[day], "the 20th's page changed though its stories did not")
        #expect(after["archive/2026/11/21/index.html"] != before["archive/2026/11/21/index.html"], "the 21st gained a story")
    }

    @Test("stories without a date are on archive/undated/, linked from the archive's index, and on no day")
    func undated() async throws {
        try writeFeed("wire", [("Harbour reopens", "Sat, 21 Nov 2026 09:00:00 GMT")])
        let undatedFeed = #"<?xml version="1.0"?><rss version="2.0"><channel><title>other</title><link>https://other.example/</link><description>D</description><item><title>Timeless piece</title><link>https://other.example/timeless</link></item></channel></rss>"#
        try undatedFeed.write(to: folder.appendingPathComponent("other.xml"), atomically: true, encoding: .utf8)
        let config = try config()
        _ = try await build(config, at: Self.start)
        func read(_ path: String) throws -> String {
            try String(contentsOf: config.output.appendingPathComponent(path), encoding: .utf8)
        }
        #expect(try read("archive/undated/index.html").contains("Timeless piece"))
        #expect(try !read("archive/2026/11/21/index.html").contains("Timeless piece"))
        #expect(try read("archive/index.html").contains(#"<a href="../archive/undated/">Undated stories</a> <span class="count">1 story</span>"#))
        #expect(await SiteValidator.validate(directory: config.output).isValid)
    }

    @Test("a site past the sitemap limit publishes a sitemap index of parts that list every page once, and validates")
    func sitemapIndex() async throws {
        let config = try config()
        let articles = (1...12).map { number in
            Article(id: "https://wire.example/story-\(number)", sourceID: "wire", title: "Story \(number)",
                    url: "https://wire.example/story-\(number)", published: Self.start.addingTimeInterval(Double(-number * 600)))
        }
        let content = SiteContent(
            config: config,
            sources: [SourceReport(config: config.sources[0], status: .fetched, name: "Wire", articles: articles)],
            favorites: [], readLater: [], generated: Self.start
        )
        let files = try await SiteRenderer(templates: TemplateSet.builtIn(), content: content, sitemapLimit: 10).render()
        let output = folder.appendingPathComponent("rendered")
        for file in files {
            let url = output.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.data.write(to: url)
        }
        let pages = files.filter { $0.path.hasSuffix("index.html") }.map(\.path)
        let sitemaps = files.filter { $0.path.hasPrefix("sitemaps/") }.map(\.path).sorted()
        #expect(sitemaps == (1...(pages.count + 9) / 10).map { "sitemaps/\($0).xml" }.sorted(), "\(pages.count) pages")
        let index = try #require(files.first { $0.path == "sitemap.xml" }).data
        #expect(String(decoding: index, as: UTF8.self).contains("<sitemapindex"))
        let listed = files.filter { $0.path.hasPrefix("sitemaps/") }
            .flatMap { String(decoding: $0.data, as: UTF8.self).components(separatedBy: "<loc>").dropFirst() }
            .compactMap { $0.components(separatedBy: "</loc>").first }
        #expect(listed.count == pages.count)
        #expect(Set(listed) == Set(pages.map { "https://news.example.org/" + $0.dropLast("index.html".count) }))
        let report = await SiteValidator.validate(directory: output)
        #expect(report.problems.isEmpty, "\(report.problems.prefix(3))")
    }
}
