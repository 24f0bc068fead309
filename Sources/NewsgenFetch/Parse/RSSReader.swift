import NewsgenModel
import NewsgenXML
/// Reads RSS 2.0 (and the 0.9x family) and RSS 1.0 (RDF) documents.
enum RSSReader {
    /// The namespaces RSS's own elements may be in, depending on the version.
    private static let ownNamespaces: Set<String?> = [nil, Namespace.rss1, Namespace.rss090, Namespace.userland]

    static func read(_ root: XMLElement, format: FeedFormat) -> ParsedFeed {
        let channel = root.children.first { $0.name == "channel" && ownNamespaces.contains($0.namespace) }
        // RSS 2.0 keeps items in the channel; RSS 1.0 puts them beside it.
        let items = (channel?.children ?? []) + root.children
        return ParsedFeed(
            format: format,
            title: channel.flatMap { own($0, "title") }.map { FeedText.html($0).plainText },
            homepage: channel.flatMap { own($0, "link") },
            items: items.filter { $0.name == "item" && ownNamespaces.contains($0.namespace) }.map(readItem)
        )
    }

    private static func own(_ element: XMLElement, _ name: String) -> String? {
        for child in element.children where child.name == name && ownNamespaces.contains(child.namespace) {
            let text = child.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { return text }
        }
        return nil
    }

    private static func readItem(_ item: XMLElement) -> FeedItem {
        var entry = FeedItem()
        entry.title = own(item, "title").map(FeedText.html)
            ?? (item.childText("title", in: Namespace.dublinCore) ?? item.childText("title", in: Namespace.media)
                ?? item.childText("title", in: Namespace.mediaAlternate)).map(FeedText.plain)
        entry.summary = own(item, "description").map(FeedText.html)
        entry.content = item.childText("encoded", in: Namespace.content).map(FeedText.html)
        entry.link = own(item, "link")
        let guid = item.children.first { $0.name == "guid" && ownNamespaces.contains($0.namespace) }
        if let guid, let value = own(item, "guid") {
            entry.guid = value
            // A guid is a permalink unless it says otherwise; use it as the link when there is none.
            if entry.link == nil, guid.attribute("isPermaLink")?.lowercased() != "false" {
                entry.link = value
            }
        }
        if entry.guid == nil, let about = item.attribute("about", in: Namespace.rdf) {
            entry.guid = about
        }
        entry.author = item.childText("creator", in: Namespace.dublinCore)
            ?? own(item, "author").map(authorName)
            ?? item.childText("author", in: Namespace.itunes)
        let date = own(item, "pubDate") ?? item.childText("date", in: Namespace.dublinCore)
        entry.published = date.flatMap(Dates.parse)
        entry.categories = item.children
            .filter { ($0.name == "category" && ownNamespaces.contains($0.namespace)) || ($0.name == "subject" && $0.namespace == Namespace.dublinCore) }
            .map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
        entry.image = item.mediaImage ?? enclosureImage(item) ?? item.child("image", in: Namespace.itunes)?.attribute("href")
        return entry
    }

    /// `<enclosure>` of an image type (or, without a type, with an image's file extension).
    private static func enclosureImage(_ item: XMLElement) -> String? {
        for enclosure in item.children where enclosure.name == "enclosure" && ownNamespaces.contains(enclosure.namespace) {
            guard let url = enclosure.attribute("url") else { continue }
            if let type = enclosure.attribute("type")?.lowercased() {
                if type.hasPrefix("image/") { return url }
            } else if XMLElement.looksLikeImage(url) {
                return url
            }
        }
        return nil
    }

    /// RSS `author` is "email (Name)" by the spec; keep the name when there is one.
    static func authorName(_ value: String) -> String {
        if let open = value.firstIndex(of: "("), let close = value.lastIndex(of: ")"), open < close {
            let name = value[value.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { return name }
        }
        return value
    }
}
