import Foundation
import NewsgenModel
import NewsgenConfig

/// The values templates see: stored properties by name (`TemplateValues` turns each page into dictionaries, so computed
/// properties are invisible). Every page gets a `Page` with the site, navigation, feed links and a template-specific
/// `content`. Text here is plain; the templates escape it.
struct Page<Content: Sendable>: Sendable {
    var site: SiteModel
    /// The document title (`<title>`).
    var title: String
    /// The page's one `<h1>`.
    var heading: String
    var intro: String?
    /// The relative path back to the site root, such as "../../".
    var root: String
    /// The page's preferred address: its own, or on a story's page the original article.
    var canonical: String
    /// What the page shows where it is shared.
    var card: ShareCard
    var nav: [NavItem]
    var feeds: [FeedLinkModel]
    /// The newest time the page shows, for the footer; `nil` when none. Never the build's time, so an unchanged page
    /// keeps its bytes and mtime across builds.
    var updated: TimeModel?
    var content: Content
}

struct SiteModel: Sendable {
    var title: String
    var description: String
    var language: String
    var version: String
    /// The `img-src` of the Content-Security-Policy: `'self'` unless images are linked from other hosts.
    var imageSources: String
}

/// A tab of the masthead.
struct NavItem: Sendable {
    var title: String
    var href: String
    /// This tab is the page shown (`aria-current="page"`): set on one tab at most.
    var current: Bool
    /// The page shown lies below this tab (a source's page below Sources): marked only visually.
    var section: Bool
}

struct FeedLinkModel: Sendable {
    /// "RSS", "Atom", "JSON Feed"
    var label: String
    var title: String
    var href: String
    var type: String
}

struct TimeModel: Sendable {
    /// RFC 3339, for `<time datetime>`.
    var datetime: String
    /// "Sat 21 Nov 2026, 08:15 UTC"
    var text: String
}

/// An explanation shown instead of a list that is empty.
struct EmptyState: Sendable {
    var title: String
    var message: String
}

/// One article in a list (the `row` partial).
struct ArticleRow: Sendable {
    var title: String
    var href: String
    /// The article's own page on this site.
    var page: String?
    var summary: String?
    var author: String?
    var sourceName: String?
    var sourceHref: String?
    /// The outlet that published the story ("via Outlet"), only when it is not the source's name.
    var outlet: String?
    var time: TimeModel?
    /// Shown beside the headline, so the image is decorative (`alt=""`): alt text would repeat the headline.
    var image: String?
    /// The rest of the image's element when the site serves it (`srcset`, `sizes`, `width`, `height`).
    var imageSet: ImageSetModel? = nil
    var favorite: Bool
    var readLater: Bool
    /// The first article of a section, shown larger.
    var lead: Bool
    /// The level of the headline's heading: 3 below a section's `<h2>`, 2 right below the `<h1>`.
    var level: Int
    /// When the entry was saved, on saved lists ("Saved <time>20 Nov 2026</time>").
    var savedAt: TimeModel?
    /// A remark such as "No longer listed by any source".
    var note: String?
    /// The story's own tags that have a page (`SiteRenderer.rowTagLimit` at most).
    var tags: [TagLink] = []
    var hasTags: Bool = false
    /// The other outlets' stories about the same event ("Also covered by"), on lists that show a group once.
    var coverage: [CoverageLink] = []
    var hasCoverage: Bool = false
}

/// Another outlet's story about the same event (`StoryGroups`), earliest first: linked to its page on this site, or to the
/// original when it has none.
struct CoverageLink: Sendable {
    /// The outlet: the story's own (`Article.outlet`), else its source's name.
    var outlet: String
    var title: String
    var href: String
    var time: TimeModel?
    /// The first of the list (the others follow a comma).
    var first: Bool
}

