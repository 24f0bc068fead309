import Foundation
import NewsgenModel
import NewsgenConfig
import NewsgenXML

/// Builds the page models and feed lists from the site's content; a class, so the render jobs of a site share one instance.
/// Every list it hands out holds a story at most once (`Array.deduplicated`), whatever the content's lists repeat.
final class SiteModelBuilder: Sendable {
    struct Category {
        var name: String
        var slug: String
        var articles: [Article]
    }

    /// A tag shared by enough stories to get a page (`SiteRenderer.tagThreshold`).
    struct Tag {
        var name: String
        var slug: String
        /// Every archived story with the tag, newest first.
        var articles: [Article]
    }

    let content: SiteContent
    let sources: [SourceReport]
    /// Every article shown, across sources, de-duplicated, newest first.
    let headlines: [Article]
    let categories: [Category]
    /// Everything cached for the configured sources and everything shown now, newest first (`archiveOrder`).
    let archive: [Article]
    /// The archive's dated stories by UTC day, newest day first.
    let archiveDays: [ArchiveDay]
    /// The archive's stories without a date, in the archive's order.
    let undatedArchive: [Article]
    /// The articles that get a page of their own: the archive and the saved articles sources listed.
    let articlesWithPages: [Article]
    /// The tags with a page, by slug.
    let tags: [Tag]
    /// Every tag's name as shown, by slug: the spelling most stories use.
    private let tagNames: [String: String]
    private let tagSlugsWithPages: Set<String>
    /// Each story with a page's place in `articlesWithPages`, by id.
    let places: [String: Int32]
    /// The slug of each story with a page (`slugs[i]` of `articlesWithPages[i]`).
    private let slugs: [String]
    let sourcesByID: [String: SourceReport]
    /// The saved lists, each holding a story once.
    private let savedLists: [SavedListKind: [SavedArticle]]
    let savedIDs: [SavedListKind: Set<String>]
    /// The paths of the `static` folder's files, which the site's own URLs may name.
    let staticPaths: Set<String>
    /// Each story's digest for its rows, made once however many pages show it (`feedRow`).
    let storyDigests = StoryDigests()
    /// The ids of the headlines the front page shows, each group once (`collapsed`); `nil` when no story is grouped.
    let shownOnFrontPage: Set<String>?
    /// The archived stories' numbers in the search index, rising, continuing the published index's numbering
    /// (`SearchNumbering`); `searchPlaces[i]` is the place in `archive` of the story numbered `searchNumbers[i]`. And
    /// that numbering as this build leaves it.
    let searchNumbers: [Int]
    let searchPlaces: [Int]
    let searchNumbering: SearchNumbering

    init(content: SiteContent) {
        self.content = content
        staticPaths = Set(content.staticFiles.map(\.path))
        let sources = content.sources.map { source in
            var source = source
            source.articles = source.articles.deduplicated()
            return source
        }
        self.sources = sources
        sourcesByID = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // Listed stories are sorted and URL-normalized beside the archive's; both are deduplicated by those URLs.
        let cached = content.archive
        let ((listed, listedURLs), cachedURLs) = Parallel.both({ () -> ([Article], [String?]) in
            let listed = sources.flatMap(\.articles).sortedNewestFirst()
            return (listed, listed.normalizedURLs())
        }, { cached.normalizedURLs() })
        let keptListed = listed.placesKept(urls: listedURLs)
        headlines = keptListed.map { listed[$0] }
        let headlineURLs = keptListed.map { listedURLs[$0] }
        var savedLists: [SavedListKind: [SavedArticle]] = [:]
        var saved: [SavedListKind: Set<String>] = [:]
        for kind in SavedListKind.allCases {
            let entries = content.saved(kind)
            let list = entries.map(\.article).placesKept(urls: entries.map { $0.article.url.flatMap(URLNormalizer.normalize) }).map { entries[$0] }
            savedLists[kind] = list
            saved[kind] = Set(list.filter(\.matched).map(\.article.id))
        }
        self.savedLists = savedLists
        savedIDs = saved

        // Sections follow the order in which site.json first names each category.
        var order: [String] = []
        var grouped: [String: [Article]] = [:]
        let categoryOfSource = Dictionary(content.sources.map { ($0.id, Self.categoryName($0.config.category)) }, uniquingKeysWith: { first, _ in first })
        for source in content.sources {
            let name = Self.categoryName(source.config.category)
            if !order.contains(name) { order.append(name) }
        }
        for article in headlines {
            grouped[categoryOfSource[article.sourceID] ?? Self.categoryName(nil), default: []].append(article)
        }
        // An archived story sharing a headline's storage (`Build.sharingText`) sorts after it with its id, so
        // deduplication would drop it: it is left out before the sort.
        let shown = Set(headlines.map(\.storageIdentity))
        let others = cached.indices.filter { !shown.contains(cached[$0].storageIdentity) }
        let candidates = headlines + others.map { cached[$0] }
        let candidateURLs = headlineURLs + others.map { cachedURLs[$0] }
        let archiveOrder = candidates.archiveOrder()
        archive = archiveOrder.map { candidates[$0] }.deduplicated(urls: archiveOrder.map { candidateURLs[$0] })
        let savedWithSources = (content.favorites + content.readLater).filter { $0.matched && !$0.article.sourceID.isEmpty }.map(\.article)
        let stories = archive
        ((archiveDays, undatedArchive), articlesWithPages) = Parallel.both({ ArchiveDay.group(stories) }, {
            var seenIDs = Set<String>()
            return (stories + savedWithSources).filter { seenIDs.insert($0.id).inserted }
        })
        // The slugs in two halves, side by side: tags gathered after the first, places after the second.
        let (withPages, archived) = (articlesWithPages, archive)
        let half = withPages.count / 2
        let ((firstSlugs, tagged), (secondSlugs, places)) = Parallel.both({ (Self.slugs(of: withPages[..<half]), Self.tags(of: archived)) }, {
            (Self.slugs(of: withPages[half...]), Dictionary(withPages.enumerated().map { ($1.id, Int32($0)) }, uniquingKeysWith: { first, _ in first }))
        })
        slugs = firstSlugs + secondSlugs
        self.places = places
        (tags, tagNames) = tagged
        tagSlugsWithPages = Set(tags.map(\.slug))
        shownOnFrontPage = content.groups.isEmpty ? nil : Set(Self.collapsed(headlines, groups: content.groups).map(\.id))
        let numbered = content.searchNumbering.continued(for: archive.reversed().map { article in
            SearchNumbering.Story(key: SearchNumbering.key(of: article.id),
                                  day: article.published.map { Int(($0.timeIntervalSince1970 / 86_400).rounded(.down)) })
        })
        searchNumbering = numbered.numbering
        let byNumber = numbered.numbers.indices.sorted { numbered.numbers[$0] < numbered.numbers[$1] }
        searchNumbers = byNumber.map { numbered.numbers[$0] }
        let last = archive.count - 1
        searchPlaces = byNumber.map { last - $0 }

        var usedSlugs = Set<String>()
        categories = order.compactMap { name in
            guard let articles = grouped[name], !articles.isEmpty else { return nil }
            var slug = Slug.make(name)
            if slug.isEmpty { slug = "category" }
            while !usedSlugs.insert(slug).inserted { slug += "-" + Slug.digest(name).prefix(6) }
            return Category(name: name, slug: slug, articles: articles)
        }
    }

