import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// The fetch rules (refresh interval, `--offline`, maxCacheAgeDays, a provider that cannot work)
/// as a table: a source's stored state, the clock and the options in, the decision out.
@Suite("Fetch decision")
struct FetchDecisionTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")
    static let feed = SourceConfig(id: "hn", kind: .feed(.remote(URL(string: "https://example.com/feed.xml")!)))
    static let localFeed = SourceConfig(id: "local", kind: .feed(.file(URL(fileURLWithPath: "/tmp/local.xml"))))
    static let newsapi = SourceConfig(id: "bbc", kind: .newsapi(.source("bbc-news")))
    static let slowFeed = SourceConfig(id: "slow", kind: .feed(.remote(URL(string: "https://example.com/slow.xml")!)), refreshMinutes: 120)
    static let noKey = ProviderUnavailable(reason: "NEWS_API_KEY is not set", kind: "NewsAPI")

    static func ago(minutes: Double = 0, days: Double = 0) -> Date {
        now.addingTimeInterval(-(minutes * 60 + days * 86_400))
    }

    /// A state as the store keeps it after these events.
    static func state(attempt: Date? = nil, success: Date? = nil, error: String? = nil, failingSince: Date? = nil) -> SourceState {
        var state = SourceState()
        state.lastAttempt = attempt ?? success
        state.lastSuccess = success
        state.lastError = error
        state.failingSince = failingSince
        state.etag = success == nil ? nil : "\"v1\""
        state.lastModified = success == nil ? nil : "Fri, 20 Nov 2026 08:00:00 GMT"
        return state
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var source: SourceConfig = FetchDecisionTests.feed
        var state: SourceState?
        var offline = false
        var refresh = false
        var provider: FetchDecision.Provider = .ready
        var expected: FetchDecision

        var testDescription: String { name }
    }

    static let validators = FetchDecision.fetch(etag: "\"v1\"", lastModified: "Fri, 20 Nov 2026 08:00:00 GMT")

    static let cases: [Case] = [
        // Online.
        Case(name: "never fetched: fetched, unconditionally", state: nil, expected: .fetch(etag: nil, lastModified: nil)),
        Case(name: "last attempt past the refresh interval: a conditional GET",
             state: state(success: ago(minutes: 16)), expected: validators),
        Case(name: "fetched 5 min ago: the cache, no request",
             state: state(success: ago(minutes: 5)), expected: .recent(lastSuccess: ago(minutes: 5), minutesAgo: 5)),
        Case(name: "fetched 5 min ago, --refresh: fetched again",
             state: state(success: ago(minutes: 5)), refresh: true, expected: validators),
        Case(name: "NewsAPI's own interval (60 min): 30 min ago is recent",
             source: newsapi, state: state(success: ago(minutes: 30)), expected: .recent(lastSuccess: ago(minutes: 30), minutesAgo: 30)),
        Case(name: "a source's own refreshMinutes (120): 90 min ago is recent",
             source: slowFeed, state: state(success: ago(minutes: 90)), expected: .recent(lastSuccess: ago(minutes: 90), minutesAgo: 90)),
        Case(name: "a local file is read whatever its interval",
             source: localFeed, state: state(success: ago(minutes: 1)), expected: validators),
        Case(name: "failed 5 min ago after a success yesterday: the stale cache, not retried",
             state: state(attempt: ago(minutes: 5), success: ago(days: 1), error: "HTTP 503 from example.com", failingSince: ago(minutes: 5)),
             expected: .cached(lastSuccess: ago(days: 1), because: .notRetried(error: "HTTP 503 from example.com", minutesAgo: 5),
                               otherwise: .init(since: ago(minutes: 5), error: "HTTP 503 from example.com", cause: .notRetried(minutesAgo: 5)))),
        Case(name: "failed 5 min ago, never succeeded: unavailable since it started failing",
             state: state(attempt: ago(minutes: 5), error: "HTTP 503 from example.com", failingSince: ago(days: 2)),
             expected: .unavailable(.init(since: ago(days: 2), error: "HTTP 503 from example.com", cause: .notRetried(minutesAgo: 5)))),
        Case(name: "failed 5 min ago, last success 8 days ago: too old to show",
             state: state(attempt: ago(minutes: 5), success: ago(days: 8), error: "timed out", failingSince: ago(days: 6)),
             expected: .unavailable(.init(since: ago(days: 6), error: "timed out", cause: .notRetried(minutesAgo: 5)))),
        Case(name: "attempted 5 min ago with neither success nor error recorded: fetched",
             state: state(attempt: ago(minutes: 5)), expected: .fetch(etag: nil, lastModified: nil)),
        Case(name: "no provider for the source: unavailable, with a warning",
             source: newsapi, state: nil, provider: .missing,
             expected: .unavailable(.init(since: nil, error: "NewsAPI sources are not supported by this build of newsgen", cause: .warning))),
        Case(name: "provider without its key, cache 1 day old: the stale cache, not attempted",
             source: newsapi, state: state(success: ago(days: 1)), provider: .unavailable(noKey),
             expected: .cached(lastSuccess: ago(days: 1), because: .skipped(noKey), otherwise: .init(since: nil, error: noKey.reason, cause: .skipped(noKey)))),
        Case(name: "provider without its key, nothing cached: unavailable, not attempted",
             source: newsapi, state: nil, provider: .unavailable(noKey),
             expected: .unavailable(.init(since: nil, error: noKey.reason, cause: .skipped(noKey)))),

        // --offline.
        Case(name: "offline, fetched 2 days ago: the cache, as fresh",
             state: state(success: ago(days: 2)), offline: true,
             expected: .cached(lastSuccess: ago(days: 2), because: .offline, otherwise: .init(
                since: ago(days: 2), error: FetchDecision.offlineReason(state: state(success: ago(days: 2)), now: now, maxCacheAgeDays: 7), cause: .warning))),
        Case(name: "offline, never fetched: unavailable, says to build online first",
             state: nil, offline: true,
             expected: .unavailable(.init(since: nil, error: "offline, and it has never been fetched (run a build without --offline first)", cause: .warning))),
        Case(name: "offline, attempted but never succeeded",
             state: state(attempt: ago(days: 1), error: "HTTP 503", failingSince: ago(days: 3)), offline: true,
             expected: .unavailable(.init(since: ago(days: 3), error: "offline, and no fetch of it has succeeded yet (run a build without --offline once it answers)", cause: .warning))),
        Case(name: "offline, last success 9 days ago: older than maxCacheAgeDays",
             state: state(success: ago(days: 9)), offline: true,
             expected: .unavailable(.init(since: ago(days: 9), error: "offline, and it was last fetched 9 days ago, older than maxCacheAgeDays (7)", cause: .warning))),
        Case(name: "offline, exactly 7 days: too old (the rule is 'younger than')",
             state: state(success: ago(days: 7)), offline: true,
             expected: .unavailable(.init(since: ago(days: 7), error: "offline, and it was last fetched 7 days ago, older than maxCacheAgeDays (7)", cause: .warning))),
        Case(name: "offline, a local file is still read",
             source: localFeed, state: nil, offline: true, expected: .fetch(etag: nil, lastModified: nil)),
        Case(name: "offline, provider without its key, cache 1 day old: the cache, as offline",
             source: newsapi, state: state(success: ago(days: 1)), offline: true, provider: .unavailable(noKey),
             expected: .cached(lastSuccess: ago(days: 1), because: .offline, otherwise: .init(since: ago(days: 1), error: noKey.reason, cause: .skipped(noKey)))),
        Case(name: "offline, provider without its key, cache too old: skipped, with the one line for its kind",
             source: newsapi, state: state(success: ago(days: 9)), offline: true, provider: .unavailable(noKey),
             expected: .unavailable(.init(since: ago(days: 9), error: noKey.reason, cause: .skipped(noKey)))),
        Case(name: "offline, no provider for the source: the offline reason",
             source: newsapi, state: nil, offline: true, provider: .missing,
             expected: .unavailable(.init(since: nil, error: "offline, and it has never been fetched (run a build without --offline first)", cause: .warning))),
    ]

    @Test("before a request", arguments: cases)
    func decide(_ row: Case) {
        let options = FetchDecision.Options(offline: row.offline, refresh: row.refresh, maxCacheAgeDays: 7, refreshMinutes: 15, newsapiRefreshMinutes: 60)
        #expect(FetchDecision.decide(source: row.source, state: row.state, now: Self.now, options: options, provider: row.provider) == row.expected)
    }

    struct FailureCase: Sendable, CustomTestStringConvertible {
        var name: String
        var state: SourceState?
        var expected: FetchDecision
        var testDescription: String { name }
    }

    static let error = SourceError("cannot read local.xml (no such file)", detail: "cannot read /srv/site/local.xml (no such file)")

    static let failures: [FailureCase] = [
        FailureCase(name: "last success 2 days ago: the stale cache",
                    state: state(success: ago(days: 2)),
                    expected: .cached(lastSuccess: ago(days: 2), because: .failed(error), otherwise: .init(since: now, error: error.message, cause: .failed(error)))),
        FailureCase(name: "first fetch fails: unavailable since now",
                    state: nil, expected: .unavailable(.init(since: now, error: error.message, cause: .failed(error)))),
        FailureCase(name: "failing for 3 days, last success 8 days ago: unavailable since it started failing",
                    state: state(attempt: ago(days: 1), success: ago(days: 8), error: "HTTP 503", failingSince: ago(days: 3)),
                    expected: .unavailable(.init(since: ago(days: 3), error: error.message, cause: .failed(error)))),
    ]

    @Test("after a failed request", arguments: failures)
    func afterFailure(_ row: FailureCase) {
        let options = FetchDecision.Options(offline: false, refresh: false)
        #expect(FetchDecision.afterFailure(Self.error, state: row.state, now: Self.now, options: options) == row.expected)
    }

    @Test("the pages get the error's message, the log its detail (a local path)")
    func messageAndDetail() {
        guard case .unavailable(let shown) = FetchDecision.afterFailure(Self.error, state: nil, now: Self.now, options: .init(offline: false, refresh: false)) else {
            Issue.record("expected unavailable")
            return
        }
        #expect(shown.error == "cannot read local.xml (no such file)")
        #expect(shown.cause == .failed(Self.error))
        #expect(Self.error.description.contains("/srv/site/"))
    }
}
