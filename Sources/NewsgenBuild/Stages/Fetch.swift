package import Foundation
package import Logging
package import NewsgenConfig
package import NewsgenFetch
package import NewsgenModel
package import NewsgenStore

/// Fetches every source (`FetchStage` does the work) and says per source what may be shown. A failing source is a report,
/// never a failure of the stage.
package struct Fetch: BuildStep {
    package static let stage = BuildStage.fetch

    package var config: SiteConfig
    package var providers: [any SourceProvider]
    package var store: any ArticleStore
    package var now: Date
    /// Make no request: show what the cache and local files hold.
    package var offline: Bool
    /// Ignore refresh intervals.
    package var refresh: Bool
    package var logger: Logger
    /// Told as each source is done.
    package var progress: BuildProgress?
    /// The build's fetch budget, shared with the stages that fetch after this one; `nil` starts one for this stage.
    package var budget: FetchBudget?

    package init(config: SiteConfig, providers: [any SourceProvider], store: any ArticleStore, now: Date,
                 offline: Bool, refresh: Bool, logger: Logger, progress: BuildProgress? = nil) {
        self.config = config
        self.providers = providers
        self.store = store
        self.now = now
        self.offline = offline
        self.refresh = refresh
        self.logger = logger
        self.progress = progress
    }

    package func run(_ input: Void) async -> [SourceReport] {
        await FetchStage(config: config, providers: providers, store: store, now: now,
                         offline: offline, refresh: refresh, logger: logger, progress: progress, budget: budget).run()
    }

    package func summary(of sources: [SourceReport]) -> String {
        let notFetched = sources.filter { if case .fetched = $0.status { false } else { true } }.count
        return "\(sources.count) sources (\(notFetched) from cache or unavailable), \(sources.reduce(0) { $0 + $1.articles.count }) articles"
    }
}
