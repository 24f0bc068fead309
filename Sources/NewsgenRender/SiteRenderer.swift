package import Foundation
package import NewsgenModel
package import NewsgenConfig
import Synchronization

/// A file of the site, with its path relative to the output root.
package struct OutputFile: Sendable {
    public var path: String
    public var data: Data
    /// One of the site's largest files (`SiteRenderer.isLarge`), which are made one at a time.
    package var isLarge = false

    package init(_ path: String, _ text: String) {
        self.path = path
        self.data = Data(text.utf8)
    }

    init(_ path: String, data: Data) {
        self.path = path
        self.data = data
    }
}

/// Everything the renderer needs: the sources with their articles, the saved lists, the time.
package struct SiteContent: Sendable {
    public var config: SiteConfig
    public var sources: [SourceReport]
    public var favorites: [SavedArticle]
    public var readLater: [SavedArticle]
    /// Everything in the cache for the configured sources, newest first.
    public var archive: [Article]
    /// When the build ran. No file shows it: a page's bytes depend only on what it shows (DESIGN.md, "Output folder").
    public var generated: Date
    /// NewsAPI's list of sources to choose from, for the Sources tab; `nil` without NewsAPI.
    public var newsapiSources: NewsAPISourceList?
    /// The files of site.json's `static` folder, copied as they are.
    public var staticFiles: [StaticFile]
    /// The images the site serves and how pages show images.
    public var images: SiteImages
    /// Stories about the same event: lists of the front page and of categories show each group once, story pages the others.
    public var groups: StoryGroups
    /// The numbers the published search index gave its stories, which they keep (`SearchNumbering`); `.none` numbers
    /// the archive afresh.
    package var searchNumbering: SearchNumbering

    public init(config: SiteConfig, sources: [SourceReport], favorites: [SavedArticle], readLater: [SavedArticle],
                archive: [Article] = [], generated: Date, newsapiSources: NewsAPISourceList? = nil, staticFiles: [StaticFile] = [],
                images: SiteImages = .linked, groups: StoryGroups = .none, searchNumbering: SearchNumbering = .none) {
        self.config = config
        self.sources = sources
        self.favorites = favorites
        self.readLater = readLater
        self.archive = archive
        self.generated = generated
        self.newsapiSources = newsapiSources
        self.staticFiles = staticFiles
        self.images = images
        self.groups = groups
        self.searchNumbering = searchNumbering
    }

    func saved(_ kind: SavedListKind) -> [SavedArticle] { kind == .favorites ? favorites : readLater }
}

/// What the published site holds: each file's fingerprint, recorded when published and checked since to be still on disk.
/// A file the index does not name is rendered.
package struct CarryIndex: Sendable {
    private let fingerprint: @Sendable (String) -> Fingerprint?

    package init(fingerprints: [String: Fingerprint]) {
        self.init(lookingUp: { fingerprints[$0] })
    }

    /// An index that looks each path up in the record's own table (the manifest's files), not in a copy of it.
    package init(lookingUp fingerprint: @escaping @Sendable (String) -> Fingerprint?) {
        self.fingerprint = fingerprint
    }

    /// The fingerprint the published file at `path` has, when it may be carried.
    package subscript(path: String) -> Fingerprint? {
        fingerprint(path)
    }
}

/// The files of a site: those rendered now, and those carried over from the published site unchanged.
package struct RenderedSite: Sendable {
    /// Files with their bytes, rendered now and kept (a render without a `deliver` step).
    package var files: [OutputFile] = []
    /// Paths of the files rendered now and handed to `deliver` as they were made.
    package var delivered: [String] = []
    /// Paths whose published file is current.
    package var carried: [String] = []
    /// Every file's fingerprint, rendered or carried: what the next build compares against.
    package var fingerprints: [String: Fingerprint] = [:]
    /// The time the search index's files took to make (all at once, whether rendered or carried).
    package var searchIndexSeconds: Double = 0
    /// The numbers the search index gives its stories: what the next build's index continues.
    package var searchNumbering = SearchNumbering.none

    package init(files: [OutputFile] = [], delivered: [String] = [], carried: [String] = [], fingerprints: [String: Fingerprint] = [:]) {
        self.files = files
        self.delivered = delivered
        self.carried = carried
        self.fingerprints = fingerprints
    }

    package var rendered: [String] { files.map(\.path) + delivered }

    package var paths: [String] { rendered + carried }
}

