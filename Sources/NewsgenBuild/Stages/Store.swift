package import Foundation
package import Logging
package import NewsgenModel
package import NewsgenStore

/// The cache's upkeep: retention (articles no source lists, nobody saved, and unseen for `keepDays` are removed), then the
/// archive. A cache that cannot do this never sinks the build: the pages show what was fetched now.
package struct Store: BuildStep {
    package static let stage = BuildStage.store

    package var store: any ArticleStore
    /// The configured sources; the archive holds theirs only.
    package var sourceIDs: Set<String>
    package var keepDays: Int
    package var now: Date
    package var logger: Logger

    package init(store: any ArticleStore, sourceIDs: Set<String>, keepDays: Int, now: Date, logger: Logger) {
        self.store = store
        self.sourceIDs = sourceIDs
        self.keepDays = keepDays
        self.now = now
        self.logger = logger
    }

    /// The archive, and the cache's state in words for the log.
    package struct Archive: Sendable {
        package var articles: [Article]
        package var summary: String
    }

    package func run(_ input: Void) async -> Archive {
        do {
            let pruned = try await store.prune(notSeenSince: now.addingTimeInterval(-TimeInterval(keepDays) * 86_400))
            // Counted on a connection of its own while the archive is read on two others.
            async let statistics = store.statistics()
            let articles = try await store.archive(of: sourceIDs)
            return Archive(articles: articles, summary: "cache \(try await statistics)\(pruned > 0 ? ", \(pruned) pruned" : "")")
        } catch {
            logger.warning("cache: \(error)")
            return Archive(articles: [], summary: "cache unavailable")
        }
    }

    package func summary(of archive: Archive) -> String { archive.summary }
}
