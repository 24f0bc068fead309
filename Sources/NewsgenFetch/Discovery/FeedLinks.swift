package import Foundation
import NewsgenXML

/// A feed a page names in its head: `<link rel="alternate" type="application/rss+xml" href="…" title="…">`.
package struct FeedLink: Sendable, Hashable {
    /// The feed's absolute http(s) URL.
    package var url: URL
    /// The link's `title`, when it has one.
    package var title: String?

    package init(url: URL, title: String? = nil) {
        self.url = url
        self.title = title
    }
}

/// Finds the feeds an HTML page links to, with libxml2's HTML parser (lenient, as pages are).
package enum FeedLinks {
    /// The media types of feeds newsgen reads, as `<link type>` names them.
    static let feedTypes: Set<String> = [
        "application/rss+xml", "application/atom+xml", "application/feed+json", "application/json",
    ]

    /// The page's feed links in document order, each URL once, made absolute against the page's
    /// `<base href>` (itself resolved against `page`) or else `page`. Links that do not resolve to
    /// an http(s) URL are left out.
    package static func find(inHTML data: Data, page: URL) -> [FeedLink] {
        guard let root = LibXML.parseHTMLFragment(String(decoding: data, as: UTF8.self)) else { return [] }
        var links: [XMLElement] = []
        var bases: [String] = []
        collect(root, links: &links, bases: &bases, depth: 0)
        let base = bases.first.flatMap { URL(string: $0, relativeTo: page)?.absoluteURL } ?? page
        var seen = Set<String>()
        return links.compactMap { link -> FeedLink? in
            guard let href = link.attribute("href")?.trimmedWhitespace, !href.isEmpty,
                  let url = URL(string: href, relativeTo: base)?.absoluteURL,
                  ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                  seen.insert(url.absoluteString).inserted else { return nil }
            let title = link.attribute("title")?.trimmedWhitespace
            return FeedLink(url: url, title: title?.isEmpty == false ? title : nil)
        }
    }

    /// Every feed `<link>` and every `<base href>`, in document order.
    private static func collect(_ element: XMLElement, links: inout [XMLElement], bases: inout [String], depth: Int) {
        switch element.name.lowercased() {
        case "link" where isFeedLink(element):
            links.append(element)
        case "base":
            if let href = element.attribute("href") { bases.append(href) }
        default:
            break
        }
        guard depth < 64 else { return }
        for child in element.children {
            collect(child, links: &links, bases: &bases, depth: depth + 1)
        }
    }

    private static func isFeedLink(_ element: XMLElement) -> Bool {
        let rel = (element.attribute("rel") ?? "").lowercased().split(whereSeparator: \.isWhitespace)
        guard rel.contains("alternate") else { return false }
        let type = (element.attribute("type") ?? "").lowercased().split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces) ?? ""
        return feedTypes.contains(type)
    }
}
