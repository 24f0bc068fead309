import Foundation
import NewsgenModel
import NewsgenXML

/// One list of articles published as a feed (headlines, a saved list, a source, a category).
struct FeedList: Sendable {
    struct Entry: Sendable {
        var article: Article
        /// Where the entry links when the article has no URL of its own (its source's page).
        var fallbackLink: String
    }

    var title: String
    var description: String
    var pagePath: String
    /// The feed's path without extension, relative to the site root.
    var feedPath: String
    var entries: [Entry]
    /// The newest time the feed shows; `nil` when none. Feeds carry no build time, so an unchanged feed keeps its bytes.
    var updated: Date?
}

struct FeedContext: Sendable {
    var baseURL: URL
    var language: String
    var siteTitle: String
    /// The WebSub hubs every feed names (`rel="hub"`), in site.json's order.
    var hubs: [String] = []

    func absolute(_ path: String) -> String {
        baseURL.absoluteString + path
    }

    /// A stable, absolute id for an entry: its URL, else a tag: URI on the site's host.
    func entryID(_ article: Article) -> String {
        if let url = article.url { return url }
        return "tag:\(baseURL.host ?? "newsgen"),2026:\(Slug.digest(article.id))"
    }
}

/// RSS 2.0 with atom:link rel=self (and rel=hub for each WebSub hub), Dublin Core authors and Media RSS thumbnails.
enum RSSWriter {
    static func write(_ list: FeedList, context: FeedContext) -> String {
        var xml = XMLWriter()
        xml.open("rss", [
            "version": "2.0",
            "xmlns:atom": Namespace.atom,
            "xmlns:dc": Namespace.dublinCore,
            "xmlns:media": Namespace.media,
            "xmlns:content": Namespace.content,
        ])
        xml.open("channel")
        xml.element("title", list.title)
        xml.element("link", context.absolute(list.pagePath))
        xml.element("description", list.description.isEmpty ? list.title : list.description)
        xml.element("language", context.language)
        // The newest article's date, not the build's, so an unchanged feed keeps its bytes and mtime; a feed with no date
        // has no lastBuildDate.
        xml.element("lastBuildDate", list.updated.map(Dates.rfc822))
        xml.element("generator", "newsgen \(NewsgenVersion.string)")
        xml.empty("atom:link", [
            "href": context.absolute(list.feedPath + ".rss"), "rel": "self", "type": FeedKind.rss.mediaType,
        ])
        for hub in context.hubs { xml.empty("atom:link", ["href": hub, "rel": "hub"]) }
        for entry in list.entries {
            let article = entry.article
            xml.open("item")
            xml.element("title", article.title)
            xml.element("link", article.url ?? entry.fallbackLink)
            let id = context.entryID(article)
            xml.element("guid", id, ["isPermaLink": article.url == id ? "true" : "false"])
            if !article.summary.isEmpty { xml.element("description", article.summary) }
            // The full text, as sanitized HTML; the writer escapes it, as RSS expects.
            xml.element("content:encoded", article.content)
            xml.element("pubDate", article.published.map(Dates.rfc822))
            xml.element("dc:creator", article.author)
            // RSS's own <source> needs the outlet's feed URL, which NewsAPI does not give.
            xml.element("dc:publisher", article.outlet)
            for category in article.categories { xml.element("category", category) }
            if let image = article.imageURL { xml.empty("media:thumbnail", ["url": image]) }
            xml.close()
        }
        return xml.finish()
    }
}

/// Atom 1.0 (RFC 4287).
enum AtomWriter {
    static func write(_ list: FeedList, context: FeedContext) -> String {
        var xml = XMLWriter()
        let namesOutlets = list.entries.contains { $0.article.outlet != nil }
        xml.open("feed", ["xmlns": Namespace.atom, "xmlns:dc": namesOutlets ? Namespace.dublinCore : nil, "xml:lang": context.language])
        xml.element("title", list.title)
        if !list.description.isEmpty { xml.element("subtitle", list.description) }
        let selfURL = context.absolute(list.feedPath + ".atom")
        xml.element("id", selfURL)
        // Atom requires a time; a feed showing none gets the epoch, not the clock, which would change its bytes every build.
        let newest = list.updated ?? Date(timeIntervalSince1970: 0)
        xml.element("updated", Dates.rfc3339(newest))
        xml.empty("link", ["rel": "self", "type": FeedKind.atom.mediaType, "href": selfURL])
        for hub in context.hubs { xml.empty("link", ["rel": "hub", "href": hub]) }
        xml.empty("link", ["rel": "alternate", "type": "text/html", "href": context.absolute(list.pagePath)])
        xml.element("generator", "newsgen", ["version": NewsgenVersion.string])
        // A feed-level author covers entries that have none (RFC 4287 §4.1.1).
        xml.open("author")
        xml.element("name", context.siteTitle)
        xml.close()
        for entry in list.entries {
            let article = entry.article
            xml.open("entry")
            xml.element("title", article.title, ["type": "text"])
            xml.element("id", context.entryID(article))
            xml.empty("link", ["rel": "alternate", "type": "text/html", "href": article.url ?? entry.fallbackLink])
            xml.element("updated", Dates.rfc3339(article.published ?? newest))
            xml.element("published", article.published.map(Dates.rfc3339))
            if let author = article.author {
                xml.open("author")
                xml.element("name", author)
                xml.close()
            }
            // The outlet, as RSS names it. Not an atom:source, which needs the id, title and time of a feed
            // (RFC 4287 §4.2.11); an outlet is known by its name alone.
            xml.element("dc:publisher", article.outlet)
            if !article.summary.isEmpty { xml.element("summary", article.summary, ["type": "text"]) }
            xml.element("content", article.content, ["type": "html"])
            for category in article.categories { xml.empty("category", ["term": category]) }
            if let image = article.imageURL {
                xml.empty("link", ["rel": "enclosure", "type": imageType(image), "href": image])
            }
            xml.close()
        }
        return xml.finish()
    }

