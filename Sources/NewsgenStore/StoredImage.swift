public import Foundation
public import NewsgenModel

/// What fetching an image a page shows gave (`"images": "local"`), kept by the image's URL: its variants' sizes (the
/// files are in the cache's image folder, named by `hash`), or why there are none.
public struct StoredImage: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// Made: `images/<hash>-<width>.webp` for each variant, narrowest first.
        case made(hash: String, variants: [PixelSize])
        /// Refused for good (not an image, too many pixels, damaged, too large, a 4xx): never asked for again.
        case none(reason: String)
        /// Not had this time (a timeout, a 5xx): asked for again as `RetryLater` says.
        case failed(reason: String)
    }

    public var outcome: Outcome
    /// When it was last asked for.
    public var attempted: Date
    public var attempts: Int
    /// The validators of the answer the variants were made from, for a conditional GET once it is no longer fresh.
    public var etag: String?
    public var lastModified: String?
    /// The last build that showed it, moved at most once a day; retention removes images not shown for `keepDays`.
    public var lastShown: Date

    /// How long a made image is used without asking its server whether it changed.
    public static let freshFor: TimeInterval = 30 * 86_400

    public init(_ outcome: Outcome, attempted: Date, attempts: Int = 1, etag: String? = nil, lastModified: String? = nil, lastShown: Date? = nil) {
        self.outcome = outcome
        self.attempted = attempted
        self.attempts = attempts
        self.etag = etag
        self.lastModified = lastModified
        self.lastShown = lastShown ?? attempted
    }

    /// Whether the image should be asked for at `now`: a failure after its wait, a made image once no longer fresh.
    public func isDue(at now: Date) -> Bool {
        switch outcome {
        case .made: now.timeIntervalSince(attempted) >= Self.freshFor
        case .none: false
        case .failed: RetryLater.isDue(attempted: attempted, attempts: attempts, at: now)
        }
    }

    public var hash: String? {
        if case .made(let hash, _) = outcome { hash } else { nil }
    }
}
