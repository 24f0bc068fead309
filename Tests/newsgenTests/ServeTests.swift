import Foundation
#if canImport(Glibc)
import Glibc
#endif
import NewsgenTestSupport
import Testing

/// `newsgen serve` as a person previews a site with it: methods, content types, a busy port, --watch.
extension CLITests {
    /// What a running `newsgen serve` wrote on stderr so far, read as it comes.
    final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    /// One HTTP/1.1 exchange over a plain socket, so that a HEAD answer's bytes are seen exactly:
    /// the status line, the headers (names lowercased) and every byte after them.
    struct RawResponse {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    static func raw(_ method: String, _ path: String, port: Int, headers: [String: String] = [:]) throws -> RawResponse {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw CocoaError(.fileReadUnknown) }
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        let request = Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(extra)Content-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        let separator = Data("\r\n\r\n".utf8)
        let end = try #require(received.range(of: separator), "no complete head: \(String(decoding: received, as: UTF8.self))")
        let lines = String(decoding: received[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RawResponse(status: status, headers: headers, body: received[end.upperBound...])
    }

    func raw(_ method: String, _ path: String, port: Int, headers: [String: String] = [:]) async throws -> RawResponse {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try Self.raw(method, path, port: port, headers: headers) }) }
        }
    }

    /// Runs `newsgen serve` in `site` on `port` until `body` returns.
    func withServe(_ site: URL, port: Int, _ extra: [String] = [], _ body: (Output) async throws -> Void) async throws {
        try await withServe(site, port: port, extra) { output, _ in try await body(output) }
    }

    /// Runs `newsgen serve` in `site` on `port` until `body` returns; `body` may signal the process.
    func withServe(_ site: URL, port: Int, _ extra: [String] = [], _ body: (Output, Process) async throws -> Void) async throws {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", "--port", String(port), "--offline"] + extra
        process.currentDirectoryURL = site
        let output = Output()
        let err = Pipe()
        err.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            err.fileHandleForReading.readabilityHandler = nil
        }
        var ready = false
        for _ in 0..<600 where !ready {
            try await Task.sleep(for: .milliseconds(200))
            ready = output.text.contains("serving ")
        }
        try #require(ready, "the server did not come up: \(output.text)")
        try await body(output, process)
    }

    @Test("the ports the serve tests listen on: free, each another, none the kernel picks for port 0")
    func serverPorts() throws {
        let range = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        let ephemeral = try #require(range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) })
        // Each listening at once, so that each is known free for a server (a port given and
        // closed, then listened on again, can meanwhile be taken by anything on the machine).
        let listeners = try (0..<20).map { _ in try TestSupport.serverSocket(listen: 1) }
        defer { listeners.forEach { close($0.socket) } }
        let ports = listeners.map(\.port)
        #expect(Set(ports).count == ports.count, "\(ports)")
        #expect(ports.allSatisfy { $0 < ephemeral }, "\(ports) against the ephemeral range from \(ephemeral)")
        // And `serverPort` never gives again a port it gave in this process.
        let more = try (0..<20).map { _ in try TestSupport.serverPort() }
        #expect(Set(ports + more).count == ports.count + more.count, "\(ports) then \(more)")
    }

    @Test("serve: HEAD answers as GET without the body; other methods get 405 and Allow")
    func serveMethods() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withServe(site, port: port) { _ in
            for path in ["/", "/feeds/headlines.rss", "/feeds/headlines.json", "/nowhere"] {
                let get = try await raw("GET", path, port: port)
                let head = try await raw("HEAD", path, port: port)
                #expect(head.status == get.status, "\(path)")
                #expect(head.headers["content-type"] == get.headers["content-type"], "\(path)")
                #expect(head.headers["content-length"] == String(get.body.count), "\(path): HEAD tells the length GET sends")
                #expect(head.body.isEmpty, "\(path): HEAD has no body")
            }
            #expect(try await raw("GET", "/", port: port).status == 200)
            for method in ["POST", "PUT", "DELETE", "PATCH"] {
                for path in ["/", "/index.html", "/nowhere"] {
                    let answer = try await raw(method, path, port: port)
                    #expect(answer.status == 405, "\(method) \(path)")
                    #expect(answer.headers["allow"] == "GET, HEAD", "\(method) \(path)")
                }
            }
        }
    }

    @Test("serve: JSON Feeds are application/feed+json; other JSON stays application/json")
    func serveJSONFeed() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withServe(site, port: port) { _ in
            let headlines = try await raw("GET", "/feeds/headlines.json", port: port)
            let source = try await raw("GET", "/feeds/sources/meridian-world.json", port: port)
            let search = try await raw("GET", "/search/manifest.json", port: port)
            #expect(headlines.headers["content-type"] == "application/feed+json; charset=utf-8")
            #expect(source.headers["content-type"] == "application/feed+json; charset=utf-8")
            #expect(search.status == 200)
            #expect(search.headers["content-type"] == "application/json; charset=utf-8")
        }
    }

    @Test("serve: a folder asked for without its slash redirects to the folder, keeping the query as written")
    func serveFolderRedirectKeepsQuery() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withServe(site, port: port) { _ in
            let cases = [
                ("/search?q=harbour", "/search/?q=harbour"),
                ("/search?q=caf%C3%A9+bar&page=2", "/search/?q=caf%C3%A9+bar&page=2"),
                ("/search", "/search/"),
                ("/archive?", "/archive/"),
            ]
            for (asked, location) in cases {
                let answer = try await raw("GET", asked, port: port)
                #expect(answer.status == 301, "\(asked)")
                #expect(answer.headers["location"] == location, "\(asked)")
            }
            let followed = try await raw("GET", "/search/?q=harbour", port: port)
            #expect(followed.status == 200)
            #expect(followed.headers["content-type"] == "text/html; charset=utf-8")
        }
    }

    @Test("serve on a port in use: one error line naming the port, exit 1, no build")
    func servePortInUse() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withServe(site, port: port) { _ in
            let second = try await newsgen(["serve", "--port", String(port), "--offline"], in: site)
            #expect(second.status == 1)
            #expect(second.stderr == "newsgen: error: port \(port) is in use on 127.0.0.1 (stop what listens there, or choose another with --port)\n")
        }
    }

    @Test("serve --watch: a change is rebuilt and reported as information, not as a warning")
    func serveWatch() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withServe(site, port: port, ["--watch"]) { output in
            #expect(try await waitUntil { output.text.contains("newsgen: watching ") }, "\(output.text)")
            let feed = site.appendingPathComponent("Samples/feeds/world.xml")
            let text = try String(contentsOf: feed, encoding: .utf8)
            try text.write(to: feed, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: feed.path)
            #expect(try await waitUntil { output.text.contains("newsgen: rebuilt in ") }, "\(output.text)")
            #expect(output.text.contains("newsgen: Samples/feeds/world.xml changed; rebuilding\n"), "\(output.text)")
            #expect(!output.text.contains("warning"), "\(output.text)")
        }
    }

    @Test("serve --watch: a failed rebuild says it failed and that the last good site is still served, never 'rebuilt'")
    func serveWatchFailedRebuild() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withServe(site, port: port, ["--watch"]) { output in
            #expect(try await waitUntil { output.text.contains("newsgen: watching ") }, "\(output.text)")
            let feed = try await raw("GET", "/feeds/headlines.rss", port: port)
            let config = site.appendingPathComponent("site.json")
            try editWatched(config, { $0.replacingOccurrences(of: #""output""#, with: #""titel": "x", "output""#) }, later: 5)
            #expect(try await waitUntil { output.text.contains("newsgen: rebuild failed after ") }, "\(output.text)")
            let lines = output.text.split(separator: "\n").map(String.init)
            let failed = try #require(lines.firstIndex { $0.hasPrefix("newsgen: rebuild failed after ") })
            let match = try #require(lines[failed].wholeMatch(of: /newsgen: rebuild failed after \d+\.\d\d s \(see the error above\); still serving the last good site from (.+), its pages showing the error until a rebuild succeeds/), "\(lines[failed])")
            let served = String(match.1)
            #expect([site.appendingPathComponent("public").path, site.resolvingSymlinksInPath().appendingPathComponent("public").path].contains(served), "\(served)")
            #expect(lines[failed - 1].hasPrefix("newsgen: error: site.json:6:3: titel: unknown key; did you mean title?"), "\(output.text)")
            #expect(!output.text.contains("rebuilt"), "\(output.text)")
            let still = try await raw("GET", "/feeds/headlines.rss", port: port)
            #expect(still.status == 200)
            #expect(still.body == feed.body, "the last good site's files")

            try editWatched(config, { $0.replacingOccurrences(of: #""titel": "x", "#, with: "") }, later: 10)
            #expect(try await waitUntil { output.text.contains("newsgen: rebuilt in ") }, "\(output.text)")
            #expect(output.text.contains(/\nnewsgen: rebuilt in \d+\.\d\d s\n/), "\(output.text)")
        }
    }

    @Test("serve: a page asked for again with its ETag answers 304 Not Modified, without the page")
    func serveConditionalGet() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withServe(site, port: port) { _ in
            for path in ["/", "/feeds/headlines.rss"] {
                let first = try await raw("GET", path, port: port)
                #expect(first.status == 200, "\(path)")
                let etag = try #require(first.headers["etag"], "\(path): no ETag")
                #expect(first.headers["last-modified"] != nil, "\(path)")
                let again = try await raw("GET", path, port: port, headers: ["If-None-Match": etag])
                #expect(again.status == 304, "\(path)")
                #expect(again.body.isEmpty, "\(path)")
                #expect(again.headers["etag"] == etag, "\(path)")
                let stale = try await raw("GET", path, port: port, headers: ["If-None-Match": "W/\"0\""])
                #expect(stale.status == 200, "\(path): another ETag gets the file")
                #expect(stale.body == first.body, "\(path)")
            }
        }
    }

    @Test("serve: a Range request answers 206 with those bytes of the file and its Content-Range")
    func serveRange() async throws {
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withServe(site, port: port) { _ in
            let path = "/feeds/headlines.rss"
            let onDisk = try Data(contentsOf: site.appendingPathComponent("public" + path))
            try #require(onDisk.count > 100)
            let whole = try await raw("GET", path, port: port)
            #expect(whole.body == onDisk)
            #expect(whole.headers["accept-ranges"] == "bytes")
            let part = try await raw("GET", path, port: port, headers: ["Range": "bytes=10-49"])
            #expect(part.status == 206)
            #expect(part.body == onDisk[10...49])
            #expect(part.headers["content-range"] == "bytes 10-49/\(onDisk.count)")
            #expect(part.headers["content-length"] == "40")
            #expect(part.headers["content-type"] == "application/rss+xml; charset=utf-8")
            let tail = try await raw("GET", path, port: port, headers: ["Range": "bytes=\(onDisk.count - 5)-"])
            #expect(tail.status == 206)
            #expect(tail.body == onDisk.suffix(5))
        }
    }

    @Test("serve --watch stops at SIGINT or SIGTERM: the watcher ends with the server, exit status 0")
    func serveWatchStops() async throws {
        for signal in [SIGINT, SIGTERM] {
            let site = try sampleSite()
            let port = try TestSupport.serverPort()
            try await withServe(site, port: port, ["--watch"]) { output, process in
                kill(process.processIdentifier, signal)
                var stopped = false
                for _ in 0..<300 where !stopped {
                    try await Task.sleep(for: .milliseconds(100))
                    stopped = !process.isRunning
                }
                #expect(stopped, "signal \(signal): still running after 30 s: \(output.text)")
                if stopped { #expect(process.terminationStatus == 0, "signal \(signal): \(output.text)") }
            }
        }
    }
}
