import Foundation
import Synchronization
import NewsgenModel
import NewsgenConfig
import NewsgenFetch

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
