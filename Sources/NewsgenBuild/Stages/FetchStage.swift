import Foundation
import Synchronization
import Logging
import NewsgenModel
import NewsgenConfig
import NewsgenFetch
import NewsgenRender
import NewsgenStore

/// Fetches every source concurrently, records the outcome in the store, and decides per source what may be shown (the
/// offline rules).
struct FetchStage: Sendable {
    var config: SiteConfig
    var providers: [any SourceProvider]
    var store: any ArticleStore
    var now: Date
    var offline: Bool
    var refresh: Bool
    var logger: Logger
    var progress: BuildProgress?
    /// The build's fetch budget, when it started before this stage; else it starts now.
    var budget: FetchBudget?

    func run() async -> [SourceReport] {
        // Every request has its source's deadline and the stage the fetch budget: sources pending when it ends are shown
        // from the cache. A slow host holds at most FetchLimits.perHost of the slots.
        let budget = budget ?? FetchBudget(seconds: config.fetchBudgetSeconds)
        let stage = {
            var stage = self
            stage.providers = providers.map { BudgetedProvider(base: $0, budget: budget, config: config) }
            return stage
        }()
        let skipped = SkippedSources()
        let newsapi = config.newsapi
        let ids = config.sources.map(\.id)
        let states = await storeCall("the fetch state of \(ids.count) sources") { try await store.states(of: ids) } ?? [:]
        let unchanged = UnchangedSources()
        // The cache keeps a story two sources list once, so lists go into it in site.json's order whatever order fetches
        // end in (`OrderedWrites`): which copy it keeps does not depend on network timing.
        let writes = OrderedWrites()
        let outcomes = await Parallel.map(
            Array(config.sources.enumerated()), maxConcurrent: FetchLimits.overall, maxPerKey: FetchLimits.perHost,
            key: { FetchLimits.host(of: $0.element, newsapi: newsapi) }
        ) { [progress] item in
            let (place, source) = item
            let outcome = await stage.report(for: source, state: states[source.id], skipped: skipped, unchanged: unchanged,
                                             record: { content in await writes.hold(place) { await stage.record(content, of: source) } })
            await writes.finish(place)
            progress?.advance(.fetching)
            return outcome
        }
        let reports = await stage.showCached(outcomes, states: states, skipped: skipped, unchanged: unchanged)
        let notModified = unchanged.ids
        if !notModified.isEmpty {
            _ = await storeCall("the 304s of \(notModified.count) sources") { try await store.recordNotModified(of: notModified, at: now) }
        }
        for line in skipped.warnings(order: ids) { logger.warning("\(line)") }
        return reports
    }

    /// A source's report, or the report it makes of its list in the cache.
    private enum Outcome: Sendable {
        case report(SourceReport)
        /// Shown from the cache, its list read with the others' (`showCached`). `own` when each story must be as this
        /// source wrote it (a local file unchanged since read): otherwise the file is read again.
        case cached(SourceConfig, own: Bool, report: @Sendable ([Article]) -> SourceReport)
    }

    /// The sources' reports in order, cached lists read in one go. A local file whose list holds another source's copy of
    /// a story is read again (`own`); what was left as it was goes to `unchanged`.
    private func showCached(_ outcomes: [Outcome], states: [String: SourceState], skipped: SkippedSources,
                            unchanged: UnchangedSources) async -> [SourceReport] {
        let waiting = outcomes.compactMap { outcome -> String? in
            if case .cached(let source, _, _) = outcome { source.id } else { nil }
        }
        guard !waiting.isEmpty else {
            return outcomes.compactMap { if case .report(let report) = $0 { report } else { nil } }
        }
        let lists = await storeCall("the cached lists of \(waiting.count) sources") { try await store.lists(of: waiting) }
        var reports: [SourceReport] = []
        reports.reserveCapacity(outcomes.count)
        for outcome in outcomes {
            switch outcome {
            case .report(let report):
                reports.append(report)
            case .cached(let source, own: true, let report):
                // A story two sources list is cached as whichever wrote it last, so only rereading the file gives this
                // source's own copy (as for an unreadable cache).
                if let lists, case let list = lists[source.id] ?? [], list.allSatisfy({ $0.sourceID == source.id }) {
                    unchanged.add(source.id)
                    reports.append(report(list))
                    continue
                }
                switch await self.report(for: source, state: states[source.id], skipped: skipped, unchanged: unchanged, reading: true) {
                case .report(let read): reports.append(read)
                case .cached(_, _, let report): reports.append(report((lists?[source.id] ?? []).shown(asListedBy: source.id)))
                }
            case .cached(let source, own: false, let report):
                reports.append(report((lists?[source.id] ?? []).shown(asListedBy: source.id)))
            }
        }
        return reports
    }

