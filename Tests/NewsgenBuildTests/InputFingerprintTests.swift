import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenRender
@testable import NewsgenBuild
import NewsgenTestSupport

/// A build whose whole input equals the published site's stops before rendering; any input
/// that reaches a file, changed alone, makes it render and publish.
@Suite("Input fingerprint")
struct InputFingerprintTests {
    typealias Site = IncrementalTests.Site

    @Test("an unchanged second build stops before rendering and leaves the output as it was")
    func unchangedSkipsRender() async throws {
        let site = try Site()
        try await site.build()
        let before = try IncrementalTests.Snapshot(site.output)
        let (logger, log) = TestSupport.recordingLogger()
        let report = try await site.build(logger: logger)
        #expect(!report.timings.contains { $0.stage == .render }, "\(report.timings.map(\.stage))")
        #expect(report.filesCarried == before.bytes.count - 1)
        #expect(log.all.contains { $0.contains("nothing changed") && $0.contains("0 written, \(report.filesCarried) carried, nothing published") }, "\(log.all)")
        #expect(try IncrementalTests.Snapshot(site.output) == before)
    }

    /// Builds once, applies `change` to the site (and its files), builds again: the second build
    /// must render and publish, and give what a full build of the new inputs gives (its search
    /// index going on from the first build's numbering, as the second build's does).
    private func expectPublishes(_ label: String, templates: URL? = nil,
                                 _ change: (inout Site) throws -> Void) async throws {
        var site = try Site(templates: templates)
        try await site.build()
        let before = try IncrementalTests.Snapshot(site.output)
        let numbering = try #require(Manifest.load(from: site.manifest, output: site.output)).searchNumbering
        try change(&site)
        let report = try await site.build()
        #expect(report.timings.contains { $0.stage == .render }, "\(label): rendered")
        #expect(report.timings.contains { $0.stage == .publish }, "\(label): published")
        let after = try IncrementalTests.Snapshot(site.output)
        #expect(!before.changed(in: after).isEmpty, "\(label): some file changed")
        #expect(try await site.referenceBuild(continuing: numbering) == after.bytes, "\(label): as a full build gives")
    }

    @Test("a story's title, summary or date, changed alone, is published")
    func articleFields() async throws {
        try await expectPublishes("title") { site in
            try Site.feed(world: "Harbour cranes return to the old port, at last").write(to: site.folder.appendingPathComponent("world.xml"))
        }
        try await expectPublishes("summary") { site in
            try Site.feed(world: "Harbour cranes return to the old port", note: " Updated.").write(to: site.folder.appendingPathComponent("world.xml"))
        }
        try await expectPublishes("date") { site in
            let file = site.folder.appendingPathComponent("world.xml")
            let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "20 Nov 2026 09:00:00", with: "20 Nov 2026 09:30:00")
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
    }

