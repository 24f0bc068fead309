import Foundation
import NewsgenModel
import NewsgenXML

/// Page rules: polyglot HTML5, `lang`, one `<h1>`, unique ids, `alt` on images, resolving local links, a feed link.
struct PageRules {
    static let xhtmlNamespace = "http://www.w3.org/1999/xhtml"
    static let feedTypes: Set<String> = ["application/rss+xml", "application/atom+xml", "application/feed+json", "application/json"]
    static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    /// The page's path relative to the site root.
    let path: String
    let site: SiteFiles
    /// Where the site is served, when known: absolute feed links under it count as local.
    let baseURL: URL?

    /// Reads the page once with libxml2's SAX2 parser, building no tree, and checks each element at its start tag,
    /// reading names and attributes in place. A page that is not well-formed gets only its syntax errors.
    func check(_ data: Data, into problems: inout FileProblems) {
        var rulesFound = problems
        var walk = Walk()
        let syntax = data.withUnsafeBytes { bytes in
            LibXML.scanElements(bytes) { element, depth in
                walk.visit(element, depth: depth, rules: self, problems: &rulesFound)
            }
        }
        guard syntax.isEmpty else {
            problems.add(syntax: syntax)
            return
        }
        guard let root = walk.root else { return }
        problems = rulesFound
        if !Self.startsWithDoctype(problems.source.data) {
            problems.add(.htmlPolyglot, "a page must start with <!DOCTYPE html>", line: 1, column: 1)
        }
        if walk.charset?.attribute("charset")?.lowercased() != "utf-8" {
            problems.add(.htmlPolyglot, "the <head> must declare <meta charset=\"utf-8\"/>", at: walk.charset ?? walk.head ?? root)
        }
        let h1s = walk.h1s
        if h1s.isEmpty {
            problems.add(.htmlOneH1, "the page has no <h1>; every page needs exactly one", at: walk.body ?? root)
        }
        for (h1, occurrence) in h1s.dropFirst() {
            problems.add(.htmlOneH1, "a second <h1> (the first is on line \(h1s[0].element.line)); a page has exactly one", at: h1, occurrence: occurrence)
        }
        if !walk.hasFeedLink {
            problems.add(.htmlFeedLink, "no <link rel=\"alternate\"> to an RSS, Atom or JSON feed in the output; every page links its feeds", at: walk.head ?? root)
        }
    }

    private func checkRoot(_ root: XMLElement, into problems: inout FileProblems) {
        if root.name != "html" || root.namespace != Self.xhtmlNamespace {
            problems.add(.htmlPolyglot, "the root element must be <html xmlns=\"\(Self.xhtmlNamespace)\">", at: root)
        }
        guard let lang = root.attribute("lang") else {
            problems.add(.htmlLang, "<html> has no lang attribute; say which language the page is in (lang=\"en\")", at: root)
            return
        }
        if !LanguageTag.isWellFormed(lang) {
            problems.add(.htmlLang, "lang=\"\(lang)\" is not a language tag such as \"en\" or \"pt-BR\"", at: root)
        }
    }

    /// One pass over the elements in document order; an element is copied only when kept for a later rule or reported.
    private struct Walk {
        var root: XMLElement?
        /// The root's first `<head>` and `<body>` children, and the head's first `<meta charset>`.
        var head: XMLElement?
        var body: XMLElement?
        var charset: XMLElement?
        /// Whether the elements read now are inside the root's first `<head>`.
        var inFirstHead = false
        var h1s: [(element: XMLElement, occurrence: Int)] = []
        var hasFeedLink = false
        var ids: [String: Int] = [:]
        /// Elements seen so far on the current line, by name, to tell same-named ones apart.
        var line = 0
        var onLine = NameCounts()

        mutating func visit(_ element: ElementView, depth: Int, rules: PageRules, problems: inout FileProblems) {
            let elementLine = element.line
            if elementLine != line {
                line = elementLine
                onLine.removeAll()
            }
            let name = element.name
            let occurrence = onLine.count(name)

            switch depth {
            case 0:
                let copy = element.element
                root = copy
                rules.checkRoot(copy, into: &problems)
            case 1:
                inFirstHead = name == "head" && head == nil
                if inFirstHead { head = element.element }
                if name == "body" && body == nil { body = element.element }
            case 2 where inFirstHead && charset == nil && name == "meta" && element.hasAttribute("charset"):
                charset = element.element
            default: break
            }
            switch name {
            case "h1": h1s.append((element.element, occurrence))
            case "img" where !element.hasAttribute("alt"):
                problems.add(.htmlImgAlt, "<img src=\"\(element.attribute("src") ?? "")\"> has no alt attribute (use alt=\"\" for a decorative image)", at: element.element, occurrence: occurrence)
            case "link" where !hasFeedLink:
                hasFeedLink = rules.isWorkingFeedLink(element)
            default: break
            }
            if let id = element.attribute("id") {
                if let first = ids[id] {
                    problems.add(.htmlUniqueID, "id \"\(id)\" is used again (first on line \(first))", at: element.element, occurrence: occurrence)
                } else {
                    ids[id] = elementLine
                }
            }
            // A form's action too: the masthead's search box sends its words to search/.
            rules.checkLink("href", of: element, occurrence: occurrence, into: &problems)
            rules.checkLink("src", of: element, occurrence: occurrence, into: &problems)
            rules.checkLink("action", of: element, occurrence: occurrence, into: &problems)
        }
    }

