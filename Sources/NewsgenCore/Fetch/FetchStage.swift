import Foundation
import Logging

/// Stages 2 and 3 of the pipeline: fetch every source concurrently, record the outcome in the
/// store, and decide per source what may be shown (the offline rules).
struct FetchStage: Sendable {
    var config: SiteConfig
    var providers: [any SourceProvider]
    var store: any ArticleStore
    var now: Date
    var offline: Bool
    var refresh: Bool
    var logger: Logger
    /// Sources fetched at once.
    var concurrency = 8

    func run() async -> [SourceReport] {
        let skipped = SkippedSources()
        let reports = await withTaskGroup(of: (Int, SourceReport).self) { group in
            var next = 0
            var reports = [SourceReport?](repeating: nil, count: config.sources.count)
            func startNext() {
                guard next < config.sources.count else { return }
                let index = next
                let source = config.sources[index]
                group.addTask { (index, await self.report(for: source, skipped: skipped)) }
                next += 1
            }
            for _ in 0..<min(concurrency, config.sources.count) { startNext() }
            for await (index, report) in group {
                reports[index] = report
                startNext()
            }
            return reports.compactMap { $0 }
        }
        for line in skipped.warnings(order: config.sources.map(\.id)) { logger.warning("\(line)") }
        return reports
    }

    private func report(for source: SourceConfig, skipped: SkippedSources) async -> SourceReport {
        let state = await storeCall(source) { try await store.state(of: source.id) } ?? nil
        let maximumAge = TimeInterval(config.maxCacheAgeDays) * 86_400

        func make(_ status: SourceReport.Status, articles: [Article], content: SourceContent? = nil) -> SourceReport {
            SourceReport(
                config: source, status: status,
                name: source.name ?? content?.title ?? state?.title ?? source.id,
                homepage: content?.homepage ?? state?.homepage,
                format: content?.format ?? state?.format ?? Self.nominalFormat(source),
                articles: articles
            )
        }

        func cached() async -> [Article] {
            await storeCall(source) { try await store.articles(of: source.id) } ?? []
        }

        /// The cache may stand in for a source whose last success is younger than maxCacheAgeDays.
        func usableCache() async -> (Date, [Article])? {
            guard let lastSuccess = state?.lastSuccess, now.timeIntervalSince(lastSuccess) < maximumAge else { return nil }
            let articles = await cached()
            return articles.isEmpty ? nil : (lastSuccess, articles)
        }

        if offline && !source.isLocal {
            if let (lastSuccess, articles) = await usableCache() {
                return make(.offline(lastSuccess: lastSuccess), articles: articles)
            }
            // Without its provider (no NewsAPI key), the one line for all its sources says why.
            if let skip = providers.first(where: { $0.handles(source) })?.unavailable {
                skipped.add(source.id, skip)
                return make(.unavailable(since: state?.failingSince ?? state?.lastSuccess, error: skip.reason), articles: [])
            }
            let reason = Self.offlineReason(state: state, now: now, maxCacheAgeDays: config.maxCacheAgeDays)
            logger.warning("source \"\(source.id)\": \(reason)")
            return make(.unavailable(since: state?.failingSince ?? state?.lastSuccess, error: reason), articles: [])
        }

        // A minimum interval between requests, counted from the last attempt: within it, the
        // source is shown as that attempt left it, without a new request.
        if !refresh && !source.isLocal, let lastAttempt = state?.lastAttempt,
           now.timeIntervalSince(lastAttempt) < TimeInterval(refreshMinutes(source) * 60) {
            let minutes = Int(now.timeIntervalSince(lastAttempt) / 60)
            if let error = state?.lastError {
                if let (lastSuccess, articles) = await usableCache() {
                    logger.warning("source \"\(source.id)\": \(error) (\(minutes) min ago; not retried within its refresh interval); showing \(articles.count) cached articles from \(Dates.readable(lastSuccess))")
                    return make(.stale(lastSuccess: lastSuccess, error: error), articles: articles)
                }
                logger.warning("source \"\(source.id)\": \(error) (\(minutes) min ago; not retried within its refresh interval)")
                return make(.unavailable(since: state?.failingSince ?? lastAttempt, error: error), articles: [])
            }
            if let lastSuccess = state?.lastSuccess {
                logger.debug("source \"\(source.id)\": fetched \(minutes) min ago, within its refresh interval")
                return make(.recent(lastSuccess: lastSuccess), articles: await cached())
            }
        }

        guard let provider = providers.first(where: { $0.handles(source) }) else {
            let reason = Self.missingProviderReason(source)
            logger.warning("source \"\(source.id)\": \(reason)")
            return make(.unavailable(since: nil, error: reason), articles: [])
        }

        // Not attempted, so not a failure of the source: the store is left as it is, and
        // one warning covers all the provider's sources.
        if let skip = provider.unavailable {
            skipped.add(source.id, skip)
            if let (lastSuccess, articles) = await usableCache() {
                return make(.stale(lastSuccess: lastSuccess, error: skip.reason), articles: articles)
            }
            return make(.unavailable(since: nil, error: skip.reason), articles: [])
        }

        do {
            let outcome = try await provider.fetch(FetchRequest(source: source, etag: state?.etag, lastModified: state?.lastModified))
            switch outcome {
            case .fetched(let content):
                _ = await storeCall(source) { try await store.recordSuccess(of: source.id, content: content, at: now) }
                logger.debug("source \"\(source.id)\": \(content.articles.count) articles")
                return make(.fetched, articles: content.articles, content: content)
            case .notModified:
                _ = await storeCall(source) { try await store.recordNotModified(of: source.id, at: now) }
                return make(.notModified, articles: await cached())
            }
        } catch {
            _ = await storeCall(source) { try await store.recordFailure(of: source.id, error: error, at: now) }
            // The log line may name paths on this machine (error.description); the pages and the
            // cache get error.message, which does not.
            if let (lastSuccess, articles) = await usableCache() {
                logger.warning("source \"\(source.id)\": \(error.description); showing \(articles.count) cached articles from \(Dates.readable(lastSuccess))")
                return make(.stale(lastSuccess: lastSuccess, error: error.message), articles: articles)
            }
            logger.warning("source \"\(source.id)\": \(error.description)")
            return make(.unavailable(since: state?.failingSince ?? now, error: error.message), articles: [])
        }
    }