    func saved(_ kind: SavedListKind) -> [SavedArticle] {
        savedLists[kind] ?? []
    }

    /// The most characters a story's slug takes from its title's words.
    static let slugWordsLimit = 50

    /// The slug of each story's page, in order: its title's words and a digest of its id.
    static func slugs(of stories: ArraySlice<Article>) -> [String] {
        stories.map { article in
            let words = Slug.make(article.title, limit: slugWordsLimit)
            let digest = Slug.digest(article.id).prefix(8)
            return words.isEmpty ? String(digest) : "\(words)-\(digest)"
        }
    }

    /// The slug of the page of the story with `article`'s id, when it has one.
    func slug(of article: Article) -> String? {
        places[article.id].map { slugs[Int($0)] }
    }

    /// The same, for a story likely to be the one with a page at `place`: taken from there when it is that very
    /// story (same storage), else found by id.
    func slug(of article: Article, likelyAt place: Int) -> String? {
        if place < articlesWithPages.count, articlesWithPages[place].storageIdentity == article.storageIdentity { return slugs[place] }
        return slug(of: article)
    }

    /// Groups the archive's stories by their tags' slugs. An empty slug gets no page, nor does a tag fewer than
    /// `tagThreshold` stories share, so rows do not fill with links to pages of one story.
    static func tags(of archive: [Article]) -> (tags: [Tag], names: [String: String]) {
        var stories: [String: [Article]] = [:]
        var spellings: [String: [String: Int]] = [:]
        for article in archive {
            var seen = Set<String>()
            for name in tagNames(of: article) {
                let slug = Slug.make(name)
                guard !slug.isEmpty else { continue }
                spellings[slug, default: [:]][name, default: 0] += 1
                if seen.insert(slug).inserted { stories[slug, default: []].append(article) }
            }
        }
        let names = spellings.mapValues(tagName)
        let tags = stories.filter { $0.value.count >= SiteRenderer.tagThreshold }
            .map { Tag(name: names[$0.key] ?? $0.key, slug: $0.key, articles: $0.value) }
            .sorted { $0.slug < $1.slug }
        return (tags, names)
    }

    /// The name of a tag spelled as `counts` counts (spellings of one slug, so differing in case, accents or punctuation):
    /// the most used spelling that has a capital letter, else the most used one with its first letter capitalised, as a
    /// category's ("economy" and "Economy" read "Economy"; "iOS" stays "iOS"). Ties go to code-point order, never arrival
    /// order, so the name is stable across builds. The slug, and so the tag's URL, is the same whichever name is shown.
    static func tagName(_ counts: [String: Int]) -> String {
        let capitalised = counts.filter { $0.key != $0.key.lowercased() }
        let candidates = capitalised.isEmpty ? counts : capitalised
        let name = candidates.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? ""
        return capitalised.isEmpty ? name.prefix(1).uppercased() + name.dropFirst() : name
    }

