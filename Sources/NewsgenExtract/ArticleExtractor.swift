public import Foundation
import NewsgenModel
package import NewsgenXML

/// Finds the main article of a web page: its text and sanitized HTML without the navigation, share bars, comments,
/// related-story lists, cookie banners and forms around it, and its metadata. A Readability-class algorithm on
/// libxml2's HTML parser (`ContentFinder` scores, `ContentCleaner` removes furniture, `PageMetadata` reads the
/// metadata); stateless, so one extractor may serve any number of tasks at once.
public struct ArticleExtractor: Sendable {
    /// What a page may cost to read; bigger pages fail with a sentence saying why.
    package var limits: DocumentLimits
    /// Pages larger than this are not read.
    package var maximumBytes: Int

    public init() {
        self.init(limits: .standard)
    }

    package init(limits: DocumentLimits, maximumBytes: Int = 16 * 1_048_576) {
        self.limits = limits
        self.maximumBytes = maximumBytes
    }

    /// An attempt yielding at least this many characters is taken as it is; below, looser rules are tried.
    static let satisfyingLength = 500
    /// A result shorter than this many words, from a page holding `scrapFactor` times more, is a scrap of a page
    /// that has no article (a home page, a consent wall), not an article.
    static let minimumWords = 25
    static let scrapFactor = 4
    /// A result whose text is more than this share links is a list of links (a front page, an index), not an article.
    static let maximumLinkDensity = 0.5

    /// Extracts the main article of an HTML page. `url` is the page's address (relative URLs are made absolute
    /// against it, or against `<base href>`); `declaredCharset` is the charset from the HTTP Content-Type, if any
    /// (otherwise BOM, then `<meta charset>`/http-equiv, then UTF-8 with legacy fallback, e.g. windows-1252).
    public func extract(html: [UInt8], url: URL, declaredCharset: String? = nil) throws(ExtractionFailure) -> ExtractedArticle {
        guard html.count <= maximumBytes else {
            throw ExtractionFailure(reason: "The page is larger than \(maximumBytes / 1_048_576) MB, more than newsgen reads for an article.")
        }
        let decision = CharsetDetector().decide(html, declared: declaredCharset)
        let parsed: HTMLTree?
        do {
            parsed = try HTMLTree.parse(decision.bytes, encoding: decision.encoding, url: url.absoluteString, limits: limits)
        } catch {
            throw ExtractionFailure(reason: "The page is too large to read: \(error).")
        }
        guard var tree = parsed else { throw ExtractionFailure(reason: "The page is empty.") }

        let base = Self.base(of: tree, url: url)
        let metadata = PageMetadata(tree: tree, base: base)
        Self.prepare(&tree)

        guard let found = ArticleFinder(title: metadata.title ?? "", lookForByline: metadata.byline == nil).find(in: tree) else {
            throw ExtractionFailure(reason: "The page has no article: it holds no text outside navigation, scripts and banners.")
        }
        let article = ArticleWriter(tree: found.tree, article: found.article, base: base)
        let text = article.text()
        let words = Self.wordCount(text)
        if words == 0 || (words < Self.minimumWords && Self.wordCount(tree.textContent(of: tree.root)) >= words * Self.scrapFactor) {
            throw ExtractionFailure(reason: "The page has no article: the longest text found has \(words) word\(words == 1 ? "" : "s").")
        }
        let linkDensity = article.linkDensity()
        if linkDensity > Self.maximumLinkDensity {
            throw ExtractionFailure(reason: "The page has no article: \(Int(linkDensity * 100)) % of the text found is links (a list of links, not a story).")
        }
        return ExtractedArticle(
            title: metadata.title, byline: metadata.byline ?? found.byline, published: metadata.published,
            siteName: metadata.siteName, image: metadata.image ?? article.firstImage(), language: metadata.language,
            html: article.html(), text: text
        )
    }

    /// The base for relative references: the first `<base href>`, resolved against the page's address.
    static func base(of tree: HTMLTree, url: URL) -> URL {
        if let element = tree.descendants(of: tree.root, named: ["base"]).first,
           let href = tree.attribute("href", of: element)?.trimmingCharacters(in: .whitespacesAndNewlines), !href.isEmpty,
           let resolved = URL(string: href, relativeTo: url)?.absoluteURL {
            return resolved
        }
        return url
    }

    /// Readies the page for scoring: code, styles and templates go; runs of `<br>` become paragraphs; `<font>`
    /// becomes `<span>`.
    static func prepare(_ tree: inout HTMLTree) {
        for node in tree.descendants(of: tree.root, named: ["script", "noscript", "style", "template"]) { tree.detach(node) }
        for node in tree.descendants(of: tree.root, named: ["font"]) { tree.rename(node, to: "span") }
        if let body = tree.children(of: tree.root).first(where: { tree.name($0) == "body" }) {
            LineBreaks.replaceDoubleBreaks(in: body, of: &tree)
        }
    }

    /// Runs of letters, digits and `_`, any non-ASCII character counted as a letter (a fast approximation of
    /// Unicode's word characters that counts punctuation-free scripts as one word per run).
    static func wordCount(_ text: String) -> Int {
        var count = 0
        var inWord = false
        for byte in text.utf8 {
            let isWord = byte >= 0x80 || ClassHints.isWordByte(byte)
            if isWord && !inWord { count += 1 }
            inWord = isWord
        }
        return count
    }
}

/// The main article of a page, as `ArticleExtractor` found it.
public struct ExtractedArticle: Sendable, Hashable {
    public var title: String?
    public var byline: String?
    public var published: Date?
    public var siteName: String?
    public var image: URL?
    /// The page's language tag (`<html lang>`), such as "en" or "pt-BR".
    public var language: String?
    /// The article as HTML, sanitized by newsgen's allow-list sanitizer, with absolute http(s) URLs.
    public var html: String
    /// The article as plain text, paragraphs separated by blank lines.
    public var text: String

    public init(title: String? = nil, byline: String? = nil, published: Date? = nil, siteName: String? = nil,
                image: URL? = nil, language: String? = nil, html: String, text: String) {
        self.title = title
        self.byline = byline
        self.published = published
        self.siteName = siteName
        self.image = image
        self.language = language
        self.html = html
        self.text = text
    }
}

/// Why no article came out of a page, as a sentence: "The page has no article: the longest text found has 23 words."
public struct ExtractionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// Runs `ContentFinder` attempts, strictest rules first, until one finds enough text; else keeps the attempt
/// that found the most.
struct ArticleFinder {
    let title: String
    let lookForByline: Bool

    struct Found {
        var tree: HTMLTree
        var article: Int
        var byline: String?
    }

    func find(in tree: HTMLTree) -> Found? {
        let sequence: [ContentFinder.Rules] = [.all, [.weightClasses, .cleanConditionally], [.cleanConditionally], []]
        var best: (found: Found, length: Int)?
        var byline: String?
        for rules in sequence {
            var finder = ContentFinder(tree: tree, rules: rules, title: title, lookForByline: lookForByline && byline == nil)
            let article = finder.run()
            byline = byline ?? finder.byline
            let length = finder.tree.textLength(article)
            let found = Found(tree: finder.tree, article: article, byline: byline)
            if length >= ArticleExtractor.satisfyingLength { return found }
            if length > (best?.length ?? 0) { best = (found, length) }
        }
        return best?.found
    }
}
