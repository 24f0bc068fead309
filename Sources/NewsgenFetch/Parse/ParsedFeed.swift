import Foundation
package import NewsgenModel
import NewsgenXML


/// Text as a feed gives it: plain, or HTML that still has to be reduced to text.
enum FeedText: Sendable, Hashable {
    case plain(String)
    case html(String)

    var plainText: String {
        switch self {
        case .plain(let text): Text.collapsingWhitespace(text)
        case .html(let html): HTMLText.plainText(fromHTML: html)
        }
    }

    var firstImageSource: String? {
        if case .html(let html) = self { return HTMLText.firstImageSource(inHTML: html) }
        return nil
    }
}

/// One entry of a feed, as read, before it becomes an `Article`.
struct FeedItem: Sendable {
    var title: FeedText?
    var summary: FeedText?
    var content: FeedText?
    /// The first image found in XHTML content (Atom), which never becomes `FeedText`.
    var contentImage: String?
    var author: String?
    var link: String?
    var guid: String?
    var image: String?
    var published: Date?
    var categories: [String] = []
}

/// A feed as read: its own title and home page, and its entries in feed order.
package struct ParsedFeed: Sendable {
    public var format: FeedFormat
    public var title: String?
    public var homepage: String?
    var items: [FeedItem]

    /// The longest summary kept, in characters.
    static let summaryLimit = 400

    /// Turns entries into articles: plain text, absolute http(s) links only, keyed, de-duplicated,
    /// newest first, at most `limit`. Entries with neither title nor link are dropped.
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
            let image = [item.image, item.contentImage, item.content?.firstImageSource, item.summary?.firstImageSource]
                .lazy.compactMap { URLNormalizer.absoluteHTTP($0, base: base) }.first
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
                guid: guid
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