/// Takes each file as soon as it is rendered (checked and written to staging), so a site's files are never all in memory.
package typealias RenderedFileStep = @Sendable (OutputFile) async -> Void

/// Turns the site's content into pages (through the templates) and feeds (through the writers).
package struct SiteRenderer {
    /// Articles per section on the front page; the rest are on the category's page.
    static let sectionLimit = 8
    /// Entries in each feed.
    static let feedLimit = 100
    /// Articles on a category's page (the archive has the rest).
    static let categoryLimit = 100
    /// Stories a tag needs for a page of its own (and links to it): a one-story tag page would only repeat the story.
    static let tagThreshold = 2
    /// Tags shown on a row (the story's page shows them all).
    static let rowTagLimit = 4
    /// Characters of a story's snippet in the search index's records.
    static let searchSnippetLimit = 160

    /// The value each page template renders with, so loading a theme can check every name its templates use
    /// (`TemplateNames`). `render()` asserts it keeps up.
    static var pageModels: [String: Any.Type] {
        [
            "headlines": Page<HeadlinesContent>.self,
            "sources": Page<SourcesContent>.self,
            "source": Page<ArticleListContent>.self,
            "category": Page<ArticleListContent>.self,
            SavedListKind.favorites.slug: Page<ArticleListContent>.self,
            SavedListKind.readLater.slug: Page<ArticleListContent>.self,
            "archive": Page<ArchiveIndexContent>.self,
            "archive-day": Page<ArchiveDayContent>.self,
            "article": Page<ArticleContent>.self,
            "tags": Page<TagsContent>.self,
            "tag": Page<TagContent>.self,
            "search": Page<SearchContent>.self,
        ]
    }

    let templates: TemplateSet
    let content: SiteContent
    /// URLs per sitemap file; past it, sitemap.xml becomes an index of sitemaps/<n>.xml.
    let sitemapLimit: Int

    package init(templates: TemplateSet, content: SiteContent, sitemapLimit: Int = SitemapWriter.urlLimit) {
        self.templates = templates
        self.content = content
        self.sitemapLimit = max(1, sitemapLimit)
    }

    private var config: SiteConfig { content.config }
    private var feedContext: FeedContext {
        FeedContext(baseURL: config.baseURL, language: config.language, siteTitle: config.title,
                    hubs: config.websub?.hubs.map(\.absoluteString) ?? [])
    }

    /// One file to produce; jobs run in parallel across cores.
    fileprivate struct Job: Sendable {
        var path: String
        /// Whether the file is one of the largest a site has (`isLarge(bytes:)`): those are made one at a time.
        var isLarge = false
        /// The file's fingerprint, and its bytes unless the published file has that fingerprint.
        var make: @Sendable () throws(TemplateError) -> (Fingerprint, Data?)

        /// An article page, made from what every article page shares (`ArticlePages`): the job holds only its path and
        /// story number, since these are most of a site's files.
        init(article page: String, number: Int, pages: ArticlePages) {
            let file = SitePaths.file(forPage: page)
            path = file
            make = { () throws(TemplateError) in try pages.make(number, file: file) }
        }

        /// A page fingerprinted from the template's values (with newsgen's version and the theme), so a page whose
        /// values did not change is not rendered at all.
        init(page path: String, carrying published: Fingerprint?, fingerprint base: Fingerprint.Hasher,
             render: @escaping @Sendable () -> Any, with template: @escaping @Sendable (Any) throws(TemplateError) -> Data) {
            self.path = path
            make = { () throws(TemplateError) in
                let values = render()
                var hasher = base
                hasher.add(templateValue: values)
                let fingerprint = hasher.finish()
                if fingerprint == published { return (fingerprint, nil) }
                return (fingerprint, try template(values))
            }
        }

        /// A page or feed fingerprinted from its inputs (`PageFingerprints`, the feed's list): built only when rendered.
        init(_ path: String, carrying published: Fingerprint?, fingerprint: @escaping @Sendable () -> Fingerprint,
             render: @escaping @Sendable () throws(TemplateError) -> Data) {
            self.path = path
            make = { () throws(TemplateError) in
                let fingerprint = fingerprint()
                if fingerprint == published { return (fingerprint, nil) }
                return (fingerprint, try render())
            }
        }

        /// A file whose name says what it holds (an image variant, named by its original's hash): fingerprinted from the
        /// name, and read from `file` only when the published file is not it.
        init(named path: String, carrying published: Fingerprint?, reading file: URL) {
            self.path = path
            make = {
                let fingerprint = Fingerprint.of(Data(path.utf8))
                if fingerprint == published { return (fingerprint, nil) }
                return (fingerprint, (try? Data(contentsOf: file)) ?? Data())
            }
        }

        /// The OPML, sitemap, search index or an asset: cheap to make, so fingerprinted from its bytes.
        init(file path: String, carrying published: Fingerprint?, _ bytes: @escaping @Sendable () -> Data) {
            self.path = path
            make = {
                let data = bytes()
                let fingerprint = Fingerprint.of(data)
                return (fingerprint, fingerprint == published ? nil : data)
            }
        }
    }

    package func render() async throws(TemplateError) -> [OutputFile] {
        try await render(carrying: nil).files
    }

    /// Every page, feed and asset, except those whose published file (in `published`) already has this build's
    /// fingerprint: those are only named. `jobDone` is called as each file is done, with the number of files.
    package func render(carrying published: CarryIndex?, jobDone: (@Sendable (Int) -> Void)? = nil) async throws(TemplateError) -> RenderedSite {
        try await plan(carrying: published).run(jobDone: jobDone)
    }

    /// The files of a site, named but not yet made, so a build knows every path (to check links) before rendering.
    package struct Plan: Sendable {
        fileprivate var jobs: [Job]
        fileprivate var searchIndex: SearchIndexFiles?
        fileprivate var searchNumbering = SearchNumbering.none

        package var paths: [String] { jobs.map(\.path) }

        /// Renders the files whose published file is not current, each to `deliver` as made (not kept) or, without it,
        /// into `files`. `jobDone` is called as each file is done, with the number of files.
        package func run(deliver: RenderedFileStep? = nil, jobDone: (@Sendable (Int) -> Void)? = nil) async throws(TemplateError) -> RenderedSite {
            var site = try await SiteRenderer.run(jobs, deliver: deliver, jobDone: jobDone)
            site.searchIndexSeconds = searchIndex?.seconds ?? 0
            site.searchNumbering = searchNumbering
            return site
        }
    }

    /// Every file of the site as a job, with the fingerprint each published file must have to be carried.
    package func plan(carrying published: CarryIndex?) throws(TemplateError) -> Plan {
        try plan(carryingOnceModelled: { published })
    }

    /// The same, asking for the published files only once the model is built, so they can be found meanwhile.
    package func plan(carryingOnceModelled published: () -> CarryIndex?) throws(TemplateError) -> Plan {
        let model = SiteModelBuilder(content: content)
        model.prepareStoryDigests()
        let templates = self.templates
        let known = published() ?? CarryIndex(fingerprints: [:])
        var jobs: [Job] = []
        var pages: [String] = []
        var base = Fingerprint.Hasher()
        base.add(NewsgenVersion.string)
        base.add(templates.digest.hex)

        func page<C: Sendable>(_ path: String, template: String, rows: Int = 0, _ build: @escaping @Sendable (String) -> Page<C>) {
            assert(Self.pageModels[template] == Page<C>.self, "SiteRenderer.pageModels has no \(Page<C>.self) for \(template)")
            let root = SitePaths.root(fromPage: path)
            let file = SitePaths.file(forPage: path)
            var hasher = base
            hasher.add(template)
            var job = Job(page: file, carrying: known[file], fingerprint: hasher,
                          render: { TemplateSet.values(of: build(root)) },
                          with: { values throws(TemplateError) in try templates.render(template, values: values) })
            job.isLarge = Self.isLarge(bytes: rows * Self.bytesPerRow)
            jobs.append(job)
            pages.append(path)
        }
        func file(_ path: String, _ text: @escaping @Sendable () -> String) -> Job {
            Job(file: path, carrying: known[path]) { Data(text().utf8) }
        }

        // The search index's files, made together by whichever job asks first, and so first: they then run beside the pages.
        let searchIndex = SearchIndexFiles(model)
        for path in SearchIndex.paths(numbers: model.searchNumbers) {
            jobs.append(Job(file: path, carrying: known[path]) { searchIndex.data(path) })
        }
        page(SitePaths.headlinesPage, template: "headlines") { model.headlinesPage(root: $0) }
        page(SitePaths.sourcesPage, template: "sources") { model.sourcesPage(root: $0) }
        for source in model.sources {
            page(SitePaths.sourcePage(source.id), template: "source") { model.sourcePage(source, root: $0) }
        }
        for category in model.categories {
            page(SitePaths.categoryPage(category.slug), template: "category", rows: category.articles.count) {
                model.categoryPage(category, root: $0)
            }
        }
        for kind in SavedListKind.allCases {
            page(SitePaths.savedPage(kind), template: kind.slug) { model.savedPage(kind, root: $0) }
        }
        page(SitePaths.archiveIndex, template: "archive") { model.archiveIndexPage(root: $0) }
        for day in model.archiveDays {
            page(SitePaths.archiveDay(day.key), template: "archive-day", rows: day.articles.count) { model.archiveDayPage(day, root: $0) }
        }
        if !model.undatedArchive.isEmpty {
            page(SitePaths.archiveUndated, template: "archive-day", rows: model.undatedArchive.count) { model.archiveUndatedPage(root: $0) }
        }
        page(SitePaths.tagsIndex, template: "tags") { model.tagsIndexPage(root: $0) }
        for tag in model.tags {
            page(SitePaths.tagPage(tag.slug), template: "tag", rows: tag.articles.count) { model.tagPage(tag, root: $0) }
        }
        page(SitePaths.searchPage, template: "search") { model.searchPage(root: $0) }
        // Article pages are fingerprinted from the article itself; their jobs are made beside the feeds' lists.
        let articlePages = ArticlePages(model: model, templates: templates, published: known, base: base)
        let ((articleJobs, articlePaths), feedLists) = Parallel.both({ () -> ([Job], [String]) in
            var jobs: [Job] = [], paths: [String] = []
            jobs.reserveCapacity(model.articlesWithPages.count)
            paths.reserveCapacity(model.articlesWithPages.count)
            for (number, article) in model.articlesWithPages.enumerated() {
                guard let path = model.articlePath(article, likelyAt: number) else { continue }
                jobs.append(Job(article: path, number: number, pages: articlePages))
                paths.append(path)
            }
            return (jobs, paths)
        }, { model.feedLists() })
        jobs += articleJobs
        pages += articlePaths

        // A feed's fingerprint is its list and the site's context, so an unchanged list is not written again. Its three
        // files share the list's digest, made once by whichever needs it first.
        let context = feedContext
        var feedBase = base
        feedBase.add("feed")
        feedBase.add(context.baseURL.absoluteString)
        feedBase.add(context.language)
        feedBase.add(context.siteTitle)
        feedBase.add(context.hubs)
        // Every list's RSS, then every Atom, then every JSON Feed: cores make different lists' digests, not wait on one.
        let digests = feedLists.map { ListDigest($0, base: feedBase) }
        let writers: [(String, @Sendable (FeedList, FeedContext) -> String)] = [
            (".rss", RSSWriter.write), (".atom", AtomWriter.write), (".json", JSONFeedWriter.write),
        ]
        for (suffix, write) in writers {
            for (list, digest) in zip(feedLists, digests) {
                let path = list.feedPath + suffix
                jobs.append(Job(path, carrying: known[path], fingerprint: { digest.fingerprint(for: suffix) },
                                render: { Data(write(list, context).utf8) }))
            }
        }
        jobs.append(file(SitePaths.opml) { OPMLWriter.write(model.opmlOutlines(), context: context) })
        // The sitemaps change with any page added or removed and are slow to check: they start early, beside the search index.
        let sitemaps = SitemapWriter.files(pages: pages, limit: sitemapLimit).map { sitemap in
            var job = Job(file: sitemap.path, carrying: known[sitemap.path]) { SitemapWriter.bytes(sitemap, context: context) }
            if case .urls(let urls) = sitemap.body { job.isLarge = Self.isLarge(bytes: SitemapWriter.size(of: urls, context: context)) }
            return job
        }
        jobs.insert(contentsOf: sitemaps, at: min(1, jobs.count))
        for asset in templates.assets {
            jobs.append(Job(file: asset.path, carrying: known[asset.path]) { asset.data })
        }
        try checkStaticPaths(against: jobs.map(\.path))
        for file in content.staticFiles {
            jobs.append(Job(file: file.path, carrying: known[file.path]) { file.data })
        }
        if content.images.mode == .local, let folder = content.images.folder {
            var named = Set<String>()
            for image in content.images.made.values.sorted(by: { $0.hash < $1.hash }) {
                for variant in image.variants {
                    let path = image.path(variant)
                    guard named.insert(path).inserted else { continue }
                    jobs.append(Job(named: path, carrying: known[path], reading: folder.appendingPathComponent(String(path.dropFirst("images/".count)))))
                }
            }
        }
        return Plan(jobs: jobs, searchIndex: searchIndex, searchNumbering: model.searchNumbering)
    }

    /// Whether a file of about `bytes` is among a site's largest, made one at a time (`Parallel.map`) to bound memory.
    static func isLarge(bytes: Int) -> Bool {
        bytes >= 4 << 20
    }

    /// About what a row of a list page takes.
    static let bytesPerRow = 900

    /// What every article page's job shares: the model, the templates, the published fingerprints, and the common start
    /// of every article page's fingerprint.
    fileprivate final class ArticlePages: Sendable {
        let model: SiteModelBuilder
        let templates: TemplateSet
        let published: CarryIndex
        let base: Fingerprint.Hasher

        init(model: SiteModelBuilder, templates: TemplateSet, published: CarryIndex, base: Fingerprint.Hasher) {
            assert(SiteRenderer.pageModels["article"] == Page<ArticleContent>.self, "SiteRenderer.pageModels has no Page<ArticleContent> for article")
            self.model = model
            self.templates = templates
            self.published = published
            var hasher = base
            hasher.add("article")
            hasher.add("inputs")
            self.base = hasher
        }

        /// The `number`th article page, written to `file`: its fingerprint, and its bytes unless the published file has it.
        func make(_ number: Int, file: String) throws(TemplateError) -> (Fingerprint, Data?) {
            let article = model.articlesWithPages[number]
            let page = SitePaths.page(forFile: file)
            var hasher = base
            model.feedArticlePage(article, path: page, into: &hasher)
            let fingerprint = hasher.finish()
            if fingerprint == published[file] { return (fingerprint, nil) }
            return (fingerprint, try templates.render("article", model.articlePage(article, root: SitePaths.root(fromPage: page))))
        }
    }

    /// The digest of a feed's list (every field of every entry), made once for its three files.
    private final class ListDigest: Sendable {
        private enum State {
            case waiting(FeedList, base: Fingerprint.Hasher)
            case digested(Fingerprint.Hasher)
        }

        private let state: Mutex<State>

        init(_ list: FeedList, base: Fingerprint.Hasher) {
            state = Mutex(.waiting(list, base: base))
        }

        /// The fingerprint of the list written as the file with `suffix`.
        func fingerprint(for suffix: String) -> Fingerprint {
            var hasher = state.withLock { state in
                switch state {
                case .digested(let hasher):
                    return hasher
                case .waiting(let list, var hasher):
                    Self.add(list, to: &hasher)
                    state = .digested(hasher)
                    return hasher
                }
            }
            hasher.add(suffix)
            return hasher.finish()
        }

        private static func add(_ list: FeedList, to hasher: inout Fingerprint.Hasher) {
            hasher.add(list.title)
            hasher.add(list.description)
            hasher.add(list.pagePath)
            hasher.add(list.feedPath)
            hasher.add(date: list.updated)
            hasher.add(list.entries.count)
            for entry in list.entries {
                hasher.add(digestOf: entry.article)
                hasher.add(entry.fallbackLink)
            }
        }
    }

    /// A static file may not stand where newsgen writes a file or needs a folder (or the reverse): one would be lost.
    private func checkStaticPaths(against generated: [String]) throws(TemplateError) {
        guard !content.staticFiles.isEmpty else { return }
        let files = Set(generated)
        let folders = Set(generated.flatMap(Self.folders))
        let staticFolders = Set(content.staticFiles.map(\.path).flatMap(Self.folders))
        for file in content.staticFiles {
            let clash = files.contains(file.path) ? "a file newsgen writes" : folders.contains(file.path) ? "a folder newsgen writes into" : nil
            if let clash {
                throw TemplateError("\(config.displayPath): static", "\(file.path) is \(clash); rename or move it")
            }
        }
        if let path = generated.first(where: staticFolders.contains) {
            throw TemplateError("\(config.displayPath): static", "\(path)/ is a folder of static files, but newsgen writes the file \(path); rename or move it")
        }
    }

    private static func folders(of path: String) -> [String] {
        let parts = path.split(separator: "/").dropLast()
        return parts.indices.map { parts[...$0].joined(separator: "/") }
    }

    /// What became of one job.
    private enum Outcome: Sendable {
        /// Rendered; its bytes unless they went to `deliver`.
        case rendered(Fingerprint, Data?)
        case carried(Fingerprint)
    }

    /// Runs the jobs on every core, keeping their order; the first failure (in job order) is thrown.
    fileprivate static func run(_ jobs: [Job], deliver: RenderedFileStep?, jobDone: (@Sendable (Int) -> Void)?) async throws(TemplateError) -> RenderedSite {
        let count = jobs.count
        let results = await Parallel.map(jobs, isLarge: \.isLarge) { job -> Result<Outcome, TemplateError> in
            defer { jobDone?(count) }
            do throws(TemplateError) {
                let (fingerprint, data) = try job.make()
                guard let data else { return .success(.carried(fingerprint)) }
                guard let deliver else { return .success(.rendered(fingerprint, data)) }
                var file = OutputFile(job.path, data: data)
                file.isLarge = job.isLarge
                await deliver(file)
                return .success(.rendered(fingerprint, nil))
            } catch {
                return .failure(error)
            }
        }
        var site = RenderedSite()
        site.fingerprints.reserveCapacity(jobs.count)
        for (job, result) in zip(jobs, results) {
            switch try result.get() {
            case .rendered(let fingerprint, let data):
                site.fingerprints[job.path] = fingerprint
                if let data {
                    site.files.append(OutputFile(job.path, data: data))
                } else {
                    site.delivered.append(job.path)
                }
            case .carried(let fingerprint):
                site.fingerprints[job.path] = fingerprint
                site.carried.append(job.path)
            }
        }
        return site
    }

}
