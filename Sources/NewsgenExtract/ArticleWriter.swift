import Foundation
import NewsgenModel
import NewsgenXML

/// Writes the found article out: as plain text (one paragraph per block, separated by blank lines; `<br>` a line
/// break; `<pre>` as written) and as HTML through `HTMLSanitizer`, with lazy-loaded images given their real
/// address and every URL made absolute against `base`.
struct ArticleWriter {
    private var tree: HTMLTree
    private let article: Int
    private let base: URL

    init(tree: HTMLTree, article: Int, base: URL) {
        self.tree = tree
        self.article = article
        self.base = base
        fixLazyImages()
        unwrapScriptLinks()
    }

    /// The share of the article's text inside links.
    func linkDensity() -> Double {
        tree.linkDensity(article)
    }

    /// Links that only run script (`javascript:…`) lead nowhere once scripts are gone: their text stays, unlinked.
    private mutating func unwrapScriptLinks() {
        for link in tree.descendants(of: article, named: ["a"]) {
            let href = (tree.attribute("href", of: link) ?? "").utf8.drop { ContentFinder.isASCIISpace($0) }.prefix(11)
            guard String(decoding: href, as: UTF8.self).lowercased() == "javascript:" else { continue }
            tree.rename(link, to: "span")
            tree.setAttribute("href", nil, of: link)
        }
    }

    /// Elements whose content is not shown: the sanitizer drops them too. (MathML's text is kept: it reads as the
    /// formula, while the sanitized HTML has no MathML.)
    static let invisible: Set<String> = [
        "script", "style", "noscript", "template", "applet", "svg", "head", "title", "select", "textarea",
        "option", "optgroup", "datalist", "noembed", "noframes", "xml", "frameset", "colgroup", "button", "input",
    ]
    static let blocks: Set<String> = [
        "p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "h1", "h2", "h3", "h4", "h5", "h6",
        "ul", "ol", "li", "dl", "dt", "dd", "blockquote", "pre", "table", "thead", "tbody", "tfoot", "tr", "td", "th",
        "caption", "figure", "figcaption", "hr", "address", "form", "fieldset", "details", "summary", "center", "body",
    ]

    func html() -> String {
        let address = base.absoluteString
        return HTMLSanitizer.sanitize(xhtml: tree.element(article, base: address), base: address) ?? ""
    }

    func text() -> String {
        var writer = TextBlocks()
        write(article, into: &writer, preformatted: false)
        writer.endBlock()
        return writer.blocks.joined(separator: "\n\n")
    }

    /// The first image of the article with an http(s) address.
    func firstImage() -> URL? {
        for image in tree.descendants(of: article, named: ["img"]) {
            if let address = URLNormalizer.absoluteHTTP(tree.attribute("src", of: image), base: base), let url = URL(string: address) {
                return url
            }
        }
        return nil
    }

    private func write(_ node: Int, into writer: inout TextBlocks, preformatted: Bool) {
        for child in tree.childNodes(of: node) {
            if tree.isText(child) {
                writer.add(tree.text(child), preformatted: preformatted)
                continue
            }
            let name = tree.name(child)
            if Self.invisible.contains(name) { continue }
            if name == "br" {
                writer.lineBreak()
                continue
            }
            let isBlock = Self.blocks.contains(name)
            if isBlock { writer.endBlock() }
            write(child, into: &writer, preformatted: preformatted || name == "pre")
            if isBlock { writer.endBlock() }
        }
    }

    /// Images whose address sits in `data-src` and the like until a script moves it: the address moves to `src`.
    private mutating func fixLazyImages() {
        for image in tree.descendants(of: article, named: ["img"]) {
            let source = tree.attribute("src", of: image) ?? ""
            let isPlaceholder = source.isEmpty || source.hasPrefix("data:")
                || (tree.attribute("class", of: image) ?? "").lowercased().contains("lazy")
            guard isPlaceholder else { continue }
            for name in ["data-src", "data-original", "data-lazy-src", "data-url", "data-hi-res-src", "data-srcset", "srcset"] {
                guard let value = tree.attribute(name, of: image)?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { continue }
                let first = value.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? value
                let address = first.split(separator: " ").first.map(String.init) ?? first
                tree.setAttribute("src", address, of: image)
                break
            }
        }
    }
}

/// Text gathered into blocks: whitespace runs collapse to one space, `lineBreak()` keeps a line break within a block.
struct TextBlocks {
    private(set) var blocks: [String] = []
    private var lines: [String] = []
    private var current = ""
    private var isPreformatted = false

    mutating func add(_ text: String, preformatted: Bool) {
        if preformatted {
            isPreformatted = true
            current += text
        } else {
            current += text
        }
    }

    mutating func lineBreak() {
        lines.append(current)
        current = ""
    }

    mutating func endBlock() {
        lines.append(current)
        current = ""
        let text: String
        if isPreformatted {
            text = lines.joined(separator: "\n").trimmingCharacters(in: .newlines)
        } else {
            text = lines.map(Text.collapsingWhitespace).filter { !$0.isEmpty }.joined(separator: "\n")
        }
        if !text.allSatisfy(\.isWhitespace) { blocks.append(text) }
        lines = []
        isPreformatted = false
    }
}
