public import Foundation
public import Logging
public import NewsgenModel
public import NewsgenConfig
public import NewsgenFetch
public import NewsgenStore
public import NewsgenRender
public import NewsgenValidate

/// Why a build published nothing. Each reads as one line naming the file, key or source.
public enum BuildError: Error, Sendable, CustomStringConvertible {
    case config(ConfigError)
    case templates(TemplateError)
    case validation(ValidationReport)
    case publish(PublishError)
    case locked(LockError)
    case store(StoreError)
    /// An error no stage expected; a defect of newsgen's, worth reporting.
    case unexpected(String)

    /// A failed validation lists this many problems, then how many more there are.
    static let problemsShown = 50

    public var description: String {
        switch self {
        case .config(let error): error.description
        case .templates(let error): error.description
        case .validation(let report):
            Self.describe(report)
        case .publish(let error): error.description
        case .locked(let error): error.description
        case .store(let error): error.description
        case .unexpected(let description): "unexpected error (please report it): \(description)"
        }
    }
}

extension BuildError {
    /// A failed validation: each distinct problem once (with how often it recurs), up to
    /// `problemsShown`, then how many more, then the summary.
    static func describe(_ report: ValidationReport) -> String {
        let groups = report.grouped
        var lines = groups.prefix(problemsShown).map { group in
            let others = group.count - 1
            guard others > 0 else { return group.first.description }
            let files = group.files > 1 ? " in \(group.files) files" : ""
            return "\(group.first) (and \(others) more like it\(files))"
        }
        if groups.count > problemsShown {
            let rest = groups.dropFirst(problemsShown).reduce(0) { $0 + $1.count }
            lines.append("… and \(rest) more")
        }
        lines.append("validation failed: \(report.summary); nothing was published")
        return lines.joined(separator: "\n")
    }
}

/// What a build did.
public struct BuildReport: Sendable {
    public var sources: [SourceReport]
    public var output: URL
    public var filesWritten: Int
    public var filesUnchanged: Int
    /// Each stage with its duration in seconds, in order.
    public var timings: [(stage: BuildStage, seconds: Double)]

    /// The time of all stages, in seconds.
    public var totalSeconds: Double { timings.reduce(0) { $0 + $1.seconds } }

    /// The validate stage's share of the build, from 0 to 1.
    public var validationShare: Double {
        let validation = timings.first { $0.stage == .validate }?.seconds ?? 0
        return totalSeconds > 0 ? validation / totalSeconds : 0
    }

    /// The exit status of the contract: 0 when every source is fresh, 3 when one was served
    /// from the cache after failing or could not be shown.
    public var exitStatus: Int32 { sources.allSatisfy(\.isFresh) ? 0 : 3 }
}

/// The pipeline of DESIGN.md: load templates, fetch, store, merge saved lists, render, write,
/// validate, publish. (Loading the configuration happens before: `SiteConfig.load`.)
public struct Build: Sendable {
    public struct Options: Sendable {
        /// Make no request; build from the cache (and local files) alone.
        public var offline = false
        /// Ignore refresh intervals.
        public var refresh = false

        public init(offline: Bool = false, refresh: Bool = false) {
            self.offline = offline
            self.refresh = refresh
        }
    }

    public var config: SiteConfig
    public var options: Options
    public var providers: [any SourceProvider]
    /// NewsAPI's list of sources for the Sources tab; `nil` for none.
    public var catalog: NewsAPICatalog?
    public var store: any ArticleStore
    public var now: @Sendable () -> Date
    public var logger: Logger

    public init(
        config: SiteConfig, options: Options = Options(), providers: [any SourceProvider], catalog: NewsAPICatalog? = nil,
        store: any ArticleStore, now: @escaping @Sendable () -> Date = Date.init, logger: Logger
    ) {
        self.config = config
        self.options = options
        self.providers = providers
        self.catalog = catalog
        self.store = store
        self.now = now
        self.logger = logger
    }

    public func run() async throws(BuildError) -> BuildReport {
        do {
            return try await stages()
        } catch let error as BuildError {
            throw error
        } catch let error as TemplateError {
            throw .templates(error)
        } catch let error as PublishError {
            throw .publish(error)
        } catch let error as ConfigError {
            throw .config(error)
        } catch {
            throw .unexpected(String(describing: error))
        }
    }

