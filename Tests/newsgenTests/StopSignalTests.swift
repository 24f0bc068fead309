import Foundation
import Hummingbird
import NewsgenTestSupport
import Testing

/// Real `newsgen build` processes stopped by SIGINT, SIGTERM and SIGKILL: the served folder is
/// always a whole site (the old or the new), a clean stop leaves no staging folder and no held
/// lock, and the next build runs normally.
@Suite("newsgen build: stopping")
struct StopSignalTests {
    /// A running `newsgen` with its standard error collected.
    final class Running: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var data = Data()
        private let pipe = Pipe()

        init(_ arguments: [String], in folder: URL) throws {
            process.executableURL = CLITests.binary
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = pipe
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let chunk = handle.availableData
                self?.lock.withLock { self?.data.append(chunk) }
            }
            try process.run()
        }

        var stderr: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

        func signal(_ number: Int32) { kill(process.processIdentifier, number) }

        /// Waits (off the cooperative pool) for the process to end; its exit status and stderr.
        func finish() async -> (status: Int32, reason: Process.TerminationReason, stderr: String) {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    self.process.waitUntilExit()
                    // Whatever is still in the pipe.
                    self.pipe.fileHandleForReading.readabilityHandler = nil
                    let rest = self.pipe.fileHandleForReading.readDataToEndOfFile()
                    self.lock.withLock { self.data.append(rest) }
                    continuation.resume()
                }
            }
            return (process.terminationStatus, process.terminationReason, stderr)
        }
    }

    /// Set once, read from the server's tasks.
    /// How long a stopped build may take to exit in these tests: 2 s on an idle machine, several on one running this suite
    /// beside two compilers. What the tests hold up (a source, minutes of parsing) lasts longer than this, so a build that
    /// waited for it instead of stopping fails them however loaded the machine is.
    static let stopBound: Duration = .seconds(30)

    /// The staging folders beside `public`.
    func staging(in site: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.path).filter { $0.hasPrefix(".public.staging-") }
    }

    func setTitle(_ title: String, in site: URL, extraSource: String? = nil) throws {
        let file = site.appendingPathComponent("site.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        json["title"] = title
        if let extraSource, var sources = json["sources"] as? [[String: Any]] {
            sources.append(["id": "slow", "name": "Slow", "feed": extraSource])
            json["sources"] = sources
        }
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted]).write(to: file)
    }

    @Test("SIGTERM and SIGINT while a source is slow: exit 143 / 130, one line, nothing published, no staging, lock free",
          arguments: [(SIGTERM, "SIGTERM", Int32(143)), (SIGINT, "SIGINT", Int32(130))])
    func stopWhileFetching(signal: Int32, name: String, status: Int32) async throws {
        let requested = Gate()
        let release = Gate()
        try await withTestServer({ router in
            router.get("slow.xml") { request, _ in
                requested.open()
                // Holds the build in its fetch stage until the test is done.
                await release.wait()
                return Response(status: .serviceUnavailable)
            }
        }) { server in
            defer { release.open() }
            let site = try CLITests().sampleSite()
            try setTitle("Before", in: site, extraSource: server.appendingPathComponent("slow.xml").absoluteString)
            let first = try Running(["build", "--offline"], in: site)
            let built = await first.finish()
            #expect(built.status == 3, "the slow source has no cache yet: \(built.stderr)")
            let before = try TestSupport.fileBytes(below: site.appendingPathComponent("public"))

            try setTitle("After", in: site)
            let build = try Running(["build", "--refresh"], in: site)
            await requested.wait()
            build.signal(signal)
            let started = ContinuousClock.now
            let stopped = await build.finish()
            #expect(ContinuousClock.now - started < Self.stopBound, "the build stopped while the source still held its request")
            #expect(stopped.reason == .exit && stopped.status == status, "\(stopped.reason) \(stopped.status): \(stopped.stderr)")
            #expect(stopped.stderr == "newsgen: build stopped by \(name); nothing was published\n")
            #expect(try TestSupport.fileBytes(below: site.appendingPathComponent("public")) == before, "the served site is untouched")
            #expect(try staging(in: site).isEmpty, "no staging folder is left")

            let next = try Running(["build", "--offline"], in: site)
            let after = await next.finish()
            #expect(after.status == 3, "the next build starts normally: \(after.stderr)")
            #expect(!after.stderr.contains("another build is running"), "\(after.stderr)")
            let index = try String(contentsOf: site.appendingPathComponent("public/index.html"), encoding: .utf8)
            #expect(index.contains("After"))
        }
    }

    @Test("SIGTERM while the feeds are parsed (minutes of work on two cores): exit 143 at once, no staging folder, the lock free")
    func stopWhileParsing() async throws {
        let folder = try TestSupport.temporaryFolder()
        // One feed of ~8.5 MB (24,000 items with text to copy), read by 40 sources: its parse takes
        // seconds, and two cores parse two at a time. The first source is a server that never
        // answers, listed first so that its request tells the test that the fetch stage is under way.
        let text = String(repeating: "words of text ", count: 18)
        var feed = "<rss version=\"2.0\"><channel><title>Big</title>"
        for number in 0..<24_000 {
            feed += "<item><title>Story \(number)</title><link>https://example.com/\(number)</link><description>\(text)</description></item>"
        }
        feed += "</channel></rss>"
        try Data(feed.utf8).write(to: folder.appendingPathComponent("big.xml"))
        let (requests, arrived) = AsyncStream.makeStream(of: Void.self)
        let (release, released) = AsyncStream.makeStream(of: Void.self)
        try await withTestServer({ router in
            router.get("first.xml") { _, _ -> Response in
                arrived.yield()
                for await _ in release {}
                return Response(status: .serviceUnavailable)
            }
        }) { server in
            defer { released.finish() }
            let first = "{\"id\": \"first\", \"feed\": \"\(server.appendingPathComponent("first.xml").absoluteString)\"}"
            let sources = ([first] + (1...40).map { "{\"id\": \"s\($0)\", \"feed\": \"big.xml\"}" }).joined(separator: ", ")
            let config = "{\"timeoutSeconds\": 3600, \"fetchBudgetSeconds\": 3600, \"sources\": [\(sources)]}"
            try Data(config.utf8).write(to: folder.appendingPathComponent("site.json"))

            let build = try Running(["build"], in: folder)
            var waiting = requests.makeAsyncIterator()
            try #require(await waiting.next() != nil, "the fetch stage began")
            build.signal(SIGTERM)
            let started = ContinuousClock.now
            let stopped = await build.finish()
            let took = ContinuousClock.now - started
            #expect(took < Self.stopBound, "stopped in \(took), while the feeds were still being parsed")
            #expect(stopped.reason == .exit && stopped.status == 143, "\(stopped.reason) \(stopped.status): \(stopped.stderr)")
            #expect(stopped.stderr.hasSuffix("newsgen: build stopped by SIGTERM; nothing was published\n")
                    || stopped.stderr.hasSuffix(Self.forcedStop("SIGTERM")), "\(stopped.stderr)")
        }
        #expect(try staging(in: folder).isEmpty, "no staging folder is left")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("public").path), "nothing was published")
        let lock = open(folder.appendingPathComponent(".newsgen/build.lock").path, O_RDWR)
        try #require(lock >= 0)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0, "the lock is free")
    }

    /// The line of a stop whose build did not end within the grace.
    static func forcedStop(_ name: String) -> String {
        "newsgen: build stopped by \(name); the work under way was ended, the served folder is as it was\n"
    }

    @Test("SIGTERM at random moments of a build: the site is the old or the new one, whole; no staging, no held lock")
    func stopAtRandomMoments() async throws {
        try await signalAtRandomMoments(SIGTERM, rounds: 6)
    }

    @Test("SIGKILL at random moments of a build: the served folder is always the old or the new site, whole")
    func killAtRandomMoments() async throws {
        try await signalAtRandomMoments(SIGKILL, rounds: 8)
    }

    /// What the served folder holds: "old" or "new" when it is that site whole (the same files
    /// as a whole build writes, none cut short, every page with that site's title), else why not.
    /// Bytes are not compared: pages carry the minute they were built in.
    func state(of folder: URL, files expected: Set<String>) throws -> String {
        let files = try TestSupport.fileBytes(below: folder)
        guard Set(files.keys) == expected else {
            return "BROKEN: \(files.count) files, missing \(expected.subtracting(files.keys).sorted().prefix(3)), extra \(Set(files.keys).subtracting(expected).sorted().prefix(3))"
        }
        var titles = Set<String>()
        for (path, data) in files {
            let text = String(decoding: data, as: UTF8.self)
            if path.hasSuffix(".html") {
                guard text.hasSuffix("</html>\n") else { return "BROKEN: \(path) is cut short" }
                for title in ["Old site", "New site"] where text.contains("site-title\"><a href=\"") && text.contains(">\(title)</a></p>") {
                    titles.insert(title)
                }
            } else if path.hasSuffix(".json"), (try? JSONSerialization.jsonObject(with: data)) == nil {
                return "BROKEN: \(path) is not JSON"
            }
        }
        switch titles {
        case ["Old site"]: return "old"
        case ["New site"]: return "new"
        default: return "BROKEN: pages of both sites, or of neither (\(titles.sorted()))"
        }
    }

    func signalAtRandomMoments(_ signal: Int32, rounds: Int) async throws {
        let site = try CLITests().sampleSite()
        let public_ = site.appendingPathComponent("public")
        try setTitle("Old site", in: site)
        let first = try await Running(["build", "--offline"], in: site).finish()
        try #require(first.status == 0, "\(first.stderr)")
        let paths = Set(try TestSupport.fileBytes(below: public_).keys)
        try #require(try state(of: public_, files: paths) == "old")
        try setTitle("New site", in: site)
        // How long a whole build takes here, to spread the signals over it.
        let timing = ContinuousClock.now
        let reference = try CLITests().sampleSite()
        try setTitle("New site", in: reference)
        let full = try await Running(["build", "--offline"], in: reference).finish()
        try #require(full.status == 0, "\(full.stderr)")
        let duration = ContinuousClock.now - timing
        try #require(try state(of: reference.appendingPathComponent("public"), files: paths) == "new")

        var outcomes: [String] = []
        for round in 0..<rounds {
            let build = try Running(["build", "--offline"], in: site)
            let delay = Double.random(in: 0...1) * Double(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
            try await Task.sleep(for: .milliseconds(Int(delay)))
            build.signal(signal)
            let end = await build.finish()
            let state = try state(of: public_, files: paths)
            outcomes.append("\(Int(delay)) ms: \(end.reason == .uncaughtSignal ? "killed" : "exit \(end.status)"), \(state)")
            #expect(!state.hasPrefix("BROKEN"), "round \(round), signal after \(Int(delay)) ms: \(state)")
            if signal != SIGKILL {
                #expect(try staging(in: site).isEmpty, "round \(round): a stopped build leaves no staging folder")
                if end.reason == .exit, end.status == 143 {
                    #expect(end.stderr.hasSuffix("newsgen: build stopped by SIGTERM; nothing was published\n")
                            || end.stderr.hasSuffix("newsgen: build stopped by SIGTERM; the new site had already been published\n")
                            || end.stderr.hasSuffix(Self.forcedStop("SIGTERM")), "\(end.stderr)")
                }
            }
            // Back to the old site for the next round, so that either outcome can show again.
            if state == "new" {
                try setTitle("Old site", in: site)
                let back = try await Running(["build", "--offline"], in: site).finish()
                #expect(back.status == 0, "the build after a stop runs normally: \(back.stderr)")
                try setTitle("New site", in: site)
            }
        }
        // The build after the last signal runs, publishes the new site and leaves no staging folder behind.
        let last = try await Running(["build", "--offline"], in: site).finish()
        #expect(last.status == 0, "the build after a \(signal == SIGKILL ? "kill" : "stop") runs normally: \(last.stderr)")
        #expect(try state(of: public_, files: paths) == "new")
        #expect(try staging(in: site).isEmpty, "the next build removed what a killed build left")
        print("signal \(signal) at random moments (build ≈ \(duration)): \(outcomes.joined(separator: "; "))")
    }
}
