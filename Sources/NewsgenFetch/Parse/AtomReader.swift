import Foundation
import NewsgenModel
import NewsgenXML

/// Reads Atom 1.0 (RFC 4287) documents, and the older Atom 0.3 where it is compatible.
enum AtomReader {
    static func read(_ root: XMLElement) -> ParsedFeed {
        let ns = root.namespace
        let feedAuthor = authorName(root, ns)
        return ParsedFeed(
            format: .atom,
            title: (root.child("title", in: ns).flatMap(textConstruct)?.plainText).flatMap { $0.isEmpty ? nil : $0 }
                ?? root.childText("title", in: Namespace.dublinCore),
            homepage: alternateLink(root, ns),
            items: root.children("entry", in: ns).map { readEntry($0, ns, feedAuthor: feedAuthor) }
        )
    }

    private static func readEntry(_ entry: XMLElement, _ ns: String?, feedAuthor: String?) -> FeedItem {
        var item = FeedItem()
        item.title = entry.child("title", in: ns).flatMap(textConstruct)
        if let summary = entry.child("summary", in: ns) {
            item.summary = textConstruct(summary)
            item.contentBase = summary.base
        }
        if let content = entry.child("content", in: ns), content.attribute("src") == nil {
            item.content = textConstruct(content)
            item.contentBase = content.base
        }
        item.link = alternateLink(entry, ns)
        item.guid = entry.childText("id", in: ns)
        let source = entry.child("source", in: ns)
        item.author = authorName(entry, ns) ?? source.flatMap { authorName($0, ns) }
            ?? entry.childText("creator", in: Namespace.dublinCore) ?? feedAuthor
        let date = entry.childText("published", in: ns) ?? entry.childText("issued", in: ns)
            ?? entry.childText("updated", in: ns) ?? entry.childText("modified", in: ns) ?? entry.childText("created", in: ns)
            ?? entry.childText("date", in: Namespace.dublinCore)
        item.published = date.flatMap(Dates.parse)
        item.categories = entry.children("category", in: ns).compactMap { $0.attribute("label") ?? $0.attribute("term") }
        item.image = entry.resolving(entry.mediaImage) ?? entry.children("link", in: ns).first {
            $0.attribute("rel") == "enclosure" && $0.attribute("type")?.lowercased().hasPrefix("image/") == true
        }.flatMap { $0.resolving($0.attribute("href")) }
        return item
    }

    /// `link rel="alternate"` (the default rel), preferring an HTML one, resolved against its `xml:base`.
    private static func alternateLink(_ element: XMLElement, _ ns: String?) -> String? {
        let alternates = element.children("link", in: ns).filter { ($0.attribute("rel") ?? "alternate") == "alternate" }
        let html = alternates.first { ($0.attribute("type") ?? "text/html").lowercased().contains("html") }
        return (html ?? alternates.first).flatMap { $0.resolving($0.attribute("href")) }
    }

    private static func authorName(_ element: XMLElement, _ ns: String?) -> String? {
        let names = element.children("author", in: ns).compactMap { $0.childText("name", in: ns) }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    /// An Atom text construct, as a reader would see it.
    ///
    /// Atom 1.0: `type` is text (the default), html (escaped markup) or xhtml (markup inside one
    /// XHTML `div`, which is not part of the content). Atom 0.3: `type` is a MIME type (text/plain
    /// by default) and `mode` says how it is written: xml (the default), escaped, or base64.
    ///
    /// Base64 is read where `mode` says so, and, as feedparser and the lenient readers do, where
    /// `type` is a MIME type that is neither text nor XML (RFC 4287 §4.1.3.3 says so of content;
    /// titles and summaries so typed are out of spec). Text that does not decode to UTF-8 is
    /// read as it is written.
    static func textConstruct(_ element: XMLElement) -> FeedText? {
        let type = element.attribute("type")?.lowercased() ?? "text"
        let isHTML = type == "html" || type == "text/html"
        let isXHTML = type == "xhtml" || type == "application/xhtml+xml"
        let mode = element.attribute("mode")?.lowercased()
        if mode == "base64" || isBinary(type) {
            let encoded = element.text.filter { !$0.isWhitespace }
            if let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters), let decoded = String(data: data, encoding: .utf8) {
                return isHTML || isXHTML ? .html(decoded) : .plain(decoded)
            }
            return .plain(element.text)
        }
        switch mode {
        case "escaped":
            return .html(element.text)
        default:
            if isXHTML {
                let children = element.children
                let wrapper = children.count == 1 && children[0].name == "div" && children[0].namespace == Namespace.xhtml
                return .xhtml(wrapper ? children[0] : element)
            }
            // Atom 0.3 text/html in xml mode may hold the markup as elements.
            if isHTML, !element.children.isEmpty {
                return .xhtml(element)
            }
            return isHTML ? .html(element.text) : .plain(element.text)
        }
    }

    /// Whether a text construct's `type` is a MIME type whose content Atom writes in base64: one
    /// that is neither `text/…` nor XML (`…/xml`, `…+xml`).
    private static func isBinary(_ type: String) -> Bool {
        type.contains("/") && !type.hasPrefix("text/") && !type.hasSuffix("/xml") && !type.hasSuffix("+xml")
    }
}
