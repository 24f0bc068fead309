import Foundation
import Synchronization
import NewsgenModel
import NewsgenConfig
import NewsgenFetch
import Logging

/// How many sources are fetched at once: many in all, few per host, so a dead or slow host holds two slots and the healthy
/// sources go on around it.
enum FetchLimits {
    /// Sources in flight at once, across hosts (local files included).
    static let overall = 64
    /// Sources of one host in flight at once; the HTTP client opens no more connections to it either.
    static let perHost = HTTPFetcher.maximumConnectionsPerHost

    /// The host a source's requests go to, the key of the per-host limit; `nil` for local files.
    static func host(of source: SourceConfig, newsapi: NewsAPISettings) -> String? {
        switch source.kind {
        case .feed(.remote(let url)), .json(.remote(let url)): url.host?.lowercased() ?? url.absoluteString
        case .newsapi: newsapi.baseURL.host?.lowercased() ?? newsapi.baseURL.absoluteString
        case .feed(.file), .json(.file): nil
        }
    }
}

/// The build-wide fetch budget (`fetchBudgetSeconds`): a continuous-clock instant after which no source is fetched and
/// those in flight are stopped.
package struct FetchBudget: Sendable {
    var seconds: Double
    var end: ContinuousClock.Instant

    package init(seconds: Double, clock: ContinuousClock = ContinuousClock()) {
        self.seconds = seconds
        end = clock.now.advanced(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    var isExhausted: Bool { ContinuousClock.now >= end }

    /// What is left of it, or zero.
    var remaining: Duration { max(.zero, end - ContinuousClock.now) }
}

/// A provider held to the fetch budget and request deadline: each request carries its source's `timeoutSeconds` (else the
/// site's); a fetch running when the budget ends is cancelled with `SourceError.budgetExhausted`, and none starts after.
struct BudgetedProvider: SourceProvider {
    var base: any SourceProvider
    var budget: FetchBudget
    var config: SiteConfig

    func handles(_ source: SourceConfig) -> Bool { base.handles(source) }

    var unavailable: ProviderUnavailable? { base.unavailable }

    func fetch(_ request: FetchRequest) async throws(SourceError) -> FetchOutcome {
        let exhausted = SourceError.budgetExhausted(seconds: budget.seconds)
        guard !budget.isExhausted else { throw exhausted }
        var request = request
        if request.timeout == nil {
            let seconds = config.timeoutSeconds(for: request.source)
            request.timeout = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        let (base, end, limited) = (base, budget.end, request)
        let result = await Race.first(
            { () async -> Result<FetchOutcome, SourceError> in
                do throws(SourceError) {
                    return .success(try await base.fetch(limited))
                } catch {
                    return .failure(error)
                }
            },
            or: { () async -> Result<FetchOutcome, SourceError> in
                try? await Task.sleep(until: end, clock: .continuous)
                return .failure(exhausted)
            }
        )
        return try result.get()
    }
}

/// The first of two operations to finish, without waiting for the other, which is cancelled. Not a task group: a group
/// waits for every child, and a NewsAPI source waiting on its batch's shared request ignores cancellation.
enum Race {
    static func first<T: Sendable>(_ one: @escaping @Sendable () async -> T, or other: @escaping @Sendable () async -> T) async -> T {
        let race = Runners<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.run([one, other], resuming: continuation)
            }
        } onCancel: {
            race.cancel()
        }
    }

    /// The racing tasks: the first value resumes the continuation, once, and cancels them all.
    private final class Runners<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, Never>?
            var tasks: [Task<Void, Never>] = []
            var finished = false
            var cancelled = false
        }

        private let state = Mutex(State())

        func run(_ operations: [@Sendable () async -> T], resuming continuation: CheckedContinuation<T, Never>) {
            state.withLock { $0.continuation = continuation }
            let tasks = operations.map { operation in Task { self.finish(await operation()) } }
            let cancelNow = state.withLock { state in
                state.tasks = tasks
                return state.finished || state.cancelled
            }
            if cancelNow { tasks.forEach { $0.cancel() } }
        }

        private func finish(_ value: T) {
            let (continuation, tasks) = state.withLock { state -> (CheckedContinuation<T, Never>?, [Task<Void, Never>]) in
                guard !state.finished else { return (nil, []) }
                state.finished = true
                defer { (state.continuation, state.tasks) = (nil, []) }
                return (state.continuation, state.tasks)
            }
            continuation?.resume(returning: value)
            tasks.forEach { $0.cancel() }
        }

        /// The caller was cancelled: so are the tasks, whose first value then ends the race.
        func cancel() {
            let tasks = state.withLock { state in
                state.cancelled = true
                return state.tasks
            }
            tasks.forEach { $0.cancel() }
        }
    }
}

