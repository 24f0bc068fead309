package import Foundation
package import NewsgenModel
package import NewsgenConfig

/// A file of the site, with its path relative to the output root.
package struct OutputFile: Sendable {
    public var path: String
    public var data: Data

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
    /// When the build ran. No file shows it: a page's bytes depend only on what it shows
    /// (DESIGN.md, "Output folder"), so every time written is a time of the content.
    public var generated: Date
    /// NewsAPI's list of sources to choose from, for the Sources tab; `nil` without NewsAPI.
    public var newsapiSources: NewsAPISourceList?

    public init(config: SiteConfig, sources: [SourceReport], favorites: [SavedArticle], readLater: [SavedArticle],
                archive: [Article] = [], generated: Date, newsapiSources: NewsAPISourceList? = nil) {
        self.config = config
        self.sources = sources
        self.favorites = favorites
        self.readLater = readLater
        self.archive = archive
        self.generated = generated
        self.newsapiSources = newsapiSources
    }

    func saved(_ kind: SavedListKind) -> [SavedArticle] { kind == .favorites ? favorites : readLater }
}

/// Turns the site's content into pages (through the templates) and feeds (through the writers).
package struct SiteRenderer {
    /// Articles per section on the front page; the rest are on the category's page.
    static let sectionLimit = 8
    /// Entries in each feed.
    static let feedLimit = 100
    /// Articles on a category's page (the archive has the rest).
    static let categoryLimit = 100

    /// The value each page template renders with, so that loading a theme can check every name
    /// its templates use against the models (`TemplateNames`). `render()` asserts it keeps up.
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
        FeedContext(baseURL: config.baseURL, language: config.language, siteTitle: config.title)
    }

    /// One file to produce; jobs run in parallel across the machine's cores.
    private struct Job: Sendable {
        var path: String
        var make: @Sendable () throws(TemplateError) -> String
    }

    /// Every page, feed and asset of the site.
    package func render() async throws(TemplateError) -> [OutputFile] {
        let model = SiteModelBuilder(content: content)
        let templates = self.templates
        var jobs: [Job] = []
        var pages: [String] = []

        func page<C: Sendable>(_ path: String, template: String, _ build: @escaping @Sendable (String) -> Page<C>) {
            assert(Self.pageModels[template] == Page<C>.self, "SiteRenderer.pageModels has no \(Page<C>.self) for \(template)")
            let root = SitePaths.root(fromPage: path)
            jobs.append(Job(path: SitePaths.file(forPage: path)) { () throws(TemplateError) in try templates.render(template, build(root)) })
            pages.append(path)
        }

        page(SitePaths.headlinesPage, template: "headlines") { model.headlinesPage(root: $0) }
        page(SitePaths.sourcesPage, template: "sources") { model.sourcesPage(root: $0) }
        for source in content.sources {
            page(SitePaths.sourcePage(source.id), template: "source") { model.sourcePage(source, root: $0) }
        }
        for category in model.categories {
            page(SitePaths.categoryPage(category.slug), template: "category") { model.categoryPage(category, root: $0) }
        }
        for kind in SavedListKind.allCases {
            page(SitePaths.savedPage(kind), template: kind.slug) { model.savedPage(kind, root: $0) }
        }
        page(SitePaths.archiveIndex, template: "archive") { model.archiveIndexPage(root: $0) }
        for day in model.archiveDays {
            page(SitePaths.archiveDay(day.key), template: "archive-day") { model.archiveDayPage(day, root: $0) }
        }
        if !model.undatedArchive.isEmpty {
            page(SitePaths.archiveUndated, template: "archive-day") { model.archiveUndatedPage(root: $0) }
        }
        for article in model.articlesWithPages {
            guard let path = model.articlePath(article) else { continue }
            page(path, template: "article") { model.articlePage(article, root: $0) }
        }

        let context = feedContext
        for list in model.feedLists() {
            jobs.append(Job(path: list.feedPath + ".rss") { RSSWriter.write(list, context: context) })
            jobs.append(Job(path: list.feedPath + ".atom") { AtomWriter.write(list, context: context) })
            jobs.append(Job(path: list.feedPath + ".json") { JSONFeedWriter.write(list, context: context) })
        }
        jobs.append(Job(path: SitePaths.opml) { OPMLWriter.write(model.opmlOutlines(), context: context) })
        for file in SitemapWriter.files(pages: pages, limit: sitemapLimit) {
            jobs.append(Job(path: file.path) { SitemapWriter.write(file, context: context) })
        }
        jobs.append(Job(path: SitePaths.searchIndex) { model.searchIndex() })

        return try await Self.run(jobs) + templates.assets
    }

    /// Runs the jobs on every core, keeping their order; the first failure (in job order) is thrown.
    private static func run(_ jobs: [Job]) async throws(TemplateError) -> [OutputFile] {
        let results = await Parallel.map(jobs) { job -> Result<OutputFile, TemplateError> in
            do throws(TemplateError) {
                return .success(OutputFile(job.path, try job.make()))
            } catch {
                return .failure(error)
            }
        }
        return try results.map { result throws(TemplateError) in try result.get() }
    }

}
