import Foundation
import NewsgenTestSupport
import Testing

/// What a user typing the wrong folder must never lose: real `newsgen` processes over real folders.
extension CLITests {
    /// The sample site with a file of the user's beside it, as the first build would find it.
    func projectFolder() throws -> URL {
        let site = try sampleSite()
        try Data("call the printer".utf8).write(to: site.appendingPathComponent("notes.txt"))
        return site
    }

    @Test("build -o . and -o .. refuse, print one line naming --output, and lose nothing")
    func outputIsProjectFolder() async throws {
        let site = try projectFolder()
        let parent = site.deletingLastPathComponent()
        let before = try TestSupport.fileBytes(below: site)
        for output in [".", "..", "Samples", "Templates", "Templates/out"] {
            let run = try await newsgen(["build", "--offline", "-o", output], in: site)
            #expect(run.status == 1, "-o \(output): \(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1, "-o \(output): \(run.stderr)")
            #expect(run.stderr.hasPrefix("newsgen: error: site.json: --output: "), "-o \(output): \(run.stderr)")
            #expect(try TestSupport.fileBytes(below: site) == before, "-o \(output) changed the project folder")
        }
        #expect(FileManager.default.fileExists(atPath: parent.path))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("public").path), "nothing was built")
    }

    @Test("\"output\": \"Samples\" in site.json is a config error naming output and the saved file inside it")
    func outputInConfig() async throws {
        let site = try projectFolder()
        let configFile = site.appendingPathComponent("site.json")
        let config = try String(contentsOf: configFile, encoding: .utf8)
        try config.replacingOccurrences(of: #""output": "public""#, with: #""output": "Samples""#).write(to: configFile, atomically: true, encoding: .utf8)
        let before = try TestSupport.fileBytes(below: site)
        let run = try await newsgen(["build", "--offline"], in: site)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("newsgen: error: site.json:6:3: output: "), "\(run.stderr)")
        #expect(run.stderr.contains("contains saved (\(site.path)/Samples/saved.json)"), "\(run.stderr)")
        #expect(try TestSupport.fileBytes(below: site) == before)
    }

    @Test("an output folder holding the user's files is refused with exit 1; once empty, it builds")
    func foreignFolder() async throws {
        let site = try projectFolder()
        let output = site.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data("<h1>my page</h1>".utf8).write(to: output.appendingPathComponent("about.html"))
        let run = try await newsgen(["build", "--offline", "-o", "www"], in: site)
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("www: holds files newsgen did not write (about.html)"), "\(run.stderr)")
        #expect(run.stderr.contains("Choose an empty or new folder"), "\(run.stderr)")
        #expect(try Data(contentsOf: output.appendingPathComponent("about.html")) == Data("<h1>my page</h1>".utf8))

        try FileManager.default.removeItem(at: output.appendingPathComponent("about.html"))
        #expect(try await newsgen(["build", "--offline", "-o", "www"], in: site).status == 0)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(".newsgen-site").path))
        #expect(try await newsgen(["build", "--offline", "-o", "www"], in: site).status == 0, "its own site is replaced")
    }

    @Test("saved add into a missing folder is an error and creates nothing")
    func savedAddMissingFolder() async throws {
        let root = try TestSupport.temporaryFolder()
        let file = root.appendingPathComponent("missing/dir/x.json")
        let run = try await newsgen(["saved", "add", "https://example.com/story", "--file", file.path], in: root)
        #expect(run.status == 1)
        #expect(run.stderr.contains("the folder \(root.path)/missing/dir does not exist"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("missing").path))
        #expect(run.stdout.isEmpty)
    }

    @Test("saved list and remove warn about a --file that does not exist, as build does")
    func savedListMissingFile() async throws {
        let root = try TestSupport.temporaryFolder()
        let list = try await newsgen(["saved", "list", "--file", "typo.json"], in: root)
        #expect(list.status == 0)
        #expect(list.stderr == "newsgen: warning: \(root.path)/typo.json: saved file not found; its lists are empty\n", "\(list.stderr)")
        #expect(list.stdout.contains("Favorites (0)"))
        let remove = try await newsgen(["saved", "remove", "https://example.com/a", "--file", "typo.json"], in: root)
        #expect(remove.status == 1)
        #expect(remove.stderr.contains("typo.json: saved file not found"), "\(remove.stderr)")
    }

    @Test("saved list and add warn about an entry a build would skip, name it, and keep the rest")
    func savedBadEntry() async throws {
        let root = try TestSupport.temporaryFolder()
        let file = root.appendingPathComponent("saved.json")
        try Data(#"{"favorites": [{"url": "not a url"}, {"url": "https://example.com/good", "title": "Good"}]}"#.utf8).write(to: file)
        let list = try await newsgen(["saved", "list", "--file", "saved.json"], in: root)
        #expect(list.status == 0)
        #expect(list.stderr == "newsgen: warning: \(file.path):1:16: favorites[0]: url \"not a url\" is not an absolute http(s) URL; skipped\n", "\(list.stderr)")
        #expect(list.stdout.contains("Favorites (1)") && list.stdout.contains("Good"), "\(list.stdout)")
        let add = try await newsgen(["saved", "add", "https://example.com/new", "--file", "saved.json"], in: root)
        #expect(add.status == 0)
        #expect(add.stderr.contains("favorites[0]: url \"not a url\""), "\(add.stderr)")
    }
}
