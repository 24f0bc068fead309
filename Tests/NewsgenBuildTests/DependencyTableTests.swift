import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenRender
@testable import NewsgenBuild
import NewsgenTestSupport

/// The table a cron run's fast path would decide by (docs/incremental-builds.md, "What each
/// file shows"), checked against what builds do before anything depends on it.
///
/// Random cron histories (`CronHistoryTests.World`) are built run after run, every file
/// rendered. The table is written here as a key for each file: what the file shows, with every
/// story it lists read as a fast path's record would hold it (the digest of its fields, which
/// the cache keeps, and its page's path), and a global part that takes every file with it when
/// it changes (the configuration, the sources' names and sections, the saved lists, the tags
/// with pages and their names, the front page's sections). Between two runs whose global
/// parts are equal, every file whose bytes changed must be one whose key changed: a file the
/// table does not name would be carried with its old bytes by a fast path built on it.
@Suite("The fast path's dependency table")
struct DependencyTableTests {
    typealias World = CronHistoryTests.World
    typealias Change = CronHistoryTests.Change

    /// One build's files and what the table reads of it.
    struct Built {
        var files: [String: Data]
        var model: SiteModelBuilder
        /// Every path of the site, in the plan's order.
        var paths: [String]
        var assets: Set<String>
    }

    /// The stages a build runs, and every file rendered (nothing published, nothing carried).
    static func build(_ world: World, copy: CronHistoryTests.Copy) async throws -> Built {
        let config = try copy.config(world)
        let logger = TestSupport.recordingLogger().0
        let store = try SQLiteStore.open(at: config.cache, logger: logger, now: world.now, digester: Fingerprint.articleDigester)
        defer { store.close() }
        // The feeds' files count as settled, as in `CronHistoryTests`.
        let clock: @Sendable () -> Date = { Date().addingTimeInterval(3600) }
        let providers: [any SourceProvider] = [FeedProvider(http: nil, articlesPerSource: config.articlesPerSource, retry: .none, now: clock)]
        let sources = await Fetch(config: config, providers: providers, store: store, now: world.now, offline: false, refresh: true,
                                  logger: logger).run(())
        let archive = await Store(store: store, sourceIDs: Set(config.sources.map(\.id)), keepDays: config.keepDays, now: world.now,
                                  logger: logger).run(())
        let saved = try await MergeSavedLists(config: config, store: store, now: world.now, logger: logger).run(sources)
        let content = SiteContent(config: config, sources: sources, favorites: saved.favorites, readLater: saved.readLater,
                                  archive: archive.articles, generated: world.now)
        let templates = try TemplateSet.builtIn()
        // Planned once: its paths, in order, and every file made from it.
        let plan = try SiteRenderer(templates: templates, content: content).plan(carrying: nil)
        let files = try await plan.run().files
        return Built(files: Dictionary(files.map { ($0.path, $0.data) }, uniquingKeysWith: { first, _ in first }),
                     model: SiteModelBuilder(content: content), paths: plan.paths, assets: Set(templates.assets.map(\.path)))
    }

    /// The part of the input that, when it changes, the table gives up on: every file is named.
    static func global(_ built: Built) -> Fingerprint {
        let model = built.model
        var hasher = Fingerprint.Hasher()
        hasher.add(reflecting: model.content.config)
        // What a row shows of its source.
        for source in model.content.sources {
            hasher.add(source.id)
            hasher.add(source.name)
            hasher.add(source.config.category)
        }
        for kind in SavedListKind.allCases {
            for saved in model.content.saved(kind) {
                hasher.add(reflecting: saved.entry)
                hasher.add(saved.matched)
                hasher.add(digestOf: saved.article)
                hasher.add(model.articlePath(saved.article))
            }
        }
        // The tags with pages, as rows link and name them.
        for tag in model.tags {
            hasher.add(tag.slug)
            hasher.add(tag.name)
        }
        for category in model.categories {
            hasher.add(category.name)
            hasher.add(category.slug)
        }
        return hasher.finish()
    }

