import AsyncHTTPClient
import Foundation
import Hummingbird
import Testing
@testable import NewsgenModel
@testable import NewsgenFetch
import NewsgenTestSupport

/// Backoff, jitter, Retry-After and the bounds on attempts and time.
@Suite("Retry policy")
struct RetryPolicyTests {
    func policy(attempts: Int = 4, budget: Duration = .seconds(60), jitter: Double = 0, random: Double = 0.5, sleeps: SleepLog) -> RetryPolicy {
        RetryPolicy(
            attempts: attempts, baseDelay: .seconds(1), maxDelay: .seconds(5), budget: budget, jitter: jitter,
            sleep: { sleeps.append($0) }, random: { random }, now: { TestSupport.date("2026-11-21T12:00:00Z") }
        )
    }

    @Test("backoff doubles from the base delay and stops at the maximum; jitter only shortens it")
    func backoff() {
        let plain = policy(sleeps: SleepLog())
        #expect((1...5).map(plain.backoff(beforeRetry:)) == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
        let jittered = policy(jitter: 0.5, random: 0.5, sleeps: SleepLog())
        #expect(jittered.backoff(beforeRetry: 2) == .milliseconds(1500))
        let most = policy(jitter: 0.5, random: 0.999, sleeps: SleepLog())
        #expect(most.backoff(beforeRetry: 1) > .milliseconds(500) && most.backoff(beforeRetry: 1) <= .seconds(1))
    }

