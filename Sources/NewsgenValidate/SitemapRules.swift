import Foundation
import NewsgenXML

/// What sitemaps.org asks that a RELAX NG schema checks slowly or cannot: at most 50,000 URLs
/// in one sitemap and 50,000 sitemaps in one index (search engines ignore a sitemap past it),
/// and each `<loc>` an absolute http(s) URL of at most 2,048 characters. Both are reported
/// under `sitemap-schema`, as part of the protocol.
///
/// The locations are checked here, not by the schema's `pattern` and `maxLength`: libxml2
/// compiles a RELAX NG facet anew for every value it checks, which made checking a sitemap of
/// 10,000 URLs ten times as long as reading it (33 ms against 3).
enum SitemapRules {
    static let limit = 50_000

    /// The most characters sitemaps.org allows in a `<loc>`.
    static let locationLimit = 2_048

    /// Reads a sitemap or sitemap index once with libxml2's streaming reader, checking it against
    /// `schema` as it goes, counting the root's entries and checking each entry's `<loc>`: a
    /// sitemap of 50,000 URLs is never held as a tree.
    static func check(_ data: Data, schema: LibXML.RelaxNGSchema?, into problems: inout FileProblems) {
        var root: XMLElement?
        var entry: String?
        var count = 0
        // The `<loc>` being read (its text may come in pieces; its line, and how many `<loc>`
        // started earlier on that line) and those found wrong.
        var location: (line: Int, occurrence: Int, text: [UInt8])?
        var lastLine = (line: 0, locations: 0)
        var wrong: [(line: Int, occurrence: Int, text: String)] = []
        func endLocation() {
            guard let read = location else { return }
            location = nil
            if !Self.isLocation(read.text) { wrong.append((read.line, read.occurrence, String(decoding: read.text, as: UTF8.self))) }
        }
        let checked = data.withUnsafeBytes { bytes in
            LibXML.checkStreaming(bytes, url: problems.path, schema: schema, depth: 2, visit: { element, depth in
                endLocation()
                switch depth {
                case 0:
                    root = element.element
                    entry = root.flatMap(Self.entry(of:))
                case 1:
                    if element.name == entry { count += 1 }
                default:
                    guard element.isNamed("loc") else { break }
                    let line = element.line
                    lastLine = (line, line == lastLine.line ? lastLine.locations + 1 : 1)
                    location = (line, lastLine.locations - 1, [])
                }
            }, text: { text, depth in
                if depth == 2, location != nil { location?.text.append(contentsOf: text) }
            })
        }
        endLocation()
        problems.add(syntax: checked.syntax)
        SchemaMessages.report(checked.schema, as: .sitemapSchema, into: &problems)
        guard checked.syntax.isEmpty else { return }
        for (line, occurrence, text) in wrong {
            problems.add(.sitemapSchema, "<loc>\(FileProblems.shortened(text))</loc> is not an absolute http(s) URL of at most \(locationLimit) characters without spaces",
                         at: XMLElement(name: "loc", line: line), occurrence: occurrence)
        }
        guard let root, let entry, count > limit else { return }
        let what = entry == "url"
            ? "a sitemap may list at most \(limit); split it into sitemaps listed by a sitemap index"
            : "a sitemap index may list at most \(limit) sitemaps"
        problems.add(.sitemapSchema, "<\(root.name)> has \(count) <\(entry)> entries; \(what)", at: root)
    }

    /// Whether `text` (UTF-8) is what the protocol allows in `<loc>`: "http://" or "https://"
    /// in any case, then at least one character, none of them a space, tab or line break (the
    /// schema's former pattern, `[Hh][Tt][Tt][Pp][Ss]?://\S+`), at most `locationLimit`
    /// characters in all. (That it is a URI at all, the schema checks.) Read byte by byte: a
    /// sitemap has one for every page.
    static func isLocation(_ text: [UInt8]) -> Bool {
        let schemeEnd = text.firstIndex(of: UInt8(ascii: ":")) ?? text.endIndex
        let scheme = text[..<schemeEnd].lazy.map { $0 | 0x20 }
        guard scheme.elementsEqual("http".utf8) || scheme.elementsEqual("https".utf8) else { return false }
        let rest = text[schemeEnd...]
        guard rest.starts(with: "://".utf8), rest.count > 3 else { return false }
        var characters = 0
        for byte in text {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { return false }
            // Every character has one byte that is not a continuation byte (10xxxxxx).
            if byte & 0xC0 != 0x80 { characters += 1 }
        }
        return characters <= locationLimit
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