    /// What the table says each file shows, by path; a file of the site the table has no row for
    /// is an error.
    static func shown(_ built: Built) throws -> [String: Fingerprint] {
        let model = built.model
        var keys: [String: Fingerprint] = [:]
        func key(_ path: String, _ feed: (inout Fingerprint.Hasher) -> Void) {
            var hasher = Fingerprint.Hasher()
            hasher.add(path)
            feed(&hasher)
            keys[path] = hasher.finish()
        }
        func page(_ page: String, _ feed: (inout Fingerprint.Hasher) -> Void) {
            key(SitePaths.file(forPage: page), feed)
        }
        // A story as a row shows it, besides the global part: every field, and its page.
        func rows(_ stories: some Collection<Article>, into hasher: inout Fingerprint.Hasher) {
            hasher.add(stories.count)
            for story in stories {
                hasher.add(digestOf: story)
                hasher.add(model.articlePath(story))
            }
        }
        // What a source's own pages and the Sources tab show of it, besides its name and section.
        func state(of source: SourceReport, into hasher: inout Fingerprint.Hasher) {
            let status = SourceStatusText(source.status)
            hasher.add(status.state)
            hasher.add(status.text)
            hasher.add(date: SiteModelBuilder.statusDate(source))
            hasher.add(source.homepage)
            hasher.add(SiteModelBuilder.kindText(source))
            hasher.add(source.articles.count)
        }

        for story in model.articlesWithPages {
            guard let path = model.articlePath(story) else { continue }
            page(path) { rows([story], into: &$0) }
        }
        page(SitePaths.headlinesPage) { hasher in
            for category in model.categories {
                rows(category.articles.prefix(SiteRenderer.sectionLimit), into: &hasher)
                hasher.add(category.articles.count > SiteRenderer.sectionLimit)
            }
            let noticed = model.content.sources.filter { !SourceStatusText($0.status).isOK }
            for source in noticed { state(of: source, into: &hasher) }
            hasher.add(date: SiteModelBuilder.newest(model.headlines.map(\.published) + noticed.map(SiteModelBuilder.statusDate)))
            hasher.add(model.headlines.isEmpty)
            hasher.add(model.content.sources.allSatisfy { if case .unavailable = $0.status { true } else { false } })
        }
        page(SitePaths.sourcesPage) { hasher in
            for source in model.content.sources { state(of: source, into: &hasher) }
        }
        for source in model.content.sources {
            page(SitePaths.sourcePage(source.id)) { hasher in
                state(of: source, into: &hasher)
                rows(source.articles, into: &hasher)
            }
        }
        for category in model.categories {
            page(SitePaths.categoryPage(category.slug)) { rows(category.articles.prefix(SiteRenderer.categoryLimit), into: &$0) }
        }
        // The saved lists are in the global part.
        for kind in SavedListKind.allCases {
            page(SitePaths.savedPage(kind)) { _ in }
        }
        page(SitePaths.archiveIndex) { hasher in
            for day in model.archiveDays {
                hasher.add(day.key)
                hasher.add(day.articles.count)
            }
            hasher.add(model.undatedArchive.count)
            hasher.add(date: SiteModelBuilder.newest(model.archive.map(\.published)))
        }
        for day in model.archiveDays {
            page(SitePaths.archiveDay(day.key)) { rows(day.articles, into: &$0) }
        }
        if !model.undatedArchive.isEmpty {
            page(SitePaths.archiveUndated) { rows(model.undatedArchive, into: &$0) }
        }
        page(SitePaths.tagsIndex) { hasher in
            for tag in model.tags {
                hasher.add(tag.articles.count)
                hasher.add(date: tag.articles.first?.published)
            }
        }
        for tag in model.tags {
            page(SitePaths.tagPage(tag.slug)) { hasher in
                hasher.add(tag.articles.count)
                rows(tag.articles.prefix(SiteRenderer.categoryLimit), into: &hasher)
            }
        }
        page(SitePaths.searchPage) { _ in }
        for list in model.feedLists() {
            for suffix in [".rss", ".atom", ".json"] {
                key(list.feedPath + suffix) { hasher in
                    hasher.add(list.title)
                    hasher.add(list.description)
                    hasher.add(date: list.updated)
                    hasher.add(list.entries.count)
                    for entry in list.entries {
                        hasher.add(digestOf: entry.article)
                        hasher.add(model.articlePath(entry.article))
                        hasher.add(entry.fallbackLink)
                    }
                }
            }
        }
        // The search index: each file by the whole archive (a new story rewrites only some, `SearchIndexTests`).
        for path in SearchIndex.paths(numbers: model.searchNumbers) { key(path) { rows(model.archive, into: &$0) } }
        // Every page's URL, in the plan's order.
        let pages = built.paths.filter { $0.hasSuffix(".html") }
        for sitemap in built.paths where sitemap == SitePaths.sitemap || sitemap.hasPrefix("sitemaps/") {
            key(sitemap) { $0.add(pages) }
        }
        // The configuration and the theme only.
        key(SitePaths.opml) { _ in }
        for asset in built.assets { key(asset) { _ in } }

        let unknown = built.files.keys.filter { keys[$0] == nil }.sorted()
        guard unknown.isEmpty else { throw TableError(files: unknown) }
        return keys
    }

