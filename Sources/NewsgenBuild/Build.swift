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
    /// Whether the build swapped a new site in; `false` when the output already held the site
    /// it would have published, which it then left as it was.
    public var published = true
    /// Each stage with its duration in seconds, in order.
    public var timings: [(stage: BuildStage, seconds: Double)]

    /// The time of all stages, in seconds.
    public var totalSeconds: Double { timings.reduce(0) { $0 + $1.seconds } }

    /// The time the checks of the rendered files took while rendering, summed over the cores
    /// they ran on (they overlap rendering and writing, so no stage's time shows them).
    public var checkingSeconds: Double = 0

    /// What validating the site cost: the checks made while rendering (summed over the cores)
    /// and the validate stage's own time.
    public var validationSeconds: Double {
        checkingSeconds + (timings.first { $0.stage == .validate }?.seconds ?? 0)
    }

    /// The exit status of the contract: 0 when every source is fresh, 3 when one was served
    /// from the cache after failing or could not be shown.
    public var exitStatus: Int32 { sources.allSatisfy(\.isFresh) ? 0 : 3 }
}

/// The pipeline of DESIGN.md: load templates, fetch, store, merge saved lists, render, write,
/// validate, publish, each a `BuildStep` run by one `StageClock`. (Loading the configuration
/// happens before: `SiteConfig.load`.)
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
    /// Where the record of what was published is kept (`Manifest.location(cache:)`), so that the
    /// next build carries unchanged files over; `nil` renders every file every time.
    public var manifest: URL?
    public var now: @Sendable () -> Date
    public var logger: Logger

    public init(
        config: SiteConfig, options: Options = Options(), providers: [any SourceProvider], catalog: NewsAPICatalog? = nil,
        store: any ArticleStore, manifest: URL? = nil, now: @escaping @Sendable () -> Date = Date.init, logger: Logger
    ) {
        self.config = config
        self.options = options
        self.providers = providers
        self.catalog = catalog
        self.store = store
        self.manifest = manifest
        self.now = now
        self.logger = logger
    }

    /// Runs the stages in order; the first that fails stops the build, and nothing is published.
    public func run() async throws(BuildError) -> BuildReport {
        let started = now()
        Self.configureMemory()
        let publisher = Publisher(output: config.output, logger: logger)
        // Refuse before any work: the output must be a folder of its own that newsgen may replace.
        do { try config.checkOutputOverlaps() } catch { throw BuildError(.config(error)) }
        do { try publisher.checkReplaceable() } catch { throw BuildError(.publish(error)) }
        let staticFiles: [StaticFile]
        do { staticFiles = try config.staticFiles() } catch { throw BuildError(.config(error)) }

        var clock = StageClock(logger: logger)
        let templates = try await clock.run(LoadTemplates(folder: config.templates, builtInIfMissing: !config.templatesIsExplicit))
        async let available = catalog?.load(now: started, offline: options.offline, logger: logger)
        // The input's fingerprint begins with what is known before fetching, made meanwhile.
        async let setup = manifest == nil ? nil : InputFingerprint.Setup(config: config, templates: templates, staticFiles: staticFiles)
        // What the last build published: read while the sources are fetched, compared with the
        // output on another core while the stages below run (after fetching, which can take
        // minutes, so the output is examined just before it is used).
        async let lastManifest = options.full ? nil : manifest.flatMap { Manifest.load(from: $0, output: publisher.output, keepingLinesOf: .files) }
        // The cache may still be opening (`OpeningStore`): what the lines above started went on meanwhile.
        do { try await store.ready() } catch { throw BuildError(.store(error)) }
        options.progress?.begin(.fetching, total: config.sources.count)
        let sources = try await clock.run(Fetch(config: config, providers: providers, store: store, now: started,
                                                offline: options.offline, refresh: options.refresh, logger: logger,
                                                progress: options.progress))
        let lastPublished = await lastManifest
        // The output is compared with its manifest on a thread of its own: at once when no source
        // brought anything new (the build may stop before rendering, and needs it then); else
        // once the content is gathered, beside the building of the site's model (which needs it
        // only after), rather than beside the reading of the archive, which it slowed.
        // A build with new content leaves the output's folders unexamined: it publishes unless
        // every file comes out as published, and only then needs to know that the output holds
        // nothing more (`Manifest.compared`).
        let readNow = sources.contains(where: \.readNow)
        let compare = { @Sendable (manifest: Manifest) in Background { manifest.compared(with: publisher, examiningFolders: !readNow) } }
        let comparedEarly = readNow ? nil : lastPublished.map(compare)
        // A build with new content most likely publishes, staged in the previous site: that
        // site is examined against its record now, while the archive is read, rather than
        // beside the building of the site's model (`PreviousSite`).
        let record = manifest.map(Manifest.previousSiteLocation(manifest:))
        let examinedPrevious = readNow ? record.map { record in
            Background { PreviousSite.examine(publisher.previousSite, record: record, output: publisher.output, sharingPathsWith: lastPublished) }
        } : nil
        // The sources' part of the input's fingerprint is made on another core while the archive is read.
        async let sourcesPart = Self.sourcesPart(sources, fingerprinted: manifest != nil)
        let archive = try await clock.run(Store(store: store, sourceIDs: Set(config.sources.map(\.id)), keepDays: config.keepDays,
                                                now: started, logger: logger))
        let saved = try await clock.run(MergeSavedLists(config: config, store: store, now: started, logger: logger), sources)
        // Nothing more is written to the cache: its log goes into its file now, beside the
        // building of the site (`ArticleStore.settle`).
        store.settle()
        // Not beside the merging, in an `async let`: that task would hold the archive's own
        // copies until the build ends (at 100,000 stories, about 100 MiB more at the peak).
        let (listed, fingerprinted) = await sourcesPart
        let shared = Self.sharingText(of: archive.articles, with: listed)
        let content = SiteContent(config: config, sources: sources, favorites: saved.favorites, readLater: saved.readLater,
                                  archive: shared.archive, generated: started, newsapiSources: await available,
                                  staticFiles: staticFiles)
        // The archive's own copies of the stories the sources list, replaced by theirs: freed
        // on a thread of their own, not by the one that goes on to build the site's model.
        Self.releaseLater(archive)
        let setupPart = await setup
        let input = fingerprinted.flatMap { sources in
            setupPart.map { Self.inputFingerprint(content, unlisted: shared.unlisted, setup: $0, sources: sources, logger: logger) }
        }
        // What the published site already holds as this build would make it is carried over.
        let comparing = comparedEarly ?? lastPublished.map(compare)
        if let input, lastPublished?.input == input, let previous = comparing?.value.examiningFolders(of: publisher),
           Self.isUnchanged(input, published: previous) {
            Self.releaseLater((content, previous, listed))
            return Self.nothingPublished(carried: previous.manifest.files.count, sources: sources, output: config.output,
                                         timings: clock.timings, publisher: publisher, logger: logger)
        }
        options.progress?.begin(.rendering, total: 0)
        // Files are written into the staging folder as they are rendered (and checked), on a
        // thread of their own; the folder is discarded if anything after fails.
        let made: Publisher.Staging
        do { made = try publisher.makeStaging(reusingPrevious: true) } catch { throw BuildError(.publish(error)) }
        let staging = made.folder
        // The previous site, when it is the one its record describes, is pruned without reading
        // its folders. A build with new content examined it after fetching; any other build's
        // writer reads the record on its thread while the site is planned (a build with nothing
        // new, which needs no record, spent 0.02 s more reading it beside the stages before).
        let writer = StagingWriter(staging: staging, output: config.output, reused: made.reused, record: record,
                                   examined: examinedPrevious)
        let rendered: Render.Output
        do {
            rendered = try await clock.run(Render(templates: templates, carryingOnceModelled: { comparing?.value.carry },
                                                  writer: writer, baseURL: config.baseURL, progress: options.progress), content)
        } catch {
            _ = try? await writer.finish()
            publisher.discard(staging)
            throw error
        }
        let site = rendered.site
        // Made by now: planning asked for it.
        let previous = comparing?.value
        if let previous, Self.isCurrent(site, published: previous, publisher: publisher) {
            // Nothing to publish: linking, validating and swapping would only make the same site again.
            _ = try? await writer.finish()
            if made.reused { await publisher.keepForNextBuild(staging) } else { publisher.discard(staging) }
            // Other inputs gave the same files: recorded, the next build with these inputs stops before rendering.
            if let manifest, let input, previous.manifest.input != input {
                var updated = previous.manifest
                updated.input = input
                Self.save(updated, to: manifest, logger: logger)
            }
            return Self.nothingPublished(carried: site.carried.count, sources: sources, output: config.output,
                                         timings: clock.timings, publisher: publisher, logger: logger)
        }
        options.progress?.begin(.writing, total: site.paths.count)
        let staged = try await clock.run(Write(publisher: publisher, writer: writer, published: previous?.manifest.files ?? [:]), site)
        if made.reused {
            logger.debug("staged in the previous site, pruned \(writer.keptFromPrevious.fromRecord ? "from its record" : "by reading its folders")")
        }
        let setAside: URL?
        let recorded: (text: Manifest.Text, spliced: Bool)?
        do {
            // What is published is recorded (and the record's text made) while the site is
            // validated and the swap waits for the disk: the staging folder's files and folders
            // keep their identities when it takes the output's name. It is opened first, as the
            // swap may give its name to the previous site.
            let stagedFolder = manifest == nil ? nil : OpenFolder(staged.folder)
            async let recording = stagedFolder.map {
                Self.recording(site, carriedFrom: previous, examining: $0, staged: staged, layout: rendered.layout,
                               output: config.output, input: input)
            }
            // Rendered files were checked as they were made. Carried files were checked when they
            // were published: when no file went away, every link of theirs still resolves, so they
            // need no check; otherwise they are read and checked again.
            let removed = previous.map { Self.removesFiles(site, from: $0.manifest) } ?? true
            let carried: Set<String> = removed ? Set(site.carried) : []
            options.progress?.begin(.validating, total: rendered.checked + carried.count)
            _ = try await clock.run(Validate(baseURL: config.baseURL, only: carried, files: site.paths + [Publisher.markerName],
                                             checkedBefore: (rendered.checked, rendered.problems)), staged.folder)
            setAside = try await clock.run(Publish(publisher: publisher), staged.folder)
            // Had the folder not opened, the published output is examined.
            recorded = manifest == nil ? nil : await recording
                ?? Self.recording(site, carriedFrom: previous, examining: nil, output: config.output, input: input)
        } catch {
            publisher.discard(staged.folder)
            throw error
        }
        // The previous site is kept (never served) for the next build to update in place.
        if let setAside, await publisher.keepForNextBuild(setAside) {
            Self.keepRecord(of: previous, manifest: manifest, at: record)
        }
        if let manifest, let recorded {
            if recorded.spliced { logger.debug("recorded what was published in the last record's lines, the changed ones made again") }
            Self.save(recorded.text, to: manifest, logger: logger)
        }
        // The writer too: what it kept of the previous site (ten thousand paths) took a
        // new-story build's end about 0.007 s to free.
        Self.releaseLater((content, site, previous, recorded, writer, staged, rendered, listed, saved))
        return BuildReport(sources: sources, output: config.output, filesWritten: staged.summary.written,
                           filesUnchanged: staged.summary.unchanged, filesCarried: staged.carried, timings: clock.timings,
                           checkingSeconds: rendered.checkSeconds)
    }

    /// How the C allocator should serve a build (`Memory`): called first thing by the command,
    /// before its threads allocate, and again by each build (it only sets options).
    package static func configureMemory() {
        Memory.returnLargeBlocks()
        Memory.limitArenas()
    }

    /// Hands values the build is done with (its stories, its files' records) to a thread of
    /// their own to free: a process about to exit need not wait while ten thousand stories and
    /// records are freed one by one (about 0.02 s of a cron run). A process that goes on (the
    /// tests) frees them meanwhile. Values only: nothing whose freeing does anything else.
    static func releaseLater(_ values: some Sendable) {
        Thread.detachNewThread { withExtendedLifetime(values) {} }
    }

    /// Whether `site` lacks a file the site `published` had. The site's paths are distinct: when
    /// as many of them as `published` has files are among those files, they are all of them.
    /// Every carried path is one `published` records (a file is carried only then), so only the
    /// rendered paths are looked up (a handful, against ten thousand carried).
    static func removesFiles(_ site: RenderedSite, from published: Manifest) -> Bool {
        assert(site.carried.allSatisfy { published.files[$0] != nil }, "a carried file the published site does not record")
        return site.carried.count + site.rendered.count { published.files[$0] != nil } < published.files.count
    }

    /// Whether the output already is the site this build would publish: every file carried
    /// (none rendered), the same set of files as the manifest, and nothing else in the folder.
    /// Each carried file was found to be the very file the manifest recorded (inode, size,
    /// time), and the manifest is saved only after its site was swapped in, so a build that
    /// crashed before saving it left a manifest whose files differ from the output's: then this
    /// is false, and the build publishes as usual. The output's folders are examined last,
    /// when they were not yet and the rest holds.
    static func isCurrent(_ site: RenderedSite, published: Manifest.Comparison, publisher: Publisher) -> Bool {
        guard published.filesAreIntact, published.foldersAreIntact != false, site.rendered.isEmpty,
              site.carried.count == published.manifest.files.count,
              published.manifest.files.keys.allSatisfy(Set(site.carried).contains)
        else { return false }
        return published.examiningFolders(of: publisher).isIntact
    }

    /// The archive with each story that a source lists now, as that source lists it (equal in
    /// every field), replaced by the source's copy: the two then share their text in memory
    /// instead of holding it twice. At 100,000 stories, every one of them listed, the archive's
    /// own copies were 86 MB of the build's peak. On both cores: comparing ten thousand
    /// stories field by field kept one core busy while the other waited.
    ///
    /// Also the archived stories no source lists as they are, in the archive's order: the input
    /// fingerprint feeds those (`InputFingerprint.of`), found here rather than by looking every
    /// story's id up again.
    static func sharingText(of archive: [Article], with listed: ListedStories) -> (archive: [Article], unlisted: [Article]) {
        let found = Parallel.inParts(archive) { part in part.map { story in listed.copy(of: story).map { ($0, true) } ?? (story, false) } }
        return (found.map(\.0), found.compactMap { $0.1 ? nil : $0.0 })
    }

    /// What the sources list, by id, and (when there is a manifest to compare it with) the
    /// sources' part of the input's fingerprint.
    private static func sourcesPart(_ sources: [SourceReport], fingerprinted: Bool) -> (ListedStories, InputFingerprint.Sources?) {
        let listed = ListedStories(sources)
        return (listed, fingerprinted ? InputFingerprint.Sources(sources) : nil)
    }

    /// The fingerprint of the build's whole input, and (with --verbose) how long it took.
    private static func inputFingerprint(_ content: SiteContent, unlisted: [Article], setup: InputFingerprint.Setup,
                                         sources: InputFingerprint.Sources, logger: Logger) -> Fingerprint {
        let start = ContinuousClock.now
        let input = InputFingerprint.of(content, unlisted: unlisted, setup: setup, sources: sources)
        logger.debug("input fingerprint of \(content.archive.count) archived stories in \(Self.seconds(since: start)) s")
        return input
    }

    /// Whether the published site was made from this very input and is still, file for file,
    /// what the manifest recorded (nothing edited, removed or added by hand; a build that
    /// crashed between the swap and saving the manifest left a manifest that does not match).
    static func isUnchanged(_ input: Fingerprint, published: Manifest.Comparison) -> Bool {
        published.manifest.input == input && published.isIntact
    }

    /// The report of a build that found the output already holds the site it would publish.
    private static func nothingPublished(carried: Int, sources: [SourceReport], output: URL, timings: [(stage: BuildStage, seconds: Double)],
                                         publisher: Publisher, logger: Logger) -> BuildReport {
        // Nothing to publish: staging, linking, validating and swapping would only make the same site again.
        publisher.removeLeftovers()
        logger.info("nothing changed: \(output.path) already holds these \(carried) files; 0 written, \(carried) carried, nothing published")
        return BuildReport(sources: sources, output: output, filesWritten: 0, filesUnchanged: 0, filesCarried: carried, published: false,
                           timings: timings)
    }

    /// The text of the manifest of the site in `folder` (by default `output`), published as
    /// `output`. Carried files are the previous site's own, linked: recorded as `previous` found
    /// them, not examined again. A staging folder pruned from its record (`staged`) has its
    /// folders recorded from there, but those above a path that was written, linked or removed.
    /// Then the lines of what is recorded as before are copied from the last manifest and the
    /// record (`Manifest.splicedText`), when they were kept.
    private static func recording(_ site: RenderedSite, carriedFrom previous: Manifest.Comparison?, examining folder: OpenFolder?,
                                  staged: Write.Staged? = nil, layout: SiteLayout? = nil, output: URL,
                                  input: Fingerprint?) -> (text: Manifest.Text, spliced: Bool) {
        // Every file of the site was rendered or carried: those not rendered are the carried ones
        // (ten thousand, against a handful rendered, so not copied into a dictionary of their own),
        // each carried because `previous` records it with the fingerprint it has now.
        let rendered = site.rendered
        if let previous, let folder, let staged, let recordedFolders = staged.recordedFolderLines, let layout,
           let text = Manifest.splicedText(site.fingerprints, rendered: rendered, previous: previous.manifest,
                                           recordedFolders: recordedFolders, changed: staged.changed, layout: layout,
                                           examining: folder, output: output, input: input) {
            return (text, true)
        }
        let folders = staged.flatMap { staged in
            staged.recordedFolders.map { Manifest.KnownFolders(recorded: $0, changed: rendered + staged.changed) }
        }
        let manifest = Manifest.recording(site.fingerprints, output: output, examining: folder, input: input,
                                          previous: previous?.manifest.files ?? [:], rendered: Set(rendered), folders: folders,
                                          layout: layout)
        return (manifest.textParts, false)
    }

    /// Keeps the record of the site a swap set aside: the manifest it was published with,
    /// renamed (writing ten thousand records again cost a cron run 0.03 s), when its files were
    /// found as recorded. Otherwise none is kept, and the next build reads that site's folders
    /// instead: nothing to warn of. Its folders need not have been examined: the next build
    /// uses the record only once it found every folder as recorded (`Manifest.listing(of:)`).
    private static func keepRecord(of previous: Manifest.Comparison?, manifest: URL?, at record: URL?) {
        guard let record else { return }
        if let manifest, previous?.filesAreIntact == true, previous?.foldersAreIntact != false,
           rename(manifest.path, record.path) == 0 { return }
        try? FileManager.default.removeItem(at: record)
    }

    private static func save(_ record: Manifest, to file: URL, logger: Logger) {
        save(record.textParts, to: file, logger: logger)
    }

    /// Saves a manifest's text (`Manifest.textParts`).
    private static func save(_ record: Manifest.Text, to file: URL, logger: Logger) {
        do {
            try Manifest.save(record, to: file)
        } catch {
            // The site is published; without a manifest the next build renders everything.
            logger.warning("\(file.path): cannot record what was published (\(FileProblem.describe(error))); the next build renders every page")
        }
    }

    private static func seconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        return String(format: "%.3f", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
