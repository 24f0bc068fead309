import Foundation
public import Logging
public import NewsgenConfig
import NewsgenFetch
import NewsgenRender
import NewsgenStore

extension Build {
    /// One build wired with the real parts, as `newsgen build` and `serve` run it: the lock (waiting only with
    /// `waitForLock`), the SQLite cache, HTTP clients (none under `--offline`), every provider and NewsAPI's source list.
    /// The clients are shut down and the lock released before it returns.
    public static func runStandard(
        config: SiteConfig, options: Options, waitForLock: Bool, logger: Logger
    ) async throws(BuildError) -> BuildReport {
        let lock: BuildLock
        do {
            lock = try await BuildLock(path: config.cache.deletingLastPathComponent().appendingPathComponent("build.lock"), wait: waitForLock)
        } catch {
            throw BuildError(.locked(error))
        }
        defer { withExtendedLifetime(lock) {} }
        let store: SQLiteStore
        do {
            store = try SQLiteStore.open(at: config.cache, logger: logger, digester: Fingerprint.articleDigester)
        } catch {
            throw BuildError(.store(error))
        }
        let http = options.offline ? nil : HTTPFetcher()
        // NewsAPI requests carry the key in a header, which must not follow a redirect.
        let keyHTTP = options.offline ? nil : HTTPFetcher(followRedirects: false)
        // Stories' own pages, for sources with "fullText": "extract": a client of its own, with a smaller body limit.
        let storyPages = options.offline || !config.sources.contains(where: { $0.fullText == .extract }) ? nil : StoryPageFetcher()
        // Images under "images": "local": a client of their own, with the image byte cap.
        let imageHTTP = options.offline || config.images != .local ? nil : HTTPFetcher(maximumBytes: LocalImages.maximumBytes)
        // The WebSub hubs' pings: recorded offline, sent otherwise (when site.json's websub pings after a build).
        let hubHTTP = options.offline || config.websub == nil ? nil : HTTPFetcher()
        let webSub = config.websub.map { settings in
            WebSubPings(settings: settings, baseURL: config.baseURL, cache: config.cache, http: hubHTTP,
                        timeout: .seconds(config.timeoutSeconds), logger: logger)
        }
        let build = Build(
            config: config,
            options: options,
            providers: [
                FeedProvider(http: http, articlesPerSource: config.articlesPerSource, logger: logger),
                NewsAPIProvider(config: config, http: keyHTTP, logger: logger),
                JSONNewsProvider(http: http, articlesPerSource: config.articlesPerSource, logger: logger),
            ],
            catalog: NewsAPICatalog(config: config, http: keyHTTP, logger: logger),
            store: store,
            storyPages: storyPages,
            imageHTTP: imageHTTP,
            webSub: webSub,
            manifest: Manifest.location(cache: config.cache),
            logger: logger
        )
        let result: Result<BuildReport, BuildError>
        do {
            result = .success(try await build.run())
        } catch {
            result = .failure(error)
        }
        for fetcher in [http, keyHTTP, storyPages?.http, imageHTTP, hubHTTP].compactMap({ $0 }) {
            do {
                try await fetcher.shutdown()
            } catch {
                logger.debug("HTTP client shutdown: \(error)")
            }
        }
        store.close()
        return try result.get()
    }
}
