import Foundation
import Logging
@testable import NewsgenBuild
import NewsgenConfig
import NewsgenFetch
import NewsgenModel
import NewsgenStore
import NewsgenTestSupport

extension NewsAPITestSupport {
    /// The fetch stage alone, with a memory store.
    static func fetchStage(_ config: SiteConfig, providers: [any SourceProvider], logger: Logger, store: MemoryStore = MemoryStore(),
                           now: Date = TestSupport.date("2026-11-21T12:00:00Z")) async -> [SourceReport] {
        await FetchStage(config: config, providers: providers, store: store, now: now,
                         offline: false, refresh: false, logger: logger).run()
    }
}