    /// A story's tags as its feed gave them, trimmed, without empty ones or repeats.
    static func tagNames(of article: Article) -> [String] {
        var seen = Set<String>()
        return article.categories
            .map { $0.trimmedWhitespace }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// A story's tags once each by slug, named as the site names them, each linked when it has a page.
    func tagLinks(_ article: Article, root: String) -> [TagLink] {
        var seen = Set<String>()
        return Self.tagNames(of: article).compactMap { raw in
            let slug = Slug.make(raw)
            guard seen.insert(slug.isEmpty ? "\u{0}" + raw : slug).inserted else { return nil }
            let hasPage = !slug.isEmpty && tagSlugsWithPages.contains(slug)
            return TagLink(name: slug.isEmpty ? raw : tagNames[slug] ?? raw,
                           href: hasPage ? root + SitePaths.tagPage(slug) : "", linked: hasPage)
        }
    }

    /// "technology" reads "Technology"; names with capitals are kept as written.
    static func categoryName(_ raw: String?) -> String {
        guard let raw = raw?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return "General" }
        return raw == raw.lowercased() ? raw.prefix(1).uppercased() + raw.dropFirst() : raw
    }

    // MARK: - Pages

    func headlinesPage(root: String) -> Page<HeadlinesContent> {
        let sections = categories.compactMap { category -> SectionModel? in
            let shown = shownOnFrontPage.map { shown in category.articles.filter { shown.contains($0.id) } } ?? category.articles
            guard !shown.isEmpty || category.articles.isEmpty else { return nil }
            return SectionModel(
                title: category.name,
                anchor: category.slug,
                href: root + SitePaths.categoryPage(category.slug),
                articles: rows(Array(shown.prefix(SiteRenderer.sectionLimit)), root: root, inSection: true, coverage: true),
                more: shown.count > SiteRenderer.sectionLimit
            )
        }
        var empty: EmptyState?
        if sources.isEmpty {
            empty = EmptyState(title: "No sources yet", message: "No sources are configured. Add RSS, Atom or JSON feeds to \"sources\" in site.json and build again.")
        } else if sources.allSatisfy({ if case .unavailable = $0.status { true } else { false } }) {
            empty = EmptyState(title: "No news to show", message: "None of the sources could be reached, and there are no recent stories to show. The Sources page has each one's state.")
        } else if headlines.isEmpty {
            empty = EmptyState(title: "Nothing fetched", message: "The sources were read, but they list no articles right now.")
        }
        let noticed = sources.filter { !SourceStatusText($0.status).isOK }.map(Self.statusDate)
        return page(
            root: root, path: SitePaths.headlinesPage, title: content.config.title, heading: "Headlines",
            intro: content.config.description.isEmpty ? nil : content.config.description,
            tab: "Headlines", updated: Self.newest(headlines.map(\.published) + noticed),
            feeds: feedLinks(SitePaths.headlinesFeed, title: "\(content.config.title) — Headlines", root: root),
            content: HeadlinesContent(sections: sections, notices: notices(root: root), empty: empty)
        )
    }

    func sourcesPage(root: String) -> Page<SourcesContent> {
        let empty = sources.isEmpty
            ? EmptyState(title: "No sources yet", message: "No sources are configured. Add feeds or NewsAPI sources to \"sources\" in site.json.")
            : nil
        var feeds = feedLinks(SitePaths.headlinesFeed, title: "\(content.config.title) — Headlines", root: root)
        feeds.append(FeedLinkModel(label: "OPML", title: "Every feed of \(content.config.title)", href: root + SitePaths.opml, type: "text/x-opml"))
        return page(
            root: root, path: SitePaths.sourcesPage, title: "Sources — \(content.config.title)", heading: "Sources",
            intro: "Every source this site follows, how its last fetch went, and its feeds.",
            tab: "Sources", updated: Self.newest(sources.map(Self.statusDate) + [content.newsapiSources?.fetchedAt]),
            feeds: feeds,
            content: SourcesContent(
                sources: sources.map { sourceRow($0, root: root) }, empty: empty,
                available: availableRows(root: root), availableNote: availableNote()
            )
        )
    }

    /// NewsAPI's sources, those the site follows marked selected and linked to their page.
    private func availableRows(root: String) -> [AvailableSourceRow] {
        guard let list = content.newsapiSources else { return [] }
        let selected = Self.selectedNewsAPISources(sources.map(\.config))
        return list.sources
            .sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
            .map { source in
                let page = selected[source.id]
                return AvailableSourceRow(
                    id: source.id, name: source.name, href: page.map { root + SitePaths.sourcePage($0) },
                    website: source.url, description: source.description.isEmpty ? nil : source.description,
                    category: Self.categoryName(source.category), language: source.language,
                    selected: page != nil
                )
            }
    }

    private func availableNote() -> String? {
        guard let list = content.newsapiSources else { return nil }
        let selected = Self.selectedNewsAPISources(sources.map(\.config))
        let count = list.sources.filter { selected[$0.id] != nil }.count
        let language = Locale(identifier: "en").localizedString(forLanguageCode: list.language) ?? list.language
        return "\(list.sources.count) \(language) sources, as NewsAPI listed them on \(Dates.readable(list.fetchedAt)); "
            + "\(count) selected. To follow one, add { \"id\": \"…\", \"newsapi\": \"<its id>\" } to sources in site.json."
    }

    /// NewsAPI source id → the id of the configured source that follows it (by id, or in a `sources` parameter).
    static func selectedNewsAPISources(_ sources: [SourceConfig]) -> [String: String] {
        var selected: [String: String] = [:]
        for source in sources {
            guard case .newsapi(let query) = source.kind else { continue }
            switch query {
            case .source(let id):
                if selected[id] == nil { selected[id] = source.id }
            case .topHeadlines(let parameters), .everything(let parameters):
                for id in (parameters["sources"] ?? "").split(separator: ",") {
                    let id = id.trimmingCharacters(in: .whitespaces)
                    if !id.isEmpty, selected[id] == nil { selected[id] = source.id }
                }
            }
        }
        return selected
    }

