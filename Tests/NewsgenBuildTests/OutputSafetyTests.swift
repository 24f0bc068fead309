import Foundation
import Testing
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// newsgen replaces its output folder whole, so it must never be pointed at anything else:
/// the overlap rules of site.json, and the marker a published site carries.
@Suite("Output safety")
struct OutputSafetyTests {
    /// A site folder with site.json, a local feed, templates and a saved file, whose output is `output`.
    func site(output: String, saved: String = #""lists/saved.json""#, extra: String = "") throws -> (folder: URL, config: () throws -> SiteConfig) {
        let folder = try TestSupport.temporaryFolder()
        let json = """
            { "output": "\(output)", "saved": \(saved), \(extra)
              "sources": [ { "id": "world", "feed": "Samples/feeds/world.xml" }, { "id": "team", "json": "Samples/team.json" } ] }
            """
        try Data(json.utf8).write(to: folder.appendingPathComponent("site.json"))
        return (folder, { try SiteConfig.load(from: folder.appendingPathComponent("site.json"), displayPath: "site.json") })
    }

    func overlapError(output: String, saved: String = #""lists/saved.json""#, extra: String = "") throws -> ConfigError? {
        let (_, load) = try site(output: output, saved: saved, extra: extra)
        do {
            _ = try load()
            return nil
        } catch let error as ConfigError {
            return error
        }
    }

    @Test("the default output, and folders beside the inputs, are accepted")
    func accepted() throws {
        for output in ["public", "site/out", "Samples-out", "../elsewhere", ".newsgen/site-copy"] {
            #expect(try overlapError(output: output) == nil, "\(output)")
        }
    }

    @Test("an output that is or contains the folder of site.json is a config error naming both")
    func siteFolder() throws {
        for output in [".", "./", "..", "/"] {
            let error = try #require(try overlapError(output: output), "\(output)")
            #expect(error.keyPath == "output")
            #expect(error.message.contains("the folder of site.json"), "\(error)")
        }
        let same = try #require(try overlapError(output: "."))
        #expect(same.message.contains("is the same folder as the folder of site.json"), "\(same)")
        let parent = try #require(try overlapError(output: ".."))
        #expect(parent.message.contains("contains the folder of site.json"), "\(parent)")
    }

    @Test("an output that contains a local feed, a JSON source, a saved file or the cache names its key")
    func inputs() throws {
        #expect(try overlapError(output: "Samples")?.message.contains("contains sources[0].feed") == true)
        #expect(try overlapError(output: "Samples")?.description.hasPrefix("site.json:1:3: output: ") == true)
        #expect(try overlapError(output: "Samples/feeds")?.message.contains("contains sources[0].feed") == true)
        #expect(try overlapError(output: "Samples/team.json")?.message.contains("is the same path as sources[1].json") == true)
        #expect(try overlapError(output: "lists")?.message.contains("contains saved (") == true)
        #expect(try overlapError(output: ".newsgen")?.message.contains("contains cache (") == true)
        let several = try #require(try overlapError(output: "lists", saved: #"["a.json", "lists/b.json"]"#))
        #expect(several.message.contains("contains saved[1]"), "\(several)")
    }

    @Test("an output that is, or lies inside, the templates is a config error")
    func templates() throws {
        #expect(try overlapError(output: "Templates")?.message.contains("is the same folder as templates") == true)
        #expect(try overlapError(output: "Templates/site")?.message.contains("lies inside templates") == true)
        #expect(try overlapError(output: "theme", extra: #""templates": "theme/mine","#)?.message.contains("contains templates") == true)
    }

    @Test("a symbolic link to the site's folder is seen through")
    func symbolicLink() throws {
        let (folder, _) = try site(output: "public")
        let link = try TestSupport.temporaryFolder().appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        var config = try SiteConfig.load(from: folder.appendingPathComponent("site.json"))
        config.output = link
        #expect(throws: ConfigError.self) { try config.checkOutputOverlaps(outputKey: "--output") }
        // Resolved as far as the path exists: a folder not made yet below a link into the templates.
        try FileManager.default.createDirectory(at: config.templates, withIntermediateDirectories: true)
        let templates = try TestSupport.temporaryFolder().appendingPathComponent("theme")
        try FileManager.default.createSymbolicLink(at: templates, withDestinationURL: config.templates)
        config.output = templates.appendingPathComponent("not/yet")
        let inside = #expect(throws: ConfigError.self) { try config.checkOutputOverlaps(outputKey: "--output") }
        #expect(inside?.message.contains("lies inside templates") == true, "\(String(describing: inside))")
        config.output = folder.appendingPathComponent("public/../elsewhere")
        #expect(throws: Never.self) { try config.checkOutputOverlaps(outputKey: "--output") }
    }
}

