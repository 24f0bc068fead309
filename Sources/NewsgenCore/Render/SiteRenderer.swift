import Foundation

/// A file of the site, with its path relative to the output root.
public struct OutputFile: Sendable {
    public var path: String
    public var data: Data

    init(_ path: String, _ text: String) {
        self.path = path
        self.data = Data(text.utf8)
    }

    init(_ path: String, data: Data) {
        self.path = path
        self.data = data
    }
}

/// Everything the renderer needs: the sources with their articles, the saved lists, the time.
public struct SiteContent: Sendable {
    public var config: SiteConfig
    public var sources: [SourceReport]
    public var favorites: [SavedArticle]
    public var readLater: [SavedArticle]
    public var generated: Date
    /// NewsAPI's list of sources to choose from, for the Sources tab; `nil` without NewsAPI.
    public var newsapiSources: NewsAPISourceList?

    public init(config: SiteConfig, sources: [SourceReport], favorites: [SavedArticle], readLater: [SavedArticle], generated: Date,
                newsapiSources: NewsAPISourceList? = nil) {
        self.config = config
        self.sources = sources
        self.favorites = favorites
        self.readLater = readLater
        self.generated = generated
        self.newsapiSources = newsapiSources
    }

    func saved(_ kind: SavedListKind) -> [SavedArticle] { kind == .favorites ? favorites : readLater }
}

/// Turns the site's content into pages (through the templates) and feeds (through the writers).
struct SiteRenderer {
    /// Articles per section on the front page; the rest are on the category's page.
    static let sectionLimit = 8
    /// Entries in each feed.
    static let feedLimit = 100

    let templates: TemplateSet
    let content: SiteContent

    private var config: SiteConfig { content.config }
    private var feedContext: FeedContext {
        FeedContext(baseURL: config.baseURL, language: config.language, siteTitle: config.title, generated: content.generated)
    }

    /// Every page, feed and asset of the site.
    func render() throws(TemplateError) -> [OutputFile] {
        let model = SiteModelBuilder(content: content)
        var files: [OutputFile] = []
        var pages: [String] = []

        func page<C>(_ path: String, template: String, _ build: (String) -> Page<C>) throws(TemplateError) {
            let root = SitePaths.root(fromPage: path)
            files.append(OutputFile(SitePaths.file(forPage: path), try templates.render(template, build(root))))
            pages.append(path)
        }

        try page(SitePaths.headlinesPage, template: "headlines") { model.headlinesPage(root: $0) }
        try page(SitePaths.sourcesPage, template: "sources") { model.sourcesPage(root: $0) }
        for source in content.sources {
            try page(SitePaths.sourcePage(source.id), template: "source") { model.sourcePage(source, root: $0) }
        }
        for category in model.categories {
            try page(SitePaths.categoryPage(category.slug), template: "category") { model.categoryPage(category, root: $0) }
        }
        for kind in SavedListKind.allCases {
            try page(SitePaths.savedPage(kind), template: kind.slug) { model.savedPage(kind, root: $0) }
        }

        let context = feedContext
        for list in model.feedLists() {
            files.append(OutputFile(list.feedPath + ".rss", RSSWriter.write(list, context: context)))
            files.append(OutputFile(list.feedPath + ".atom", AtomWriter.write(list, context: context)))
            files.append(OutputFile(list.feedPath + ".json", JSONFeedWriter.write(list, context: context)))
        }
        files.append(OutputFile(SitePaths.opml, OPMLWriter.write(model.opmlOutlines(), context: context)))
        files.append(OutputFile(SitePaths.sitemap, SitemapWriter.write(pages: pages, context: context)))
        files += try assets()
        return files
    }

    /// Every file under the templates' `assets/` folder, copied as is.
    private func assets() throws(TemplateError) -> [OutputFile] {
        let folder = templates.folder.appendingPathComponent("assets")
        guard let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] else { return [] }
        var files: [OutputFile] = []
        for path in paths.sorted() {
            let url = folder.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            do {
                files.append(OutputFile("assets/" + path, data: try Data(contentsOf: url)))
            } catch {
                throw TemplateError("\(url.path): cannot be read (\(FileProblem.describe(error)))")
            }
        }
        return files
    }
}
