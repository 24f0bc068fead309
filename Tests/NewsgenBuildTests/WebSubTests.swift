import Foundation
import Hummingbird
import Logging
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// WebSub hubs on a loopback server: `/hub` accepts every ping (204), `/down` answers 503 until `downRecovers`, `/refuse`
/// answers 400. Each ping is kept with the hub's path and the form it sent.
final class LoopbackHubs: @unchecked Sendable {
    struct Ping: Sendable, Equatable {
        var hub: String
        var mode: String
        var feeds: Set<String>
    }

    private let lock = NSLock()
    private var _pings: [Ping] = []
    private var _downRecovers = false
    var pings: [Ping] { lock.withLock { _pings } }
    var downRecovers: Bool { get { lock.withLock { _downRecovers } } set { lock.withLock { _downRecovers = newValue } } }

    func pings(to hub: String) -> [Ping] { pings.filter { $0.hub == hub } }

    /// `a=1&b=2` read as a form: `+` a space, `%XX` a byte, a name may repeat.
    static func form(_ body: String) -> [(String, String)] {
        body.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    func routes(_ router: Router<BasicRequestContext>) {
        for hub in ["hub", "down", "refuse"] {
            router.post(RouterPath(stringLiteral: hub)) { request, _ in
                let body = try await request.body.collect(upTo: 1 << 20)
                let form = Self.form(String(buffer: body))
                let ping = Ping(hub: hub, mode: form.first { $0.0 == "hub.mode" }?.1 ?? "",
                                feeds: Set(form.filter { $0.0 == "hub.url" }.map(\.1)))
                let status: HTTPResponse.Status = self.lock.withLock {
                    self._pings.append(ping)
                    switch hub {
                    case "down": return self._downRecovers ? .noContent : .serviceUnavailable
                    case "refuse": return .badRequest
                    default: return .noContent
                    }
                }
                return Response(status: status)
            }
        }
    }
}

/// WebSub end to end: hub links in every feed, and the pings a build sends (or records) for exactly the feeds whose
/// bytes changed, through first build, nothing new, a new story, offline, failing hubs and `newsgen ping`.
@Suite("WebSub")
struct WebSubTests {
    static let start = TestSupport.date("2026-11-21T12:00:00Z")
    static let base = "https://news.example.org/"

    let folder: URL
    let hubs = LoopbackHubs()

    init() throws {
        folder = try TestSupport.temporaryFolder()
        try writeFeed(stories: 2)
    }

    var feedFile: URL { folder.appendingPathComponent("wire.xml") }
    var output: URL { folder.appendingPathComponent("public") }

    /// The wire's feed with `stories` items, the newest first.
    func writeFeed(stories: Int) throws {
        var xml = "<rss version=\"2.0\"><channel><title>Wire</title><link>https://wire.example/</link>"
        for number in (1...stories).reversed() {
            xml += "<item><title>Harbour report \(number)</title><link>https://wire.example/\(number)</link>"
            xml += "<description>Story \(number) of the wire.</description><category>Ports</category>"
            xml += "<pubDate>Sat, 21 Nov 2026 \(String(format: "%02d", number)):00:00 GMT</pubDate></item>"
        }
        try Data((xml + "</channel></rss>").utf8).write(to: feedFile)
    }

    func config(hubs: [URL], ping: String = "build") throws -> SiteConfig {
        let list = hubs.map { "\"\($0.absoluteString)\"" }.joined(separator: ", ")
        let json = """
            {"baseURL": "\(Self.base)", "timeoutSeconds": 60,
             "websub": {"hubs": [\(list)], "ping": "\(ping)"},
             "sources": [{"id": "wire", "name": "Wire", "category": "World", "feed": "wire.xml"}]}
            """
        return try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
    }

    func pings(_ config: SiteConfig, http: HTTPFetcher?, logger: Logger) throws -> WebSubPings {
        let settings = try #require(config.websub)
        return WebSubPings(settings: settings, baseURL: config.baseURL, cache: config.cache, http: http, timeout: .seconds(60), logger: logger)
    }