    struct TableError: Error, CustomStringConvertible {
        var files: [String]
        var description: String { "the table has no row for \(files.prefix(8))" }
    }

    @Test("between two cron runs with the same global part, every file whose bytes change is one the table names",
          arguments: Array(1...8) as [UInt64])
    func tableNamesEveryChange(seed: UInt64) async throws {
        var generator = SeededGenerator(state: seed &+ 1_000)
        let world = World(folder: try TestSupport.temporaryFolder(), using: &generator)
        let decided = try await Self.play(world, runs: 20, seed: seed, using: &generator).decided
        #expect(decided >= 5, "seed \(seed): only \(decided) runs with changed files had the same global part as the run before")
    }

    @Test("the same with feeds long enough for the lists' limits: a section's 8, a page's and a feed's 100",
          arguments: [1, 2] as [UInt64])
    func tableNamesEveryChangePastTheLimits(seed: UInt64) async throws {
        var generator = SeededGenerator(state: seed &+ 2_000)
        var world = World(folder: try TestSupport.temporaryFolder(), storiesPerFeed: 260...300, using: &generator)
        world.articlesPerSource = 400
        let played = try await Self.play(world, runs: 8, seed: seed, using: &generator)
        #expect(played.decided >= 3, "seed \(seed): only \(played.decided) runs with changed files had the same global part as the run before")
        #expect(played.longest.section > SiteRenderer.categoryLimit && played.longest.tag > SiteRenderer.categoryLimit,
                "seed \(seed): the lists reached \(played.longest), not past the limits")
    }

    /// The changes a cron run most often finds, stories new, edited, moved, dropped or expired
    /// and a source failing or mended: they leave the global part as it was, unless they bring a
    /// tag its first page.
    static let storyChanges: [Change] = [.newStory, .syndicate, .retitle, .resummarize, .redate, .retag, .drop, .daysPass,
                                         .breakOrMendFeed, .nothing]

    /// Plays `runs` cron runs on `world`, each built in full, and checks the table between each
    /// two; how many runs with changed files the table decided (the global part unchanged), and
    /// the most stories a section and a tag had.
    static func play(_ world: World, runs: Int, seed: UInt64, using generator: inout SeededGenerator) async throws
        -> (decided: Int, longest: (section: Int, tag: Int)) {
        var world = world
        let copy = CronHistoryTests.Copy(folder: try TestSupport.temporaryFolder())
        var last: (built: Built, global: Fingerprint, shown: [String: Fingerprint])?
        var decided = 0
        var longest = (section: 0, tag: 0)
        for run in 0..<runs {
            // Mostly what a cron run finds, which the table decides; now and then anything, which
            // may change the global part.
            let changes = run == 0 ? [Change.nothing] : (0..<Int.random(in: 1...2, using: &generator)).map { _ in
                (Int.random(in: 0..<4, using: &generator) == 0 ? Change.allCases : storyChanges).randomElement(using: &generator) ?? .nothing
            }
            let done = changes.map { world.apply($0, using: &generator) }
            world.now.addTimeInterval(900)
            try world.write()
            let built = try await build(world, copy: copy)
            longest.section = max(longest.section, built.model.categories.map(\.articles.count).max() ?? 0)
            longest.tag = max(longest.tag, built.model.tags.map(\.articles.count).max() ?? 0)
            let (global, shown) = (global(built), try Self.shown(built))
            defer { last = (built, global, shown) }
            guard let last, last.global == global else { continue }
            let paths = Set(built.files.keys).union(last.built.files.keys)
            let changed = paths.filter { built.files[$0] != last.built.files[$0] }
            let named = Set(shown.keys).union(last.shown.keys).filter { shown[$0] != last.shown[$0] }
            let missed = changed.subtracting(named).sorted()
            #expect(missed.isEmpty, "seed \(seed), run \(run) (\(done.joined(separator: "; "))): \(missed.prefix(8)) changed, and the table does not name them")
            if !changed.isEmpty { decided += 1 }
        }
        return (decided, longest)
    }
}