    func sourcePage(_ source: SourceReport, root: String) -> Page<ArticleListContent> {
        // An unavailable source's status (in `source`) already says there is nothing to show.
        let unavailable = if case .unavailable = source.status { true } else { false }
        let empty = source.articles.isEmpty && !unavailable
            ? EmptyState(title: "No articles", message: "This source lists no articles right now.")
            : nil
        return page(
            root: root, path: SitePaths.sourcePage(source.id), title: "\(source.name) — \(content.config.title)", heading: source.name,
            intro: nil, tab: "Sources", updated: Self.newest(source.articles.map(\.published) + [Self.statusDate(source)]),
            feeds: feedLinks(SitePaths.sourceFeed(source.id), title: source.name, root: root),
            content: ArticleListContent(
                articles: rows(source.articles, root: root), source: sourceRow(source, root: root), empty: empty
            )
        )
    }

    func categoryPage(_ category: Category, root: String) -> Page<ArticleListContent> {
        let shown = Self.collapsed(category.articles, groups: content.groups).prefix(SiteRenderer.categoryLimit)
        return page(
            root: root, path: SitePaths.categoryPage(category.slug), title: "\(category.name) — \(content.config.title)", heading: category.name,
            intro: nil, tab: "Headlines", updated: Self.newest(shown.map(\.published)),
            feeds: feedLinks(SitePaths.categoryFeed(category.slug), title: "\(content.config.title) — \(category.name)", root: root),
            content: ArticleListContent(articles: rows(Array(shown), root: root, coverage: true), source: nil, empty: nil)
        )
    }

    func savedPage(_ kind: SavedListKind, root: String) -> Page<ArticleListContent> {
        let saved = self.saved(kind)
        let rows = ArticleRows(
            articles: saved.map(\.article),
            marks: saved.map { item in
                ArticleRows.SavedMark(savedAt: item.entry.savedAt,
                                      note: !item.matched && item.article.sourceID.isEmpty ? "Not listed by any source now" : nil)
            },
            savedList: kind, root: root, inSection: false, builder: self
        )
        let empty = saved.isEmpty
            ? EmptyState(title: "Nothing saved yet", message: "Nothing is saved to \(kind.title) yet. Save an article with `newsgen saved add URL --list \(kind.slug)`, or add it to saved.json.")
            : nil
        return page(
            root: root, path: SitePaths.savedPage(kind), title: "\(kind.title) — \(content.config.title)", heading: kind.title,
            intro: nil, tab: kind.title, updated: savedUpdated(kind),
            feeds: feedLinks(SitePaths.savedFeed(kind), title: "\(content.config.title) — \(kind.title)", root: root),
            content: ArticleListContent(articles: rows, source: nil, empty: empty)
        )
    }

    func articlePath(_ article: Article) -> String? {
        slug(of: article).map(SitePaths.articlePage)
    }

    /// The same, for a story likely to be the one with a page at `place` (`slug(of:likelyAt:)`).
    func articlePath(_ article: Article, likelyAt place: Int) -> String? {
        slug(of: article, likelyAt: place).map(SitePaths.articlePage)
    }

    func articlePage(_ article: Article, root: String) -> Page<ArticleContent> {
        let source = sourcesByID[article.sourceID]
        let feeds = source.map { feedLinks(SitePaths.sourceFeed($0.id), title: $0.name, root: root) }
            ?? feedLinks(SitePaths.headlinesFeed, title: "\(content.config.title) — Headlines", root: root)
        let allTags = tagLinks(article, root: root)
        let coverage = coverage(of: article, root: root)
        var story = page(
            root: root, path: articlePath(article) ?? "", title: "\(article.title) — \(content.config.title)", heading: article.title,
            intro: nil, tab: nil, updated: article.published, feeds: feeds,
            content: ArticleContent(
                article: row(article, root: root), categories: article.categories,
                tags: allTags, hasTags: !allTags.isEmpty, url: article.url,
                domain: article.url.flatMap(URLNormalizer.host(of:)),
                body: article.content.map { siteLinks(in: $0, root: root) },
                coverage: coverage, hasCoverage: !coverage.isEmpty
            )
        )
        story.card = ShareCard(story: article, url: story.canonical, image: cardImage(article.imageURL),
                               publisher: article.outlet ?? source?.name, siteName: content.config.title)
        if let original = article.url { story.canonical = original }
        return story
    }

    func archiveIndexPage(root: String) -> Page<ArchiveIndexContent> {
        let days = archiveDays.map { day in
            ArchiveDayLink(title: day.title, datetime: day.key, href: root + SitePaths.archiveDay(day.key),
                           count: day.articles.count, countText: Self.storyCount(day.articles.count))
        }
        let undated = undatedArchive.isEmpty ? nil : ArchiveDayLink(
            title: "Undated stories", datetime: nil, href: root + SitePaths.archiveUndated,
            count: undatedArchive.count, countText: Self.storyCount(undatedArchive.count)
        )
        let empty = archive.isEmpty
            ? EmptyState(title: "Nothing archived yet", message: "No story has been fetched yet. Stories show here, day by day, once the sources are read.")
            : nil
        return page(
            root: root, path: SitePaths.archiveIndex, title: "Archive — \(content.config.title)", heading: "Archive",
            intro: Self.archiveIntro(keepDays: content.config.keepDays),
            tab: "Archive", updated: Self.newest(archive.map(\.published)),
            feeds: feedLinks(SitePaths.headlinesFeed, title: "\(content.config.title) — Headlines", root: root),
            content: ArchiveIndexContent(days: days, hasDays: !days.isEmpty, undated: undated, empty: empty)
        )
    }

