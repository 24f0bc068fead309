import AsyncHTTPClient
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import NewsgenTestSupport
import Testing

/// `serve --watch` reloading the pages open in a browser: the script it adds to what it serves
/// (never to the published files), the event stream, and a failed build shown instead of stale pages.
extension CLITests {
    /// The text of an event stream, as it arrives.
    final class EventStream: @unchecked Sendable {
        private let lock = NSLock()
        private var received = ""
        private var ended = false
        private var failure: (any Error)?

        var text: String { lock.withLock { received } }
        /// Whether the body came to its end without an error.
        var endedCleanly: Bool { lock.withLock { ended && failure == nil } }
        var error: (any Error)? { lock.withLock { failure } }

        /// Reads `/_newsgen/events` until the server ends it (or the test cancels the task).
        static func open(port: Int, client: HTTPClient) async throws -> (EventStream, HTTPClientResponse) {
            let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/_newsgen/events")
            let response = try await client.execute(request, timeout: .seconds(30))
            return (EventStream(), response)
        }

        func read(_ response: HTTPClientResponse) async {
            do {
                for try await buffer in response.body {
                    let text = String(buffer: buffer)
                    lock.withLock { received += text }
                }
                lock.withLock { ended = true }
            } catch {
                lock.withLock { failure = error; ended = true }
            }
        }
    }

    /// Runs `body` with an HTTP client of its own, shut down however `body` ends: a client
    /// dropped without it stops the whole test process, taking every other test's result with it.
    func withClient(_ body: (HTTPClient) async throws -> Void) async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await body(client)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    /// Waits (at most 120 s: a rebuild of the sample site takes a few seconds alone, far longer beside the rest of the
    /// suite on two busy cores) until `condition` holds; whether it did.
    func waitUntil(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<600 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return condition()
    }

