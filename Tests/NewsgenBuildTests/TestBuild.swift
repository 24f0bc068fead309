import Foundation
import Logging
import NewsgenBuild
import NewsgenConfig
import NewsgenFetch
import NewsgenStore
import NewsgenTestSupport

/// The one way these tests run a build: the configured sources read by the real feed and JSON
/// providers (over `http` when given, else local files only), without retries, at the clock's
/// `now`, into `store` (a fresh `MemoryStore` by default), with every log line recorded.
enum TestBuild {
    static func run(
        _ config: SiteConfig, options: Build.Options = Build.Options(), store: any ArticleStore = MemoryStore(), http: HTTPFetcher? = nil,
        storyPages: StoryPageFetcher? = nil, imageHTTP: HTTPFetcher? = nil, webSub: WebSubPings? = nil, providers: [any SourceProvider]? = nil,
        manifest: URL? = nil, at now: Date = Date()
    ) async throws(BuildError) -> (BuildReport, LogRecorder) {
        let (logger, recorder) = TestSupport.recordingLogger()
        let report = try await run(config, options: options, store: store, http: http, storyPages: storyPages, imageHTTP: imageHTTP,
                                   webSub: webSub, providers: providers, manifest: manifest, at: now, logger: logger)
        return (report, recorder)
    }

    /// The same, logging to `logger`.
    static func run(
        _ config: SiteConfig, options: Build.Options = Build.Options(), store: any ArticleStore = MemoryStore(), http: HTTPFetcher? = nil,
        storyPages: StoryPageFetcher? = nil, imageHTTP: HTTPFetcher? = nil, webSub: WebSubPings? = nil, providers: [any SourceProvider]? = nil,
        manifest: URL? = nil, at now: Date = Date(), logger: Logger
    ) async throws(BuildError) -> BuildReport {
        let build = Build(
            config: config, options: options,
            providers: providers ?? [
                FeedProvider(http: http, articlesPerSource: config.articlesPerSource, retry: .none),
                JSONNewsProvider(http: http, articlesPerSource: config.articlesPerSource, retry: .none),
            ],
            store: store, storyPages: storyPages, imageHTTP: imageHTTP, webSub: webSub, manifest: manifest, now: { now }, logger: logger
        )
        return try await build.run()
    }
}
