import Foundation
import NewsgenConfig

/// Where every page and feed lives in the output, relative to its root (the contract of DESIGN.md).
enum SitePaths {
    /// A variant of an image the site serves, named by the original's hash: a new image never overwrites another.
    static func image(hash: String, width: Int) -> String {
        "images/\(hash)-\(width).webp"
    }

    static let headlinesPage = ""
    static let sourcesPage = "sources/"
    static func sourcePage(_ id: String) -> String { "sources/\(id)/" }
    static func categoryPage(_ slug: String) -> String { "categories/\(slug)/" }
    static func savedPage(_ kind: SavedListKind) -> String { "\(kind.slug)/" }
    static func articlePage(_ slug: String) -> String { "articles/\(slug)/" }
    static let archiveIndex = "archive/"
    /// One UTC day of the archive; `day` is "yyyy-mm-dd" (`ArchiveDay.key`).
    static func archiveDay(_ day: String) -> String { "archive/\(day.replacingOccurrences(of: "-", with: "/"))/" }
    /// The stories that carry no date: they belong to no day, so they get a page of their own
    /// rather than a day guessed from the build's clock.
    static let archiveUndated = "archive/undated/"
    static let searchPage = "search/"
    static let tagsIndex = "tags/"
    static func tagPage(_ slug: String) -> String { "tags/\(slug)/" }

    static let headlinesFeed = "feeds/headlines"
    static func sourceFeed(_ id: String) -> String { "feeds/sources/\(id)" }
    static func categoryFeed(_ slug: String) -> String { "feeds/categories/\(slug)" }
    static func tagFeed(_ slug: String) -> String { "feeds/tags/\(slug)" }
    static func savedFeed(_ kind: SavedListKind) -> String { "feeds/\(kind.slug)" }
    static let opml = "feeds/sources.opml"
    static let sitemap = "sitemap.xml"
    /// A part of a sitemap too large for one file (sitemaps.org: 50,000 URLs each), numbered from 1.
    static func sitemapPart(_ number: Int) -> String { "sitemaps/\(number).xml" }
    static let stylesheet = "assets/style.css"
    static let searchScript = "assets/search.js"

    /// The file a page path is written to.
    static func file(forPage page: String) -> String { page + "index.html" }

    /// The page path a file was written for (`file(forPage:)` undone).
    static func page(forFile file: String) -> String {
        file.hasSuffix("index.html") ? String(file.dropLast("index.html".count)) : file
    }

    /// The relative prefix from a page back to the site root ("../../" for "sources/bbc/").
    static func root(fromPage page: String) -> String {
        // Counted on the bytes.
        var components = 0
        var previous = UInt8(ascii: "/")
        for byte in page.utf8 {
            if previous == UInt8(ascii: "/") && byte != UInt8(ascii: "/") { components += 1 }
            previous = byte
        }
        return String(repeating: "../", count: components)
    }
}

/// The feed formats written for every list.
enum FeedKind: String, CaseIterable, Sendable {
    case rss, atom, json

    var fileExtension: String { rawValue }

    var mediaType: String {
        switch self {
        case .rss: "application/rss+xml"
        case .atom: "application/atom+xml"
        case .json: "application/feed+json"
        }
    }

    var label: String {
        switch self {
        case .rss: "RSS"
        case .atom: "Atom"
        case .json: "JSON Feed"
        }
    }
}
