import Foundation
package import NewsgenModel
import NewsgenXML


/// Feed text: plain, HTML still to be reduced or sanitized, or XHTML elements (Atom `type="xhtml"`) in their wrapper.
enum FeedText: Sendable {
    case plain(String)
    case html(String)
    case xhtml(XMLElement)

    /// Text RSS leaves ambiguous (a title): HTML if `HTMLText.looksLikeHTML`, else text as written.
    static func htmlOrText(_ text: String) -> FeedText {
        HTMLText.looksLikeHTML(text) ? .html(text) : .plain(text)
    }

    /// What a reader sees: markup removed, entities decoded, script and style dropped.
    var plainText: String {
        switch self {
        case .plain(let text): Text.collapsingWhitespace(text)
        case .html(let html): HTMLText.plainText(fromHTML: html)
        case .xhtml(let element): HTMLText.plainText(of: element)
        }
    }

    var firstImageSource: String? {
        switch self {
        case .plain: nil
        case .html(let html): HTMLText.firstImageSource(inHTML: html)
        case .xhtml(let element): HTMLText.firstImageSource(in: element).flatMap(element.resolving)
        }
    }

    /// The text as sanitized HTML for a story page; relative URLs resolve against `base`.
    func sanitizedHTML(base: String?) -> String? {
        switch self {
        case .plain(let text): HTMLSanitizer.paragraphs(fromText: text)
        case .html(let html): HTMLSanitizer.sanitize(html: html, base: base)
        case .xhtml(let element): HTMLSanitizer.sanitize(xhtml: element, base: base)
        }
    }
}

/// One entry of a feed, as read, before it becomes an `Article`.
struct FeedItem: Sendable {
    var title: FeedText?
    var summary: FeedText?
    var content: FeedText?
    /// An image the content's own markup names.
    var contentImage: String?
    var author: String?
    var link: String?
    var guid: String?
    var image: String?
    var published: Date?
    var categories: [String] = []
    /// The base URL of relative references in `content` and `summary` (their `xml:base`).
    var contentBase: String?
    /// The outlet that published the entry (NewsAPI's `source.name`, RSS `<source>`).
    var outlet: String?
}

/// A feed as read: its own title and home page, and its entries in feed order.
package struct ParsedFeed: Sendable {
    public var format: FeedFormat
    public var title: String?
    public var homepage: String?
    var items: [FeedItem]
    /// What was changed to read a document that was not well-formed XML; empty when it was.
    public var repairs: [FeedRepair] = []

    /// The longest summary kept, in characters.
    static let summaryLimit = 400
    /// Sanitized content longer than this (UTF-8 bytes) is dropped rather than cut mid-markup.
    static let contentLimit = 200_000

    /// Turns entries into articles: plain text, absolute http(s) links, keyed, de-duplicated, newest first, at most
    /// `limit`. Entries with neither title nor link are dropped.
    func articles(sourceID: String, base: URL?, limit: Int) -> [Article] {
        let base = homepage.flatMap(URL.init(string:)).flatMap { $0.scheme?.hasPrefix("http") == true ? $0 : nil } ?? base
        let articles = items.compactMap { item -> Article? in
            let url = URLNormalizer.absoluteHTTP(item.link, base: base)
                ?? item.guid.flatMap { URLNormalizer.absoluteHTTP($0, base: nil) }
            let summaryText = (item.summary ?? item.content)?.plainText ?? ""
            var title = clean(item.title?.plainText ?? "")
            if title.isEmpty { title = Text.excerpt(clean(summaryText), limit: 80) }
            guard !title.isEmpty || url != nil else { return nil }
            let guid = item.guid.map(clean).flatMap { $0.isEmpty ? nil : $0 }
            guard let key = Article.key(url: url, guid: guid ?? (title.isEmpty ? nil : title), sourceID: sourceID) else { return nil }
            let contentBase = item.contentBase.flatMap(URL.init(string:)).flatMap { $0.scheme?.hasPrefix("http") == true ? $0 : nil } ?? base
            let image = [item.image, item.contentImage, item.content?.firstImageSource, item.summary?.firstImageSource]
                .lazy.compactMap { URLNormalizer.absoluteHTTP($0, base: contentBase) }.first
            let content = item.content?.sanitizedHTML(base: contentBase?.absoluteString).flatMap { $0.utf8.count <= Self.contentLimit ? $0 : nil }
            return Article(
                id: key,
                sourceID: sourceID,
                title: title.isEmpty ? (url ?? key) : title,
                summary: Text.excerpt(clean(summaryText), limit: Self.summaryLimit),
                author: item.author.map(clean).flatMap { $0.isEmpty ? nil : $0 },
                url: url,
                imageURL: image,
                published: item.published,
                categories: uniqued(item.categories.map(clean).filter { !$0.isEmpty }),
                guid: guid,
                content: content,
                outlet: item.outlet.map(clean).flatMap { $0.isEmpty ? nil : $0 }
            )
        }
        return Array(articles.deduplicated().sortedNewestFirst().prefix(limit))
    }

    private func clean(_ text: String) -> String {
        Text.collapsingWhitespace(Text.removingForbiddenCharacters(text))
    }

    private func uniqued(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0.lowercased()).inserted }
    }
}