    func archiveDayPage(_ day: ArchiveDay, root: String) -> Page<ArchiveDayContent> {
        page(
            root: root, path: SitePaths.archiveDay(day.key), title: "\(day.title) — Archive — \(content.config.title)", heading: day.title,
            intro: "\(Self.storyCount(day.articles.count)) published this day (UTC), newest first.",
            tab: "Archive", updated: Self.newest(day.articles.map(\.published)),
            feeds: feedLinks(SitePaths.headlinesFeed, title: "\(content.config.title) — Headlines", root: root),
            content: ArchiveDayContent(articles: rows(day.articles, root: root), archive: root + SitePaths.archiveIndex)
        )
    }

    func archiveUndatedPage(root: String) -> Page<ArchiveDayContent> {
        page(
            root: root, path: SitePaths.archiveUndated, title: "Undated stories — Archive — \(content.config.title)", heading: "Undated stories",
            intro: "\(Self.storyCount(undatedArchive.count)) whose source gave no date.",
            tab: "Archive", updated: nil,
            feeds: feedLinks(SitePaths.headlinesFeed, title: "\(content.config.title) — Headlines", root: root),
            content: ArchiveDayContent(articles: rows(undatedArchive, root: root), archive: root + SitePaths.archiveIndex)
        )
    }

    func tagsIndexPage(root: String) -> Page<TagsContent> {
        let entries = tags.map { tag in
            TagIndexEntry(name: tag.name, href: root + SitePaths.tagPage(tag.slug),
                          count: tag.articles.count, countText: Self.storyCount(tag.articles.count))
        }
        let empty = entries.isEmpty
            ? EmptyState(title: "No tags yet", message: "A tag gets a page when \(SiteRenderer.tagThreshold) or more stories carry it; no tag does yet.")
            : nil
        return page(
            root: root, path: SitePaths.tagsIndex, title: "Tags — \(content.config.title)", heading: "Tags",
            intro: "The topics the sources give their stories, with \(SiteRenderer.tagThreshold) or more stories each.",
            tab: "Tags", updated: Self.newest(tags.map { $0.articles.first?.published }),
            feeds: feedLinks(SitePaths.headlinesFeed, title: "\(content.config.title) — Headlines", root: root),
            content: TagsContent(tags: entries, hasTags: !entries.isEmpty, empty: empty)
        )
    }

    func tagPage(_ tag: Tag, root: String) -> Page<TagContent> {
        let shown = tag.articles.prefix(SiteRenderer.categoryLimit)
        let more = tag.articles.count > shown.count ? " The newest \(shown.count) are shown; the archive has every story." : ""
        return page(
            root: root, path: SitePaths.tagPage(tag.slug), title: "\(tag.name) — Tags — \(content.config.title)", heading: tag.name,
            intro: "\(Self.storyCount(tag.articles.count)) tagged \(tag.name), newest first.\(more)",
            tab: "Tags", updated: Self.newest(shown.map(\.published)),
            feeds: feedLinks(SitePaths.tagFeed(tag.slug), title: "\(content.config.title) — \(tag.name)", root: root),
            content: TagContent(articles: rows(Array(shown), root: root), tagsIndex: root + SitePaths.tagsIndex)
        )
    }

    func searchPage(root: String) -> Page<SearchContent> {
        page(
            root: root, path: SitePaths.searchPage, title: "Search — \(content.config.title)", heading: "Search",
            // It shows no story, so no time: its bytes stay the same from build to build.
            intro: nil, tab: nil, updated: nil,
            feeds: feedLinks(SitePaths.headlinesFeed, title: "\(content.config.title) — Headlines", root: root),
            content: SearchContent(index: root + SearchIndex.manifestPath, script: root + SitePaths.searchScript,
                                   archive: root + SitePaths.archiveIndex,
                                   sources: searchSources.map { SearchChoice(value: $0.id, name: $0.name) },
                                   categories: searchCategories.map { SearchChoice(value: $0.slug, name: $0.name) })
        )
    }

    /// The archive holds the stories the sources listed within `keepDays` (and saved ones), so it says so in those words.
    static func archiveIntro(keepDays: Int) -> String {
        "Stories from the last \(keepDays == 1 ? "day" : "\(keepDays) days"), day by day, newest first."
    }

    static func storyCount(_ count: Int) -> String {
        count == 1 ? "1 story" : "\(count) stories"
    }