    @Test("the site's title, a source's name, a saved entry, a static file and a template, each changed alone, are published")
    func otherInputs() async throws {
        try await expectPublishes("config title") { $0.config.title = "Incremental News" }
        try await expectPublishes("source name") { $0.config.sources[0].name = "The World" }
        try await expectPublishes("saved entry") { site in
            let saved = site.folder.appendingPathComponent("saved.json")
            try Data(#"{"favorites": [{"url": "https://example.com/world/1", "title": "Rivers rise in the north"}]}"#.utf8).write(to: saved)
            site.config.saved = [saved]
            site.config.savedIsExplicit = true
        }
        try await expectPublishes("static file") { site in
            let folder = site.folder.appendingPathComponent("static")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("User-agent: *\n".utf8).write(to: folder.appendingPathComponent("robots.txt"))
            site.config.staticFolder = folder
        }
        let templates = try TestSupport.temporaryFolder().appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent("Templates"), to: templates)
        try await expectPublishes("template", templates: templates) { _ in
            let layout = templates.appendingPathComponent("layout.mustache")
            let text = try String(contentsOf: layout, encoding: .utf8)
            try text.replacingOccurrences(of: "</footer>", with: "<p>Edited theme.</p></footer>").write(to: layout, atomically: true, encoding: .utf8)
        }
        let assets = try TestSupport.temporaryFolder().appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent("Templates"), to: assets)
        try await expectPublishes("theme asset", templates: assets) { _ in
            let css = try #require(FileManager.default.enumerator(atPath: assets.appendingPathComponent("assets").path)?
                .compactMap { $0 as? String }.first { $0.hasSuffix(".css") })
            let file = assets.appendingPathComponent("assets").appendingPathComponent(css)
            try (String(contentsOf: file, encoding: .utf8) + "\n/* edited */\n").write(to: file, atomically: true, encoding: .utf8)
        }
    }

    @Test("a source that fails after a good build is published with its state")
    func sourceState() async throws {
        let site = try Site()
        try await site.build()
        try FileManager.default.removeItem(at: site.folder.appendingPathComponent("world.xml"))
        let report = try await site.build()
        #expect(report.timings.contains { $0.stage == .publish })
        let sources = try String(contentsOf: site.output.appendingPathComponent("sources/index.html"), encoding: .utf8)
        #expect(sources.contains("Couldn’t be reached"), "the sources page shows the failed source")
    }

    static let article = Article(
        id: "https://example.com/a", sourceID: "world", title: "Title", summary: "Summary", author: "Author",
        url: "https://example.com/a", imageURL: "https://example.com/a.jpg", published: Date(timeIntervalSince1970: 1_800_000_000),
        categories: ["one"], guid: "guid", content: "<p>Content</p>", outlet: "Outlet"
    )

    @Test("every field of an article is fed: changing any one changes the fingerprint")
    func everyArticleField() throws {
        // A field added to Article must be fed in InputFingerprint (and listed here).
        #expect(Mirror(reflecting: Self.article).children.count == 12)
        let changes: [(String, (inout Article) -> Void)] = [
            ("id", { $0.id += "x" }), ("sourceID", { $0.sourceID += "x" }), ("title", { $0.title += "x" }),
            ("summary", { $0.summary += "x" }), ("author", { $0.author = nil }), ("url", { $0.url = nil }),
            ("imageURL", { $0.imageURL = nil }), ("published", { $0.published = $0.published?.addingTimeInterval(1) }),
            ("categories", { $0.categories.append("two") }), ("guid", { $0.guid = nil }),
            ("content", { $0.content = nil }), ("outlet", { $0.outlet = "Other" }),
        ]
        let original = Self.digest(of: Self.article)
        for (field, change) in changes {
            var changed = Self.article
            change(&changed)
            #expect(Self.digest(of: changed) != original, "\(field)")
        }
    }

    @Test("the build's time is not part of the input; the config and a source's state are")
    func contentFields() throws {
        let config = try SiteConfig.decode(Data(#"{"sources": [{"id": "world", "feed": "https://example.com/feed.xml"}]}"#.utf8),
                                           file: URL(fileURLWithPath: "/tmp/site.json"))
        let templates = try TemplateSet.builtIn()
        let report = SourceReport(config: config.sources[0], status: .fetched, name: "World", articles: [Self.article])
        let content = SiteContent(config: config, sources: [report], favorites: [], readLater: [], archive: [Self.article],
                                  generated: Date(timeIntervalSince1970: 0))
        let digest = InputFingerprint.of(content, templates: templates)
        var later = content
        later.generated = Date()
        #expect(InputFingerprint.of(later, templates: templates) == digest)
        var slash = content
        slash.config.output = URL(fileURLWithPath: content.config.output.path + "/")
        #expect(InputFingerprint.of(slash, templates: templates) == digest, "the output folder once it exists (its URL gains a /)")
        var state = content
        state.sources[0].status = .notModified
        #expect(InputFingerprint.of(state, templates: templates) != digest)
        var stale = content
        stale.sources[0].status = .stale(lastSuccess: Date(timeIntervalSince1970: 5), error: "timed out", since: nil)
        var staleOther = stale
        staleOther.sources[0].status = .stale(lastSuccess: Date(timeIntervalSince1970: 6), error: "timed out", since: nil)
        #expect(InputFingerprint.of(stale, templates: templates) != InputFingerprint.of(staleOther, templates: templates))
        var language = content
        language.config.language = "fr"
        #expect(InputFingerprint.of(language, templates: templates) != digest)
        var newsapi = content
        newsapi.newsapiSources = NewsAPISourceList(fetchedAt: Date(timeIntervalSince1970: 0), language: "en", sources: [])
        #expect(InputFingerprint.of(newsapi, templates: templates) != digest)
        var archive = content
        var older = Self.article
        older.id = "https://example.com/older"
        archive.archive.append(older)
        #expect(InputFingerprint.of(archive, templates: templates) != digest, "a story only the archive has")
        var edited = content
        edited.archive[0].title = "Another title"
        #expect(InputFingerprint.of(edited, templates: templates) != digest, "an archived copy that differs from the listed one")
        var repeated = content
        repeated.archive.append(Self.article)
        #expect(InputFingerprint.of(repeated, templates: templates) == digest,
                "an archived story equal to one a source lists shows nothing of its own (pages drop the repeat)")
        var grouped = content
        grouped.groups = StoryGroups(["https://example.com/a": "https://example.com/a", "https://example.com/b": "https://example.com/a"])
        #expect(InputFingerprint.of(grouped, templates: templates) != digest, "a story's group")
        var regrouped = grouped
        regrouped.groups = StoryGroups(["https://example.com/a": "https://example.com/a", "https://example.com/c": "https://example.com/a"])
        #expect(InputFingerprint.of(regrouped, templates: templates) != InputFingerprint.of(grouped, templates: templates))
        #expect(InputFingerprint.of(content, templates: templates) == digest, "the same input, the same digest")
    }

    static func digest(of article: Article) -> Fingerprint {
        var hasher = Fingerprint.Hasher()
        hasher.add(article: article)
        return hasher.finish()
    }
}
