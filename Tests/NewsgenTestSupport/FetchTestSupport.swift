import Foundation
import NewsgenModel
import NewsgenFetch

extension RetryPolicy {
    /// Retries that wait 10 ms, then 20 ms (no jitter); the waits are recorded in `sleeps`
    /// instead of waited when it is given. The budget is far beyond any test's attempts, so that
    /// a machine busy with the rest of the suite never cuts a retry short.
    package static func fast(attempts: Int = 3, sleeps: SleepLog? = nil) -> RetryPolicy {
        RetryPolicy(
            attempts: attempts, baseDelay: .milliseconds(10), maxDelay: .milliseconds(40), budget: .seconds(600), jitter: 0,
            sleep: { delay in
                if let sleeps { sleeps.append(delay) } else { try await Task.sleep(for: delay) }
            }
        )
    }
}

/// The waits a retry policy asked for.
package final class SleepLog: @unchecked Sendable {
    package init() {}

    private let lock = NSLock()
    private var delays: [Duration] = []

    package func append(_ delay: Duration) { lock.withLock { delays.append(delay) } }
    package var all: [Duration] { lock.withLock { delays } }
}

/// A fetcher for the length of `body`. NewsAPI requests need `followRedirects: false`. The default deadline is far beyond
/// any answer of a test server, so a loaded machine never fails a test that is not about deadlines; those pass their own.
package func withHTTPFetcher<T>(followRedirects: Bool = true, timeout: Duration = .seconds(60), _ body: (HTTPFetcher) async throws -> T) async throws -> T {
    let fetcher = HTTPFetcher(followRedirects: followRedirects, timeout: timeout)
    do {
        let result = try await body(fetcher)
        try await fetcher.shutdown()
        return result
    } catch {
        try await fetcher.shutdown()
        throw error
    }
}

extension FetchOutcome {
    /// The content, or `nil` for a 304.
    package var content: SourceContent? {
        if case .fetched(let content) = self { return content }
        return nil
    }
}