    /// How many elements of each name a line has had: a short list, moved to a dictionary for lines with many names
    /// (minified pages).
    struct NameCounts {
        private static let listLimit = 16
        private var list: [(name: String, count: Int)] = []
        private var dictionary: [String: Int] = [:]

        mutating func removeAll() {
            list.removeAll(keepingCapacity: true)
            if !dictionary.isEmpty { dictionary.removeAll() }
        }

        /// How many elements named `name` came before on the line; counts this one.
        mutating func count(_ name: String) -> Int {
            if !dictionary.isEmpty {
                defer { dictionary[name, default: 0] += 1 }
                return dictionary[name, default: 0]
            }
            if let index = list.firstIndex(where: { $0.name == name }) {
                defer { list[index].count += 1 }
                return list[index].count
            }
            if list.count < Self.listLimit {
                list.append((name, 1))
            } else {
                dictionary = Dictionary(uniqueKeysWithValues: list.map { ($0.name, $0.count) })
                dictionary[name] = 1
                list.removeAll(keepingCapacity: true)
            }
            return 0
        }
    }

    /// Checks where the attribute `attribute` of `element` leads, when it has one.
    private func checkLink(_ attribute: StaticString, of element: ElementView, occurrence: Int, into problems: inout FileProblems) {
        guard let target = element.withAttribute(attribute, { site.resolve($0, from: path) }) else { return }
        let reference = { element.attribute(attribute) ?? "" }
        switch target {
        case .none, .file:
            break
        case .external(let scheme):
            if !Self.allowedSchemes.contains(scheme) {
                problems.add(.htmlLinkScheme, "\(attribute)=\"\(FileProblems.shortened(reference()))\" uses the \(scheme): scheme; pages link only to http(s), mailto: or files of the site", at: element.element, occurrence: occurrence)
            }
        case .missing(let target):
            problems.add(.htmlLocalLink, "\(attribute)=\"\(reference())\" leads to \(target), which is not in the output", at: element.element, occurrence: occurrence)
        case .outside:
            problems.add(.htmlLocalLink, "\(attribute)=\"\(reference())\" leads outside the site", at: element.element, occurrence: occurrence)
        }
    }

    /// A `<link rel="alternate">` of a feed type whose href is a site file (relative, or absolute under baseURL).
    private func isWorkingFeedLink(_ link: ElementView) -> Bool {
        guard link.withAttribute("rel", Self.includesAlternate) == true,
              link.withAttribute("type", Self.isFeedType) == true,
              var href = link.attribute("href") else { return false }
        if let base = baseURL?.absoluteString, href.hasPrefix(base) {
            href = "/" + href.dropFirst(base.count)
        }
        if case .file = site.resolve(href, from: path) { return true }
        return false
    }

    /// Whether a rel value's whitespace-separated tokens include "alternate", in any case.
    private static func includesAlternate(_ rel: UnsafeBufferPointer<UInt8>) -> Bool {
        rel.split(whereSeparator: Text.isASCIIWhitespace).contains { token in
            token.count == 9 && zip(token, "alternate".utf8).allSatisfy { $0 | 0x20 == $1 }
        }
    }

    /// Whether a type value, without its parameters and the spaces around it, is a feed's, in any case.
    private static func isFeedType(_ type: UnsafeBufferPointer<UInt8>) -> Bool {
        let isSpaceOrTab = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        var essence = type.prefix { $0 != UInt8(ascii: ";") }
        while let first = essence.first, isSpaceOrTab(first) { essence = essence.dropFirst() }
        while let last = essence.last, isSpaceOrTab(last) { essence = essence.dropLast() }
        let lowercased = essence.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        return feedTypes.contains(String(decoding: lowercased, as: UTF8.self))
    }

    static func startsWithDoctype(_ data: Data) -> Bool {
        var prefix = data.prefix(64)
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { prefix = prefix.dropFirst(3) }
        let text = String(decoding: prefix, as: UTF8.self).drop { $0.isWhitespace }
        return text.lowercased().hasPrefix("<!doctype html>")
    }
}
