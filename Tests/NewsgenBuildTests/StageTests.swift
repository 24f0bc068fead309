import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenRender
@testable import NewsgenValidate
@testable import NewsgenBuild
import NewsgenTestSupport

/// Each stage run alone through its `run`, with a memory store and temporary folders.
@Suite("Stages alone")
struct StageTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    /// A site with one local feed (the sample world feed) and the given saved files, in a folder of its own.
    func site(saved: [String: String] = [:]) throws -> SiteConfig {
        let folder = try TestSupport.temporaryFolder()
        try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent("Samples/feeds/world.xml"),
                                         to: folder.appendingPathComponent("world.xml"))
        for (name, text) in saved {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let names = saved.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        let json = #"{"saved": [\#(names)], "sources": [{"id": "world", "feed": "world.xml"}]}"#
        return try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
    }

    func article(_ number: Int, source: String) -> Article {
        Article(id: "https://example.com/\(source)/\(number)", sourceID: source, title: "Story \(number)",
                url: "https://example.com/\(source)/\(number)", published: Self.now)
    }

    @Test("fetch: every configured source reported, and the log line counts sources and articles")
    func fetch() async throws {
        let config = try site()
        let (logger, _) = TestSupport.recordingLogger()
        let stage = Fetch(config: config, providers: [FeedProvider(http: nil, articlesPerSource: 10)], store: MemoryStore(),
                          now: Self.now, offline: false, refresh: false, logger: logger)
        let sources = await stage.run(())
        #expect(sources.map(\.config.id) == ["world"])
        let count = try #require(sources.first?.articles.count)
        #expect(count > 0)
        #expect(stage.summary(of: sources) == "1 sources (0 from cache or unavailable), \(count) articles")
    }

    @Test("store: the archive holds the configured sources' articles only, and the cache's size in words")
    func store() async throws {
        let store = MemoryStore()
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [article(1, source: "world"), article(2, source: "world")]), at: Self.now)
        try await store.recordSuccess(of: "gone", content: SourceContent(format: .rss2, articles: [article(3, source: "gone")]), at: Self.now)
        let (logger, log) = TestSupport.recordingLogger()
        let stage = Store(store: store, sourceIDs: ["world"], keepDays: 7, now: Self.now, logger: logger)
        let archive = await stage.run(())
        #expect(Set(archive.articles.map(\.title)) == ["Story 1", "Story 2"], "a source no longer configured stays out of the archive")
        #expect(stage.summary(of: archive) == "cache 1 KiB, 3 articles, 2 sources, 0 saved")
        #expect(log.warnings.isEmpty, "\(log.warnings)")
    }

    @Test("merge saved lists: an entry matches a shown article, and its data is kept in the store")
    func mergeSavedLists() async throws {
        let config = try site(saved: [
            "phone.json": #"{"favorites": [{"url": "https://example.com/world/1", "title": "Saved title"}, {"url": "https://example.com/elsewhere", "title": "Elsewhere"}]}"#,
            "laptop.json": #"{"readLater": [{"url": "https://example.com/world/2", "title": "Later"}]}"#,
        ])
        let store = MemoryStore()
        let (logger, log) = TestSupport.recordingLogger()
        let shown = SourceReport(config: try #require(config.sources.first), status: .fetched, name: "World",
                                 articles: [article(1, source: "world"), article(2, source: "world")])
        let stage = MergeSavedLists(config: config, store: store, now: Self.now, logger: logger)
        let lists = try await stage.run([shown])
        #expect(lists.favorites.map(\.matched) == [true, false], "the second favorite is listed by no source")
        #expect(lists.favorites.first?.article.title == "Story 1")
        #expect(lists.readLater.map(\.article.title) == ["Story 2"])
        #expect(stage.summary(of: lists) == "2 favorites, 1 read later")
        let kept = try await store.savedArticles(ids: Set((lists.favorites + lists.readLater).map(\.entry.key)))
        #expect(kept.count == 2, "the matched entries outlive their source's list")
        #expect(log.warnings.isEmpty, "\(log.warnings)")
    }

    @Test("merge saved lists: a saved file that is not JSON fails the stage, named in the error")
    func mergeSavedListsBroken() async throws {
        let config = try site(saved: ["phone.json": "{ not json"])
        let (logger, log) = TestSupport.recordingLogger()
        var clock = StageClock(logger: logger)
        do {
            _ = try await clock.run(MergeSavedLists(config: config, store: MemoryStore(), now: Self.now, logger: logger), [])
            Issue.record("a broken saved file was merged")
        } catch {
            #expect(error.stage == .mergeSavedLists)
            guard case .config(let problem) = error.reason else { Issue.record("\(error)"); return }
            #expect(problem.description.contains("phone.json"), "\(problem)")
            #expect(log.all.isEmpty, "a failed stage logs no [i/n] line: \(log.all)")
        }
    }

    @Test("load templates and render: the built-in theme renders the home page and the feeds")
    func loadTemplatesAndRender() async throws {
        let config = try site()
        let templates = try await LoadTemplates(folder: config.templates, builtInIfMissing: true).run(())
        let shown = SourceReport(config: try #require(config.sources.first), status: .fetched, name: "World", articles: [article(1, source: "world")])
        let content = SiteContent(config: config, sources: [shown], favorites: [], readLater: [], archive: [],
                                  generated: Self.now, newsapiSources: nil)
        let stage = Render(templates: templates)
        let site = try await stage.run(content)
        #expect(site.files.contains { $0.path == "index.html" })
        #expect(site.files.contains { $0.path == "feeds/headlines.rss" })
        #expect(site.carried.isEmpty, "nothing to carry without a published site")
        #expect(stage.summary(of: site) == "\(site.files.count) files (\(site.files.count) rendered, 0 carried)")
    }

    @Test("write, validate, publish: staged beside the output, checked, then swapped in; no staging folder left")
    func writeValidatePublish() async throws {
        let parent = try TestSupport.temporaryFolder()
        let output = parent.appendingPathComponent("public")
        let publisher = Publisher(output: output)
        let write = Write(publisher: publisher)
        let staged = try await write.run(RenderedSite(files: [OutputFile("notes/hello.txt", "hello\n")]))
        #expect(staged.folder.deletingLastPathComponent().path == parent.path, "the same file system, so the swap is a rename")
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing is served before publish")
        #expect(write.summary(of: staged) == "2 written, 0 unchanged, 0 carried", "the file and the marker")
        let report = try await Validate(baseURL: nil).run(staged.folder)
        #expect(report.isValid)
        try await Publish(publisher: publisher).run(staged.folder)
        #expect(try String(contentsOf: output.appendingPathComponent("notes/hello.txt"), encoding: .utf8) == "hello\n")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(Publisher.markerName).path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["public"])

        // A second write carries the unchanged file over.
        let again = try await write.run(RenderedSite(files: [OutputFile("notes/hello.txt", "hello\n")]))
        #expect(write.summary(of: again) == "0 written, 2 unchanged, 0 carried")
        publisher.discard(again.folder)
    }

    @Test("validate: a page that is not well-formed fails the stage with its problems")
    func validateFails() async throws {
        let folder = try TestSupport.temporaryFolder()
        try "<!DOCTYPE html>\n<html lang=\"en\"><p>this & that</p></html>\n".write(to: folder.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        do {
            _ = try await Validate(baseURL: nil).run(folder)
            Issue.record("a page that is not well-formed passed")
        } catch {
            let first = try #require(error.report.problems.first)
            #expect(first.path == "index.html")
            #expect(first.rule == .xmlWellFormed, "\(first)")
        }
    }

    @Test("publish: files that appeared in the output meanwhile stop the swap; they are kept")
    func publishRefuses() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let publisher = Publisher(output: output)
        let staged = try await Write(publisher: publisher).run(RenderedSite(files: [OutputFile("index.html", "<p>new</p>")]))
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: output.appendingPathComponent("notes.txt"))
        let (logger, _) = TestSupport.recordingLogger()
        var clock = StageClock(logger: logger)
        do {
            _ = try await clock.run(Publish(publisher: publisher), staged.folder)
            Issue.record("published over a folder newsgen did not write")
        } catch {
            #expect(error.stage == .publish)
            guard case .publish(let problem) = error.reason else { Issue.record("\(error)"); return }
            #expect(problem.problem == .holdsForeignFiles(shown: ["notes.txt"], count: 1))
        }
        #expect(try Data(contentsOf: output.appendingPathComponent("notes.txt")) == Data("mine".utf8))
        publisher.discard(staged.folder)
    }
}

