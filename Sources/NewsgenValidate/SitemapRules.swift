import Foundation
import NewsgenXML

/// The limit of sitemaps.org that a RELAX NG schema cannot count: at most 50,000 URLs in one
/// sitemap, and 50,000 sitemaps in one index. Search engines ignore a sitemap past it, so it is
/// reported under `sitemap-schema`, as part of the protocol.
enum SitemapRules {
    static let limit = 50_000

    /// Reads a sitemap or sitemap index once with libxml2's streaming reader, checking it against
    /// `schema` as it goes and counting the root's entries: a sitemap of 50,000 URLs is never
    /// held as a tree.
    static func check(_ data: Data, schema: LibXML.RelaxNGSchema?, into problems: inout FileProblems) {
        var root: XMLElement?
        var entry: String?
        var count = 0
        let checked = data.withUnsafeBytes { bytes in
            LibXML.checkStreaming(bytes, url: problems.path, schema: schema, depth: 1) { element, depth in
                if depth == 0 {
                    root = element
                    entry = Self.entry(of: element)
                } else if element.name == entry {
                    count += 1
                }
            }
        }
        problems.add(syntax: checked.syntax)
        SchemaMessages.report(checked.schema, as: .sitemapSchema, into: &problems)
        guard checked.syntax.isEmpty, let root, let entry, count > limit else { return }
        let what = entry == "url"
            ? "a sitemap may list at most \(limit); split it into sitemaps listed by a sitemap index"
            : "a sitemap index may list at most \(limit) sitemaps"
        problems.add(.sitemapSchema, "<\(root.name)> has \(count) <\(entry)> entries; \(what)", at: root)
    }

    /// The element a sitemap (`url`) or a sitemap index (`sitemap`) lists.
    private static func entry(of root: XMLElement) -> String? {
        switch root.name {
        case "urlset": "url"
        case "sitemapindex": "sitemap"
        default: nil
        }
    }
}
