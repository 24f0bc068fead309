public import Foundation

/// When a request that failed for now (a timeout, a refused connection, a 5xx) is made again: story pages for their text
/// and images alike wait six hours between attempts, three attempts in all, then are kept as failed for good.
public enum RetryLater {
    public static let after: TimeInterval = 6 * 3600
    public static let attempts = 3

    /// Whether a request last made at `attempted`, `attempts` times in all, is made again at `now`.
    public static func isDue(attempted: Date, attempts: Int, at now: Date) -> Bool {
        attempts < Self.attempts && now.timeIntervalSince(attempted) >= after
    }
}