    /// One source's report, from its state before this build, or what it waits for to be shown from the cache; a 304 goes
    /// to `unchanged`. `reading` reads a local file whatever its validators say. A fetched list goes to `record`.
    private func report(for source: SourceConfig, state: SourceState?, skipped: SkippedSources,
                        unchanged: UnchangedSources, reading: Bool = false,
                        record: (@Sendable (SourceContent) async -> Void)? = nil) async -> Outcome {
        let options = FetchDecision.Options(config: config, offline: offline, refresh: refresh)
        let handler = providers.first(where: { $0.handles(source) })
        let provider: FetchDecision.Provider = if let handler { handler.unavailable.map { .unavailable($0) } ?? .ready } else { .missing }

        @Sendable func make(_ status: SourceReport.Status, articles: [Article], content: SourceContent? = nil) -> SourceReport {
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

        func show(_ decision: FetchDecision) async -> Outcome {
            switch decision {
            case .fetch:
                // Only when no provider handles the source, which `decide` reports itself.
                return .report(unavailable(FetchDecision.Unavailable(since: nil, error: FetchDecision.missingProviderReason(source), cause: .warning)))
            case .recent(let lastSuccess, let minutes):
                logger.debug("source \"\(source.id)\": fetched \(minutes) min ago, within its refresh interval")
                return .cached(source, own: false) { make(.recent(lastSuccess: lastSuccess), articles: $0) }
            case .cached(let lastSuccess, let reason, let otherwise):
                let articles = await cached()
                guard !articles.isEmpty else { return .report(unavailable(otherwise)) }
                switch reason {
                case .offline:
                    return .report(make(.offline(lastSuccess: lastSuccess), articles: articles))
                case .notRetried(let error, let minutes):
                    logger.warning("source \"\(source.id)\": \(error) (\(minutes) min ago; not retried within its refresh interval); showing \(articles.count) cached articles from \(Dates.readable(lastSuccess))")
                    return .report(make(.stale(lastSuccess: lastSuccess, error: error, since: otherwise.since), articles: articles))
                case .skipped(let skip):
                    skipped.add(source.id, skip)
                    return .report(make(.stale(lastSuccess: lastSuccess, error: skip.reason, since: otherwise.since), articles: articles))
                case .failed(let error):
                    // The log line may name local paths (error.description); pages and cache get error.message, which does not.
                    logger.warning("source \"\(source.id)\": \(error.description); showing \(articles.count) cached articles from \(Dates.readable(lastSuccess))")
                    return .report(make(.stale(lastSuccess: lastSuccess, error: error.message, since: otherwise.since), articles: articles))
                }
            case .unavailable(let reason):
                return .report(unavailable(reason))
            }
        }

        func unavailable(_ reason: FetchDecision.Unavailable) -> SourceReport {
            switch reason.cause {
            case .warning:
                logger.warning("source \"\(source.id)\": \(reason.error)")
            case .notRetried(let minutes):
                logger.warning("source \"\(source.id)\": \(reason.error) (\(minutes) min ago; not retried within its refresh interval)")
            case .skipped(let skip):
                skipped.add(source.id, skip)
            case .failed(let error):
                logger.warning("source \"\(source.id)\": \(error.description)")
            }
            return make(.unavailable(since: reason.since, error: reason.error), articles: [])
        }

        let decision = FetchDecision.decide(source: source, state: state, now: now, options: options, provider: provider)
        guard case .fetch(let etag, let lastModified) = decision, let handler else { return await show(decision) }
        do {
            let request = reading ? FetchRequest(source: source) : FetchRequest(source: source, etag: etag, lastModified: lastModified)
            switch try await handler.fetch(request) {
            case .fetched(let content):
                // Digests are made here, beside other fetches, rather than by the cache's one writer.
                for article in content.articles { _ = Fingerprint.articleDigester.digests(of: article) }
                if let record { await record(content) } else { await self.record(content, of: source) }
                logger.debug("source \"\(source.id)\": \(content.articles.count) articles")
                var report = make(.fetched, articles: content.articles, content: content)
                report.readNow = true
                return .report(report)
            case .notModified where source.isLocal:
                // A local file unchanged since read holds what the cache holds, shown as read so its pages do not change
                // with how it was had.
                return .cached(source, own: true) { make(.fetched, articles: $0) }
            case .notModified:
                unchanged.add(source.id)
                return .cached(source, own: false) { make(.notModified, articles: $0) }
            }
        } catch {
            // The budget is the build's limit, not the source's failure: the source is left as it was in the cache, so the
            // next build tries it again whatever its refresh interval.
            if case .budgetExhausted = error {} else {
                _ = await storeCall(source) { try await store.recordFailure(of: source.id, error: error, at: now) }
            }
            return await show(FetchDecision.afterFailure(error, state: state, now: now, options: options))
        }
    }

