public import Foundation
public import Logging
public import NewsgenModel
public import NewsgenConfig
public import NewsgenFetch
public import NewsgenStore
import NewsgenRender

/// What a build did.
public struct BuildReport: Sendable {
    public var sources: [SourceReport]
    public var output: URL
    public var filesWritten: Int
    public var filesUnchanged: Int
    /// Files the published site already had as this build would make them: linked, not rendered.
    public var filesCarried: Int = 0
    /// Whether the build swapped a new site in; `false` when the output already held it and was left as it was.
    public var published = true
    /// Each stage with its duration in seconds, in order.
    public var timings: [(stage: BuildStage, seconds: Double)]

    public var totalSeconds: Double { timings.reduce(0) { $0 + $1.seconds } }

    /// The time the checks of rendered files took, summed over cores (they overlap rendering, so no stage shows them).
    public var checkingSeconds: Double = 0

    /// What validating cost: the checks made while rendering (summed over cores) plus the validate stage's own time.
    public var validationSeconds: Double {
        checkingSeconds + (timings.first { $0.stage == .validate }?.seconds ?? 0)
    }

    /// The exit status: 0 when every source is fresh, 3 when one was served from the cache after failing or not shown.
    public var exitStatus: Int32 { sources.allSatisfy(\.isFresh) ? 0 : 3 }
}

/// The pipeline of DESIGN.md: load templates, fetch, store, extract full text, fetch images, group stories, merge saved
/// lists, render, write, validate, publish, each a `BuildStep` run by one `StageClock`; then the WebSub hubs are told of
/// changed feeds. The configuration is loaded before (`SiteConfig.load`).
public struct Build: Sendable {
    public struct Options: Sendable {
        /// Make no request; build from the cache (and local files) alone.
        public var offline = false
        /// Ignore refresh intervals.
        public var refresh = false
        /// Render, write and validate every file, carrying nothing over from the published site.
        public var full = false
        /// Told as sources are fetched and files rendered (the line `build` shows on a terminal).
        package var progress: BuildProgress?

        public init(offline: Bool = false, refresh: Bool = false, full: Bool = false) {
            self.offline = offline
            self.refresh = refresh
            self.full = full
        }
    }

    public var config: SiteConfig
    public var options: Options
    public var providers: [any SourceProvider]
    /// NewsAPI's list of sources for the Sources tab; `nil` for none.
    public var catalog: NewsAPICatalog?
    public var store: any ArticleStore
    /// Fetches stories' own pages for sources with `"fullText": "extract"`; `nil` fetches none.
    public var storyPages: StoryPageFetcher?
    /// Fetches the images pages show under `"images": "local"`; `nil` fetches none.
    public var imageHTTP: HTTPFetcher?
    /// Pings the WebSub hubs for the feeds a publish changed (site.json's `websub`); `nil` pings none.
    public var webSub: WebSubPings?
    /// Where the record of what was published is kept (`Manifest.location(cache:)`), so the next build carries unchanged
    /// files over; `nil` renders every file every time.
    public var manifest: URL?
    public var now: @Sendable () -> Date
    public var logger: Logger

    public init(
        config: SiteConfig, options: Options = Options(), providers: [any SourceProvider], catalog: NewsAPICatalog? = nil,
        store: any ArticleStore, storyPages: StoryPageFetcher? = nil, imageHTTP: HTTPFetcher? = nil, webSub: WebSubPings? = nil,
        manifest: URL? = nil, now: @escaping @Sendable () -> Date = Date.init, logger: Logger
    ) {
        self.config = config
        self.options = options
        self.providers = providers
        self.catalog = catalog
        self.store = store
        self.storyPages = storyPages
        self.imageHTTP = imageHTTP
        self.webSub = webSub
        self.manifest = manifest
        self.now = now
        self.logger = logger
    }

    /// Runs the stages in order; the first that fails stops the build, and nothing is published.
    public func run() async throws(BuildError) -> BuildReport {
        let started = now()
        let publisher = Publisher(output: config.output, logger: logger)
        let staticFiles = try checkOutput(publisher)
        var clock = StageClock(logger: logger)
        let templates = try await clock.run(LoadTemplates(folder: config.templates, builtInIfMissing: !config.templatesIsExplicit, configFile: config.displayPath))
        async let available = catalog?.load(now: started, offline: options.offline, logger: logger)
        options.progress?.begin(.fetching, total: config.sources.count)
        let budget = FetchBudget(seconds: config.fetchBudgetSeconds)
        var fetch = Fetch(config: config, providers: providers, store: store, now: started, offline: options.offline,
                          refresh: options.refresh, logger: logger, progress: options.progress)
        fetch.budget = budget
        let fetched = try await clock.run(fetch)
        let stored = try await clock.run(Store(store: store, sourceIDs: Set(config.sources.map(\.id)), keepDays: config.keepDays,
                                               now: started, logger: logger))
        let stories = try await clock.run(ExtractFullText(config: config, store: store, pages: options.offline ? nil : storyPages,
                                                          budget: budget, now: started, logger: logger),
                                          ExtractFullText.Stories(sources: fetched, archive: stored.articles))
        let images = try await clock.run(LocalImages(config: config, store: store, http: options.offline ? nil : imageHTTP,
                                                     budget: budget, now: started, logger: logger), stories)
        let grouped = try await clock.run(GroupStories(enabled: config.groupStories, store: store, logger: logger), stories)
        let (sources, archive) = (stories.sources, stories.archive)
        let saved = try await clock.run(MergeSavedLists(config: config, store: store, now: started, logger: logger), sources)
        store.settle()
        let listed = ListedStories(sources)
        let published = PublishedRecord(file: manifest, publisher: publisher, ignoringLast: options.full)
        let content = SiteContent(config: config, sources: sources, favorites: saved.favorites, readLater: saved.readLater,
                                  archive: listed.sharingText(of: archive), generated: started,
                                  newsapiSources: await available, staticFiles: staticFiles, images: images.images,
                                  groups: grouped.groups, searchNumbering: published.searchNumbering)
        let input = published.input(of: content, templates: templates, listed: listed)
        if published.holdsSite(madeFrom: input) { return nothingPublished(sources, carried: published.publishedFiles.count, clock, publisher) }
        return try await publish(content, templates: templates, input: input, record: published, clock: &clock, publisher)
    }