/// The clock: numbering, log lines, timings, and the stage attached to a failure.
@Suite("Stage clock")
struct StageClockTests {
    /// Doubles its input; logged as the render stage.
    struct Doubler: BuildStep {
        static let stage = BuildStage.render
        func run(_ input: Int) async -> Int { input * 2 }
        func summary(of output: Int) -> String { "\(output) files" }
    }

    /// Says nothing after its name.
    struct Quiet: BuildStep {
        static let stage = BuildStage.publish
        func run(_ input: Void) async {}
        func summary(of output: Void) -> String { "" }
    }

    /// Fails as a broken template would.
    struct Broken: BuildStep {
        static let stage = BuildStage.render
        func run(_ input: Void) async throws(TemplateError) -> Int {
            throw TemplateError("row.mustache", at: (2, 1), "the section \"title\" is never closed")
        }
        func summary(of output: Int) -> String { "\(output) files" }
    }

    /// The `[i/n] name summary 0.12 s` line, with the seconds replaced by `S`.
    func shape(_ line: String) -> String {
        line.replacing(/\d+\.\d\d s$/, with: "S")
    }

    @Test("each stage is numbered by its place in the pipeline and logged with its summary and duration")
    func numbering() async throws {
        let (logger, log) = TestSupport.recordingLogger()
        var clock = StageClock(logger: logger)
        let total = BuildStage.allCases.count
        #expect(try await clock.run(Doubler(), 21) == 42)
        try await clock.run(Quiet())
        #expect(log.all.map(shape) == ["[5/\(total)] render 42 files S", "[\(total)/\(total)] publish S"])
        #expect(clock.timings.map(\.stage) == [.render, .publish])
        #expect(clock.timings.allSatisfy { $0.seconds >= 0 })
    }

