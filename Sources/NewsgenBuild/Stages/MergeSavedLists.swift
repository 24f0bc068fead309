package import Foundation
package import Logging
package import NewsgenModel
package import NewsgenConfig
package import NewsgenStore

/// Reads every saved file, merges them, and matches each entry to an article shown now or kept in the store. A saved file
/// that is not JSON at all fails the stage.
package struct MergeSavedLists: BuildStep {
    package static let stage = BuildStage.mergeSavedLists

    package var config: SiteConfig
    package var store: any ArticleStore
    package var now: Date
    package var logger: Logger

    package init(config: SiteConfig, store: any ArticleStore, now: Date, logger: Logger) {
        self.config = config
        self.store = store
        self.now = now
        self.logger = logger
    }

    /// Both lists, every entry resolved to an article or a placeholder.
    package struct Lists: Sendable {
        package var favorites: [SavedArticle]
        package var readLater: [SavedArticle]
    }

    package func run(_ sources: [SourceReport]) async throws(ConfigError) -> Lists {
        var lists: [SavedLists] = []
        for file in config.saved {
            if let reading = try SavedFile.reading(file) {
                lists.append(reading.lists)
                // An entry newsgen cannot use is left out; the rest of the file still counts.
                for warning in reading.warnings { logger.warning("\(warning)") }
            } else if config.savedIsExplicit {
                logger.warning("\(SavedFile.notFound(file))")
            }
        }
        let merged = SavedLists.merge(lists)
        let matcher = SavedMatcher(lists: sources.map(\.articles), entries: merged.favorites + merged.readLater)
        let keys = Set((merged.favorites + merged.readLater).map(\.key))
        let kept: [String: Article]
        do {
            kept = try await store.savedArticles(ids: keys)
        } catch {
            logger.warning("cache: \(error)")
            kept = [:]
        }

        func resolve(_ entries: [SavedEntry]) -> [SavedArticle] {
            entries.map { entry in
                if let article = matcher.match(entry) {
                    return SavedArticle(entry: entry, article: article, matched: true)
                }
                if let article = kept[entry.key] {
                    return SavedArticle(entry: entry, article: article, matched: true)
                }
                return SavedArticle(entry: entry, article: SavedMatcher.placeholder(for: entry), matched: false)
            }
        }

        let result = Lists(favorites: resolve(merged.favorites), readLater: resolve(merged.readLater))
        // Keep the data of matched saved articles, so they outlive their source's list.
        let toKeep = (result.favorites + result.readLater).filter(\.matched).map {
            SavedSnapshot(entryKey: $0.entry.key, article: $0.article)
        }
        do {
            try await store.keepSaved(toKeep, at: now)
        } catch {
            logger.warning("cache: \(error)")
        }
        return result
    }

    package func summary(of lists: Lists) -> String {
        "\(lists.favorites.count) favorites, \(lists.readLater.count) read later"
    }
}
