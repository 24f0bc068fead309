public import Foundation

/// What fetching a story's own page for its full text gave (`"fullText": "extract"`), kept by the story's link so that a
/// page is fetched once: an article, or a reason there is none.
public struct StoryExtraction: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// The article's text: sanitized HTML a page may include as is.
        case article(html: String)
        /// The page has no article, or newsgen may not or cannot use it (not HTML, too large, disallowed by robots.txt,
        /// a 4xx): kept, never retried while the link stays the same.
        case none(reason: String)
        /// The page could not be had this time (a timeout, a 5xx, a refused connection): tried again as `RetryLater` says.
        case failed(reason: String)
    }

    public var outcome: Outcome
    /// When the page was last asked for.
    public var attempted: Date
    /// How many times it was asked for.
    public var attempts: Int

    public init(_ outcome: Outcome, attempted: Date, attempts: Int = 1) {
        self.outcome = outcome
        self.attempted = attempted
        self.attempts = attempts
    }

    /// Whether the page should be asked for again at `now`.
    public func isDue(at now: Date) -> Bool {
        guard case .failed = outcome else { return false }
        return RetryLater.isDue(attempted: attempted, attempts: attempts, at: now)
    }

    /// The article's HTML, when there is one.
    public var html: String? {
        if case .article(let html) = outcome { html } else { nil }
    }
}
