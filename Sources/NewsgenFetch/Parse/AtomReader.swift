import NewsgenModel
import NewsgenXML
/// Reads Atom 1.0 (RFC 4287) documents, and the older Atom 0.3 where it is compatible.
enum AtomReader {
    static func read(_ root: XMLElement) -> ParsedFeed {
        let ns = root.namespace
        let feedAuthor = authorName(root, ns)
        return ParsedFeed(
            format: .atom,
            title: root.child("title", in: ns).flatMap { textConstruct($0)?.plainText },
            homepage: alternateLink(root, ns),
            items: root.children("entry", in: ns).map { readEntry($0, ns, feedAuthor: feedAuthor) }
        )
    }

    private static func readEntry(_ entry: XMLElement, _ ns: String?, feedAuthor: String?) -> FeedItem {
        var item = FeedItem()
        item.title = entry.child("title", in: ns).flatMap(textConstruct)
        item.summary = entry.child("summary", in: ns).flatMap(textConstruct)
        if let content = entry.child("content", in: ns), content.attribute("src") == nil {
            item.content = textConstruct(content)
            if content.attribute("type")?.lowercased() == "xhtml" {
                item.contentImage = HTMLText.firstImageSource(in: content)
            }
        }
        item.link = alternateLink(entry, ns)
        item.guid = entry.childText("id", in: ns)
        item.author = authorName(entry, ns) ?? feedAuthor
        let date = entry.childText("published", in: ns) ?? entry.childText("issued", in: ns)
            ?? entry.childText("updated", in: ns) ?? entry.childText("modified", in: ns)
        item.published = date.flatMap(Dates.parse)
        item.categories = entry.children("category", in: ns).compactMap { $0.attribute("label") ?? $0.attribute("term") }
        item.image = entry.mediaImage ?? entry.children("link", in: ns).first {
            $0.attribute("rel") == "enclosure" && $0.attribute("type")?.lowercased().hasPrefix("image/") == true
        }?.attribute("href")
        return item
    }

    /// `link rel="alternate"` (the default rel), preferring an HTML one.
    private static func alternateLink(_ element: XMLElement, _ ns: String?) -> String? {
        let alternates = element.children("link", in: ns).filter { ($0.attribute("rel") ?? "alternate") == "alternate" }
        let html = alternates.first { ($0.attribute("type") ?? "text/html").lowercased().contains("html") }
        return (html ?? alternates.first)?.attribute("href")
    }

    private static func authorName(_ element: XMLElement, _ ns: String?) -> String? {
        let names = element.children("author", in: ns).compactMap { $0.childText("name", in: ns) }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    /// An Atom text construct: `type` text (the default), html, or xhtml (whose text is taken as plain).
    private static func textConstruct(_ element: XMLElement) -> FeedText? {
        switch element.attribute("type")?.lowercased() ?? "text" {
        case "html", "text/html":
            return .html(element.text)
        case "xhtml", "application/xhtml+xml":
            return .plain(element.text)
        default:
            // Atom 0.3's mode="escaped" means HTML in text.
            return element.attribute("mode") == "escaped" ? .html(element.text) : .plain(element.text)
        }
    }
}