    /// Renders `content` into a staging folder, writes, validates and publishes it, and records what was published; with
    /// every file as published already, publishes nothing.
    private func publish(_ content: SiteContent, templates: TemplateSet, input: Fingerprint?, record published: PublishedRecord,
                         clock: inout StageClock, _ publisher: Publisher) async throws(BuildError) -> BuildReport {
        let sources = content.sources
        options.progress?.begin(.rendering, total: 0)
        let (writer, reused) = try stagingWriter(publisher, record: published.previousSiteRecord)
        let rendered: Render.Output
        do {
            rendered = try await clock.run(Render(templates: templates, carrying: published.carrying, writer: writer,
                                                  baseURL: config.baseURL, progress: options.progress), content)
        } catch {
            await abandon(writer, publisher, keeping: false)
            throw error
        }
        if published.holds(rendered.site) {
            await abandon(writer, publisher, keeping: reused)
            published.recordUnchanged(madeFrom: input, logger: logger)
            return nothingPublished(sources, carried: rendered.site.carried.count, clock, publisher)
        }
        options.progress?.begin(.writing, total: rendered.site.paths.count)
        let staged = try await clock.run(Write(publisher: publisher, writer: writer, published: published.publishedFiles), rendered.site)
        let setAside: URL?
        let changedFeeds: [String]
        do {
            let carried = published.carriedFilesToCheck(in: rendered.site)
            options.progress?.begin(.validating, total: rendered.checked + carried.count)
            _ = try await clock.run(Validate(baseURL: config.baseURL, only: carried, files: rendered.site.paths + [Publisher.markerName],
                                             checkedBefore: (rendered.checked, rendered.problems)), staged.folder)
            changedFeeds = webSub == nil ? [] : WebSubPings.changedFeeds(among: rendered.site.rendered, staging: staged.folder,
                                                                       output: config.output)
            setAside = try await clock.run(Publish(publisher: publisher), staged.folder)
        } catch {
            publisher.discard(staged.folder)
            throw error
        }
        let keptPrevious = setAside.map(publisher.keepForNextBuild) ?? false
        published.recordPublished(rendered.site, staged: staged, input: input, keptPrevious: keptPrevious, logger: logger)
        await webSub?.published(changedFeeds)
        return BuildReport(sources: sources, output: config.output, filesWritten: staged.summary.written,
                           filesUnchanged: staged.summary.unchanged, filesCarried: staged.carried, timings: clock.timings,
                           checkingSeconds: rendered.checkSeconds)
    }

    /// Refuses, before any work, an output newsgen may not replace; returns the static files to publish.
    private func checkOutput(_ publisher: Publisher) throws(BuildError) -> [StaticFile] {
        do { try config.checkOutputOverlaps() } catch { throw BuildError(.config(error)) }
        do { try publisher.checkReplaceable() } catch { throw BuildError(.publish(error)) }
        do { return try config.staticFiles() } catch { throw BuildError(.config(error)) }
    }

    /// The writer of this build's staging folder: the previous site (`reused`, pruned from its record) or a new folder.
    private func stagingWriter(_ publisher: Publisher, record: URL?) throws(BuildError) -> (StagingWriter, reused: Bool) {
        let staging: Publisher.Staging
        do { staging = try publisher.makeStaging(reusingPrevious: true) } catch { throw BuildError(.publish(error)) }
        return (StagingWriter(staging: staging.folder, output: config.output, reused: staging.reused, record: record), staging.reused)
    }

    /// Stops `writer` and removes its staging folder, or keeps it as the previous site for the next build.
    private func abandon(_ writer: StagingWriter, _ publisher: Publisher, keeping: Bool) async {
        _ = try? await writer.finish()
        if keeping { publisher.keepForNextBuild(writer.staging) } else { publisher.discard(writer.staging) }
    }

    /// The report of a build that found the output already holds the site it would publish.
    private func nothingPublished(_ sources: [SourceReport], carried: Int, _ clock: StageClock, _ publisher: Publisher) -> BuildReport {
        publisher.removeLeftovers()
        logger.info("nothing changed: \(config.output.path) already holds these \(carried) files; 0 written, \(carried) carried, nothing published")
        return BuildReport(sources: sources, output: config.output, filesWritten: 0, filesUnchanged: 0, filesCarried: carried,
                           published: false, timings: clock.timings)
    }
}
