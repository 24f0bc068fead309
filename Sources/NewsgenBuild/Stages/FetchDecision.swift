import Foundation
import NewsgenModel
import NewsgenConfig
import NewsgenFetch
import NewsgenStore

/// What the fetch stage does with one source, decided from its stored state, the clock and the build's options alone (no
/// store, network or log); `FetchStage` carries it out.
///
/// A local file is always read. `--offline` shows the cache while its last success is younger than maxCacheAgeDays.
/// Within the refresh interval (from the last attempt, ignored under `--refresh`) no request is made and the source is
/// shown as that attempt left it. A source whose provider cannot work (no NewsAPI key) is not attempted. Otherwise it is
/// fetched, conditionally with the last success's validators; on failure `afterFailure` decides.
enum FetchDecision: Sendable, Hashable {
    /// Ask the provider now; `etag` and `lastModified` make it a conditional GET.
    case fetch(etag: String?, lastModified: String?)
    /// Fetched successfully within the refresh interval: show the cache as it is.
    case recent(lastSuccess: Date, minutesAgo: Int)
    /// Show the cached articles of the success at `lastSuccess` (younger than maxCacheAgeDays) if any, else `otherwise`.
    case cached(lastSuccess: Date, because: CacheReason, otherwise: Unavailable)
    case unavailable(Unavailable)

    /// Why the cache stands in for a fresh fetch.
    enum CacheReason: Sendable, Hashable {
        /// `--offline`: the source is shown as fresh.
        case offline
        /// The last attempt failed with `error` and is within the refresh interval.
        case notRetried(error: String, minutesAgo: Int)
        /// The provider cannot work in this build (no NewsAPI key): not attempted.
        case skipped(ProviderUnavailable)
        case failed(SourceError)
    }

    /// A source shown without articles.
    struct Unavailable: Sendable, Hashable {
        /// Since when it has been failing, as far as anyone knows.
        var since: Date?
        var error: String
        var cause: Cause

        enum Cause: Sendable, Hashable {
            /// A warning line `source "id": <error>`.
            case warning
            /// The last attempt failed within the refresh interval; a warning that says so.
            case notRetried(minutesAgo: Int)
            /// One warning line for all the provider's sources.
            case skipped(ProviderUnavailable)
            /// This build's fetch failed; the warning carries the error's detail.
            case failed(SourceError)
        }
    }

    enum Provider: Sendable, Hashable {
        case ready
        case unavailable(ProviderUnavailable)
        case missing
    }

    struct Options: Sendable, Hashable {
        var offline: Bool
        /// `--refresh`: the refresh interval is ignored.
        var refresh: Bool
        var maxCacheAgeDays: Int
        var refreshMinutes: Int
        var newsapiRefreshMinutes: Int

        init(offline: Bool, refresh: Bool, maxCacheAgeDays: Int = 7, refreshMinutes: Int = 15, newsapiRefreshMinutes: Int = 60) {
            self.offline = offline
            self.refresh = refresh
            self.maxCacheAgeDays = maxCacheAgeDays
            self.refreshMinutes = refreshMinutes
            self.newsapiRefreshMinutes = newsapiRefreshMinutes
        }

        init(config: SiteConfig, offline: Bool, refresh: Bool) {
            self.init(offline: offline, refresh: refresh, maxCacheAgeDays: config.maxCacheAgeDays,
                      refreshMinutes: config.refreshMinutes, newsapiRefreshMinutes: config.newsapi.refreshMinutes)
        }

        /// The minimum time between two requests for `source`: its own, else NewsAPI's or the site's.
        func refreshMinutes(for source: SourceConfig) -> Int {
            if let minutes = source.refreshMinutes { return minutes }
            if case .newsapi = source.kind { return newsapiRefreshMinutes }
            return refreshMinutes
        }

        var maximumAge: TimeInterval { TimeInterval(maxCacheAgeDays) * 86_400 }
    }