/// The rows of a list, made as the template reaches them (`SiteModelBuilder.row`), so a rendered page holds one row at a
/// time and a carried page builds none: its fingerprint takes each row's inputs (`SiteModelBuilder.feedRow`).
struct ArticleRows: Sendable {
    /// What a saved list shows beside a row.
    struct SavedMark: Sendable {
        var savedAt: Date?
        /// A remark such as "Not listed by any source now".
        var note: String?
    }

    let articles: [Article]
    /// One for each article on a saved list; empty on every other list.
    let marks: [SavedMark]
    /// The saved list these rows are, if any: its rows leave out its own badge, which every one of them would carry.
    var savedList: SavedListKind? = nil
    let root: String
    /// A front-page section's rows: `<h3>` headlines, the first shown larger.
    let inSection: Bool
    /// Each row names the other outlets' stories of its group ("Also covered by"): the list shows a group once.
    var coverage = false
    let builder: SiteModelBuilder

    var count: Int { articles.count }
    var isEmpty: Bool { articles.isEmpty }

    subscript(index: Int) -> ArticleRow {
        var row = builder.row(articles[index], root: root, lead: inSection && index == 0, level: inSection ? 3 : 2)
        if index < marks.count {
            row.savedAt = marks[index].savedAt.map { TimeModel(datetime: Dates.rfc3339($0), text: Dates.readableDay($0)) }
            row.note = marks[index].note
        }
        switch savedList {
        case .favorites: row.favorite = false
        case .readLater: row.readLater = false
        case nil: break
        }
        if coverage {
            row.coverage = builder.coverage(of: articles[index], root: root)
            row.hasCoverage = !row.coverage.isEmpty
        }
        return row
    }

    /// Feeds everything the rows show: the page's root, and each row's article (as `SiteModelBuilder.feedRow`), place, mark.
    func feed(into hasher: inout Fingerprint.Hasher) {
        hasher.add("rows")
        hasher.add(root)
        hasher.add(inSection)
        hasher.add(savedList?.key)
        hasher.add(coverage)
        hasher.add(articles.count)
        for (index, article) in articles.enumerated() {
            builder.feedRow(article, into: &hasher)
            if coverage { builder.feedCoverage(of: article, into: &hasher) }
            if index < marks.count {
                hasher.add(marks[index].savedAt.map(Dates.rfc3339))
                hasher.add(marks[index].note)
            } else {
                hasher.add(nil as String?)
            }
        }
    }

    var templateList: LazyTemplateList {
        LazyTemplateList(count: count, item: { .object(self[$0].templateObject) }, feed: { self.feed(into: &$0) })
    }
}

/// One of a story's own tags, linked when the tag has a page. `href` is never nil, so `{{href}}` cannot fall through
/// to the row's.
struct TagLink: Sendable {
    var name: String
    /// The tag's page; empty when it has none.
    var href: String
    var linked: Bool
}

struct HeadlinesContent: Sendable {
    var sections: [SectionModel]
    var notices: [NoticeModel]
    var empty: EmptyState?
}

struct SectionModel: Sendable {
    var title: String
    var anchor: String
    var href: String?
    var articles: ArticleRows
    var more: Bool
}

/// A source that could not be fetched, on the front page: its name and status (`SourceStatusText`), linking to its page.
struct NoticeModel: Sendable {
    var text: String
    var href: String
    /// "stale" or "failed".
    var severity: String
}

struct SourceRow: Sendable {
    var id: String
    var name: String
    var href: String
    var kind: String
    var category: String?
    /// "ok", "stale" or "failed", for styling.
    var state: String
    /// One sentence for readers (`SourceStatusText`), never the error itself.
    var stateText: String
    var articleCount: Int
    /// "1 article", "12 articles"
    var countText: String
    var homepage: String?
    var feeds: [FeedLinkModel]
    var selected: Bool
}

