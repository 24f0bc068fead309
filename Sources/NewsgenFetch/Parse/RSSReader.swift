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
        let channelAuthor = channel.flatMap { channel in
            channel.childText("creator", in: Namespace.dublinCore) ?? ownText(channel, "managingEditor").map(authorName)
                ?? channel.childText("author", in: Namespace.itunes)
        }
        let title = channel.flatMap { ownText($0, "title") }.map { FeedText.html($0).plainText }.flatMap { $0.isEmpty ? nil : $0 }
            ?? channel?.childText("title", in: Namespace.dublinCore)
        return ParsedFeed(
            format: format,
            title: title,
            homepage: channel.flatMap { channel in own(channel, "link").flatMap { $0.resolving($0.text) } },
            items: items.filter { $0.name == "item" && ownNamespaces.contains($0.namespace) }.map { readItem($0, channelAuthor: channelAuthor) }
        )
    }

    /// The first of RSS's own children with this name that holds text.
    private static func own(_ element: XMLElement, _ name: String) -> XMLElement? {
        element.children.first {
            $0.name == name && ownNamespaces.contains($0.namespace) && !$0.text.trimmedWhitespace.isEmpty
        }
    }

    private static func ownText(_ element: XMLElement, _ name: String) -> String? {
        own(element, name)?.text.trimmedWhitespace
    }

    private static func readItem(_ item: XMLElement, channelAuthor: String?) -> FeedItem {
        var entry = FeedItem()
        entry.title = ownText(item, "title").map(FeedText.html)
            ?? (item.childText("title", in: Namespace.dublinCore) ?? item.childText("title", in: Namespace.media)
                ?? item.childText("title", in: Namespace.mediaAlternate)).map(FeedText.plain)
        if let description = own(item, "description") {
            entry.summary = .html(description.text.trimmedWhitespace)
            entry.contentBase = description.base
        }
        if let encoded = item.child("encoded", in: Namespace.content), let html = item.childText("encoded", in: Namespace.content) {
            entry.content = .html(html)
            entry.contentBase = encoded.base
        } else if let body = item.children.first(where: { $0.name == "body" && ($0.namespace == nil || $0.namespace == Namespace.xhtml) })
                    ?? item.child("div", in: Namespace.xhtml) {
            entry.content = .xhtml(body)
            entry.contentBase = body.base
        }
        if let link = own(item, "link") {
            entry.link = link.resolving(link.text)
        }
        if let guid = own(item, "guid") {
            let value = guid.text.trimmedWhitespace
            entry.guid = value
            // A guid is a permalink unless it says otherwise; use it as the link when there is none.
            if entry.link == nil, guid.attribute("isPermaLink")?.lowercased() != "false" {
                entry.link = guid.resolving(value)
            }
        }
        if entry.guid == nil, let about = item.attribute("about", in: Namespace.rdf) {
            entry.guid = about
        }
        entry.author = item.childText("creator", in: Namespace.dublinCore)
            ?? ownText(item, "author").map(authorName)
            ?? item.childText("author", in: Namespace.itunes)
            ?? item.child("author", in: Namespace.atom)?.childText("name", in: Namespace.atom)
            ?? channelAuthor
        // `<source url="…">Outlet</source>`: the outlet an aggregating feed took the item from.
        entry.outlet = ownText(item, "source")
        let date = ownText(item, "pubDate") ?? item.childText("date", in: Namespace.dublinCore)
            ?? item.childText("published", in: Namespace.atom) ?? item.childText("updated", in: Namespace.atom)
            ?? item.childText("issued", in: Namespace.dcTerms) ?? item.childText("created", in: Namespace.dcTerms)
            ?? item.childText("modified", in: Namespace.dcTerms)
        entry.published = date.flatMap(Dates.parse)
        entry.categories = item.children
            .filter { ($0.name == "category" && ownNamespaces.contains($0.namespace)) || ($0.name == "subject" && $0.namespace == Namespace.dublinCore) }
            .map { $0.text.trimmedWhitespace }
        entry.image = item.resolving(item.mediaImage ?? enclosureImage(item) ?? item.child("image", in: Namespace.itunes)?.attribute("href"))
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