    @Test("a failing stage's error names that stage and keeps its reason; no line is logged for it")
    func failure() async throws {
        let (logger, log) = TestSupport.recordingLogger()
        var clock = StageClock(logger: logger)
        do {
            _ = try await clock.run(Broken())
            Issue.record("the broken stage succeeded")
        } catch {
            #expect(error.stage == .render)
            guard case .templates(let problem) = error.reason else { Issue.record("\(error)"); return }
            #expect(error.description == problem.description, "the stage does not change the sentence the user reads")
        }
        #expect(log.all.isEmpty)
        #expect(clock.timings.isEmpty)
    }

    @Test("a failed validation is logged like a pass, with its problem count, then fails the stage")
    func validationLine() async throws {
        let folder = try TestSupport.temporaryFolder()
        try "<html lang=\"en\"><p>a & b</p></html>\n".write(to: folder.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let (logger, log) = TestSupport.recordingLogger()
        var clock = StageClock(logger: logger)
        do {
            _ = try await clock.run(Validate(baseURL: nil), folder)
            Issue.record("a page that is not well-formed passed")
        } catch {
            #expect(error.stage == .validate)
            guard case .validation(let report) = error.reason else { Issue.record("\(error)"); return }
            #expect(log.all.map(shape) == ["[7/\(BuildStage.allCases.count)] validate 1 files, \(report.problems.count) problems S"])
            #expect(error.description.hasSuffix("nothing was published"))
        }
    }
}