    private func refreshMinutes(_ source: SourceConfig) -> Int {
        if let minutes = source.refreshMinutes { return minutes }
        if case .newsapi = source.kind { return config.newsapi.refreshMinutes }
        return config.refreshMinutes
    }

    /// Runs a store operation; a failing cache never sinks the build, but it is reported.
    private func storeCall<T>(_ source: SourceConfig, _ body: () async throws -> T) async -> T? {
        do {
            return try await body()
        } catch {
            logger.warning("cache: \(error) (source \"\(source.id)\")")
            return nil
        }
    }

    /// Why `--offline` shows nothing for a source: it never succeeded, or its last success is
    /// older than maxCacheAgeDays, or that success left no articles in the cache.
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

    static func nominalFormat(_ source: SourceConfig) -> FeedFormat? {
        switch source.kind {
        case .newsapi: .newsAPI
        case .json: .newsJSON
        case .feed: nil
        }
    }

    static func missingProviderReason(_ source: SourceConfig) -> String {
        switch source.kind {
        case .newsapi: "NewsAPI sources are not supported by this build of newsgen"
        case .json: "JSON news API sources are not supported by this build of newsgen"
        case .feed: "no provider reads feed sources"
        }
    }
}

/// The sources skipped because their provider could not work, collected across the fetch tasks.
final class SkippedSources: @unchecked Sendable {
    private let lock = NSLock()
    private var skipped: [(id: String, reason: ProviderUnavailable)] = []

    func add(_ id: String, _ reason: ProviderUnavailable) {
        lock.withLock { skipped.append((id, reason)) }
    }

    /// One line per reason, the ids in config order: "NEWS_API_KEY is not set; skipping 3 NewsAPI sources: a, b, c".
    func warnings(order: [String]) -> [String] {
        let all = lock.withLock { skipped }
        var groups: [(reason: ProviderUnavailable, ids: [String])] = []
        for id in order {
            guard let reason = all.first(where: { $0.id == id })?.reason else { continue }
            if let index = groups.firstIndex(where: { $0.reason == reason }) {
                groups[index].ids.append(id)
            } else {
                groups.append((reason, [id]))
            }
        }
        return groups.map { reason, ids in
            "\(reason.reason); skipping \(ids.count) \(reason.kind) source\(ids.count == 1 ? "" : "s"): \(ids.joined(separator: ", "))"
        }
    }
}

extension SourceConfig {
    /// Read from a local file: always allowed, even offline, and never rate-limited.
    var isLocal: Bool {
        switch kind {
        case .feed(.file), .json(.file): true
        default: false
        }
    }
}
