import Foundation
import Hummingbird
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// The figures of BENCHMARKS.md's fetch section (issue 12), against real servers on 127.0.x.y.
/// Not part of the suite: `Scripts/bench-fetch` runs it (NEWSGEN_FETCH_BENCH=1) and prints
/// lines starting with `bench:`.
@Suite("Fetch benchmark", .enabled(if: ProcessInfo.processInfo.environment["NEWSGEN_FETCH_BENCH"] != nil))
struct FetchBenchmarkTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    static func stage(_ config: SiteConfig, http: HTTPFetcher, retry: RetryPolicy = .standard) async -> ([SourceReport], Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let reports = await FetchStage(config: config, providers: [FeedProvider(http: http, articlesPerSource: 10, retry: retry)],
                                       store: MemoryStore(), now: now, offline: false, refresh: false, logger: .silent).run()
        return (reports, (clock.now - start).seconds)
    }

    static func format(_ seconds: Double) -> String { String(format: "%.2f s", seconds) }

    static func hosts(_ third: Int, _ count: Int) -> [String] {
        (0..<count).map { "127.0.\(third + $0 / 250).\(1 + $0 % 250)" }
    }

    @Test("200 feed sources with 200 ms latency: on 200 hosts, and on one")
    func latency() async throws {
        let feed = try TestSupport.fixture("world.xml")
        let gauge = InFlightGauge()
        try await withTestServers(hosts: Self.hosts(1, 200), { router, host in
            router.get("feed") { _, _ in
                try await gauge.measure(host) {
                    try await Task.sleep(for: .milliseconds(200))
                    return Response.body(feed)
                }
            }
        }) { bases in
            try await withHTTPFetcher(timeout: .seconds(30)) { http in
                let sources = bases.enumerated().map { SourceConfig(id: "s\($0.offset)", kind: .feed(.remote($0.element.appendingPathComponent("feed")))) }
                let config = try NewsAPITestSupport.config(server: bases[0], sources: sources)
                let (reports, seconds) = await Self.stage(config, http: http)
                print("bench: 200 sources on 200 hosts, 200 ms latency: fetch stage \(Self.format(seconds)), \(reports.filter { $0.status == .fetched }.count) fetched, peak \(gauge.peakOverall) requests at once, \(gauge.peakPerHost) per host")
                let oneHost = (0..<200).map { SourceConfig(id: "t\($0)", kind: .feed(.remote(bases[0].appendingPathComponent("feed")))) }
                let (same, sameSeconds) = await Self.stage(try NewsAPITestSupport.config(server: bases[0], sources: oneHost), http: http)
                print("bench: 200 sources on 1 host, 200 ms latency: fetch stage \(Self.format(sameSeconds)), \(same.filter { $0.status == .fetched }.count) fetched, peak \(gauge.peakPerHost) per host")
            }
        }
    }

    @Test("16 sources on 8 silent hosts among 100 healthy ones on 50 hosts")
    func deadAmongHealthy() async throws {
        let feed = try TestSupport.fixture("world.xml")
        let served = ServedTimes()
        try await withTestServers(hosts: Self.hosts(3, 50), { router, _ in
            router.get("feed") { _, _ in
                try await Task.sleep(for: .milliseconds(200))
                served.mark()
                return Response.body(feed)
            }
        }) { bases in
            let healthy = (0..<100).map { SourceConfig(id: "ok\($0)", kind: .feed(.remote(bases[$0 % 50].appendingPathComponent("feed")))) }
            try await withHTTPFetcher(timeout: .seconds(30)) { http in
                served.start()
                let (_, alone) = await Self.stage(try NewsAPITestSupport.config(server: bases[0], sources: healthy), http: http)
                print("bench: 100 healthy sources alone: fetch stage \(Self.format(alone)), last served at \(Self.format(served.latest))")
                try await Self.withSilentServers(Self.hosts(5, 8)) { silent in
                    let dead = (0..<16).map { SourceConfig(id: "dead\($0)", kind: .feed(.remote(silent[$0 % 8].appendingPathComponent("feed")))) }
                    served.start()
                    let (reports, seconds) = await Self.stage(try NewsAPITestSupport.config(server: bases[0], sources: dead + healthy), http: http)
                    let fetched = reports.filter { $0.status == .fetched }.count
                    print("bench: 16 dead + 100 healthy (dead listed first): last healthy served at \(Self.format(served.latest)), \(fetched) fetched, fetch stage \(Self.format(seconds)) (30 s deadline)")
                }
            }
        }
    }

    static func withSilentServers<T>(_ hosts: [String], _ body: ([URL]) async throws -> T) async throws -> T {
        guard let host = hosts.first else { return try await body([]) }
        return try await withSilentServer(host: host) { url in
            try await withSilentServers(Array(hosts.dropFirst())) { try await body([url] + $0) }
        }
    }

    @Test("a server that trickles one byte a second for 5 minutes, and one that answers after 60 s")
    func slowServers() async throws {
        let feed = try TestSupport.fixture("world.xml")
        try await withTestServer({ router in
            router.get("trickle") { _, _ in Response.trickle(300, every: .seconds(1)) }
            router.get("late") { _, _ in
                try await Task.sleep(for: .seconds(60))
                return Response.body(feed)
            }
        }) { base in
            try await withHTTPFetcher(timeout: .seconds(30)) { http in
                for path in ["trickle", "late"] {
                    let config = try NewsAPITestSupport.config(server: base, sources: [SourceConfig(id: path, kind: .feed(.remote(base.appendingPathComponent(path))))])
                    let (reports, seconds) = await Self.stage(config, http: http)
                    print("bench: \(path): fetch stage \(Self.format(seconds)): \(reports.first?.status.error ?? "no error")")
                }
            }
        }
    }
}