/// The hosts that did not answer at all in this build (unresolvable, refused, silent): the rest of their requests are not
/// made, so a dead host costs one failure per build rather than one per image or page.
final class DeadHosts: Sendable {
    private let hosts = Mutex<[String: (reason: String, skipped: Int)]>([:])

    func markDead(_ host: String, reason: String) {
        hosts.withLock { if $0[host] == nil { $0[host] = (reason, 0) } }
    }

    /// Whether `host` is dead; counts a request skipped for it.
    func skips(_ host: String) -> Bool {
        hosts.withLock { hosts in
            guard hosts[host] != nil else { return false }
            hosts[host]?.skipped += 1
            return true
        }
    }

    /// One line per dead host that had requests skipped: "img.example.com (could not resolve host): 312".
    var skipped: [(host: String, reason: String, count: Int)] {
        hosts.withLock { $0 }.filter { $0.value.skipped > 0 }.map { ($0.key, $0.value.reason, $0.value.skipped) }.sorted { $0.host < $1.host }
    }
}

/// The requests a build makes for its stories beyond their feeds (story pages, images): at most `FetchLimits.perHost` per
/// host at once, none once the fetch budget has ended, none more to a host that did not answer (`DeadHosts`). What was not
/// asked for is left for the next build and said in the log: one line per host that did not answer, one for the budget.
struct StoryRequests {
    var budget: FetchBudget
    var logger: Logger
    /// What is asked for, for the log: all of it ("story pages", "images") and of one host ("pages", "images").
    var noun: (all: String, ofHost: String)
    /// The level of the lines about hosts that did not answer.
    var level: Logger.Level

    /// One `request` per item, given its URL and the deadline left for it (`seconds`, or what is left of the budget); it
    /// reports a host that did not answer through its last argument, and returns `nil` when the budget ended while it ran.
    /// Returns the values of the requests made.
    func run<Item: Sendable, Value: Sendable>(
        _ items: [Item], url: @escaping @Sendable (Item) -> String, seconds: @escaping @Sendable (Item) -> Double,
        _ request: @escaping @Sendable (Item, URL, Duration, _ noAnswer: @escaping @Sendable (String) -> Void) async -> Value?
    ) async -> [Value] {
        let (budget, dead) = (budget, DeadHosts())
        let outcomes = await Parallel.map(items, maxConcurrent: FetchLimits.overall, maxPerKey: FetchLimits.perHost,
                                          key: { URL(string: url($0))?.host?.lowercased() }) { item -> Value? in
            guard let address = URL(string: url(item)), let host = address.host?.lowercased(), !budget.isExhausted, !dead.skips(host) else {
                return nil
            }
            let timeout = min(.milliseconds(Int64((seconds(item) * 1000).rounded())), budget.remaining)
            return await request(item, address, timeout) { reason in dead.markDead(host, reason: reason) }
        }
        let made = outcomes.compactMap { $0 }
        let skipped = dead.skipped
        for (host, reason, count) in skipped {
            logger.log(level: level, "\(noun.all): \(host) did not answer (\(reason)); its other \(count) \(noun.ofHost) are left for the next build")
        }
        let unreached = items.count - made.count - skipped.reduce(0) { $0 + $1.count }
        if unreached > 0 {
            logger.warning("the fetch budget (\(SourceError.seconds(budget.seconds)) s) ran out: \(unreached) \(noun.all) are left for the next build")
        }
        return made
    }
}