    /// One build as cron runs it: the record of what was published kept beside the cache, the hubs pinged over `http`
    /// (`nil`: offline).
    @discardableResult
    func build(_ config: SiteConfig, http: HTTPFetcher?, hour: Double = 0, full: Bool = false) async throws -> (BuildReport, LogRecorder) {
        let (logger, recorder) = TestSupport.recordingLogger()
        let report = try await TestBuild.run(config, options: .init(offline: http == nil, full: full), webSub: try pings(config, http: http, logger: logger),
                                             manifest: Manifest.location(cache: config.cache),
                                             at: Self.start.addingTimeInterval(hour * 3600), logger: logger)
        return (report, recorder)
    }

    /// Every published feed file's bytes, by its URL.
    func feeds() throws -> [String: Data] {
        var found: [String: Data] = [:]
        for (path, bytes) in try TestSupport.fileBytes(below: output)
        where path.hasPrefix("feeds/") && (path.hasSuffix(".rss") || path.hasSuffix(".atom") || path.hasSuffix(".json")) {
            found[Self.base + path] = bytes
        }
        return found
    }

    /// The feeds whose bytes differ between two snapshots, or that only `after` has.
    static func changed(_ before: [String: Data], _ after: [String: Data]) -> Set<String> {
        Set(after.filter { before[$0.key] != $0.value }.keys)
    }

    var pending: PendingPings {
        get throws { try PendingPings.load(from: PendingPings.location(cache: folder.appendingPathComponent(".newsgen/cache.sqlite"))) }
    }

    @Test("every RSS, Atom and JSON feed names each hub beside its self link, and passes the build's checks")
    func hubLinks() async throws {
        let hubs = [try #require(URL(string: "https://hub.example.net/")), try #require(URL(string: "https://websub.example.com/hub"))]
        let (report, _) = try await build(try config(hubs: hubs), http: nil)
        #expect(report.published)
        let feeds = try feeds()
        #expect(feeds.count >= 9, "headlines, the source and the category, in three formats: \(feeds.keys.sorted())")
        for (url, bytes) in feeds {
            let text = String(decoding: bytes, as: UTF8.self)
            if url.hasSuffix(".rss") {
                #expect(text.contains(#"<atom:link href="https://hub.example.net/" rel="hub"/>"#) && text.contains(#"<atom:link href="https://websub.example.com/hub" rel="hub"/>"#), "\(url)")
            } else if url.hasSuffix(".atom") {
                #expect(text.contains(#"<link rel="hub" href="https://hub.example.net/"/>"#) && text.contains(#"<link rel="hub" href="https://websub.example.com/hub"/>"#), "\(url)")
            } else {
                let json = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
                let listed = try #require(json["hubs"] as? [[String: String]], "\(url)")
                #expect(listed == [["type": "WebSub", "url": "https://hub.example.net/"], ["type": "WebSub", "url": "https://websub.example.com/hub"]])
            }
        }
    }

    @Test("a build pings for exactly the feeds whose bytes changed: all at first, none when nothing is new, those a new story changed; offline records them for later")
    func pingsFollowChanges() async throws {
        let hubs = self.hubs
        try await withTestServer(hubs.routes) { server in
            let config = try config(hubs: [server.appendingPathComponent("hub")])
            try await withHTTPFetcher(timeout: .seconds(60)) { http in
                try await build(config, http: http)
                let first = try feeds()
                #expect(hubs.pings == [.init(hub: "hub", mode: "publish", feeds: Set(first.keys))], "the first build: every feed, in one ping")

                let (quiet, _) = try await build(config, http: http, hour: 1)
                #expect(!quiet.published && hubs.pings.count == 1, "nothing new: nothing published, nothing sent")
                let (full, _) = try await build(config, http: http, hour: 1, full: true)
                #expect(full.published && hubs.pings.count == 1, "--full renders every feed again, with the same bytes: nothing sent")

                try writeFeed(stories: 3)
                try await build(config, http: http, hour: 2)
                let second = try feeds()
                let changed = Self.changed(first, second)
                #expect(!changed.isEmpty && changed.count < second.count, "a new story changes some feeds, not all: \(changed.sorted())")
                #expect(hubs.pings.count == 2 && hubs.pings.last?.feeds == changed, "\(hubs.pings.last?.feeds.sorted() ?? [])")
                #expect(try pending.isEmpty, "an accepted ping leaves nothing pending")

                try writeFeed(stories: 4)
                try await build(config, http: nil, hour: 3)
                let third = try feeds()
                #expect(hubs.pings.count == 2, "offline: nothing sent")
                #expect(Set(try pending.feeds[server.appendingPathComponent("hub").absoluteString] ?? []) == Self.changed(second, third))

                let (logger, _) = TestSupport.recordingLogger()
                let report = try await pings(config, http: http, logger: logger).pingPending()
                #expect(report.failed.isEmpty && hubs.pings.count == 3 && hubs.pings.last?.feeds == Self.changed(second, third),
                        "`newsgen ping` sends what the offline build recorded")
                _ = try await pings(config, http: http, logger: logger).pingPending()
                let left = try pending
                #expect(hubs.pings.count == 3 && left.isEmpty, "and never twice")
            }
        }
    }

