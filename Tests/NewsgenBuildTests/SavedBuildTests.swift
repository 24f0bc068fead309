import Foundation
import Testing
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

@Suite("Saved lists in a build")
struct SavedBuildTests {
    /// The sample site in a folder of its own, with `saved` in site.json naming the given files.
    func build(saved: [String: String]) async throws -> (URL, Result<BuildReport, BuildError>, LogRecorder) {
        let folder = try TestSupport.temporaryFolder()
        try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent("Samples"), to: folder.appendingPathComponent("Samples"))
        try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent("Templates"), to: folder.appendingPathComponent("Templates"))
        for (name, text) in saved {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let names = saved.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        let siteJSON = #"{"saved": [\#(names)], "sources": [{"id": "world", "feed": "Samples/feeds/world.xml"}]}"#
        let config = try SiteConfig.decode(Data(siteJSON.utf8), file: folder.appendingPathComponent("site.json"))
        let (logger, recorder) = TestSupport.recordingLogger()
        do {
            return (folder, .success(try await TestBuild.run(config, at: TestSupport.date("2026-11-21T12:00:00Z"), logger: logger)), recorder)
        } catch {
            return (folder, .failure(error), recorder)
        }
    }

    @Test("one bad entry in one device's file is a warning; the build publishes the rest with its usual exit status")
    func badEntryWarns() async throws {
        let (folder, result, log) = try await build(saved: [
            "phone.json": #"{"favorites": [{"url": "https://example.com/good-one", "title": "Good one"}, {"url": "not a url"}]}"#,
            "laptop.json": #"{"readLater": [{"url": "https://example.com/good-two", "title": "Good two"}]}"#,
        ])
        let report = try result.get()
        #expect(report.exitStatus == 0)
        let phone = folder.appendingPathComponent("phone.json").path
        #expect(log.warnings == [phone + #":1:78: favorites[1]: url "not a url" is not an absolute http(s) URL; skipped"#])
        let favorites = try String(contentsOf: folder.appendingPathComponent("public/favorites/index.html"), encoding: .utf8)
        #expect(favorites.contains("Good one"))
        let readLater = try String(contentsOf: folder.appendingPathComponent("public/read-later/index.html"), encoding: .utf8)
        #expect(readLater.contains("Good two"))
    }

    @Test("an unknown key in a saved file stops the build before anything is published")
    func unknownKeyStops() async throws {
        let (folder, result, _) = try await build(saved: ["saved.json": #"{"read-later": [{"url": "https://example.com/a"}]}"#])
        guard case .failure(let error) = result else { Issue.record("built"); return }
        #expect(error.stage == .mergeSavedLists)
        #expect(error.description == folder.appendingPathComponent("saved.json").path + ":1:2: read-later: unknown key; did you mean readLater? (allowed: favorites, readLater)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("public").path))
    }
}
