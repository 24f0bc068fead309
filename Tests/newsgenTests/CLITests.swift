import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NewsgenBuild
import NewsgenTestSupport
import Testing

/// The `newsgen` binary as a user (or cron) runs it: exit statuses, output, and the lock.
@Suite("newsgen command line")
struct CLITests {
    static let repository = TestSupport.repository

    /// The binary SwiftPM built next to this test bundle.
    static var binary: URL {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("newsgen").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("newsgen")
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs newsgen on a thread of its own: waiting for the process on one of the few threads of
    /// Swift's cooperative pool would starve the tests that run servers meanwhile.
    func newsgen(_ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:]) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try self.newsgenBlocking(arguments, in: folder, environment: environment) })
            }
        }
    }

    private func newsgenBlocking(_ arguments: [String], in folder: URL?, environment: [String: String]) throws -> Run {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder ?? Self.repository
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Both pipes are read at once: reading stdout to its end first would deadlock on a child
        // that fills the stderr pipe's buffer meanwhile.
        let stderrRead = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var stderr = Data()
        Thread.detachNewThread {
            stderr = err.fileHandleForReading.readDataToEndOfFile()
            stderrRead.signal()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        stderrRead.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A copy of the repository's sample site (site.json, Samples, Templates) in its own folder.
    func sampleSite() throws -> URL {
        let folder = try TestSupport.temporaryFolder()
        for item in ["site.json", "Samples", "Templates"] {
            try FileManager.default.copyItem(at: Self.repository.appendingPathComponent(item), to: folder.appendingPathComponent(item))
        }
        return folder
    }

    #if os(Linux)
    @Test("on Linux the binary allocates with the jemalloc linked into it, with its own settings")
    func allocator() async throws {
        // jemalloc prints its statistics at exit when MALLOC_CONF asks; glibc ignores the variable.
        let run = try await newsgen(["--version"], environment: ["MALLOC_CONF": "stats_print:true"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("jemalloc statistics"), "\(run.stderr.prefix(200))")
        #expect(run.stderr.contains(#"opt.percpu_arena: "percpu""#))
        #expect(run.stderr.contains("opt.dirty_decay_ms: 500"))
        #expect(run.stderr.contains("opt.muzzy_decay_ms: 0"))
    }
    #endif

    @Test("the sample site builds offline, silently, with exit status 0")
    func buildSample() async throws {
        let site = try sampleSite()
        let run = try await newsgen(["build", "--offline"], in: site)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty && run.stderr.isEmpty, "quiet under cron: \(run.stdout) \(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("public/index.html").path))
        // --full: with nothing new, a build publishes nothing and has no validate line to show.
        let verbose = try await newsgen(["build", "--verbose", "--full"], in: site)
        #expect(verbose.stderr.contains("[2/11] fetch 7 sources"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains("[3/11] store cache "), "\(verbose.stderr)")
        #expect(verbose.stderr.contains(/\[\d+\/11\] validate \d+ files, 0 problems [0-9.]+ s/), "\(verbose.stderr)")
        #expect(verbose.stderr.contains(/unchanged, \d+ carried, [0-9.]+ s \(validation [0-9.]+ s of the cores' time\)/), "\(verbose.stderr)")
        // Nothing new since: the build says so, and does not go on to claim it published.
        let again = try await newsgen(["build", "--verbose"], in: site)
        #expect(again.stderr.contains("nothing changed") && again.stderr.contains(/kept \S+ as it was: \d+ files carried, [0-9.]+ s/), "\(again.stderr)")
        #expect(!again.stderr.contains("published /"), "\(again.stderr)")
    }

    @Test("validate: 0 on a good site; 1 and path:line:col on a broken file")
    func validate() async throws {
        let site = try sampleSite()
        #expect(try await newsgen(["build"], in: site).status == 0)
        let good = try await newsgen(["validate", "public"], in: site)
        #expect(good.status == 0)
        #expect(good.stdout.hasSuffix(": 0 problems\n"), "\(good.stdout)")
        try "<!DOCTYPE html>\n<html><body><p>broken</body></html>\n".write(to: site.appendingPathComponent("public/sources/index.html"), atomically: true, encoding: .utf8)
        let bad = try await newsgen(["validate", "public"], in: site)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("sources/index.html:2:"), "\(bad.stdout)")
        #expect(bad.stdout.contains(": xml-well-formed: "), "\(bad.stdout)")
        #expect(bad.stdout.contains(/: \d+ problems? in 1 file\n$/), "\(bad.stdout)")
    }

    @Test("validate's last line says how many files of each kind it checked and which it did not, counted from the folder")
    func validateSummary() async throws {
        let site = try sampleSite()
        #expect(try await newsgen(["build"], in: site).status == 0)
        let output = site.appendingPathComponent("public")
        // The kinds by path, counted here from the folder itself.
        var kinds: [String: Int] = [:]
        var unchecked: [String: Int] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: output.path) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let name = (path as NSString).lastPathComponent.lowercased()
            // The extension: the last part of a name with two non-empty dot-separated parts (`.newsgen-site` has none).
            let parts = name.split(separator: ".")
            switch parts.count > 1 ? String(parts[parts.count - 1]) : "" {
            case "html": kinds["HTML page", default: 0] += 1
            case "rss": kinds["RSS feed", default: 0] += 1
            case "atom": kinds["Atom feed", default: 0] += 1
            case "opml": kinds["OPML file", default: 0] += 1
            case "json": kinds[path.hasPrefix("feeds/") ? "JSON Feed" : "JSON file", default: 0] += 1
            case "xml": kinds[name == "sitemap.xml" || path.hasPrefix("sitemaps/") ? "sitemap" : "XML file", default: 0] += 1
            case "svg": kinds["SVG image", default: 0] += 1
            case let other: unchecked[other, default: 0] += 1
            }
        }
        let checked = kinds.values.reduce(0, +), skipped = unchecked.values.reduce(0, +)
        #expect(kinds["HTML page", default: 0] > 10 && kinds["RSS feed", default: 0] > 3 && kinds["JSON Feed", default: 0] > 3)
        func count(_ kind: String) -> String? {
            kinds[kind].map { "\($0) \(kind)\($0 == 1 ? "" : "s")" }
        }
        let named = ["HTML page", "RSS feed", "Atom feed", "JSON Feed", "OPML file", "sitemap", "JSON file", "XML file", "SVG image"].compactMap(count)
        let extensions = unchecked.sorted { ($1.value, $0.key.isEmpty ? 1 : 0, $0.key) < ($0.value, $1.key.isEmpty ? 1 : 0, $1.key) }
            .map { $0.key.isEmpty ? "\($0.value) without an extension" : "\($0.value) .\($0.key)" }
        var expected = skipped == 0 ? "checked \(checked) files" : "checked \(checked) of \(checked + skipped) files"
        expected += " (" + named.joined(separator: ", ") + ")"
        if skipped > 0 { expected += "; \(skipped) \(skipped == 1 ? "has" : "have") no checks (" + extensions.joined(separator: ", ") + ")" }
        let run = try await newsgen(["validate", "public"], in: site)
        #expect(run.status == 0)
        #expect(run.stdout == expected + ": 0 problems\n")
        #expect(run.stderr.isEmpty)
    }

    @Test("validate --format json: one object with the file count and every problem")
    func validateJSON() async throws {
        let site = try sampleSite()
        #expect(try await newsgen(["build"], in: site).status == 0)
        let good = try await newsgen(["validate", "public", "--format", "json"], in: site)
        #expect(good.status == 0)
        let clean = try JSONSerialization.jsonObject(with: Data(good.stdout.utf8)) as? [String: Any]
        #expect((clean?["files"] as? Int ?? 0) > 40)
        #expect((clean?["problems"] as? [Any])?.isEmpty == true)

        let page = site.appendingPathComponent("public/favorites/index.html")
        let text = try String(contentsOf: page, encoding: .utf8)
        try text.replacingOccurrences(of: "<h1>", with: "<h2>").replacingOccurrences(of: "</h1>", with: "</h2>")
            .replacingOccurrences(of: " lang=\"en\"", with: "")
            .write(to: page, atomically: true, encoding: .utf8)
        let bad = try await newsgen(["validate", "public", "--format", "json"], in: site)
        #expect(bad.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(bad.stdout.utf8)) as? [String: Any], "\(bad.stdout)")
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.map { $0["rule"] as? String } == ["html-lang", "html-one-h1"], "\(problems)")
        #expect(problems.allSatisfy { $0["path"] as? String == "favorites/index.html" })
        #expect(problems.first?["line"] as? Int == 2)
        #expect(problems.first?["column"] as? Int == 1)
        #expect(problems.first?["message"] as? String == "<html> has no lang attribute; say which language the page is in (lang=\"en\")")
        #expect(bad.stderr.isEmpty, "\(bad.stderr)")

        let text2 = try await newsgen(["validate", "public"], in: site)
        #expect(text2.stdout.hasPrefix("favorites/index.html:2:1: html-lang: <html> has no lang attribute"), "\(text2.stdout)")
        #expect(text2.stdout.hasSuffix(": 2 problems in 1 file\n"), "\(text2.stdout)")
        #expect(text2.stdout.contains(" of \(report["files"] as? Int ?? 0) files ("), "\(text2.stdout)")
    }

    @Test("validate --base-url checks feeds' self links against where the site is served")
    func validateBaseURL() async throws {
        let site = try sampleSite()
        #expect(try await newsgen(["build"], in: site).status == 0)
        #expect(try await newsgen(["validate", "public", "--base-url", "https://news.example.org/"], in: site).status == 0)
        let elsewhere = try await newsgen(["validate", "public", "--base-url", "https://example.net/news"], in: site)
        #expect(elsewhere.status == 1)
        #expect(elsewhere.stdout.contains("feeds/headlines.rss:"), "\(elsewhere.stdout)")
        #expect(elsewhere.stdout.contains("feed-self-link: atom:link rel=\"self\" href \"https://news.example.org/feeds/headlines.rss\" is not where the feed is served: https://example.net/news/feeds/headlines.rss"), "\(elsewhere.stdout)")
        #expect(try await newsgen(["validate", "public", "--base-url", "news.example.org"], in: site).status == 2)
    }

    @Test("a bad config: one line naming the key, exit 1, nothing published")
    func badConfig() async throws {
        let site = try sampleSite()
        try #"{"sources": [{"id": "a", "fead": "x.xml"}]}"#.write(to: site.appendingPathComponent("site.json"), atomically: true, encoding: .utf8)
        let run = try await newsgen(["build"], in: site)
        #expect(run.status == 1)
        #expect(run.stderr == "newsgen: error: site.json:1:26: sources[0].fead: unknown key; did you mean feed? (allowed: id, name, category, feed, newsapi, json, refreshMinutes, timeoutSeconds, fullText)\n")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("public").path))
        let missing = try await newsgen(["build", "--config", "nope.json"], in: site)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.json: not found"))
    }

    @Test("config errors name site.json as --config gave it, with the line and column of the key")
    func configErrorsNameTheGivenPath() async throws {
        let site = try sampleSite()
        let folder = site.appendingPathComponent("a")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
            {
              "title": "A",
              "titel": "A",
              "sources": [{"id": "world", "feed": "../Samples/feeds/world.xml"}]
            }
            """.write(to: folder.appendingPathComponent("site.json"), atomically: true, encoding: .utf8)
        let allowed = "(allowed: title, description, baseURL, language, output, templates, cache, saved, articlesPerSource, maxCacheAgeDays, keepDays, refreshMinutes, timeoutSeconds, fetchBudgetSeconds, newsapi, sources, static, images, websub, groupStories)"
        let absolute = folder.appendingPathComponent("site.json").path
        for given in [absolute, "a/site.json", "./a/../a/site.json"] {
            for command in [["build"], ["sources"], ["saved", "list"], ["add", "https://example.org/", "--dry-run"]] {
                let run = try await newsgen(command + ["--config", given], in: site)
                #expect(run.status == 1, "\(command) \(given): \(run.stderr)")
                #expect(run.stderr == "newsgen: error: \(given):3:3: titel: unknown key; did you mean title? \(allowed)\n", "\(command) \(given)")
            }
        }
        let saved = site.appendingPathComponent("Samples/saved.json")
        try #"{"favorites": [], "readLater": [{"url": "https://example.com/", "titel": "x"}]}"#.write(to: saved, atomically: true, encoding: .utf8)
        let list = try await newsgen(["saved", "list"], in: site)
        #expect(list.status == 1)
        #expect(list.stderr == "newsgen: error: \(saved.standardizedFileURL.path):1:65: readLater[0].titel: unknown key; did you mean title? (allowed: url, id, title, savedAt)\n")
    }

    @Test("usage errors exit 2", arguments: [["build", "--bogus"], ["frobnicate"], ["build", "--quiet", "--verbose"], ["validate"], ["validate", "public", "--format", "xml"]])
    func usage(arguments: [String]) async throws {
        let run = try await newsgen(arguments)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(!run.stderr.isEmpty)
    }

    @Test("saved add, list and remove edit the saved file the config names")
    func saved() async throws {
        let site = try sampleSite()
        let add = try await newsgen(["saved", "add", "https://example.com/later", "--list", "read-later", "--title", "Later"], in: site)
        #expect(add.status == 0)
        #expect(add.stdout == "Saved to Read Later: https://example.com/later\n")
        let list = try await newsgen(["saved", "list"], in: site)
        #expect(list.stdout.contains("Read Later (4)"))
        #expect(list.stdout.contains("Later — https://example.com/later"))
        let saved = try String(contentsOf: site.appendingPathComponent("Samples/saved.json"), encoding: .utf8)
        #expect(saved.range(of: #""favorites""#)!.lowerBound < saved.range(of: #""readLater""#)!.lowerBound, "key order is kept")
        #expect(try await newsgen(["build"], in: site).status == 0)
        #expect(try String(contentsOf: site.appendingPathComponent("public/read-later/index.html"), encoding: .utf8).contains(">Later</a>"))
        let remove = try await newsgen(["saved", "remove", "https://example.com/later"], in: site)
        #expect(remove.status == 0)
        let again = try await newsgen(["saved", "remove", "https://example.com/later"], in: site)
        #expect(again.status == 1)
        #expect(again.stderr == "newsgen: error: https://example.com/later is not in Favorites or Read Later\n")
        #expect(try await newsgen(["saved", "add", "not-a-url"], in: site).status == 2)
    }

    @Test("serve: builds, then serves pages and feeds on 127.0.0.1 with their content types")
    func serve() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", "--port", String(port), "--offline"]
        process.currentDirectoryURL = site
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }

        // Over a plain socket, as the other serve tests ask: URLSession.shared, the tests' only
        // user of Foundation's networking, keeps its connections and their dispatch sources
        // until the process exits.
        func get(_ path: String) async throws -> (Int, String?, Data) {
            let response = try await raw("GET", path, port: port)
            return (response.status, response.headers["content-type"], response.body)
        }
        var ready = false
        for _ in 0..<600 where !ready {
            try await Task.sleep(for: .milliseconds(200))
            ready = (try? await get("/")) != nil
        }
        try #require(ready, "the server did not come up")
        let (status, type, body) = try await get("/")
        #expect(status == 200)
        #expect(type == "text/html; charset=utf-8")
        #expect(String(decoding: body, as: UTF8.self).contains("<h1>Headlines</h1>"))
        #expect(try await get("/sources/").1 == "text/html; charset=utf-8", "a folder serves its index.html")
        #expect(try await get("/feeds/headlines.rss").1 == "application/rss+xml; charset=utf-8")
        #expect(try await get("/feeds/headlines.atom").1 == "application/atom+xml; charset=utf-8")
        #expect(try await get("/feeds/sources.opml").1 == "text/x-opml; charset=utf-8")
        #expect(try await get("/nowhere").0 == 404)
        #expect(try await get("/../site.json").0 != 200, "nothing outside the output folder")
    }

    @Test("--help lists the commands")
    func help() async throws {
        let run = try await newsgen(["--help"])
        #expect(run.status == 0)
        for command in ["build", "validate", "serve", "saved", "sources"] { #expect(run.stdout.contains(command)) }
    }

    @Test("a second build while one runs exits 1 at once; nothing is touched")
    func lock() async throws {
        let site = try sampleSite()
        let held = try await BuildLock(path: site.appendingPathComponent(".newsgen/build.lock"), wait: false)
        let run = try await newsgen(["build"], in: site)
        #expect(run.status == 1)
        #expect(run.stderr.contains("another build is running"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("public").path))
        withExtendedLifetime(held) {}
    }
}
