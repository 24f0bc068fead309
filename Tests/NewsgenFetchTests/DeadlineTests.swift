import Foundation
import Hummingbird
import Testing
@testable import NewsgenModel
@testable import NewsgenFetch
import NewsgenTestSupport

/// Each request ends at its total deadline, however the server misbehaves: tested against
/// silent, trickling and slow servers on the loopback interface.
@Suite("Request deadlines")
struct DeadlineTests {
    static func source(_ url: URL) -> SourceConfig {
        SourceConfig(id: "slow", kind: .feed(.remote(url)))
    }

    /// What a request cut off at its deadline may take at most here, in seconds: the deadline on an idle machine, over a
    /// minute with the rest of the suite on two busy cores; what it rules out (a server that never ends) takes longer.
    static let bound = 600.0

    /// Fetches `url` as a feed source; returns the error and the seconds it took.
    static func failure(_ url: URL, fetcherTimeout: Duration = .seconds(3600), requestTimeout: Duration?,
                        retry: RetryPolicy = .none) async throws -> (SourceError?, Double) {
        try await withHTTPFetcher(timeout: fetcherTimeout) { fetcher in
            let provider = FeedProvider(http: fetcher, articlesPerSource: 10, retry: retry)
            let clock = ContinuousClock()
            let start = clock.now
            do throws(SourceError) {
                _ = try await provider.fetch(FetchRequest(source: source(url), timeout: requestTimeout))
                return (nil, (clock.now - start).seconds)
            } catch {
                return (error, (clock.now - start).seconds)
            }
        }
    }

    @Test("a server that sends one byte a second is cut off at the deadline, body included")
    func trickle() async throws {
        try await withTestServer({ router in
            router.get("feed") { _, _ in Response.trickle(3600, every: .seconds(1)) }
        }) { base in
            let (error, seconds) = try await Self.failure(base.appendingPathComponent("feed"), requestTimeout: .seconds(1))
            #expect(error == .transport(.timedOut(seconds: 1)))
            #expect(error?.message == "no complete answer within 1 s")
            #expect(seconds < Self.bound, "took \(seconds) s; the server trickles for an hour")
        }
    }

    @Test("a server that accepts the connection and never answers is cut off at the deadline")
    func silent() async throws {
        try await withSilentServer { base in
            let (error, seconds) = try await Self.failure(base.appendingPathComponent("feed"), requestTimeout: .milliseconds(1500))
            #expect(error == .transport(.timedOut(seconds: 1.5)))
            #expect(error?.message == "no complete answer within 1.5 s")
            #expect(seconds >= 1.4 && seconds < Self.bound, "took \(seconds) s; the server never answers")
        }
    }

    @Test("without a timeout of its own, a request has the fetcher's")
    func fetcherDefault() async throws {
        try await withSilentServer { base in
            let (error, seconds) = try await Self.failure(base, fetcherTimeout: .seconds(1), requestTimeout: nil)
            #expect(error?.message == "no complete answer within 1 s")
            #expect(seconds < Self.bound, "took \(seconds) s; the server never answers")
        }
    }

    @Test("a retry's deadline is what is left of the retry budget: one deadline plus the retry's share, not one per attempt")
    func retryDeadline() {
        let policy = RetryPolicy.standard
        #expect(policy.deadline(forAttempt: 1, elapsed: .zero, timeout: .seconds(30)) == .seconds(30))
        #expect(policy.deadline(forAttempt: 2, elapsed: .seconds(31), timeout: .seconds(30)) == .seconds(14))
        #expect(policy.deadline(forAttempt: 2, elapsed: .seconds(2), timeout: .seconds(5)) == .seconds(5))
        #expect(policy.deadline(forAttempt: 3, elapsed: .seconds(45), timeout: .seconds(30)) == .milliseconds(100))
    }

    @Test("a server that never answers, retried: the error names the deadline and the attempts, each attempt waiting its own deadline")
    func silentRetried() async throws {
        try await withSilentServer { base in
            // Deadline 2 s, a budget no loaded machine exhausts: exactly two attempts of 2 s each.
            // (How a retry's deadline shrinks to the budget's rest: `retryDeadline`.)
            let retry = RetryPolicy(attempts: 2, baseDelay: .milliseconds(100), maxDelay: .milliseconds(100), budget: .seconds(3600), jitter: 0)
            let (error, seconds) = try await Self.failure(base, requestTimeout: .seconds(2), retry: retry)
            #expect(error == .transport(.timedOut(seconds: 2), attempts: 2), "\(String(describing: error))")
            #expect(error?.message == "no complete answer within 2 s (2 attempts)", "\(String(describing: error?.message))")
            #expect(seconds >= 3.9, "took \(seconds) s: two deadlines of 2 s")
            #expect(seconds < Self.bound, "took \(seconds) s; the server never answers")
        }
    }

    @Test("at most two connections to one host at a time, and the others wait their turn")
    func twoConnectionsPerHost() async throws {
        let (failures, peak) = try await sixFetchesOnOneHost()
        #expect(failures.isEmpty, "\(failures)")
        #expect(peak == 2)
    }

    /// Six sources of one host fetched at once, each answer 300 ms: the fetches that failed, and
    /// the most requests the host had in flight at once. The fetch stage starts at most two sources
    /// a host, so here four wait in the pool of newsgen's own client, whose wait ends at its
    /// connect timeout: 300 s here, not 10 s, so that a loaded machine cannot end it.
    func sixFetchesOnOneHost() async throws -> (failures: [String], peak: Int) {
        let feed = try TestSupport.fixture("world.xml")
        let gauge = InFlightGauge()
        let failures = try await withTestServer({ router in
            router.get("feed/:n") { _, _ in
                try await gauge.measure("127.0.0.1") {
                    try await Task.sleep(for: .milliseconds(300))
                    return Response.body(feed)
                }
            }
        }) { base in
            let client = HTTPFetcher.makeClient(connecting: .seconds(300))
            let provider = FeedProvider(http: HTTPFetcher(client: client, timeout: .seconds(300)), articlesPerSource: 10, retry: .none)
            let failures = await withTaskGroup(of: String?.self) { group in
                for n in 0..<6 {
                    let source = SourceConfig(id: "s\(n)", kind: .feed(.remote(base.appendingPathComponent("feed/\(n)"))))
                    group.addTask {
                        do throws(SourceError) {
                            return try await provider.fetch(FetchRequest(source: source)).content == nil ? "s\(n): no content" : nil
                        } catch {
                            return "s\(n): \(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
            }
            try await client.shutdown()
            return failures
        }
        return (failures, gauge.peakPerHost)
    }
}
