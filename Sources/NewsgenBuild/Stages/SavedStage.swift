import Foundation
import Logging
import NewsgenModel
import NewsgenConfig
import NewsgenStore

/// Stage 4: read every saved file, merge them, and match each entry to an article
/// (shown now, or kept in the store from an earlier build).
struct SavedStage: Sendable {
    var config: SiteConfig
    var store: any ArticleStore
    var now: Date
    var logger: Logger

    struct Result: Sendable {
        var favorites: [SavedArticle]
        var readLater: [SavedArticle]
    }

    func run(sources: [SourceReport]) async throws(ConfigError) -> Result {
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
        let matcher = SavedMatcher(articles: sources.flatMap(\.articles))
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

        let result = Result(favorites: resolve(merged.favorites), readLater: resolve(merged.readLater))
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
}
