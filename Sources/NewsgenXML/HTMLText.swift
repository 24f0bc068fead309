import NewsgenModel
/// Turns feed HTML into plain text and finds its first image. Titles and summaries are always plain text, escaped
/// by the template; full text goes through `HTMLSanitizer` instead.
package enum HTMLText {
    /// The readable text of an HTML fragment: markup, script and style removed, entities decoded, whitespace collapsed.
    package static func plainText(fromHTML html: String) -> String {
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
            return Text.collapsingWhitespace(html)
        }
        guard let body = LibXML.parseHTMLFragment(html) else { return "" }
        return plainText(of: body)
    }

    /// The readable text below an element (XHTML content in Atom feeds), by the same rules.
    package static func plainText(of element: XMLElement) -> String {
        var text = ""
        appendText(of: element, to: &text)
        return Text.collapsingWhitespace(text)
    }

    /// The `src` of the first `<img>` in an HTML fragment, if any.
    package static func firstImageSource(inHTML html: String) -> String? {
        guard mayHoldImage(html), let body = LibXML.parseHTMLFragment(html) else { return nil }
        return firstImageSource(in: body)
    }

    /// Whether `html` holds "<img" in any case; without it there is nothing to parse.
    private static func mayHoldImage(_ html: String) -> Bool {
        var html = html
        return html.withUTF8 { bytes in
            guard bytes.count >= 4 else { return false }
            for index in 0...(bytes.count - 4) where bytes[index] == UInt8(ascii: "<")
                && bytes[index + 1] | 0x20 == UInt8(ascii: "i")
                && bytes[index + 2] | 0x20 == UInt8(ascii: "m")
                && bytes[index + 3] | 0x20 == UInt8(ascii: "g") {
                return true
            }
            return false
        }
    }

    /// Whether ambiguous text (an RSS title) is HTML: it holds a tag or a reference, and every tag and entity it names
    /// is HTML's. "Fish &amp; chips", "<b>Cup</b> final" and "<img onerror=…>Click" are HTML; "1 < 2" and "the <best>
    /// stall" are text. Like feedparser's rule, except that a lone start tag counts as HTML.
    package static func looksLikeHTML(_ text: String) -> Bool {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else { return false }
        guard text.contains(/<\/?\w/) || text.contains(/&#?\w+;/) else { return false }
        for match in text.matches(of: /<\/?(\w+)/) where !elements.contains(match.output.1.lowercased()) { return false }
        for match in text.matches(of: /&(\w+);/) where LibXML.htmlEntity(named: String(match.output.1)) == nil && !xmlEntities.contains(String(match.output.1)) {
            return false
        }
        return true
    }

    /// The entities XML defines, which are HTML's too.
    private static let xmlEntities: Set<String> = ["amp", "lt", "gt", "quot", "apos"]

    /// The elements of HTML, and the obsolete ones feeds still use.
    private static let elements: Set<String> = [
        "a", "abbr", "acronym", "address", "area", "article", "aside", "audio", "b", "bdi", "bdo", "big", "blockquote", "body", "br",
        "button", "canvas", "caption", "center", "cite", "code", "col", "colgroup", "data", "datalist", "dd", "del", "details", "dfn",
        "dialog", "dir", "div", "dl", "dt", "em", "embed", "fieldset", "figcaption", "figure", "font", "footer", "form", "h1", "h2",
        "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "i", "iframe", "img", "input", "ins", "kbd", "label",
        "legend", "li", "link", "main", "map", "mark", "menu", "meta", "meter", "nav", "noscript", "object", "ol", "optgroup",
        "option", "output", "p", "param", "picture", "pre", "progress", "q", "rp", "rt", "ruby", "s", "samp", "script", "search",
        "section", "select", "small", "source", "span", "strike", "strong", "style", "sub", "summary", "sup", "table", "tbody", "td",
        "template", "textarea", "tfoot", "th", "thead", "time", "title", "tr", "track", "tt", "u", "ul", "var", "video", "wbr",
    ]

    /// The `src` of the first `<img>` below an element (XHTML content in Atom feeds).
    package static func firstImageSource(in element: XMLElement) -> String? {
        element.firstDescendant { $0.name.lowercased() == "img" && $0.attribute("src") != nil }?
            .attribute("src")
    }

    private static let invisible: Set<String> = ["script", "style", "noscript", "template", "head", "title"]
    private static let blocks: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6",
        "blockquote", "pre", "tr", "td", "th", "table", "section", "article", "figure", "figcaption", "hr", "dd", "dt",
    ]

    private static func appendText(of element: XMLElement, to text: inout String) {
        for node in element.nodes {
            switch node {
            case .text(let run):
                text += run
            case .element(let child):
                let name = child.name.lowercased()
                if invisible.contains(name) { continue }
                let isBlock = blocks.contains(name)
                if isBlock { text += " " }
                appendText(of: child, to: &text)
                if isBlock { text += " " }
            }
        }
    }
}
