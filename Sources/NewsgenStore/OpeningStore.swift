package import Foundation
package import NewsgenModel

/// The cache while it opens on a thread of its own, then the cache: each call waits until it
/// is open (the first one, at most), and fails as opening failed.
///
/// Opening the cache writes the start of its log (`SQLiteStore.open`: the database pool makes
/// the log non-empty) and waits for the disk to flush it: 10–41 ms of every new-story build on
/// this project's machines, on the build's main path with nothing else to do. Opened on a
/// thread of its own once the build holds its lock, the flush is waited for while the build
/// checks its output, loads its templates and starts reading the last manifest; the build asks
/// for the cache just before it fetches (`ready()`), and fails there if it could not be opened.
package final class OpeningStore: ArticleStore {
    private let opening: Background<Result<SQLiteStore, StoreError>>

    /// Starts `open` on a thread of its own.
    package init(_ open: @escaping @Sendable () throws(StoreError) -> SQLiteStore) {
        opening = Background { Result { () throws(StoreError) in try open() } }
    }

    /// The cache once open, or why it could not be opened.
    private func opened() throws(StoreError) -> SQLiteStore {
        try opening.value.get()
    }

    package func ready() async throws(StoreError) {
        _ = try opened()
    }

    package func states(of sourceIDs: [String]) async throws(StoreError) -> [String: SourceState] {
        try await opened().states(of: sourceIDs)
    }

    package func lists(of sourceIDs: [String]) async throws(StoreError) -> [String: [Article]] {
        try await opened().lists(of: sourceIDs)
    }

    package func archive(of sourceIDs: Set<String>) async throws(StoreError) -> [Article] {
        try await opened().archive(of: sourceIDs)
    }

    package func recordSuccess(of sourceID: String, content: SourceContent, at date: Date) async throws(StoreError) {
        try await opened().recordSuccess(of: sourceID, content: content, at: date)
    }

    package func recordNotModified(of sourceIDs: [String], at date: Date) async throws(StoreError) {
        try await opened().recordNotModified(of: sourceIDs, at: date)
    }

    package func recordFailure(of sourceID: String, error: SourceError, at date: Date) async throws(StoreError) {
        try await opened().recordFailure(of: sourceID, error: error, at: date)
    }

    package func keepSaved(_ saved: [SavedSnapshot], at date: Date) async throws(StoreError) {
        try await opened().keepSaved(saved, at: date)
    }

    package func savedArticles(ids: Set<String>) async throws(StoreError) -> [String: Article] {
        try await opened().savedArticles(ids: ids)
    }

    package func prune(notSeenSince cutoff: Date) async throws(StoreError) -> Int {
        try await opened().prune(notSeenSince: cutoff)
    }

    package func statistics() async throws(StoreError) -> StoreStatistics {
        try await opened().statistics()
    }

    package func settle() {
        (try? opened())?.settle()
    }

    /// Closes the cache once it is open (`SQLiteStore.close`); nothing when it could not be opened.
    package func close() {
        (try? opened())?.close()
    }
}