    static func imageType(_ url: String) -> String {
        let path = url.lowercased().prefix { $0 != "?" }
        if path.hasSuffix(".png") { return "image/png" }
        if path.hasSuffix(".gif") { return "image/gif" }
        if path.hasSuffix(".webp") { return "image/webp" }
        if path.hasSuffix(".svg") { return "image/svg+xml" }
        if path.hasSuffix(".avif") { return "image/avif" }
        return "image/jpeg"
    }
}

/// JSON Feed 1.1, laid out as `JSONEncoder` lays it out with `.prettyPrinted`, `.sortedKeys`
/// and `.withoutEscapingSlashes`, written straight into bytes.
enum JSONFeedWriter {
    static func write(_ list: FeedList, context: FeedContext) -> String {
        var json = PrettyJSON(capacity: 1024 + list.entries.count * 1024)
        json.openObject()
        if !list.description.isEmpty { json.member("description", list.description) }
        json.member("feed_url", context.absolute(list.feedPath + ".json"))
        json.member("home_page_url", context.absolute(list.pagePath))
        if !context.hubs.isEmpty {
            json.key("hubs")
            json.openArray()
            for hub in context.hubs {
                json.nextElement()
                json.openObject()
                json.member("type", "WebSub")
                json.member("url", hub)
                json.closeObject()
            }
            json.closeArray()
        }
        json.key("items")
        json.openArray()
        for entry in list.entries {
            json.nextElement()
            item(entry, context: context, into: &json)
        }
        json.closeArray()
        json.member("language", context.language)
        json.member("title", list.title)
        json.member("version", "https://jsonfeed.org/version/1.1")
        json.closeObject()
        return json.text() + "\n"
    }

    private static func item(_ entry: FeedList.Entry, context: FeedContext, into json: inout PrettyJSON) {
        let article = entry.article
        json.openObject()
        // A JSON Feed 1.1 `_` extension: the outlet, as RSS's and Atom's `dc:publisher` name it.
        if let outlet = article.outlet {
            json.key("_outlet")
            json.openObject()
            json.member("name", outlet)
            json.closeObject()
        }
        if let author = article.author {
            json.key("authors")
            json.openArray()
            json.nextElement()
            json.openObject()
            json.member("name", author)
            json.closeObject()
            json.closeArray()
        }
        if let content = article.content { json.member("content_html", content) }
        json.member("content_text", article.summary.isEmpty ? article.title : article.summary)
        if let published = article.published { json.member("date_published", Dates.rfc3339(published)) }
        json.member("id", context.entryID(article))
        if let image = article.imageURL { json.member("image", image) }
        if !article.summary.isEmpty { json.member("summary", article.summary) }
        if !article.categories.isEmpty {
            json.key("tags")
            json.openArray()
            for tag in article.categories {
                json.nextElement()
                json.string(tag)
            }
            json.closeArray()
        }
        json.member("title", article.title)
        json.member("url", article.url ?? entry.fallbackLink)
        json.closeObject()
    }
}

/// JSON in `JSONEncoder`'s `.prettyPrinted` layout (one member or element a line, two-space indent, `"name" : value`,
/// an empty array or object as `[\n\n]`). The caller writes members in the order they are to appear.
struct PrettyJSON: ~Copyable {
    private var bytes: JSONBytes
    private var level = 0
    /// Whether the innermost open array or object has no member or element yet.
    private var isEmpty = true

    init(capacity: Int) {
        bytes = JSONBytes(capacity: capacity)
    }

    mutating func openObject() { open("{") }
    mutating func closeObject() { close("}") }
    mutating func openArray() { open("[") }
    mutating func closeArray() { close("]") }

    mutating func key(_ name: StaticString) {
        nextElement()
        bytes.append("\"")
        bytes.append(name)
        bytes.append("\" : ")
    }

    mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        bytes.string(value)
    }

    mutating func nextElement() {
        bytes.append(isEmpty ? "\n" : ",\n")
        isEmpty = false
        indent()
    }

    mutating func string(_ value: String) {
        bytes.string(value)
    }

    consuming func text() -> String {
        String(decoding: bytes.data(), as: UTF8.self)
    }

    private mutating func open(_ bracket: StaticString) {
        bytes.append(bracket)
        level += 1
        isEmpty = true
    }

    private mutating func close(_ bracket: StaticString) {
        level -= 1
        bytes.append("\n")
        if isEmpty { bytes.append("\n") }
        indent()
        bytes.append(bracket)
        isEmpty = false
    }

    private mutating func indent() {
        for _ in 0..<level { bytes.append("  ") }
    }
}

/// OPML 2.0 listing every feed of the site, to import into an RSS reader.
enum OPMLWriter {
    struct Outline {
        var title: String
        var feedPath: String
        var pagePath: String
    }

    static func write(_ outlines: [(group: String, items: [Outline])], context: FeedContext) -> String {
        var xml = XMLWriter()
        xml.open("opml", ["version": "2.0"])
        xml.open("head")
        xml.element("title", "\(context.siteTitle) — feeds")
        xml.close()
        xml.open("body")
        for (group, items) in outlines where !items.isEmpty {
            xml.open("outline", ["text": group, "title": group])
            for item in items {
                xml.empty("outline", [
                    "type": "rss", "text": item.title, "title": item.title,
                    "xmlUrl": context.absolute(item.feedPath + ".rss"),
                    "htmlUrl": context.absolute(item.pagePath),
                ])
            }
            xml.close()
        }
        xml.close()
        return xml.finish()
    }
}

/// sitemap.xml (sitemaps.org 0.9) listing every page; past `urlLimit` pages, a sitemap index
/// in sitemap.xml and the pages in sitemaps/<n>.xml, as the protocol requires.
package enum SitemapWriter {
    /// The most URLs one sitemap may list (sitemaps.org); well below the protocol's 50 MB per-file limit too.
    package static let urlLimit = 50_000
    static let namespace = "http://www.sitemaps.org/schemas/sitemap/0.9"

    /// One file to write: a list of pages, or the index of the numbered parts.
    struct File: Sendable {
        enum Body: Sendable {
            case urls([String])
            case index(parts: Int)
        }

        var path: String
        var body: Body
    }

    /// The files for `pages` (paths relative to the site root), at most `limit` URLs each.
    static func files(pages: [String], limit: Int) -> [File] {
        guard pages.count > limit else { return [File(path: SitePaths.sitemap, body: .urls(pages))] }
        let parts = stride(from: 0, to: pages.count, by: limit).map { Array(pages[$0..<min($0 + limit, pages.count)]) }
        return parts.enumerated().map { File(path: SitePaths.sitemapPart($0 + 1), body: .urls($1)) }
            + [File(path: SitePaths.sitemap, body: .index(parts: parts.count))]
    }

    /// The file's bytes as `XMLWriter` would write them, straight into one block of their size (`OutputBuffer`).
    static func bytes(_ file: File, context: FeedContext) -> Data {
        switch file.body {
        case .urls(let pages):
            let base = base(of: context)
            var xml = OutputBuffer(capacity: size(of: pages, base: base))
            xml.append(urlsetStart)
            for page in pages {
                xml.append(urlStart)
                xml.append(base)
                xml.append(XMLWriter.escape(page, quotes: false))
                xml.append(urlEnd)
            }
            xml.append(urlsetEnd)
            return xml.data()
        case .index(let parts):
            var xml = XMLWriter()
            xml.open("sitemapindex", ["xmlns": namespace])
            for number in 1...max(1, parts) {
                xml.open("sitemap")
                xml.element("loc", context.absolute(SitePaths.sitemapPart(number)))
                xml.close()
            }
            return Data(xml.finishBytes())
        }
    }

    private static let urlsetStart = XMLWriter.declaration + "<urlset xmlns=\"\(namespace)\">\n"
    private static let urlStart: StaticString = "  <url>\n    <loc>", urlEnd: StaticString = "</loc>\n  </url>\n"
    private static let urlsetEnd: StaticString = "</urlset>\n"

    /// The site's base URL as each `<loc>` begins with it, escaped.
    private static func base(of context: FeedContext) -> String {
        XMLWriter.escape(context.absolute(""), quotes: false)
    }

    /// The sitemap of `pages` when no path needs escaping (a site's paths are slugs), in a buffer made at its size once;
    /// the build tells its largest files by it.
    static func size(of pages: [String], context: FeedContext) -> Int {
        size(of: pages, base: base(of: context))
    }

    private static func size(of pages: [String], base: String) -> Int {
        let perURL = urlStart.utf8CodeUnitCount + base.utf8.count + urlEnd.utf8CodeUnitCount
        return pages.reduce(urlsetStart.utf8.count + urlsetEnd.utf8CodeUnitCount) { $0 + perURL + $1.utf8.count }
    }
}
