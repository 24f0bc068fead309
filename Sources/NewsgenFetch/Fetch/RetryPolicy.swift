public import Foundation
import NewsgenModel

/// How a failed request is retried: exponential backoff with jitter, `Retry-After` honoured, bounded in attempts
/// and total time. Retry *n* waits `baseDelay × 2^(n-1)`, capped at `maxDelay`, shortened by up to `jitter` so
/// clients do not retry in step; a longer `Retry-After` is waited instead. A retry whose wait would end past
/// `budget` (from the first attempt) is not made. Retries also get at most the budget's remainder as their deadline.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included; 1 means no retry.
    public var attempts: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// The time after the first attempt past which no retry starts.
    public var budget: Duration
    /// The fraction (0…1) of each backoff delay that is randomized away.
    public var jitter: Double
    /// Waits; tests inject a recorder or tiny delays.
    public var sleep: @Sendable (Duration) async throws -> Void
    public var random: @Sendable () -> Double
    /// The wall clock, to read a `Retry-After` given as an HTTP date.
    public var now: @Sendable () -> Date

    public init(
        attempts: Int, baseDelay: Duration, maxDelay: Duration, budget: Duration, jitter: Double = 0.5,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.attempts = max(1, attempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.budget = budget
        self.jitter = min(max(jitter, 0), 1)
        self.sleep = sleep
        self.random = random
        self.now = now
    }

    /// Three attempts, backing off from 1 s, never waiting past 45 s.
    public static let standard = RetryPolicy(attempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(20), budget: .seconds(45))

    /// One attempt.
    public static let none = RetryPolicy(attempts: 1, baseDelay: .zero, maxDelay: .zero, budget: .zero)

    /// What to do after an attempt.
    public enum Verdict: Sendable, Equatable {
        /// The answer stands (success, or a failure not worth retrying).
        case done
        /// Worth another attempt, after at least `after` when the server said so.
        case retry(after: Duration?)
    }

    /// The backoff before retry number `retry` (1 for the first retry), jitter applied.
    public func backoff(beforeRetry retry: Int) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let exponential = baseDelay * (1 << exponent)
        let capped = min(exponential, maxDelay)
        let factor = 1 - jitter * min(max(random(), 0), 1)
        return capped * factor
    }

    /// Runs `operation` until `verdict` is `.done`, attempts run out, or the next wait would overrun the budget;
    /// returns the last result and attempts made. `willRetry` gets each retried result, the wait and the next attempt.
    public func run<T>(
        _ operation: (_ attempt: Int) async -> T,
        verdict: (T) -> Verdict,
        willRetry: (T, Duration, Int) -> Void = { _, _, _ in }
    ) async -> (result: T, attempts: Int) {
        let clock = ContinuousClock()
        let start = clock.now
        var attempt = 1
        while true {
            let result = await operation(attempt)
            guard attempt < attempts, case .retry(let serverDelay) = verdict(result) else {
                return (result, attempt)
            }
            let delay = max(backoff(beforeRetry: attempt), serverDelay ?? .zero)
            guard clock.now - start + delay <= budget, !Task.isCancelled else {
                return (result, attempt)
            }
            willRetry(result, delay, attempt + 1)
            do {
                try await sleep(delay)
            } catch {
                return (result, attempt)
            }
            attempt += 1
        }
    }

    /// The deadline of attempt `attempt`: the whole `timeout` for the first; for a retry, at most what is left of the
    /// budget `elapsed` after the first began (never under 0.1 s).
    public func deadline(forAttempt attempt: Int, elapsed: Duration, timeout: Duration) -> Duration {
        guard attempt > 1 else { return timeout }
        return max(min(timeout, budget - elapsed), .milliseconds(100))
    }

    /// A `Retry-After`: delay-seconds (`120`) or an HTTP date (read against `now`; past dates mean no wait).
    public static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.allSatisfy(\.isASCIIDigit) {
            guard let seconds = Int(value.prefix(9)) else { return nil }
            return .seconds(seconds)
        }
        guard let date = Dates.parse(value) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds > 0 ? .milliseconds(Int64((seconds * 1000).rounded(.up))) : .zero
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Duration {
    var secondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds >= 10 || seconds == seconds.rounded() ? "\(Int(seconds.rounded())) s" : String(format: "%.1f s", seconds)
    }
}