    @Test("a failing hub is one warning line and one retry, never a failed build; its feeds wait for the next build, the other hub is told")
    func failingHub() async throws {
        let hubs = self.hubs
        let refusing = try TestSupport.refusingPort()
        defer { close(refusing.socket) }
        try await withTestServer(hubs.routes) { server in
            let closed = try #require(URL(string: "http://127.0.0.1:\(refusing.port)/hub"))
            let (down, good, refuse) = (server.appendingPathComponent("down"), server.appendingPathComponent("hub"), server.appendingPathComponent("refuse"))
            let config = try config(hubs: [down, good, refuse, closed])
            try await withHTTPFetcher(timeout: .seconds(60)) { http in
                let (report, log) = try await build(config, http: http)
                #expect(report.published && report.exitStatus == 0, "the hubs do not change the build's outcome")
                #expect(hubs.pings(to: "down").count == 2, "a 503 is asked once more")
                #expect(hubs.pings(to: "refuse").count == 1, "a 400 is not asked again")
                #expect(hubs.pings(to: "hub").count == 1)
                let warnings = log.warnings.filter { $0.contains("WebSub hub") }
                #expect(warnings.count == 3, "one line per failing hub: \(warnings)")
                #expect(warnings.contains { $0.contains(down.absoluteString) && $0.contains("answered 503") })
                #expect(warnings.contains { $0.contains(closed.absoluteString) })
                let first = try feeds()
                #expect(Set(try pending.feeds[down.absoluteString] ?? []) == Set(first.keys))
                #expect(try pending.feeds[good.absoluteString] == nil)

                hubs.downRecovers = true
                try writeFeed(stories: 3)
                try await build(config, http: http, hour: 1)
                let changed = Self.changed(first, try feeds())
                #expect(hubs.pings(to: "down").last?.feeds == Set(first.keys), "the next build sends what waited, with what changed since")
                #expect(hubs.pings(to: "hub").last?.feeds == changed)
                #expect(try pending.feeds[down.absoluteString] == nil)
            }
        }
    }

    @Test("with \"ping\": \"manual\" a build records the changed feeds and sends nothing; `newsgen ping` sends them once")
    func manual() async throws {
        let hubs = self.hubs
        try await withTestServer(hubs.routes) { server in
            let config = try config(hubs: [server.appendingPathComponent("hub")], ping: "manual")
            try await withHTTPFetcher(timeout: .seconds(60)) { http in
                let (_, log) = try await build(config, http: http)
                #expect(hubs.pings.isEmpty)
                #expect(log.all.contains { $0.contains("recorded for the hubs") })
                let (logger, _) = TestSupport.recordingLogger()
                let report = try await pings(config, http: http, logger: logger).pingPending()
                let published = Set(try feeds().keys)
                #expect(report.accepted.count == 1 && hubs.pings.count == 1 && hubs.pings.first?.feeds == published)
                _ = try await pings(config, http: http, logger: logger).pingPending()
                #expect(hubs.pings.count == 1)
            }
        }
    }

    @Test("the form a hub receives: hub.mode=publish, then hub.url once for each feed, escaped")
    func form() {
        let body = HTTPFetcher.formEncoded([("hub.mode", "publish"), ("hub.url", "https://a.example/feeds/x y.rss?q=1&r=ü"), ("hub.url", "https://a.example/b")])
        #expect(body == "hub.mode=publish&hub.url=https%3A%2F%2Fa.example%2Ffeeds%2Fx+y.rss%3Fq%3D1%26r%3D%C3%BC&hub.url=https%3A%2F%2Fa.example%2Fb")
    }
}
