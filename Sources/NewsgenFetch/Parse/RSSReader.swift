import NewsgenModel
import NewsgenXML

/// Reads RSS 2.0 (and the 0.9x family) and RSS 1.0 (RDF) documents.
enum RSSReader {
    /// Whether an element is in one of the namespaces RSS's own elements may be in, depending
    /// on the version (none, RSS 1.0, RSS 0.90, Userland's).
    private static func isOwn(_ element: XMLElement) -> Bool {
        guard let namespace = element.namespace else { return true }
        return namespace == Namespace.rss1 || namespace == Namespace.rss090 || namespace == Namespace.userland
    }

    static func read(_ root: XMLElement, format: FeedFormat) -> ParsedFeed {
        let rootChildren = root.children
        let channel = rootChildren.first { $0.name == "channel" && isOwn($0) }
        let channelChildren = channel?.children ?? []
        // RSS 2.0 keeps items in the channel; RSS 1.0 puts them beside it.
        let items = channelChildren + rootChildren
        // Without a channel there are no channel children, and so none of these.
        let channelAuthor = first("creator", in: Namespace.dublinCore, of: channelChildren)?.nonBlankText
            ?? ownText(channelChildren, "managingEditor").map(authorName)
            ?? first("author", in: Namespace.itunes, of: channelChildren)?.nonBlankText
        let title = ownText(channelChildren, "title").map { FeedText.htmlOrText($0).plainText }.flatMap { $0.isEmpty ? nil : $0 }
            ?? first("title", in: Namespace.dublinCore, of: channelChildren)?.nonBlankText
        return ParsedFeed(
            format: format,
            title: title,
            homepage: own(channelChildren, "link").flatMap { $0.resolving($0.text) },
            items: items.filter { $0.name == "item" && isOwn($0) }.map { readItem($0, channelAuthor: channelAuthor) }
        )
    }

    /// The first of RSS's own elements among `children` with this name that holds text.
    private static func own(_ children: [XMLElement], _ name: String) -> XMLElement? {
        children.first { $0.name == name && isOwn($0) && !$0.text.trimmedWhitespace.isEmpty }
    }

    private static func ownText(_ children: [XMLElement], _ name: String) -> String? {
        own(children, name)?.text.trimmedWhitespace
    }

    /// The first element among `children` with this name in this namespace.
    private static func first(_ name: String, in namespace: String, of children: [XMLElement]) -> XMLElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// An item's fields. Its children are listed once and every field is looked for among them.
    private static func readItem(_ item: XMLElement, channelAuthor: String?) -> FeedItem {
        let children = item.children
        var entry = FeedItem()
        entry.title = ownText(children, "title").map(FeedText.htmlOrText)
            ?? (first("title", in: Namespace.dublinCore, of: children)?.nonBlankText ?? first("title", in: Namespace.media, of: children)?.nonBlankText
                ?? first("title", in: Namespace.mediaAlternate, of: children)?.nonBlankText).map(FeedText.plain)
        if let description = own(children, "description") {
            entry.summary = .html(description.text.trimmedWhitespace)
            entry.contentBase = description.base
        }
        let encoded = first("encoded", in: Namespace.content, of: children)
        if let encoded, let html = encoded.nonBlankText {
            entry.content = .html(html)
            entry.contentBase = encoded.base
        } else if let body = children.first(where: { $0.name == "body" && ($0.namespace == nil || $0.namespace == Namespace.xhtml) })
                    ?? first("div", in: Namespace.xhtml, of: children) {
            entry.content = .xhtml(body)
            entry.contentBase = body.base
        }
        if let link = own(children, "link") {
            entry.link = link.resolving(link.text)
        }
        if let guid = own(children, "guid") {
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
        entry.author = first("creator", in: Namespace.dublinCore, of: children)?.nonBlankText
            ?? ownText(children, "author").map(authorName)
            ?? first("author", in: Namespace.itunes, of: children)?.nonBlankText
            ?? first("author", in: Namespace.atom, of: children)?.childText("name", in: Namespace.atom)
            ?? channelAuthor
        // `<source url="…">Outlet</source>`: the outlet an aggregating feed took the item from.
        entry.outlet = ownText(children, "source")
        let date = ownText(children, "pubDate") ?? first("date", in: Namespace.dublinCore, of: children)?.nonBlankText
            ?? first("published", in: Namespace.atom, of: children)?.nonBlankText ?? first("updated", in: Namespace.atom, of: children)?.nonBlankText
            ?? first("issued", in: Namespace.dcTerms, of: children)?.nonBlankText ?? first("created", in: Namespace.dcTerms, of: children)?.nonBlankText
            ?? first("modified", in: Namespace.dcTerms, of: children)?.nonBlankText
        entry.published = date.flatMap(Dates.parse)
        entry.categories = children
            .filter { ($0.name == "category" && isOwn($0)) || ($0.name == "subject" && $0.namespace == Namespace.dublinCore) }
            .map { $0.text.trimmedWhitespace }
        entry.image = item.resolving(XMLElement.mediaImage(among: children) ?? enclosureImage(children)
            ?? first("image", in: Namespace.itunes, of: children)?.attribute("href"))
        return entry
    }

    /// `<enclosure>` of an image type (or, without a type, with an image's file extension).
    private static func enclosureImage(_ children: [XMLElement]) -> String? {
        for enclosure in children where enclosure.name == "enclosure" && isOwn(enclosure) {
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