    private func record(_ content: SourceContent, of source: SourceConfig) async {
        _ = await storeCall(source) { try await store.recordSuccess(of: source.id, content: content, at: now) }
    }

    /// Runs a store operation; a failing cache never sinks the build, but it is reported.
    private func storeCall<T>(_ source: SourceConfig, _ body: () async throws -> T) async -> T? {
        await storeCall("source \"\(source.id)\"", body)
    }

    private func storeCall<T>(_ what: String, _ body: () async throws -> T) async -> T? {
        do {
            return try await body()
        } catch {
            logger.warning("cache: \(error) (\(what))")
            return nil
        }
    }

    static func nominalFormat(_ source: SourceConfig) -> FeedFormat? {
        switch source.kind {
        case .newsapi: .newsAPI
        case .json: .newsJSON
        case .feed: nil
        }
    }
}

/// Writes the sources' fetched lists into the cache in site.json order whatever order fetches end in: a write is made
/// once every source before it has ended. No task waits: the task that ends a run of places makes their writes, so every
/// write is made once every task has returned.
actor OrderedWrites {
    private var ended = Set<Int>()
    private var pending: [Int: @Sendable () async -> Void] = [:]
    /// The first place whose source has not ended, or whose write is not made yet.
    private var next = 0
    private var writing = false

    /// The write of the list the source at `place` fetched, made once every source before it has ended.
    func hold(_ place: Int, _ write: @escaping @Sendable () async -> Void) {
        pending[place] = write
    }

    /// The source at `place` has ended, with its list's write held before, or none.
    func finish(_ place: Int) async {
        ended.insert(place)
        // One loop at a time: a source ending while it writes is taken up by that loop.
        guard !writing else { return }
        writing = true
        while ended.contains(next) {
            if let write = pending.removeValue(forKey: next) { await write() }
            next += 1
        }
        writing = false
    }
}

/// The sources whose lists did not change (a 304, or a local file as it was), recorded in one write.
final class UnchangedSources: Sendable {
    private let unchanged = Mutex<[String]>([])

    func add(_ id: String) {
        unchanged.withLock { $0.append(id) }
    }

    /// The ids, sorted: task end order is no order.
    var ids: [String] { unchanged.withLock { $0 }.sorted() }
}

/// The sources skipped because their provider could not work.
final class SkippedSources: Sendable {
    private let skipped = Mutex<[(id: String, reason: ProviderUnavailable)]>([])

    func add(_ id: String, _ reason: ProviderUnavailable) {
        skipped.withLock { $0.append((id, reason)) }
    }

    /// One line per reason, the ids in config order: "NEWS_API_KEY is not set; skipping 3 NewsAPI sources: a, b, c".
    func warnings(order: [String]) -> [String] {
        let all = skipped.withLock { $0 }
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
