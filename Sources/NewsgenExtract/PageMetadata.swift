import Foundation
import NewsgenModel
import NewsgenXML

/// What a page says about its article outside the text: title, author, date, site, image, language. Read, best
/// first, from JSON-LD (`Article`, `NewsArticle` and their kin, at the top level or in `@graph`), then Open Graph and
/// other `<meta>` (`og:title`, `author`, `article:published_time`, `og:site_name`, `og:image`), then the page
/// itself (`<title>`, the first `<time datetime>`, `<html lang>`).
struct PageMetadata {
    var title: String?
    var byline: String?
    var published: Date?
    var siteName: String?
    var image: URL?
    var language: String?

    /// The schema.org types that are articles.
    static let articleTypes: Set<String> = [
        "Article", "AdvertiserContentArticle", "NewsArticle", "AnalysisNewsArticle", "AskPublicNewsArticle",
        "BackgroundNewsArticle", "OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle", "Report",
        "SatiricalArticle", "ScholarlyArticle", "MedicalScholarlyArticle", "SocialMediaPosting", "BlogPosting",
        "LiveBlogPosting", "DiscussionForumPosting", "TechArticle", "APIReference",
    ]

    /// Reads the metadata of `tree` (before scripts are removed: JSON-LD lives in them). `base` makes image
    /// addresses absolute.
    init(tree: HTMLTree, base: URL?) {
        let jsonLD = Self.jsonLD(in: tree)
        var meta: [String: String] = [:]
        var firstTime: String?
        var documentTitle: String?
        var headings: [String] = []
        var h1s: [String] = []
        tree.forEachDescendant(of: tree.root) { node in
            guard tree.isElement(node) else { return }
            switch tree.name(node) {
            case "meta":
                guard let content = tree.attribute("content", of: node)?.trimmingCharacters(in: .whitespacesAndNewlines),
                      !content.isEmpty else { return }
                for key in [tree.attribute("property", of: node), tree.attribute("name", of: node), tree.attribute("itemprop", of: node),
                            tree.attribute("http-equiv", of: node)].compactMap({ $0 }) {
                    for part in key.lowercased().split(separator: " ") where meta[String(part)] == nil {
                        meta[String(part)] = content
                    }
                }
            case "time":
                if firstTime == nil, let value = tree.attribute("datetime", of: node), !value.isEmpty { firstTime = value }
            case "title":
                if documentTitle == nil { documentTitle = tree.innerText(node) }
            case "h1":
                h1s.append(tree.innerText(node))
                headings.append(tree.textContent(of: node).trimmingCharacters(in: .whitespacesAndNewlines))
            case "h2":
                headings.append(tree.textContent(of: node).trimmingCharacters(in: .whitespacesAndNewlines))
            default:
                break
            }
        }
        func first(_ keys: String...) -> String? {
            for key in keys { if let value = meta[key], !value.isEmpty { return value } }
            return nil
        }
        let pageTitle = Self.articleTitle(documentTitle ?? "", headings: headings, h1s: h1s)
        title = jsonLD?.title(pageTitle: pageTitle)
            ?? first("dc:title", "dcterm:title", "og:title", "weibo:article:title", "weibo:webpage:title", "title", "twitter:title", "parsely-title")
            ?? (pageTitle.isEmpty ? nil : pageTitle)
        byline = jsonLD?.byline ?? first("dc:creator", "dcterm:creator", "author", "article:author_name", "parsely-author")
        if let byline, byline.hasPrefix("http") { self.byline = nil }
        siteName = jsonLD?.siteName ?? first("og:site_name", "application-name")
        let date = jsonLD?.published ?? first("article:published_time", "og:published_time", "parsely-pub-date", "date",
                                               "dc.date", "dcterm:created", "pubdate") ?? firstTime
        published = date.flatMap(Dates.parse)
        let imageAddress = first("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src") ?? jsonLD?.image
        image = imageAddress.flatMap { URLNormalizer.absoluteHTTP($0, base: base) }.flatMap(URL.init(string:))
        let htmlLanguage = tree.attribute("lang", of: tree.root) ?? tree.attribute("xml:lang", of: tree.root)
        let language = [htmlLanguage, first("content-language", "og:locale", "language", "dc.language")]
            .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "_", with: "-") }
            .first { !$0.isEmpty && LanguageTag.isWellFormed($0) }
        self.language = language
    }

    // MARK: - The page's own title

    /// The article's title from `<title>`: the site's name cut off ("Story | Site" gives "Story") unless too little
    /// is left, or the page's only `<h1>` when the title is very short or long.
    static func articleTitle(_ original: String, headings: [String], h1s: [String]) -> String {
        let original = original.trimmingCharacters(in: .whitespacesAndNewlines)
        var title = original
        let separators: Set<Character> = ["|", "-", "\\", "/", ">", "»", "–", "—"]
        func wordCount(_ text: String) -> Int { text.split(whereSeparator: \.isWhitespace).count }
        var hierarchical = false
        if let range = separatedRange(in: original, separators: separators) {
            hierarchical = separatedRange(in: original, separators: ["\\", "/", ">", "»"]) != nil
            title = String(original[..<range.lowerBound])
            if wordCount(title) < 3 {
                // The first part instead: after the first separator.
                if let firstSeparator = original.firstIndex(where: separators.contains) {
                    title = String(original[original.index(after: firstSeparator)...])
                }
            }
        } else if original.contains(": ") {
            if !headings.contains(original) {
                if let colon = original.lastIndex(of: ":") { title = String(original[original.index(after: colon)...]) }
                if wordCount(title) < 3, let colon = original.firstIndex(of: ":") {
                    title = String(original[original.index(after: colon)...])
                } else if let colon = original.firstIndex(of: ":"), wordCount(String(original[..<colon])) > 5 {
                    title = original
                }
            }
        } else if original.count > 150 || original.count < 15, h1s.count == 1 {
            title = h1s[0]
        }
        title = title.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let words = wordCount(title)
        let originalWords = wordCount(original.filter { !separators.contains($0) })
        if words <= 4 && (!hierarchical || words != originalWords - 1) {
            title = original
        }
        return title
    }

    /// The range of the last " X " separator in `text` (X one of `separators`), from X to the end.
    private static func separatedRange(in text: String, separators: Set<Character>) -> Range<String.Index>? {
        var found: Range<String.Index>?
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            if separators.contains(text[index]), index > text.startIndex, text[text.index(before: index)] == " ",
               next < text.endIndex, text[next] == " " {
                found = index..<text.endIndex
            }
            index = next
        }
        return found
    }

    // MARK: - JSON-LD

    struct JSONLD {
        var name: String?
        var headline: String?
        var byline: String?
        var siteName: String?
        var published: String?
        var image: String?

        func title(pageTitle: String) -> String? {
            if let name, let headline, name != headline {
                let nameMatches = ContentFinder.similarity(name, pageTitle) > 0.75
                let headlineMatches = ContentFinder.similarity(headline, pageTitle) > 0.75
                return headlineMatches && !nameMatches ? headline : name
            }
            return name ?? headline
        }
    }

    /// The first article object in the page's `application/ld+json` scripts.
    static func jsonLD(in tree: HTMLTree) -> JSONLD? {
        for script in tree.descendants(of: tree.root, named: ["script"]) {
            guard tree.attribute("type", of: script)?.lowercased().trimmingCharacters(in: .whitespaces) == "application/ld+json" else { continue }
            var text = tree.textContent(of: script).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.hasPrefix("<![CDATA[") { text = String(text.dropFirst(9)) }
            if text.hasSuffix("]]>") { text = String(text.dropLast(3)) }
            guard let parsed = try? JSONDocument.parse(Data(text.utf8), maximumValues: 100_000) else { continue }
            if let article = findArticle(in: parsed, depth: 0) { return read(article) }
        }
        return nil
    }

    private static func isArticle(_ node: JSONNode) -> Bool {
        guard let type = node["@type"] else { return false }
        let types = type.array?.compactMap(\.string) ?? [type.string].compactMap { $0 }
        return types.contains(where: articleTypes.contains)
    }

    private static func findArticle(in node: JSONNode, depth: Int) -> JSONNode? {
        guard depth < 4 else { return nil }
        if let array = node.array {
            for element in array { if let found = findArticle(in: element, depth: depth + 1) { return found } }
            return nil
        }
        if isArticle(node) { return node }
        if let graph = node["@graph"]?.array {
            for element in graph { if let found = findArticle(in: element, depth: depth + 1) { return found } }
        }
        return nil
    }

    private static func read(_ article: JSONNode) -> JSONLD {
        func text(_ node: JSONNode?) -> String? {
            guard let value = node?.string?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
            return value
        }
        var result = JSONLD()
        result.name = text(article["name"])
        result.headline = text(article["headline"])
        if let author = article["author"] {
            let authors = author.array ?? [author]
            let names = authors.compactMap { text($0["name"]) ?? text($0) }
            if !names.isEmpty { result.byline = names.joined(separator: ", ") }
        }
        result.siteName = text(article["publisher"]?["name"])
        result.published = text(article["datePublished"]) ?? text(article["dateCreated"])
        if let image = article["image"] {
            let first = image.array?.first ?? image
            result.image = text(first) ?? text(first["url"]) ?? text(first["contentUrl"])
        }
        return result
    }
}
