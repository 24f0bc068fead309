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

    @Test("fetch: a source read now says so; one whose file did not change since is shown from the cache, and does not")
    func fetchReadNow() async throws {
        let config = try site()
        let store = MemoryStore()
        let (logger, _) = TestSupport.recordingLogger()
        // A file changed less than 2 s before a build is read again by every build: these run later.
        let later = Date().addingTimeInterval(10)
        let fetch = Fetch(config: config, providers: [FeedProvider(http: nil, articlesPerSource: 10, now: { later })], store: store,
                          now: later, offline: false, refresh: false, logger: logger)
        let first = await fetch.run(())
        #expect(first.map(\.readNow) == [true])
        let second = await fetch.run(())
        #expect(second.map(\.readNow) == [false])
        #expect(second.first?.articles.map(\.id) == first.first?.articles.map(\.id), "the same stories, from the cache")
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

    /// The content of a site whose one source lists one story.
    func oneStory(_ config: SiteConfig) throws -> SiteContent {
        let shown = SourceReport(config: try #require(config.sources.first), status: .fetched, name: "World", articles: [article(1, source: "world")])
        return SiteContent(config: config, sources: [shown], favorites: [], readLater: [], archive: [], generated: Self.now, newsapiSources: nil)
    }

    @Test("load templates and render: the built-in theme renders the home page and the feeds")
    func loadTemplatesAndRender() async throws {
        let config = try site()
        let templates = try await LoadTemplates(folder: config.templates, builtInIfMissing: true).run(())
        let content = try oneStory(config)
        let stage = Render(templates: templates)
        let rendered = try await stage.run(content)
        let site = rendered.site
        #expect(site.files.contains { $0.path == "index.html" })
        #expect(site.files.contains { $0.path == "feeds/headlines.rss" })
        #expect(site.carried.isEmpty, "nothing to carry without a published site")
        #expect(stage.summary(of: rendered).hasPrefix("\(site.files.count) files (\(site.files.count) rendered, 0 carried); search index "))
    }

    @Test("render with a staging writer: each file is checked and written as it is made, none is kept in memory")
    func renderStreams() async throws {
        let config = try site()
        let templates = try await LoadTemplates(folder: config.templates, builtInIfMissing: true).run(())
        let content = try oneStory(config)
        // The reference: the same site rendered into memory.
        let expected = try await Render(templates: templates).run(content).site.files

        let parent = try TestSupport.temporaryFolder()
        let publisher = Publisher(output: parent.appendingPathComponent("public"))
        let staging = try publisher.makeStaging()
        let writer = StagingWriter(staging: staging, output: publisher.output, queueLimit: 1)
        let stage = Render(templates: templates, writer: writer, baseURL: config.baseURL)
        let rendered = try await stage.run(content)
        #expect(rendered.site.files.isEmpty, "handed to the writer, not kept")
        #expect(Set(rendered.site.delivered) == Set(expected.map(\.path)))
        #expect(rendered.checked == expected.count)
        #expect(rendered.problems.isEmpty, "\(rendered.problems)")
        #expect(stage.summary(of: rendered).hasPrefix("\(expected.count) files (\(expected.count) rendered, 0 carried, \(expected.count) checked); search index "))

        let staged = try await Write(publisher: publisher, writer: writer).run(rendered.site)
        #expect(staged.folder == staging)
        #expect(staged.summary.written == expected.count + 1, "every file and the marker")
        for file in expected {
            #expect(FileManager.default.contents(atPath: staging.path + "/" + file.path) == file.data, "\(file.path)")
        }
        let report = try await Validate(baseURL: config.baseURL, only: [], files: rendered.site.paths + [Publisher.markerName],
                                        checkedBefore: (rendered.checked, rendered.problems)).run(staged.folder)
        #expect(report.filesChecked == expected.count)
        publisher.discard(staging)
    }

    @Test("render with a staging writer: a file that breaks a rule is found while rendering, and fails validation")
    func renderFindsProblems() async throws {
        let config = try site()
        // A link to a page the site does not have, as a broken theme would write it.
        let folder = try TestSupport.temporaryFolder()
        let theme = folder.appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent("Templates"), to: theme)
        let headlines = theme.appendingPathComponent("headlines.mustache")
        let text = try String(contentsOf: headlines, encoding: .utf8)
        #expect(text.contains("href=\"{{root}}archive/\""), "the fixture still links the archive")
        try text.replacingOccurrences(of: "href=\"{{root}}archive/\"", with: "href=\"{{root}}nowhere/\"").write(to: headlines, atomically: true, encoding: .utf8)
        let broken = try await LoadTemplates(folder: theme, builtInIfMissing: false).run(())
        let content = try oneStory(config)
        let publisher = Publisher(output: folder.appendingPathComponent("public"))
        let staging = try publisher.makeStaging()
        let writer = StagingWriter(staging: staging, output: publisher.output)
        let rendered = try await Render(templates: broken, writer: writer, baseURL: config.baseURL).run(content)
        #expect(rendered.problems.map(\.path) == ["index.html"], "\(rendered.problems)")
        #expect(rendered.problems.first?.rule == .htmlLocalLink)
        let staged = try await Write(publisher: publisher, writer: writer).run(rendered.site)
        do {
            _ = try await Validate(baseURL: config.baseURL, only: [], checkedBefore: (rendered.checked, rendered.problems)).run(staged.folder)
            Issue.record("a page with a broken link passed")
        } catch {
            #expect(error.report.problems.first?.rule == .htmlLocalLink)
        }
        publisher.discard(staging)
    }

    @Test("staging writer: written() returns once every file queued before it is on disk, and the writer goes on after it")
    func stagingWriterWritten() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let publisher = Publisher(output: output)
        let staging = try publisher.makeStaging()
        // A queue large enough that enqueueing never waits: only written() can.
        let writer = StagingWriter(staging: staging, output: output, queueLimit: 1 << 30)
        let paths = (0..<300).map { "f/\($0 % 30)/\($0).txt" }
        for path in paths { await writer.enqueue(OutputFile(path, String(repeating: path, count: 200))) }
        await writer.written()
        let missing = paths.filter { FileManager.default.contents(atPath: staging.path + "/" + $0) != Data(String(repeating: $0, count: 200).utf8) }
        #expect(missing.count == 0, "not yet written: \(missing.prefix(3))")
        await writer.written()
        await writer.enqueue(OutputFile("after.txt", "after"))
        let summary = try await writer.finish()
        #expect(summary.written == paths.count + 1)
        #expect(FileManager.default.contents(atPath: staging.path + "/after.txt") == Data("after".utf8))
        publisher.discard(staging)
    }

    @Test("staging writer: a new folder's folders are made ahead on a thread of their own, and none after finish returns")
    func stagingWriterMakesFolders() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let publisher = Publisher(output: output)
        // Every folder is made, the ones the files come to and the ones before them.
        let staging = try publisher.makeStaging()
        let writer = StagingWriter(staging: staging, output: output)
        let paths = (0..<200).map { "a/\($0 % 20)/b\($0)/index.html" }
        writer.makeFolders(of: paths)
        for path in paths.prefix(50) { await writer.enqueue(OutputFile(path, path)) }
        _ = try await writer.finish()
        for path in paths.prefix(50) {
            #expect(FileManager.default.contents(atPath: staging.path + "/" + path) == Data(path.utf8), "\(path)")
        }
        // Finished at once, with the folders of a large site still to make: once `finish`
        // returns, the folder is the caller's (to publish or remove), and nothing is added to it.
        let large = try publisher.makeStaging()
        let early = StagingWriter(staging: large, output: output)
        early.makeFolders(of: (0..<40_000).map { "articles/story-\($0)/index.html" })
        _ = try await early.finish()
        // (The thread may not have made even `articles` by then.)
        let count = { (try? FileManager.default.contentsOfDirectory(atPath: large.path + "/articles"))?.count ?? 0 }
        let made = count()
        try await Task.sleep(for: .milliseconds(200))
        #expect(count() == made)
        #expect(made < 40_000, "the writer stopped the folder thread rather than waiting for all of it")
        publisher.discard(staging)
        publisher.discard(large)
    }

    @Test("staging writer: unchanged bytes are linked to the published file, others written; a file it cannot write fails finish, naming it")
    func stagingWriter() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        try FileManager.default.createDirectory(at: output.appendingPathComponent("a"), withIntermediateDirectories: true)
        try Data("same".utf8).write(to: output.appendingPathComponent("a/same.txt"))
        try Data("old".utf8).write(to: output.appendingPathComponent("a/changed.txt"))
        let publisher = Publisher(output: output)
        let staging = try publisher.makeStaging()
        // A queue of one byte: every file waits for the one before it to be written.
        let writer = StagingWriter(staging: staging, output: output, queueLimit: 1)
        await writer.enqueue(OutputFile("a/same.txt", "same"))
        await writer.enqueue(OutputFile("a/changed.txt", "new"))
        await writer.enqueue(OutputFile("b/c/new.txt", "fresh"))
        let summary = try await writer.finish()
        #expect(summary.written == 2)
        #expect(summary.unchanged == 1)
        func inode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        }
        #expect(try inode(staging.path + "/a/same.txt") == inode(output.path + "/a/same.txt"), "linked, so its mtime stays")
        #expect(try inode(staging.path + "/a/changed.txt") != inode(output.path + "/a/changed.txt"))
        #expect(FileManager.default.contents(atPath: staging.path + "/a/changed.txt") == Data("new".utf8))
        #expect(FileManager.default.contents(atPath: staging.path + "/b/c/new.txt") == Data("fresh".utf8))
        publisher.discard(staging)

        let other = try publisher.makeStaging()
        let failing = StagingWriter(staging: other, output: output)
        await failing.enqueue(OutputFile("x", "a file"))
        await failing.enqueue(OutputFile("x/y.txt", "under a file"))
        await failing.enqueue(OutputFile("z.txt", "after the failure"))
        do {
            _ = try await failing.finish()
            Issue.record("a file under a file was written")
        } catch {
            #expect(error.problem == .cannotWrite)
            #expect(error.path.path == other.path + "/x/y.txt", "\(error)")
            #expect(error.description.contains("Not a directory"), "\(error)")
        }
        publisher.discard(other)
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
        #expect(log.all.map(shape) == ["[\(BuildStage.render.number)/\(total)] render 42 files S", "[\(total)/\(total)] publish S"])
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
            #expect(log.all.map(shape) == ["[\(BuildStage.validate.number)/\(BuildStage.allCases.count)] validate 1 files, \(report.problems.count) problems S"])
            #expect(error.description.hasSuffix("nothing was published"))
        }
    }
}