    static func decide(source: SourceConfig, state: SourceState?, now: Date, options: Options, provider: Provider) -> FetchDecision {
        let lastSuccess = usableSuccess(state, now: now, options: options)

        if options.offline && !source.isLocal {
            let fallback: Unavailable
            if case .unavailable(let skip) = provider {
                // Without its provider (no NewsAPI key), the one line for all its sources says why.
                fallback = Unavailable(since: state?.failingSince ?? state?.lastSuccess, error: skip.reason, cause: .skipped(skip))
            } else {
                let reason = offlineReason(state: state, now: now, maxCacheAgeDays: options.maxCacheAgeDays)
                fallback = Unavailable(since: state?.failingSince ?? state?.lastSuccess, error: reason, cause: .warning)
            }
            return lastSuccess.map { .cached(lastSuccess: $0, because: .offline, otherwise: fallback) } ?? .unavailable(fallback)
        }

        // Within the refresh interval from the last attempt, the source is shown as that attempt left it, without a request.
        if !options.refresh && !source.isLocal, let lastAttempt = state?.lastAttempt,
           now.timeIntervalSince(lastAttempt) < TimeInterval(options.refreshMinutes(for: source) * 60) {
            let minutes = Int(now.timeIntervalSince(lastAttempt) / 60)
            if let error = state?.lastError {
                let fallback = Unavailable(since: state?.failingSince ?? lastAttempt, error: error, cause: .notRetried(minutesAgo: minutes))
                return lastSuccess.map { .cached(lastSuccess: $0, because: .notRetried(error: error, minutesAgo: minutes), otherwise: fallback) }
                    ?? .unavailable(fallback)
            }
            if let lastSuccess = state?.lastSuccess {
                return .recent(lastSuccess: lastSuccess, minutesAgo: minutes)
            }
        }

        switch provider {
        case .missing:
            return .unavailable(Unavailable(since: nil, error: missingProviderReason(source), cause: .warning))
        case .unavailable(let skip):
            // Not attempted, so not the source's failure: the store is left as it is; one warning covers the provider's sources.
            let fallback = Unavailable(since: nil, error: skip.reason, cause: .skipped(skip))
            return lastSuccess.map { .cached(lastSuccess: $0, because: .skipped(skip), otherwise: fallback) } ?? .unavailable(fallback)
        case .ready:
            return .fetch(etag: state?.etag, lastModified: state?.lastModified)
        }
    }

    /// The decision after this build's fetch failed; `state` is the one read before the fetch.
    static func afterFailure(_ error: SourceError, state: SourceState?, now: Date, options: Options) -> FetchDecision {
        let fallback = Unavailable(since: state?.failingSince ?? now, error: error.message, cause: .failed(error))
        return usableSuccess(state, now: now, options: options).map { .cached(lastSuccess: $0, because: .failed(error), otherwise: fallback) }
            ?? .unavailable(fallback)
    }

    /// The last success, when it is young enough (under maxCacheAgeDays) for its cache to stand in.
    private static func usableSuccess(_ state: SourceState?, now: Date, options: Options) -> Date? {
        guard let lastSuccess = state?.lastSuccess, now.timeIntervalSince(lastSuccess) < options.maximumAge else { return nil }
        return lastSuccess
    }

    /// Why `--offline` shows nothing for a source: no success, one older than maxCacheAgeDays, or one that left no articles.
    static func offlineReason(state: SourceState?, now: Date, maxCacheAgeDays: Int) -> String {
        guard let lastSuccess = state?.lastSuccess else {
            if state?.lastAttempt == nil {
                return "offline, and it has never been fetched (run a build without --offline first)"
            }
            return "offline, and no fetch of it has succeeded yet (run a build without --offline once it answers)"
        }
        let days = Int(now.timeIntervalSince(lastSuccess) / 86_400)
        if now.timeIntervalSince(lastSuccess) >= TimeInterval(maxCacheAgeDays) * 86_400 {
            return "offline, and it was last fetched \(days) day\(days == 1 ? "" : "s") ago, older than maxCacheAgeDays (\(maxCacheAgeDays))"
        }
        return "offline, and its last fetch (\(Dates.readable(lastSuccess))) left no articles in the cache"
    }

    static func missingProviderReason(_ source: SourceConfig) -> String {
        switch source.kind {
        case .newsapi: "NewsAPI sources are not supported by this build of newsgen"
        case .json: "JSON news API sources are not supported by this build of newsgen"
        case .feed: "no provider reads feed sources"
        }
    }
}