/// Real builds over folders that hold files newsgen did not write.
@Suite("Publishing over existing folders")
struct ReplaceTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    func build(output: URL) async throws(BuildError) -> BuildReport {
        var config: SiteConfig
        do {
            config = try SiteConfig.load(from: TestSupport.repository.appendingPathComponent("site.json"))
        } catch {
            throw BuildError(.config(error))
        }
        config.output = output
        return try await TestBuild.run(config, at: Self.now).0
    }

    @Test("a folder without the marker is refused: exit 1, every file kept, nothing left beside it")
    func refused() async throws {
        let parent = try TestSupport.temporaryFolder()
        let output = parent.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: output.appendingPathComponent("drafts"), withIntermediateDirectories: true)
        try Data("my notes".utf8).write(to: output.appendingPathComponent("notes.txt"))
        try Data("draft".utf8).write(to: output.appendingPathComponent("drafts/one.md"))
        let before = try TestSupport.fileBytes(below: output)
        do {
            _ = try await build(output: output)
            Issue.record("the build replaced a folder newsgen did not write")
        } catch {
            guard case .publish(let problem) = error.reason else {
                Issue.record("expected a publish error, got \(error)")
                return
            }
            #expect(error.stage == nil, "refused before any stage ran")
            #expect(problem.problem == .holdsForeignFiles(shown: ["drafts", "notes.txt"], count: 2))
            #expect(problem.path.path == output.path)
            #expect(problem.description.contains("holds files newsgen did not write (drafts, notes.txt)"), "\(problem)")
            #expect(problem.description.contains("nothing was published"), "\(problem)")
        }
        #expect(try TestSupport.fileBytes(below: output) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["notes"], "no staging folder left behind")
    }

    @Test("a file in the output's place is refused and kept")
    func file() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        try Data("not a folder".utf8).write(to: output)
        await #expect(throws: BuildError.self) { try await build(output: output) }
        #expect(try Data(contentsOf: output) == Data("not a folder".utf8))
    }

    @Test("a new or empty folder is published with the marker, and a marked site is replaced")
    func marked() async throws {
        let parent = try TestSupport.temporaryFolder()
        let output = parent.appendingPathComponent("public")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        _ = try await build(output: output)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(Publisher.markerName).path))
        try Data("stale".utf8).write(to: output.appendingPathComponent("left-over.html"))
        _ = try await build(output: output)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("left-over.html").path), "a marked site is replaced whole")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path))
    }

    @Test("a site published before the marker existed is still replaced")
    func earlierSite() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        _ = try await build(output: output)
        try FileManager.default.removeItem(at: output.appendingPathComponent(Publisher.markerName))
        _ = try await build(output: output)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(Publisher.markerName).path))
    }

    @Test("files that appear in the output during a build stop the swap")
    func appearedDuringBuild() throws {
        let parent = try TestSupport.temporaryFolder()
        let output = parent.appendingPathComponent("public")
        let publisher = Publisher(output: output)
        let staging = try publisher.makeStaging()
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: output.appendingPathComponent("mine.txt"))
        #expect(throws: PublishError.self) { try publisher.swap(in: staging) }
        #expect(try Data(contentsOf: output.appendingPathComponent("mine.txt")) == Data("mine".utf8))
    }
}

@Suite("Publisher clean-up")
struct PublisherCleanupTests {
    /// Makes `file` impossible to remove: read-only folder for a user, the immutable attribute for root.
    static func pin(_ file: URL, _ on: Bool) -> Bool {
        if getuid() != 0 {
            return chmod(file.deletingLastPathComponent().path, on ? 0o500 : 0o700) == 0
        }
        let chattr = Process()
        chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        chattr.arguments = [on ? "+i" : "-i", file.path]
        chattr.standardError = FileHandle.nullDevice
        guard (try? chattr.run()) != nil else { return false }
        chattr.waitUntilExit()
        return chattr.terminationStatus == 0
    }

    /// Whether this machine lets the test make a file that cannot be removed.
    static let canPin: Bool = {
        guard let folder = try? TestSupport.temporaryFolder() else { return false }
        let file = folder.appendingPathComponent("probe")
        guard FileManager.default.createFile(atPath: file.path, contents: Data()), pin(file, true) else { return false }
        defer { _ = pin(file, false) }
        return (try? FileManager.default.removeItem(at: file)) == nil
    }()

    @Test("a staging folder that cannot be removed is a warning naming it, not silence", .enabled(if: canPin))
    func undeletableStaging() throws {
        let parent = try TestSupport.temporaryFolder()
        let (logger, log) = TestSupport.recordingLogger()
        let publisher = Publisher(output: parent.appendingPathComponent("public"), logger: logger)
        let staging = try publisher.makeStaging()
        let file = staging.appendingPathComponent("inner/file")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: file)
        #expect(Self.pin(file, true))
        defer { _ = Self.pin(file, false) }
        publisher.discard(staging)
        #expect(log.warnings.count == 1)
        #expect(log.warnings.first?.contains("\(staging.path): cannot remove this folder of an unpublished build") == true, "\(log.warnings)")
    }

    @Test("a staging folder that is already gone needs no warning")
    func goneStaging() throws {
        let (logger, log) = TestSupport.recordingLogger()
        let publisher = Publisher(output: try TestSupport.temporaryFolder().appendingPathComponent("public"), logger: logger)
        let staging = try publisher.makeStaging()
        try FileManager.default.removeItem(at: staging)
        publisher.discard(staging)
        #expect(log.warnings.isEmpty)
    }
}

@Suite("Publish errors")
struct PublishErrorTests {
    @Test("a refusal names the folder and the first files, then how many more")
    func foreignFiles() {
        let error = PublishError(URL(fileURLWithPath: "/srv/news"), .holdsForeignFiles(shown: ["a", "b", "c"], count: 5))
        #expect(error.description.hasPrefix("/srv/news: holds files newsgen did not write (a, b, c and 2 more), and a build replaces its output folder whole; nothing was published."))
    }

    @Test("a system failure names the path, the step and the system's reason")
    func systemFailure() {
        let error = PublishError(URL(fileURLWithPath: "/srv/news/public"), .cannotMoveIntoPlace, reason: "permission denied")
        #expect(error.description == "/srv/news/public: cannot move the new site into place (permission denied)")
    }
}
