import Foundation
import NewsgenTestSupport
import Testing

/// Errors a person can act on (issue 8): one line that says what is wrong and what to do,
/// the exit status of the contract, and nothing from the server's disk on the public pages.
extension CLITests {
    @Test("validate on a missing path, a file and an empty folder: one error line, exit 1, no usage, in both formats",
          arguments: ["text", "json"])
    func validateNothing(format: String) async throws {
        let folder = try TestSupport.temporaryFolder()
        try "{}".write(to: folder.appendingPathComponent("site.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let cases = [
            ("public", "newsgen: error: public: no such folder\n"),
            ("site.json", "newsgen: error: site.json: is a file; validate takes the folder a build wrote\n"),
            ("empty", "newsgen: error: empty: is empty; nothing to validate\n"),
        ]
        for (path, message) in cases {
            let run = try await newsgen(["validate", path, "--format", format], in: folder)
            #expect(run.status == 1, "\(path): \(run.stderr)")
            #expect(run.stderr == message)
            #expect(run.stdout.isEmpty, "\(path): \(run.stdout)")
        }
    }

    @Test("an unknown command suggests the nearest one and exits 2")
    func unknownCommand() async throws {
        let typo = try await newsgen(["bild"])
        #expect(typo.status == 2)
        #expect(typo.stderr.hasPrefix("newsgen: error: unknown command 'bild'; did you mean 'build'?\n"), "\(typo.stderr)")
        #expect(typo.stdout.isEmpty)
        let other = try await newsgen(["servr", "--port", "1"])
        #expect(other.stderr.hasPrefix("newsgen: error: unknown command 'servr'; did you mean 'serve'?\n"), "\(other.stderr)")
        let far = try await newsgen(["frobnicate"])
        #expect(far.status == 2)
        #expect(far.stderr.hasPrefix("newsgen: error: unknown command 'frobnicate' (commands: build, validate, serve, saved, sources, add, extract, ping)\n"), "\(far.stderr)")
        #expect(try await newsgen(["help", "build"]).status == 0, "help is still a command")
    }

    @Test("usage errors are printed as every other error, newsgen: error: …, then the usage; exit 2", arguments: [
        (["add", "example.org"], "example.org is not an http(s) URL; give the address of a page or a feed, such as https://www.example.org/.", "add"),
        (["add", "https://example.org/", "--id", "Bad Id"], "--id expects lowercase letters, digits, - and _ (at most 64), such as \"bbc-news\".", "add"),
        (["build", "--bogus"], "unknown option '--bogus'", "build"),
        (["build", "--quiet", "--verbose"], "--quiet and --verbose cannot be used together.", "build"),
        (["validate"], "missing expected argument '<directory>'", "validate"),
        (["serve", "--port", "0"], "--port must be from 1 to 65535.", "serve"),
        (["saved", "add", "not-a-url"], "not-a-url is not an absolute http(s) URL.", "saved add"),
    ])
    func usageErrorForm(arguments: [String], message: String?, command: String) async throws {
        let run = try await newsgen(arguments, in: try TestSupport.temporaryFolder())
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stdout.isEmpty)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let message { #expect(lines.first == "newsgen: error: " + message, "\(run.stderr)") }
        #expect(lines.first?.hasPrefix("newsgen: error: ") == true, "\(run.stderr)")
        #expect(!lines.contains { $0.hasPrefix("Error:") }, "\(run.stderr)")
        #expect(lines.contains { $0.hasPrefix("Usage: newsgen \(command)") }, "\(run.stderr)")
        #expect(run.stderr.hasSuffix("  See 'newsgen \(command) --help' for more information.\n"), "\(run.stderr)")
    }

    @Test("--offline and a source that was never fetched says so, and what to do")
    func offlineNeverFetched() async throws {
        let site = try sampleSite()
        try #"{"sources": [{"id": "local", "feed": "Samples/feeds/world.xml"}, {"id": "hn", "feed": "http://127.0.0.1:9/feed.xml"}]}"#
            .write(to: site.appendingPathComponent("site.json"), atomically: true, encoding: .utf8)
        let run = try await newsgen(["build", "--offline"], in: site)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr == "newsgen: warning: source \"hn\": offline, and it has never been fetched (run a build without --offline first)\n")
    }

    @Test("no NewsAPI key: the one line of the README for all the NewsAPI sources, whatever else is printed")
    func missingKey() async throws {
        let site = try sampleSite()
        try """
            {"sources": [{"id": "local", "feed": "Samples/feeds/world.xml"},
                         {"id": "bbc", "newsapi": "bbc-news"},
                         {"id": "us-business", "newsapi": {"country": "us", "category": "business"}},
                         {"id": "swift", "newsapi": {"q": "swift programming"}}]}
            """.write(to: site.appendingPathComponent("site.json"), atomically: true, encoding: .utf8)
        for arguments in [["build"], ["build"], ["build", "--offline"]] {
            let run = try await newsgen(arguments, in: site, environment: ["NEWS_API_KEY": ""])
            #expect(run.status == 3, "\(run.stderr)")
            #expect(run.stderr == "newsgen: warning: NEWS_API_KEY is not set; skipping 3 NewsAPI sources: bbc, us-business, swift\n", "\(arguments)")
        }
    }

    @Test("a failing local feed: the pages say it could not be reached, never its error or a path on the server; the log has both")
    func noServerPaths() async throws {
        let site = try sampleSite()
        try #"{"sources": [{"id": "local", "feed": "Samples/feeds/world.xml"}, {"id": "gone", "name": "Gone Gazette", "feed": "feeds/missing.xml"}]}"#
            .write(to: site.appendingPathComponent("site.json"), atomically: true, encoding: .utf8)
        let run = try await newsgen(["build"], in: site)
        #expect(run.status == 3, "\(run.stderr)")
        let missing = site.appendingPathComponent("feeds/missing.xml").standardizedFileURL.path
        #expect(run.stderr == "newsgen: warning: source \"gone\": cannot read \(missing) (no such file)\n")
        let folder = site.standardizedFileURL.path
        for page in ["index.html", "sources/index.html", "sources/gone/index.html"] {
            let text = try String(contentsOf: site.appendingPathComponent("public/\(page)"), encoding: .utf8)
            #expect(!text.contains(folder), "\(page) shows a server path")
            #expect(!text.contains("cannot read"), "\(page) shows the error, which is the log's")
            #expect(text.contains("Couldn’t be reached"), "\(page) says that the source could not be reached")
        }
    }
}

extension CLITests {
    @Test("every command that reads a site says the same one line for a --config that does not exist")
    func missingConfigEverywhere() async throws {
        let folder = try TestSupport.temporaryFolder()
        for command in [["build"], ["serve", "--port", "1"], ["saved", "list"], ["sources"]] {
            let run = try await newsgen(command + ["--config", "nope.json"], in: folder)
            #expect(run.status == 1, "\(command): \(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("newsgen: error: nope.json: not found ("), "\(command): \(run.stderr)")
        }
    }
}