    private func stages() async throws -> BuildReport {
        let started = now()
        var clock = StageClock(logger: logger)
        let publisher = Publisher(output: config.output, logger: logger)
        // Refuse before any work: the output must be a folder of its own that newsgen may replace.
        try config.checkOutputOverlaps()
        try publisher.checkReplaceable()

        let templates = try await clock.run(.loadTemplates) { try await TemplateSet.load(folder: config.templates, builtInIfMissing: !config.templatesIsExplicit) }
        async let available = catalog?.load(now: started, offline: options.offline, logger: logger)
        let sources = await clock.run(.fetch) {
            await FetchStage(config: config, providers: providers, store: store, now: started,
                             offline: options.offline, refresh: options.refresh, logger: logger).run()
        } detail: { sources in
            let notFetched = sources.filter { if case .fetched = $0.status { false } else { true } }.count
            return "\(sources.count) sources (\(notFetched) from cache or unavailable), \(sources.reduce(0) { $0 + $1.articles.count }) articles"
        }
        let archive = await clock.run(.store) {
            await maintainCache(now: started)
        } detail: { $0.summary }
        let saved = try await clock.run(.mergeSavedLists) {
            try await SavedStage(config: config, store: store, now: started, logger: logger).run(sources: sources)
        } detail: { "\($0.favorites.count) favorites, \($0.readLater.count) read later" }
        let content = SiteContent(config: config, sources: sources, favorites: saved.favorites, readLater: saved.readLater,
                                  archive: archive.articles, generated: started, newsapiSources: await available)
        let files = try await clock.run(.render) {
            try await SiteRenderer(templates: templates, content: content).render()
        } detail: { "\($0.count) files" }

        let staging = try publisher.makeStaging()
        do {
            let summary = try await clock.run(.write) {
                try await publisher.write(files, to: staging)
            } detail: { "\($0.written) written, \($0.unchanged) unchanged" }
            let validation = await clock.run(.validate) {
                await SiteValidator.validate(directory: staging, baseURL: config.baseURL)
            } detail: { "\($0.filesChecked) files, \($0.problems.count) problems" }
            guard validation.isValid else { throw BuildError.validation(validation) }
            try await clock.run(.publish) { try publisher.swap(in: staging) }
            return BuildReport(sources: sources, output: config.output, filesWritten: summary.written,
                               filesUnchanged: summary.unchanged, timings: clock.timings)
        } catch {
            publisher.discard(staging)
            throw error
        }
    }
}

extension Build {
    /// Stage 3's upkeep: retention (articles no source lists, nobody saved, and not seen for
    /// keepDays are removed), then the archive (everything kept for the configured sources).
    /// A cache that cannot do this never sinks the build: the pages show what was fetched now.
    private func maintainCache(now: Date) async -> (articles: [Article], summary: String) {
        do {
            let pruned = try await store.prune(notSeenSince: now.addingTimeInterval(-TimeInterval(config.keepDays) * 86_400))
            let statistics = try await store.statistics()
            let articles = try await store.archive(of: Set(config.sources.map(\.id)))
            return (articles, "cache \(statistics)\(pruned > 0 ? ", \(pruned) pruned" : "")")
        } catch {
            logger.warning("cache: \(error)")
            return ([], "cache unavailable")
        }
    }
}

/// The stages of a build, in the order they run, named as `--verbose` shows them.
public enum BuildStage: String, CaseIterable, Sendable {
    case loadTemplates = "load templates"
    case fetch
    case store
    case mergeSavedLists = "merge saved lists"
    case render
    case write
    case validate
    case publish

    /// Its place in the build, from 1.
    var number: Int { (Self.allCases.firstIndex(of: self) ?? 0) + 1 }
}

/// Times the stages and logs each as `[i/n] name detail 0.12 s` (shown with --verbose).
struct StageClock {
    let logger: Logger
    private(set) var timings: [(stage: BuildStage, seconds: Double)] = []

    init(logger: Logger) {
        self.logger = logger
    }

    mutating func run<T>(_ stage: BuildStage, _ body: () async throws -> T, detail: (T) -> String = { _ in "" }) async rethrows -> T {
        let start = ContinuousClock.now
        let result = try await body()
        finish(stage, start: start, detail: detail(result))
        return result
    }

    private mutating func finish(_ stage: BuildStage, start: ContinuousClock.Instant, detail: String) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        timings.append((stage, seconds))
        let text = detail.isEmpty ? "" : " \(detail)"
        logger.info("[\(stage.number)/\(BuildStage.allCases.count)] \(stage.rawValue)\(text) \(String(format: "%.2f", seconds)) s")
    }
}