    @Test("Retry-After in seconds or as an HTTP date")
    func retryAfter() {
        let now = TestSupport.date("2026-11-21T12:00:00Z")
        #expect(RetryPolicy.retryAfter("120", now: now) == .seconds(120))
        #expect(RetryPolicy.retryAfter(" 0 ", now: now) == .zero)
        #expect(RetryPolicy.retryAfter("Sat, 21 Nov 2026 12:00:30 GMT", now: now) == .seconds(30))
        #expect(RetryPolicy.retryAfter("Sat, 21 Nov 2026 11:00:00 GMT", now: now) == .zero, "a date in the past: no wait")
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfter("-5", now: now) == nil)
        #expect(RetryPolicy.retryAfter(nil, now: now) == nil)
    }

    @Test("retries until done, at most `attempts` times, waiting the larger of backoff and Retry-After")
    func attempts() async {
        let sleeps = SleepLog()
        let (result, attempts) = await policy(attempts: 4, sleeps: sleeps).run { attempt in
            attempt
        } verdict: { attempt in
            attempt == 2 ? .retry(after: .seconds(3)) : .retry(after: nil)
        }
        #expect(result == 4)
        #expect(attempts == 4)
        #expect(sleeps.all == [.seconds(1), .seconds(3), .seconds(4)])

        let stops = SleepLog()
        let (done, count) = await policy(sleeps: stops).run { $0 } verdict: { $0 == 2 ? .done : .retry(after: nil) }
        #expect(done == 2 && count == 2)
        #expect(stops.all == [.seconds(1)])
    }

    @Test("no wait past the time budget: a Retry-After beyond it ends the retries at once")
    func budget() async {
        let sleeps = SleepLog()
        let (_, attempts) = await policy(budget: .seconds(30), sleeps: sleeps).run { $0 } verdict: { _ in .retry(after: .seconds(3600)) }
        #expect(attempts == 1)
        #expect(sleeps.all.isEmpty)

        // With real (short) waits, the clock runs: 2 or 3 tries fit in 250 ms (3 unless the
        // machine is slow), not the 10 allowed.
        let real = RetryPolicy(attempts: 10, baseDelay: .milliseconds(100), maxDelay: .milliseconds(100), budget: .milliseconds(250), jitter: 0)
        let (_, made) = await real.run { $0 } verdict: { _ in .retry(after: nil) }
        #expect((2...3).contains(made), "\(made)")
    }

    @Test("feeds: a 503 then the feed, when the build asks for retries (newsgen build does)")
    func feedRetry() async throws {
        let log = RequestLog()
        let feed = try TestSupport.fixture("world.xml")
        try await withTestServer({ router in
            router.get("feed.xml") { request, _ in
                log.record(request)
                var response = log.count == 1 ? Response(status: .serviceUnavailable) : Response.body(feed)
                if log.count == 1 { response.headers[.retryAfter] = "1" }
                return response
            }
        }) { server in
            let sleeps = SleepLog()
            // The waits are recorded, not slept; the budget is out of reach however slow the
            // machine is (it is the real clock's: a first attempt past it would not be retried).
            let retry = RetryPolicy(attempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(40), budget: .seconds(3600), jitter: 0, sleep: { sleeps.append($0) })
            let source = SourceConfig(id: "world", kind: .feed(.remote(server.appendingPathComponent("feed.xml"))))
            try await withHTTPFetcher { fetcher in
                let outcome = try await FeedProvider(http: fetcher, articlesPerSource: 10, retry: retry).fetch(FetchRequest(source: source))
                #expect(outcome.content?.articles.count == 8)
            }
            #expect(log.count == 2)
            #expect(sleeps.all == [.seconds(1)])
        }
    }

    /// AsyncHTTPClient keeps trying a refused connection until the request's deadline, so a
    /// closed port fails after the fetcher's timeout (1 s here), each attempt.
    @Test("a connection failure is retried, and the error says how often it was tried")
    func connectionFailure() async throws {
        let sleeps = SleepLog()
        // A budget no loaded machine exhausts (each attempt has taken over 30 s beside two compilers): exactly 3 attempts.
        let retry = RetryPolicy(attempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(40), budget: .seconds(3600), jitter: 0, sleep: { sleeps.append($0) })
        let source = SourceConfig(id: "closed", kind: .feed(.remote(URL(string: "http://127.0.0.1:9/feed.xml")!)))
        _ = try await withHTTPFetcher(timeout: .seconds(1)) { fetcher in
            await #expect {
                try await FeedProvider(http: fetcher, articlesPerSource: 10, retry: retry).fetch(FetchRequest(source: source))
            } throws: { error in
                (error as? SourceError)?.message.hasSuffix("(3 attempts)") == true
            }
        }
        #expect(sleeps.all == [.milliseconds(10), .milliseconds(20)])
    }

    @Test("every HTTP source retries by the same default: three attempts, 1 s and 2 s apart")
    func oneDefault() throws {
        let config = try NewsAPITestSupport.config(server: URL(string: "http://127.0.0.1:9")!, sources: [])
        let client = HTTPFetcher(client: HTTPClient.shared)
        let policies = [
            FeedProvider(http: nil, articlesPerSource: 10).retry,
            JSONNewsProvider(http: nil, articlesPerSource: 10).retry,
            NewsAPIClient(baseURL: config.newsapi.baseURL, key: try #require(APIKey(environment: ["K": "k"], variable: "K")), keyVariable: "K", http: client).retry,
        ]
        for policy in policies {
            #expect(policy.attempts == 3)
            #expect(policy.baseDelay == .seconds(1))
            #expect(policy.budget == RetryPolicy.standard.budget)
        }
    }

    @Test("every HTTP source logs its retries alike: what failed, where, the wait, the attempt", arguments: ["feed", "json", "newsapi"])
    func retriesLogged(kind: String) async throws {
        let log = RequestLog()
        let feed = try TestSupport.fixture("world.xml")
        let headlines = try NewsAPITestSupport.fixture("top-headlines.json")
        let news = Data(#"{"status": "ok", "news": []}"#.utf8)
        try await withTestServer({ router in
            for (path, body) in [("feed.xml", feed), ("news", news), ("v2/top-headlines", headlines)] {
                router.get(RouterPath(path)) { request, _ in
                    log.record(request)
                    return log.all.filter { $0.path == request.uri.path }.count == 1 ? Response(status: .serviceUnavailable) : Response.body(body)
                }
            }
        }) { server in
            let (logger, recorder) = TestSupport.recordingLogger()
            let sleeps = SleepLog()
            let retry = RetryPolicy.fast(sleeps: sleeps)
            let config = try NewsAPITestSupport.config(server: server, sources: [])
            let source = switch kind {
            case "feed": SourceConfig(id: "world", kind: .feed(.remote(server.appendingPathComponent("feed.xml"))))
            case "json": SourceConfig(id: "world", kind: .json(.remote(server.appendingPathComponent("news"))))
            default: SourceConfig(id: "world", kind: .newsapi(.topHeadlines(["country": "us"])))
            }
            try await withHTTPFetcher(followRedirects: kind != "newsapi") { fetcher in
                let provider: any SourceProvider = switch kind {
                case "feed": FeedProvider(http: fetcher, articlesPerSource: 10, retry: retry, logger: logger)
                case "json": JSONNewsProvider(http: fetcher, articlesPerSource: 10, retry: retry, logger: logger)
                default: NewsAPIProvider(config: config, http: fetcher, environment: NewsAPITestSupport.environment, retry: retry, logger: logger)
                }
                _ = try await provider.fetch(FetchRequest(source: source))
            }
            #expect(log.count == 2)
            #expect(sleeps.all == [.milliseconds(10)])
            #expect(recorder.all == ["source \"world\": HTTP 503 from 127.0.0.1; retrying in 0.0 s (attempt 2 of 3)"])
        }
    }
}
