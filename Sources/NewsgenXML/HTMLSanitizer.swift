import Foundation
import NewsgenModel

/// Reduces a feed's HTML to a fragment a news page can include as is. Allow-list only: an element, attribute or
/// URL scheme not named here does not survive (no script, style, embeds, forms, event handlers, `style`/`class`,
/// or non-http(s) URLs once resolved). Output is escaped like `XMLWriter` writes and nested as HTML5 allows, so
/// the page stays well-formed XML and valid HTML.
package enum HTMLSanitizer {
    /// Sanitizes an HTML fragment; relative URLs resolve against `base`. `nil` when nothing readable is left.
    package static func sanitize(html: String, base: String?) -> String? {
        guard let body = LibXML.parseHTMLFragment(html) else { return nil }
        return finish(body.nodes, base: base)
    }

    /// Sanitizes an XHTML element's children (Atom `type="xhtml"`); relative URLs resolve against `xml:base`, else `base`.
    package static func sanitize(xhtml element: XMLElement, base: String?) -> String? {
        finish(element.nodes, base: element.base ?? base)
    }

    /// Plain text as HTML: one paragraph per blank-line-separated block.
    package static func paragraphs(fromText text: String) -> String? {
        let blocks = text.replacingOccurrences(of: "\r\n", with: "\n")
            .components(separatedBy: "\n\n")
            .map(Text.collapsingWhitespace)
            .filter { !$0.isEmpty }
        guard !blocks.isEmpty else { return nil }
        return blocks.map { "<p>" + XMLWriter.escape($0, quotes: false) + "</p>" }.joined(separator: "\n")
    }

    private static func finish(_ nodes: [XMLElement.Node], base: String?) -> String? {
        var output = ""
        emit(nodes, Context(parent: "", phrasingOnly: false, inLink: false, base: base), into: &output)
        let trimmed = output.trimmedWhitespace
        // Markup that holds no text and no image shows nothing.
        guard trimmed.contains("<img") || !HTMLText.plainText(fromHTML: trimmed).isEmpty else { return nil }
        return trimmed
    }

    // MARK: - Allow-list

    /// Elements dropped with their content (code, styles, form controls, graphics). Other disallowed elements are
    /// dropped but their content kept and sanitized.
    private static let droppedWithContent: Set<String> = [
        "script", "style", "noscript", "template", "applet", "svg", "math", "head", "title", "select", "textarea",
        "option", "optgroup", "datalist", "noembed", "noframes", "xml", "frameset", "colgroup",
    ]

    /// Elements that may only hold phrasing content (text and inline elements).
    private static let phrasingParents: Set<String> = [
        "p", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "dt", "th", "caption",
        "abbr", "b", "cite", "code", "dfn", "em", "i", "kbd", "mark", "q", "s", "samp", "small", "span",
        "strong", "sub", "sup", "u", "var",
    ]
    /// Inline elements kept wherever they appear (`a` and `del`/`ins` are transparent).
    private static let phrasing: Set<String> = [
        "a", "abbr", "b", "br", "cite", "code", "del", "dfn", "em", "i", "img", "ins", "kbd", "mark", "q", "s",
        "samp", "small", "span", "strong", "sub", "sup", "u", "var", "wbr",
    ]
    /// Block elements, kept only where flow content is allowed.
    private static let flow: Set<String> = [
        "p", "div", "blockquote", "pre", "ul", "ol", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "figure", "table",
    ]
    /// Elements kept only inside the parents listed (elsewhere their content is kept without them).
    private static let requiredParents: [String: Set<String>] = [
        "li": ["ul", "ol"], "dt": ["dl"], "dd": ["dl"], "figcaption": ["figure"], "caption": ["table"],
        "thead": ["table"], "tbody": ["table"], "tfoot": ["table"], "tr": ["table", "thead", "tbody", "tfoot"],
        "td": ["tr"], "th": ["tr"],
    ]
    /// Elements that hold only certain children; anything else inside is wrapped in the element named (text in `ul`
    /// becomes an `li`).
    private static let containers: [String: (children: Set<String>, wrapper: [String])] = [
        "ul": (["li"], ["li"]), "ol": (["li"], ["li"]), "dl": (["dt", "dd"], ["dd"]),
        "table": (["caption", "thead", "tbody", "tfoot", "tr"], ["tr", "td"]),
        "thead": (["tr"], ["tr", "td"]), "tbody": (["tr"], ["tr", "td"]), "tfoot": (["tr"], ["tr", "td"]),
        "tr": (["td", "th"], ["td"]),
    ]
    /// Old or sectioning names written as the element a news page needs.
    private static let renamed: [String: String] = [
        "strike": "s", "tt": "code", "center": "div", "time": "span", "section": "div", "article": "div",
        "aside": "div", "header": "div", "footer": "div", "main": "div", "nav": "div", "address": "div",
        "details": "div", "summary": "div", "hgroup": "div", "listing": "pre", "xmp": "pre", "plaintext": "pre",
        "bdi": "span", "bdo": "span", "acronym": "abbr", "big": "span", "font": "span", "blink": "span", "nobr": "span",
    ]
    private static let void: Set<String> = ["br", "hr", "img", "wbr"]

    private struct Context {
        var parent: String
        var phrasingOnly: Bool
        var inLink: Bool
        var base: String?
    }

    // MARK: - Writing

    private static func emit(_ nodes: [XMLElement.Node], _ context: Context, into output: inout String) {
        if let container = containers[context.parent] {
            emitContainer(nodes, container.children, wrapper: container.wrapper, context, into: &output)
            return
        }
        for node in nodes {
            switch node {
            case .text(let text):
                output += XMLWriter.escape(text, quotes: false)
            case .element(let element):
                emit(element, context, into: &output)
            }
        }
    }

    /// Children of `ul`, `table` and the like: allowed ones as they are, other runs inside `wrapper`, no bare text.
    private static func emitContainer(_ nodes: [XMLElement.Node], _ allowed: Set<String>, wrapper: [String], _ context: Context, into output: inout String) {
        var pending: [XMLElement.Node] = []
        var pendingWrapper = wrapper
        func flush() {
            defer { pending = [] }
            guard !pending.isEmpty else { return }
            let wrapper = pendingWrapper
            var inner = ""
            var innerContext = context
            for name in wrapper { innerContext = child(of: innerContext, named: name) }
            emit(pending, innerContext, into: &inner)
            guard !inner.trimmedWhitespace.isEmpty else { return }
            output += wrapper.map { "<\($0)>" }.joined() + inner + wrapper.reversed().map { "</\($0)>" }.joined()
        }
        for node in nodes {
            switch node {
            case .text(let text):
                guard !text.allSatisfy(\.isWhitespace) else { continue }
                if pendingWrapper != wrapper { flush() }
                pendingWrapper = wrapper
                pending.append(node)
            case .element(let element):
                let name = name(of: element)
                if allowed.contains(name) {
                    flush()
                    emit(element, context, into: &output)
                } else if !droppedWithContent.contains(element.name.lowercased()) {
                    // A `td` straight in a `table` needs only the `tr` around it, not a `td` too.
                    let fitting = wrapper.count > 1 && containers[wrapper[0]]?.children.contains(name) == true
                    let needed = fitting ? [wrapper[0]] : wrapper
                    if needed != pendingWrapper { flush() }
                    pendingWrapper = needed
                    pending.append(node)
                }
            }
        }
        flush()
    }

    private static func name(of element: XMLElement) -> String {
        let name = element.name.lowercased()
        return renamed[name] ?? name
    }

    private static func child(of context: Context, named name: String) -> Context {
        var inner = context
        inner.parent = name
        if phrasingParents.contains(name) { inner.phrasingOnly = true }
        if name == "a" { inner.inLink = true }
        return inner
    }

    private static func emit(_ element: XMLElement, _ context: Context, into output: inout String) {
        let original = element.name.lowercased()
        if droppedWithContent.contains(original) { return }
        let name = name(of: element)
        var context = context
        if element.base != nil { context.base = element.base }
        let keep: Bool
        if let parents = requiredParents[name] {
            keep = parents.contains(context.parent)
        } else if flow.contains(name) {
            keep = !context.phrasingOnly
        } else if name == "a" {
            keep = !context.inLink
        } else {
            keep = phrasing.contains(name)
        }
        guard keep else {
            // Unwrapped: the text stays, set apart from its neighbours as the block was.
            let block = flow.contains(name) || requiredParents[name] != nil || original == "body" || original == "html"
            if block { output += " " }
            emit(element.nodes, context, into: &output)
            if block { output += " " }
            return
        }
        guard let attributes = attributes(of: element, named: name, base: context.base) else { return }
        output += "<" + name
        for (attribute, value) in attributes {
            output += " " + attribute + "=\"" + XMLWriter.escape(value, quotes: true) + "\""
        }
        if void.contains(name) {
            output += "/>"
            return
        }
        output += ">"
        emit(element.nodes, child(of: context, named: name), into: &output)
        output += "</" + name + ">"
    }

    /// The attributes kept, in a fixed order; `nil` when the element must go (an image without an http(s) source).
    private static func attributes(of element: XMLElement, named name: String, base: String?) -> [(String, String)]? {
        func value(_ attribute: String) -> String? {
            element.attributes.first { $0.name.lowercased() == attribute && $0.namespace == nil }?.value
        }
        func url(_ attribute: String) -> String? {
            guard let raw = value(attribute), !raw.contains(where: { $0.isNewline || $0 == "\t" }) else { return nil }
            return URLNormalizer.absoluteHTTP(raw, base: base.flatMap(URL.init(string:)))
        }
        func number(_ attribute: String) -> String? {
            guard let raw = value(attribute)?.trimmingCharacters(in: .whitespaces), (1...5).contains(raw.count),
                  raw.allSatisfy(\.isASCII), raw.allSatisfy(\.isNumber), let number = Int(raw), number > 0 else { return nil }
            return String(number)
        }
        var kept: [(String, String?)] = []
        switch name {
        case "a":
            kept = [("href", url("href"))]
        case "img":
            guard let source = url("src") else { return nil }
            kept = [("src", source), ("alt", value("alt") ?? ""), ("width", number("width")), ("height", number("height")), ("loading", "lazy")]
        case "blockquote", "q", "del", "ins":
            kept = [("cite", url("cite"))]
        case "td", "th":
            kept = [("colspan", number("colspan")), ("rowspan", number("rowspan"))]
        case "ol":
            kept = [("start", number("start"))]
        default:
            break
        }
        if !void.contains(name) || name == "img" { kept.append(("title", value("title"))) }
        return kept.compactMap { attribute, value in value.map { (attribute, $0) } }
    }
}
