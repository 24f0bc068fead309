import NewsgenXML

/// The limit of sitemaps.org that a RELAX NG schema cannot count: at most 50,000 URLs in one
/// sitemap, and 50,000 sitemaps in one index. Search engines ignore a sitemap past it, so it is
/// reported under `sitemap-schema`, as part of the protocol.
enum SitemapRules {
    static let limit = 50_000

    static func check(_ root: XMLElement, into problems: inout FileProblems) {
        let entry: String
        switch root.name {
        case "urlset": entry = "url"
        case "sitemapindex": entry = "sitemap"
        default: return
        }
        let count = root.children.lazy.filter { $0.name == entry }.count
        guard count > limit else { return }
        let what = entry == "url"
            ? "a sitemap may list at most \(limit); split it into sitemaps listed by a sitemap index"
            : "a sitemap index may list at most \(limit) sitemaps"
        problems.add(.sitemapSchema, "<\(root.name)> has \(count) <\(entry)> entries; \(what)", at: root)
    }
}
