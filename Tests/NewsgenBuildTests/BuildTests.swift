import Foundation
import Hummingbird
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenValidate
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// The whole pipeline, end to end, on real files, a real HTTP server and libxml2.
@Suite("Build")
struct BuildTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    /// The repository's own site.json, publishing into a temporary folder.
    func sampleConfig(output: URL) throws -> SiteConfig {
        var config = try SiteConfig.load(from: TestSupport.repository.appendingPathComponent("site.json"))
        config.output = output
        return config
    }

    func build(_ config: SiteConfig, offline: Bool = false, http: HTTPFetcher? = nil, at now: Date = Self.now) async throws(BuildError) -> (BuildReport, LogRecorder) {
        try await TestBuild.run(config, options: .init(offline: offline), http: http, at: now)
    }

    func read(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("the sample site: every page and feed of the contract, valid, exit status 0")
    func sampleSite() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let (report, log) = try await build(try sampleConfig(output: output))
        #expect(report.exitStatus == 0)
        #expect(log.warnings.isEmpty, "\(log.warnings)")
        for path in [
            "index.html", "sources/index.html", "favorites/index.html", "read-later/index.html",
            "feeds/headlines.rss", "feeds/headlines.atom", "feeds/headlines.json",
            "feeds/favorites.rss", "feeds/favorites.atom", "feeds/favorites.json",
            "feeds/read-later.rss", "feeds/read-later.atom", "feeds/read-later.json",
            "feeds/sources.opml", "sitemap.xml", "assets/style.css",
            "sources/meridian-world/index.html", "feeds/sources/lab-notes.json", "categories/technology/index.html",
            "feeds/categories/sport.atom",
        ] {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path), "\(path)")
        }
        #expect(await SiteValidator.validate(directory: output).isValid)
        let index = try read(output, "index.html")
        #expect(index.contains("<h2 id=\"world-title\"><a href=\"categories/world/\">World</a></h2>"), "sections by category")
        #expect(index.contains(#"<link rel="alternate" type="application/rss+xml""#))
        #expect(index.components(separatedBy: "Looted bronzes").count - 1 <= 2, "the syndicated duplicate is shown once (title and alt)")
        #expect(index.contains("badge-favorite"), "saved articles carry their badge on headline rows")
        let favorites = try read(output, "favorites/index.html")
        #expect(favorites.contains("Night trains return"), "matched by a differently spelled URL")
        #expect(favorites.contains("Not listed by any source now"), "an unmatched entry still appears")
        let rss = try read(output, "feeds/headlines.rss")
        #expect(rss.contains(#"<atom:link href="https://news.example.org/feeds/headlines.rss" rel="self""#))
        let articles = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("articles").path)
        #expect(articles.count == 46, "a page per article (47 in the samples, one syndicated twice)")
        #expect(articles.contains { $0.hasPrefix("coastal-nations-sign-pact-to-share-storm-surge-") })
        #expect(index.contains("class=\"details\" href=\"articles/coastal-nations-sign-pact"), "rows link their article's page")
        let archive = try read(output, "archive/index.html")
        #expect(archive.contains(#"<a href="../archive/2026/11/21/"><time datetime="2026-11-21">21 Nov 2026</time></a>"#), "days link their page")
        let day = try read(output, "archive/2026/11/21/index.html")
        #expect(day.contains("published this day (UTC)"))
        #expect(index.contains(#"href="./archive/""#), "the front page links the archive")
        let delta = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("search/delta.json"))) as? [String: Any]
        #expect(delta?["stories"] as? Int == 46, "the search index holds every story")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("search.json").path))
        let opml = try read(output, "feeds/sources.opml")
        #expect(opml.contains("xmlUrl=\"https://news.example.org/feeds/sources/touchline.rss\""))
    }

    @Test("a second build at the same moment rewrites nothing; the previous site is replaced whole")
    func incremental() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let config = try sampleConfig(output: output)
        let (first, _) = try await build(config)
        try "stale".write(to: output.appendingPathComponent("left-over.html"), atomically: true, encoding: .utf8)
        let (second, _) = try await build(config)
        #expect(second.filesWritten == 0)
        #expect(second.filesUnchanged == first.filesWritten)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("left-over.html").path))
        let siblings = try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path)
        #expect(siblings.sorted() == [".public.previous", "public"], "no staging folder is left behind; the previous site is kept for the next build")
    }

    @Test("every stage runs once, in order, and is logged as [i/n] with its name")
    func stages() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let (report, log) = try await build(try sampleConfig(output: output))
        #expect(report.timings.map(\.stage) == BuildStage.allCases)
        let lines = log.all.filter { $0.hasPrefix("[") }
        #expect(lines.count == BuildStage.allCases.count)
        for (index, stage) in BuildStage.allCases.enumerated() {
            #expect(lines[index].hasPrefix("[\(index + 1)/\(BuildStage.allCases.count)] \(stage.rawValue)"), "\(lines[index])")
        }
        #expect(report.checkingSeconds > 0, "the rendered files were checked")
        #expect(report.validationSeconds >= report.checkingSeconds)
    }

    /// A cron run a minute later with nothing new: no file may carry the clock (DESIGN.md,
    /// "Output folder"), so every file keeps its bytes and nothing is rewritten.
    @Test("a build a minute later of the same inputs writes byte-identical files and rewrites none")
    func minuteLater() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let config = try sampleConfig(output: output)
        _ = try await build(config)
        let before = try TestSupport.fileBytes(below: output)
        let (later, _) = try await build(config, at: Self.now.addingTimeInterval(60))
        let after = try TestSupport.fileBytes(below: output)
        #expect(Set(before.keys) == Set(after.keys))
        let changed = after.keys.filter { before[$0] != after[$0] }.sorted()
        #expect(changed.isEmpty, "changed: \(changed.prefix(10))")
        #expect(later.filesWritten == 0)
        #expect(later.filesUnchanged == after.count)
    }

    @Test("one dead source never sinks the build: warning, exit status 3, the rest published")
    func deadSource() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let sample = try sampleConfig(output: output)
        try await withTestServer({ router in
            router.get("feed.xml") { _, _ in Response(status: .internalServerError) }
        }) { base in
            var config = sample
            config.sources.append(SourceConfig(id: "dead", name: "Dead Daily", kind: .feed(.remote(base.appendingPathComponent("feed.xml")))))
            let (report, log) = try await withHTTPFetcher(timeout: .seconds(5)) { http in try await build(config, http: http) }
            #expect(report.exitStatus == 3)
            #expect(log.warnings == ["source \"dead\": HTTP 500 from 127.0.0.1"])
            let status = "Couldn’t be reached since \(Dates.readable(Self.now)); no recent stories to show."
            #expect(try read(output, "sources/index.html").contains(status))
            #expect(try read(output, "sources/dead/index.html").contains(status))
            #expect(try read(output, "index.html").contains("Dead Daily: \(status)"))
            #expect(try read(output, "index.html").contains("Night trains return"))
        }
    }

    @Test("--offline makes no request and says so for remote sources")
    func offline() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        var config = try sampleConfig(output: output)
        config.sources.append(SourceConfig(id: "remote", kind: .feed(.remote(URL(string: "http://127.0.0.1:9/never")!))))
        let (report, log) = try await build(config, offline: true)
        #expect(report.exitStatus == 3)
        #expect(log.warnings.first?.contains("source \"remote\": offline, and it has never been fetched (run a build without --offline first)") == true)
        #expect(report.sources.filter(\.isFresh).count == 7, "local files (feeds and the JSON news file) are read offline")
    }

    @Test("every tab explains why it is empty")
    func emptyStates() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        var config = try sampleConfig(output: output)
        config.sources = []
        config.saved = [output.deletingLastPathComponent().appendingPathComponent("none.json")]
        let (report, _) = try await build(config)
        #expect(report.exitStatus == 0)
        #expect(try read(output, "index.html").contains("No sources are configured"))
        #expect(try read(output, "sources/index.html").contains("No sources are configured"))
        #expect(try read(output, "favorites/index.html").contains("Nothing is saved to Favorites yet"))
        #expect(try read(output, "read-later/index.html").contains("Nothing is saved to Read Later yet"))
        #expect(await SiteValidator.validate(directory: output).isValid)
    }

    /// A copy of the default theme with one file replaced.
    func theme(replacing name: String, with text: String) throws -> URL {
        let folder = try TestSupport.temporaryFolder().appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent("Templates"), to: folder)
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return folder
    }

    /// Publishes the sample site, then runs a broken build over it and returns the error.
    func brokenBuild(templates: URL) async throws -> (BuildError, URL) {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        var config = try sampleConfig(output: output)
        _ = try await build(config)
        let before = try read(output, "index.html")
        config.templates = templates
        do {
            _ = try await build(config)
            Issue.record("the broken build published")
            throw CancellationError()
        } catch let error as BuildError {
            #expect(try read(output, "index.html") == before, "the previous site stays whole")
            let siblings = try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path)
            #expect(siblings == ["public"], "no staging folder is left behind")
            return (error, output)
        }
    }

    @Test("a template syntax error names the file and line; nothing is published")
    func templateSyntaxError() async throws {
        let templates = try theme(replacing: "row.mustache", with: "<li>\n{{#title}}\n<b>{{title}}</b>\n</li>\n")
        let (error, _) = try await brokenBuild(templates: templates)
        guard case .templates(let problem) = error.reason else { Issue.record("\(error)"); return }
        #expect(error.stage == .loadTemplates, "a theme that does not parse stops the build before any fetch")
        #expect(problem.description.contains("row.mustache:"), "\(problem)")
        #expect(problem.description.contains("never closed"), "\(problem)")
    }

    @Test("a partial that does not exist is an error, not an empty render")
    func missingPartial() async throws {
        let templates = try theme(replacing: "empty.mustache", with: "{{>nowhere}}\n")
        let (error, _) = try await brokenBuild(templates: templates)
        #expect(error.description.contains("empty.mustache:1: names the partial \"nowhere\""), "\(error)")
        #expect(error.stage == .loadTemplates, "checked when the theme loads, before any fetch")
    }

    @Test("output that is not well-formed stops the build with file:line:col")
    func invalidOutput() async throws {
        // Well-formed as a template (a mismatched tag is a template error now); the bare & is not.
        let templates = try theme(replacing: "row.mustache", with: "<li><p>{{title}} & more</p></li>\n")
        let (error, _) = try await brokenBuild(templates: templates)
        guard case .validation(let report) = error.reason else { Issue.record("\(error)"); return }
        #expect(error.stage == .validate)
        let first = try #require(report.problems.first)
        #expect(first.path.hasSuffix("index.html"))
        #expect(first.line > 0 && first.column > 0)
        #expect(first.rule == .xmlWellFormed, "\(first)")
        #expect(error.description.contains("nothing was published"))
        #expect(error.description.split(separator: "\n").count == 2, "one template mistake, one line: \(error)")
    }

    @Test("a failed validation names each problem with its rule, up to 50, then how many more")
    func validationErrorText() {
        let problems = (1...60).map { ValidationProblem(path: "index.html", line: $0, column: 1, rule: .htmlImgAlt, message: "img \($0) has no alt") }
        let lines = BuildError(.validation(ValidationReport(filesChecked: 9, problems: problems))).description.split(separator: "\n")
        #expect(lines.count == 52)
        #expect(lines.first == "index.html:1:1: html-img-alt: img 1 has no alt")
        #expect(lines[50] == "… and 10 more")
        #expect(lines.last == "validation failed: 60 problems in 1 of 9 files; nothing was published")
    }

    @Test("a problem that recurs on every page (a template's) is one line with its count")
    func validationErrorGrouped() {
        let pages = (1...40).map { "sources/s\($0)/index.html" }
        let problems = pages.flatMap { page in
            [ValidationProblem(path: page, line: 12, column: 5, rule: .xmlWellFormed, message: "xmlParseEntityRef: no name"),
             ValidationProblem(path: page, line: 30, column: 5, rule: .xmlWellFormed, message: "xmlParseEntityRef: no name")]
        } + [ValidationProblem(path: "index.html", line: 3, column: 1, rule: .htmlLang, message: "no lang")]
        let lines = BuildError(.validation(ValidationReport(filesChecked: 41, problems: problems))).description.split(separator: "\n")
        #expect(lines == [
            "sources/s1/index.html:12:5: xml-well-formed: xmlParseEntityRef: no name (and 79 more like it in 40 files)",
            "index.html:3:1: html-lang: no lang",
            "validation failed: 81 problems in 41 of 41 files; nothing was published",
        ])
    }

    @Test("hostile feed text is escaped text, never markup")
    func hostileFeed() async throws {
        let folder = try TestSupport.temporaryFolder()
        let feed = folder.appendingPathComponent("evil.xml")
        try """
            <rss version="2.0"><channel><title>&lt;script&gt;alert('t')&lt;/script&gt;Evil</title>
            <item><title>"&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title><link>https://evil.example/a?x="onmouseover=alert(1)</link>
            <description>&lt;img src=x onerror=alert(2)&gt;&lt;script&gt;alert(3)&lt;/script&gt;Text</description>
            <enclosure url="javascript:alert(4)" type="image/png"/></item></channel></rss>
            """.write(to: feed, atomically: true, encoding: .utf8)
        var config = try sampleConfig(output: folder.appendingPathComponent("public"))
        config.sources = [SourceConfig(id: "evil", kind: .feed(.file(feed)))]
        _ = try await build(config)
        for path in ["index.html", "sources/evil/index.html", "sources/index.html"] {
            let page = try read(folder.appendingPathComponent("public"), path)
            #expect(!page.contains("<script"), "\(path)")
            #expect(!page.contains("javascript:"), "\(path)")
            #expect(!page.contains("<img src=\"x\""), "\(path)")
        }
        #expect(await SiteValidator.validate(directory: folder.appendingPathComponent("public")).isValid)
    }
}