    /// Writes `text` to `file` with a modification time the watcher cannot miss.
    func editWatched(_ file: URL, _ change: (String) -> String, later seconds: TimeInterval) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        try change(text).write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(seconds)], ofItemAtPath: file.path)
    }

    /// Every file below `folder`, as (path, bytes).
    func publishedFiles(below folder: URL) throws -> [(String, Data)] {
        let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        return try paths.compactMap { path in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
            return isFolder.boolValue ? nil : (path, try Data(contentsOf: folder.appendingPathComponent(path)))
        }
    }

    @Test("serve --watch: pages get the live script on the fly, never on disk; live.js is JavaScript")
    func liveScriptInjected() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withServe(site, port: port, ["--watch"]) { _ in
            let page = try await raw("GET", "/", port: port)
            let text = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 200)
            #expect(text.contains("<script src=\"/_newsgen/live.js\" defer></script></head>"), "\(text.prefix(2000))")
            #expect(page.headers["content-length"] == String(page.body.count))
            let onDisk = try String(contentsOf: site.appendingPathComponent("public/index.html"), encoding: .utf8)
            #expect(text == onDisk.replacingOccurrences(of: "</head>", with: "<script src=\"/_newsgen/live.js\" defer></script></head>"),
                    "the served page is the published one plus the script tag")
            let head = try await raw("HEAD", "/", port: port)
            #expect(head.headers["content-length"] == String(page.body.count), "HEAD tells the length GET sends")
            let ranged = try await raw("GET", "/", port: port, headers: ["Range": "bytes=0-9"])
            #expect(ranged.status == 200 && ranged.body == page.body, "a page is served whole")
            let folder = try await raw("GET", "/sources/", port: port)
            #expect(String(decoding: folder.body, as: UTF8.self).contains("/_newsgen/live.js"), "a folder's index.html too")
            let feed = try await raw("GET", "/feeds/headlines.rss", port: port)
            #expect(feed.body == (try Data(contentsOf: site.appendingPathComponent("public/feeds/headlines.rss"))), "feeds are untouched")

            let script = try await raw("GET", "/_newsgen/live.js", port: port)
            #expect(script.status == 200)
            #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
            let source = String(decoding: script.body, as: UTF8.self)
            #expect(source.contains("new EventSource(\"/_newsgen/events\")"))
            #expect(source.contains("textContent") && !source.contains("innerHTML"))

            for (path, bytes) in try publishedFiles(below: site.appendingPathComponent("public")) {
                #expect(bytes.range(of: Data("_newsgen".utf8)) == nil, "\(path) holds a trace of serve --watch")
            }
        }
    }

    @Test("serve without --watch adds no script and has no event stream")
    func noLiveScriptWithoutWatch() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withServe(site, port: port) { _ in
            let page = try await raw("GET", "/", port: port)
            #expect(page.body == (try Data(contentsOf: site.appendingPathComponent("public/index.html"))))
            #expect(try await raw("GET", "/_newsgen/live.js", port: port).status == 404)
            #expect(try await raw("GET", "/_newsgen/events", port: port).status == 404)
        }
    }

    @Test("serve --watch: a reload event after a rebuild; a broken template's file:line as an error event and a 500 page")
    func liveReloadEvents() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withClient { client in
            try await withServe(site, port: port, ["--watch"]) { output in
                let (events, response) = try await EventStream.open(port: port, client: client)
                #expect(response.status == .ok)
                #expect(response.headers.first(name: "content-type") == "text/event-stream; charset=utf-8")
                let reader = Task { await events.read(response) }
                defer { reader.cancel() }
                #expect(try await waitUntil { output.text.contains("newsgen: watching ") }, "\(output.text)")

                try editWatched(site.appendingPathComponent("Samples/saved.json"), { $0 }, later: 5)
                #expect(try await waitUntil { events.text.contains("event: reload\ndata: rebuilt\n\n") }, "\(events.text)\n\(output.text)")

                let row = site.appendingPathComponent("Templates/row.mustache")
                try editWatched(row, { $0.replacingOccurrences(of: "</h{{level}}>", with: "</h2>") }, later: 10)
                #expect(try await waitUntil { events.text.contains("event: build-error\n") }, "\(events.text)\n\(output.text)")
                let error = try #require(events.text.split(separator: "event: build-error\n").last.map(String.init))
                #expect(error.contains(/data: .*Templates\/row\.mustache:5:\d+: <\/h2> closes <h\{\{level\}\}>/), "\(error)")

                let failed = try await raw("GET", "/", port: port)
                let page = String(decoding: failed.body, as: UTF8.self)
                #expect(failed.status == 500)
                #expect(failed.headers["content-type"] == "text/html; charset=utf-8")
                #expect(page.contains("row.mustache:5:"), "\(page)")
                #expect(page.contains("&lt;/h2&gt; closes &lt;h{{level}}&gt;"), "the error is escaped: \(page)")
                #expect(!page.contains("</h2> closes"), "\(page)")
                #expect(page.contains("<script src=\"/_newsgen/live.js\" defer></script>"), "the error page reloads once fixed")
                #expect(try await raw("GET", "/feeds/headlines.rss", port: port).status == 200, "only pages give way to the error page")

                let before = events.text.count
                try editWatched(row, { $0.replacingOccurrences(of: "</h2>", with: "</h{{level}}>") }, later: 15)
                #expect(try await waitUntil { events.text.dropFirst(before).contains("event: reload\n") }, "\(events.text)\n\(output.text)")
                #expect(try await raw("GET", "/", port: port).status == 200, "a good build serves the pages again")
            }
        }
    }

    @Test("serve --watch with an event stream open stops at SIGINT: the stream ends cleanly, exit status 0")
    func liveStreamEndsAtStop() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withClient { client in
            try await withServe(site, port: port, ["--watch"]) { output, process in
                let (events, response) = try await EventStream.open(port: port, client: client)
                let reader = Task { await events.read(response) }
                #expect(try await waitUntil { events.text.hasPrefix("retry: 1000\n\n") }, "\(events.text)")
                kill(process.processIdentifier, SIGINT)
                #expect(try await waitUntil { !process.isRunning }, "still running 30 s after SIGINT with a stream open: \(output.text)")
                await reader.value
                #expect(events.endedCleanly, "the stream ended with \(String(describing: events.error))")
                if !process.isRunning { #expect(process.terminationStatus == 0, "\(output.text)") }
            }
        }
    }
}