    /// The search index's writer (`SearchIndex`): every archived story in the order of its number (`searchNumbers`),
    /// with the fields it is found by and the record its result shows.
    func searchIndexWriter() -> SearchIndexWriter {
        let sourceTable = searchSources
        let categoryTable = searchCategories
        let sourcePlaces = Dictionary(sourceTable.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let sections = Dictionary(sources.map { ($0.id, Self.categoryName($0.config.category)) }, uniquingKeysWith: { first, _ in first })
        let categorySlugs = Dictionary(categoryTable.map { ($0.name, $0.slug) }, uniquingKeysWith: { first, _ in first })
        let archive = self.archive
        let places = searchPlaces
        let story: @Sendable (Int) -> SearchStory = { index in
            let place = places[index]
            let article = archive[place]
            let source = sourcePlaces[article.sourceID]
            let section = sections[article.sourceID]
            let text = article.content.map(HTMLText.plainText(fromHTML:)) ?? ""
            let summary = Text.collapsingWhitespace(article.summary)
            var filters: [String] = []
            if source != nil { filters.append("~s:" + article.sourceID) }
            if let slug = section.flatMap({ categorySlugs[$0] }) { filters.append("~c:" + slug) }
            let record = SearchRecord(
                title: article.title,
                link: self.slug(of: article, likelyAt: place) ?? article.url ?? "",
                source: source ?? -1,
                day: article.published.map(Dates.rfc3339Day) ?? "",
                snippet: Self.shortened(summary.isEmpty ? text : summary, to: SiteRenderer.searchSnippetLimit))
            return SearchStory(
                record: record,
                tags: Self.tagNames(of: article) + (section.map { [$0] } ?? []),
                sourceName: source.map { sourceTable[$0].name } ?? "",
                summary: summary, text: text, filters: filters)
        }
        return SearchIndexWriter(numbers: searchNumbers, story: story, sources: sourceTable, categories: categoryTable)
    }

    /// The sources search can filter by, each once, in site.json's order.
    var searchSources: [(id: String, name: String)] {
        var seen = Set<String>()
        return sources.filter { seen.insert($0.id).inserted }.map { ($0.id, $0.name) }
    }

    /// The sections (sources' categories) search can filter by, each once, in the order site.json first names them.
    var searchCategories: [(slug: String, name: String)] {
        var seen = Set<String>()
        return sources.map { Self.categoryName($0.config.category) }.filter { seen.insert($0).inserted }
            .map { (Self.searchCategorySlug($0), $0) }
    }

    /// A category's name in a search filter's URL (`search/?category=…`).
    static func searchCategorySlug(_ name: String) -> String {
        let slug = Slug.make(name)
        return slug.isEmpty ? "category" : slug
    }

    /// `text` cut to at most `limit` characters at a word's end, with "…" when cut, trimmed of whitespace and
    /// punctuation at either end. Mostly-ASCII summaries are cut on their bytes (`shortenedASCII`).
    static func shortened(_ text: String, to limit: Int) -> String {
        guard limit > 0, text.utf8.count > limit else { return text }
        if let cut = text.utf8.withContiguousStorageIfAvailable({ bytes in
            shortenedASCII(bytes, to: limit).map { String(decoding: bytes[$0], as: UTF8.self) + "…" }
        }), let cut { return cut }
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end < text.endIndex else {
            return text
        }
        let prefix = text[..<text.index(before: end)]
        let cut = prefix.lastIndex(where: \.isWhitespace).map { prefix[..<$0] } ?? prefix
        let scalars = cut.unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed.contains($0) }),
              let last = scalars.lastIndex(where: { !trimmed.contains($0) })
        else { return "…" }
        return String(scalars[first...last]) + "…"
    }

    /// `shortened(text, to: limit)` handed to `body` as UTF-8 bytes, with whether "…" ends it.
    static func withShortened<Result>(_ text: String, to limit: Int,
                                      _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ ellipsis: Bool) -> Result) -> Result {
        var text = text
        if limit > 0, text.utf8.count > limit,
           let result = text.withUTF8({ bytes in shortenedASCII(bytes, to: limit).map { body(UnsafeBufferPointer(rebasing: bytes[$0]), true) } }) {
            return result
        }
        var shortened = shortened(text, to: limit)
        return shortened.withUTF8 { body($0, false) }
    }

    /// Where `shortened` cuts a text longer than `limit` bytes, as the byte range kept before "…", when its first
    /// `limit` + 1 bytes are ASCII without a carriage return (so each byte is a character); `nil` otherwise.
    private static func shortenedASCII(_ bytes: UnsafeBufferPointer<UInt8>, to limit: Int) -> Range<Int>? {
        guard bytes.count > limit, !bytes[...limit].contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\r") }) else { return nil }
        let prefix = bytes[..<(limit - 1)]
        let end = prefix.lastIndex(where: { asciiWhitespace[Int($0)] }) ?? prefix.endIndex
        let cut = prefix[..<end]
        guard let first = cut.firstIndex(where: { !asciiTrimmed[Int($0)] }),
              let last = cut.lastIndex(where: { !asciiTrimmed[Int($0)] })
        else { return 0..<0 }
        return first..<(last + 1)
    }

    /// What `shortened` trims from the ends of a cut text.
    private static let trimmed = CharacterSet.whitespacesAndNewlines.union(.punctuationCharacters)
    private static let asciiWhitespace = (0..<128).map { Character(Unicode.Scalar(UInt8($0))).isWhitespace }
    private static let asciiTrimmed = (0..<128).map { trimmed.contains(Unicode.Scalar(UInt8($0))) }

    // MARK: - Feeds

    func feedLists() -> [FeedList] {
        let title = content.config.title
        var lists = [FeedList(
            title: "\(title) — Headlines", description: content.config.description,
            pagePath: SitePaths.headlinesPage, feedPath: SitePaths.headlinesFeed,
            entries: entries(Array(headlines.prefix(SiteRenderer.feedLimit)))
        )]
        for kind in SavedListKind.allCases {
            lists.append(FeedList(
                title: "\(title) — \(kind.title)", description: "Articles saved to \(kind.title)",
                pagePath: SitePaths.savedPage(kind), feedPath: SitePaths.savedFeed(kind),
                entries: entries(saved(kind).map(\.article)), updated: savedUpdated(kind)
            ))
        }
        for source in sources {
            lists.append(FeedList(
                title: source.name, description: "\(source.name), as followed by \(title)",
                pagePath: SitePaths.sourcePage(source.id), feedPath: SitePaths.sourceFeed(source.id),
                entries: entries(source.articles)
            ))
        }
        for category in categories {
            lists.append(FeedList(
                title: "\(title) — \(category.name)", description: "\(category.name) headlines from \(title)",
                pagePath: SitePaths.categoryPage(category.slug), feedPath: SitePaths.categoryFeed(category.slug),
                entries: entries(Array(category.articles.prefix(SiteRenderer.feedLimit)))
            ))
        }
        for tag in tags {
            lists.append(FeedList(
                title: "\(title) — \(tag.name)", description: "Stories tagged \(tag.name) on \(title)",
                pagePath: SitePaths.tagPage(tag.slug), feedPath: SitePaths.tagFeed(tag.slug),
                entries: entries(Array(tag.articles.prefix(SiteRenderer.feedLimit)))
            ))
        }
        // A feed's time is the newest its entries show, never the build's.
        return lists.map { list in
            var list = list
            list.updated = Self.newest([list.updated] + list.entries.map(\.article.published))
            return list
        }
    }

    func opmlOutlines() -> [(group: String, items: [OPMLWriter.Outline])] {
        let title = content.config.title
        let site = [OPMLWriter.Outline(title: "\(title) — Headlines", feedPath: SitePaths.headlinesFeed, pagePath: SitePaths.headlinesPage)]
            + SavedListKind.allCases.map { OPMLWriter.Outline(title: "\(title) — \($0.title)", feedPath: SitePaths.savedFeed($0), pagePath: SitePaths.savedPage($0)) }
        return [
            (group: title, items: site),
            (group: "Sources", items: sources.map { OPMLWriter.Outline(title: $0.name, feedPath: SitePaths.sourceFeed($0.id), pagePath: SitePaths.sourcePage($0.id)) }),
            (group: "Categories", items: categories.map { OPMLWriter.Outline(title: $0.name, feedPath: SitePaths.categoryFeed($0.slug), pagePath: SitePaths.categoryPage($0.slug)) }),
            (group: "Tags", items: tags.map { OPMLWriter.Outline(title: $0.name, feedPath: SitePaths.tagFeed($0.slug), pagePath: SitePaths.tagPage($0.slug)) }),
        ]
    }

    private func entries(_ articles: [Article]) -> [FeedList.Entry] {
        articles.map { article in
            let source = sourcesByID[article.sourceID]
            let fallback = source.map { SitePaths.sourcePage($0.id) } ?? SitePaths.headlinesPage
            return FeedList.Entry(article: article, fallbackLink: content.config.baseURL.absoluteString + fallback)
        }
    }

    // MARK: - Pieces

    /// `tab` is the tab the page belongs to; it is marked `aria-current="page"` only when it links to this very page.
    private func page<C>(
        root: String, path: String, title: String, heading: String, intro: String?, tab: String?,
        updated: Date?, feeds: [FeedLinkModel], content pageContent: C
    ) -> Page<C> {
        let tabs: [(String, String)] = [
            ("Headlines", SitePaths.headlinesPage), ("Sources", SitePaths.sourcesPage),
            ("Favorites", SitePaths.savedPage(.favorites)), ("Read Later", SitePaths.savedPage(.readLater)),
            ("Archive", SitePaths.archiveIndex), ("Tags", SitePaths.tagsIndex),
        ]
        let address = content.config.baseURL.absoluteString + path
        return Page(
            site: SiteModel(title: content.config.title, description: content.config.description, language: content.config.language,
                            version: NewsgenVersion.string, imageSources: content.images.contentSecurityPolicySources),
            title: title, heading: heading, intro: intro, root: root.isEmpty ? "./" : root,
            canonical: address, card: ShareCard(page: title, description: intro ?? content.config.description, url: address),
            nav: tabs.map { title, tabPath in
                let current = title == tab && tabPath == path
                return NavItem(title: title, href: link(root: root, to: tabPath), current: current, section: title == tab && !current)
            },
            feeds: feeds, updated: updated.map(time), content: pageContent
        )
    }

    private func link(root: String, to path: String) -> String {
        let href = root + path
        return href.isEmpty ? "./" : href
    }

    /// A URL of one of the site's own static files as a link relative to the page, so images show from disk too.
    /// Other URLs, even under baseURL, stay as they are: a link naming no file would be broken.
    func siteLink(_ url: String, root: String) -> String {
        let base = content.config.baseURL.absoluteString
        guard url.hasPrefix(base) else { return url }
        let path = String(url.dropFirst(base.count))
        guard staticPaths.contains(path.removingPercentEncoding ?? path) else { return url }
        return root + path
    }

    /// A story's full text with its static-file images linked as `siteLink` does (the sanitizer writes every `src`
    /// double-quoted and absolute).
    func siteLinks(in html: String, root: String) -> String {
        let html = shownImages(in: html, root: root)
        let marker = "src=\"" + content.config.baseURL.absoluteString
        guard !staticPaths.isEmpty, html.contains(marker) else { return html }
        var result = ""
        var rest = Substring(html)
        while let found = rest.range(of: marker) {
            result += rest[..<found.lowerBound]
            rest = rest[found.upperBound...]
            let path = rest.prefix { $0 != "\"" }
            let local = staticPaths.contains(String(path).removingPercentEncoding ?? String(path))
            result += local ? "src=\"" + root : marker
        }
        return result + rest
    }

    private func feedLinks(_ feedPath: String, title: String, root: String) -> [FeedLinkModel] {
        FeedKind.allCases.map { kind in
            FeedLinkModel(label: kind.label, title: "\(title) (\(kind.label))", href: root + feedPath + "." + kind.fileExtension, type: kind.mediaType)
        }
    }

    func time(_ date: Date) -> TimeModel {
        TimeModel(datetime: Dates.rfc3339(date), text: Dates.readable(date))
    }

    static func newest(_ dates: some Sequence<Date?>) -> Date? {
        dates.compactMap { $0 }.max()
    }

    /// The time a source's state line shows ("Updated 21 Nov 2026, 08:00 UTC"), if any.
    static func statusDate(_ source: SourceReport) -> Date? {
        switch source.status {
        case .fetched, .notModified: nil
        case .recent(let date), .offline(let date), .stale(let date, _, _): date
        case .unavailable(let since, _): since
        }
    }

    /// A saved list shows its articles' dates and when each was saved.
    private func savedUpdated(_ kind: SavedListKind) -> Date? {
        let saved = self.saved(kind)
        return Self.newest(saved.map(\.article.published) + saved.map(\.entry.savedAt))
    }

    /// Section rows (`inSection`) have `<h3>` headlines under the section's `<h2>`, the first larger; list-page rows
    /// have `<h2>` under its `<h1>`.
    private func rows(_ articles: [Article], root: String, inSection: Bool = false, coverage: Bool = false) -> ArticleRows {
        ArticleRows(articles: articles, marks: [], root: root, inSection: inSection, coverage: coverage && !content.groups.isEmpty, builder: self)
    }

    /// The row of `article` on a page at `root`. Every value it reads but the root and place must also be fed by
    /// `feedStory`, or a list showing a new value would be carried with the old bytes.
    func row(_ article: Article, root: String, lead: Bool = false, level: Int = 2) -> ArticleRow {
        let source = sourcesByID[article.sourceID]
        let page = articlePath(article).map { root + $0 }
        // The tag that names the row's own section ("World" on a World story) would say it again.
        let section = source.map { root + SitePaths.tagPage(Slug.make(Self.categoryName($0.config.category))) }
        let rowTags = Array(tagLinks(article, root: root).filter { $0.linked && $0.href != section }.prefix(SiteRenderer.rowTagLimit))
        let shown = shownImage(article.imageURL, root: root)
        return ArticleRow(
            title: article.title,
            href: article.url ?? page ?? link(root: root, to: source.map { SitePaths.sourcePage($0.id) } ?? SitePaths.headlinesPage),
            page: page,
            summary: article.summary.isEmpty ? nil : article.summary,
            author: article.author,
            sourceName: source?.name,
            sourceHref: source.map { root + SitePaths.sourcePage($0.id) },
            outlet: article.outlet.flatMap { $0.caseInsensitiveCompare(source?.name ?? "") == .orderedSame ? nil : $0 },
            time: article.published.map(time),
            image: shown?.src,
            imageSet: shown?.set,
            favorite: savedIDs[.favorites]?.contains(article.id) ?? false,
            readLater: savedIDs[.readLater]?.contains(article.id) ?? false,
            lead: lead,
            level: level,
            savedAt: nil,
            note: nil,
            tags: rowTags,
            hasTags: !rowTags.isEmpty
        )
    }

    private func sourceRow(_ source: SourceReport, root: String) -> SourceRow {
        let status = SourceStatusText(source.status)
        return SourceRow(
            id: source.id, name: source.name, href: root + SitePaths.sourcePage(source.id),
            kind: Self.kindText(source), category: source.config.category.map { Self.categoryName($0) },
            state: status.state, stateText: status.text, articleCount: source.articles.count,
            countText: source.articles.count == 1 ? "1 article" : "\(source.articles.count) articles", homepage: source.homepage,
            feeds: feedLinks(SitePaths.sourceFeed(source.id), title: source.name, root: root), selected: true
        )
    }

    static func kindText(_ source: SourceReport) -> String {
        switch source.config.kind {
        case .newsapi: return "NewsAPI"
        case .json: return "JSON news API"
        case .feed: return source.format.map { $0 == .jsonFeed ? "JSON Feed" : "\($0.rawValue) feed" } ?? "Feed"
        }
    }

    private func notices(root: String) -> [NoticeModel] {
        sources.compactMap { source in
            let status = SourceStatusText(source.status)
            guard !status.isOK else { return nil }
            return NoticeModel(text: "\(source.name): \(status.text)", href: root + SitePaths.sourcePage(source.id), severity: status.state)
        }
    }
}