/// One source NewsAPI offers, on the Sources tab.
struct AvailableSourceRow: Sendable {
    /// NewsAPI's id, the value of `"newsapi"` in site.json.
    var id: String
    var name: String
    /// The page of the configured source, when this one is selected.
    var href: String?
    /// The outlet's own website.
    var website: String?
    var description: String?
    var category: String
    var language: String
    var selected: Bool
}

struct SourcesContent: Sendable {
    var sources: [SourceRow]
    var hasSources: Bool
    var empty: EmptyState?
    /// NewsAPI's list, when the site uses NewsAPI and the list could be had.
    var available: [AvailableSourceRow]
    var hasAvailable: Bool
    /// "84 English sources, listed 21 Nov 2026 08:00 UTC; 2 selected."
    var availableNote: String?

    init(sources: [SourceRow], empty: EmptyState?, available: [AvailableSourceRow] = [], availableNote: String? = nil) {
        self.sources = sources
        self.hasSources = !sources.isEmpty
        self.empty = empty
        self.available = available
        self.hasAvailable = !available.isEmpty
        self.availableNote = availableNote
    }
}

struct ArticleListContent: Sendable {
    var articles: ArticleRows
    var hasArticles: Bool
    /// On a source's page, its row (with its status); `nil` on other lists.
    var source: SourceRow?
    var empty: EmptyState?

    init(articles: ArticleRows, source: SourceRow?, empty: EmptyState?) {
        self.articles = articles
        self.hasArticles = !articles.isEmpty
        self.source = source
        self.empty = empty
    }
}

/// One article's page: image, title, summary, source, author, time, full text when the feed has it, link to the original.
struct ArticleContent: Sendable {
    var article: ArticleRow
    var categories: [String]
    /// Every tag of the story, linked where the tag has a page.
    var tags: [TagLink]
    var hasTags: Bool
    var url: String?
    var domain: String?
    /// The story's full text: HTML that `HTMLSanitizer` already made safe and well-formed, so
    /// the template includes it unescaped (`{{{body}}}`). Nothing else may be.
    var body: String?
    /// The other outlets' stories about the same event.
    var coverage: [CoverageLink] = []
    var hasCoverage: Bool = false
}

/// The archive's index: every day that has stories, newest first, with counts.
struct ArchiveIndexContent: Sendable {
    var days: [ArchiveDayLink]
    var hasDays: Bool
    /// The page of the stories that carry no date, when there are any.
    var undated: ArchiveDayLink?
    var empty: EmptyState?
}

/// A day (or the undated stories) in the archive's index.
struct ArchiveDayLink: Sendable {
    /// "21 Nov 2026"
    var title: String
    /// "2026-11-21", for `<time datetime>`; `nil` for the undated stories.
    var datetime: String?
    var href: String
    var count: Int
    /// "1 story", "12 stories"
    var countText: String
}

/// One UTC day of the archive. It links to the index, not to neighbouring days, so a new day changes no other day's page.
struct ArchiveDayContent: Sendable {
    var articles: ArticleRows
    var archive: String
}

/// The tags index: every tag that has a page, by name.
struct TagsContent: Sendable {
    var tags: [TagIndexEntry]
    var hasTags: Bool
    var empty: EmptyState?
}

struct TagIndexEntry: Sendable {
    var name: String
    var href: String
    var count: Int
    /// "2 stories"
    var countText: String
}

/// One tag's page: its newest stories, and the way back to every tag.
struct TagContent: Sendable {
    var articles: ArticleRows
    var tagsIndex: String
}

/// The search page: `assets/search.js` reads the index's manifest and the root from the form's data attributes;
/// without script the page points to the archive. The filters' choices are the index's sources and categories.
struct SearchContent: Sendable {
    var index: String
    var script: String
    var archive: String
    var sources: [SearchChoice]
    var categories: [SearchChoice]
}

/// One choice of a search filter: the value its URL carries (`?source=<value>`) and the name shown.
struct SearchChoice: Sendable {
    var value: String
    var name: String
}
