import Foundation
import NewsgenModel
import NewsgenXML

/// The sitemaps.org rules a RELAX NG schema checks slowly or not at all, reported under `sitemap-schema`:
/// at most 50,000 URLs per sitemap and sitemaps per index, each `<loc>` an absolute http(s) URL of at most
/// 2,048 characters, and each entry with one `<loc>` and at most one of each other element. Element counts and
/// locations are checked here because an interleave, `pattern` or `anyURI` makes libxml2 build or compile per entry.
enum SitemapRules {
    static let limit = 50_000

    static let locationLimit = 2_048

    /// Checks a sitemap or index in one streaming pass against `schema`, counting entries and checking each `<loc>`.
    static func check(_ data: Data, schema: LibXML.RelaxNGSchema?, into problems: inout FileProblems) {
        var root: XMLElement?
        var entry: String?
        var count = 0
        // The `<loc>` being read (text may come in pieces) and those found wrong.
        var location: (line: Int, occurrence: Int, text: [UInt8])?
        var lastLine = (line: 0, locations: 0)
        var wrong: [(line: Int, occurrence: Int, text: String)] = []
        // The entry being read, and those whose elements break the protocol.
        var current: EntryElements?
        var lastEntryLine = (line: 0, entries: 0)
        var miscounted: [EntryElements] = []
        func endEntry() {
            if let read = current, !read.isWhole { miscounted.append(read) }
            current = nil
        }
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
                    endEntry()
                    guard let entry, element.name == entry else { break }
                    count += 1
                    let line = element.line
                    lastEntryLine = (line, line == lastEntryLine.line ? lastEntryLine.entries + 1 : 1)
                    current = EntryElements(name: entry, line: line, occurrence: lastEntryLine.entries - 1)
                default:
                    current?.count(element)
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
        endEntry()
        problems.add(syntax: checked.syntax)
        SchemaMessages.report(checked.schema, as: .sitemapSchema, into: &problems)
        guard checked.syntax.isEmpty else { return }
        for (line, occurrence, text) in wrong {
            problems.add(.sitemapSchema, "<loc>\(FileProblems.shortened(text))</loc> is not an absolute http(s) URL (RFC 3986) of at most \(locationLimit) characters",
                         at: XMLElement(name: "loc", line: line), occurrence: occurrence)
        }
        for read in miscounted {
            problems.add(.sitemapSchema, read.problem, at: XMLElement(name: read.name, line: read.line), occurrence: read.occurrence)
        }
        guard let root, let entry, count > limit else { return }
        let what = entry == "url"
            ? "a sitemap may list at most \(limit); split it into sitemaps listed by a sitemap index"
            : "a sitemap index may list at most \(limit) sitemaps"
        problems.add(.sitemapSchema, "<\(root.name)> has \(count) <\(entry)> entries; \(what)", at: root)
    }

    /// Whether UTF-8 `text` is a valid `<loc>`: an absolute URI (RFC 3986, IRI characters per RFC 3987) with scheme
    /// http or https in any case, a non-empty authority, at most `locationLimit` characters, only characters a URI
    /// allows where they stand (`[` `]` only in the authority, one `#`), and each `%` followed by two hex digits.
    static func isLocation(_ text: [UInt8]) -> Bool {
        func lowercased(_ index: Int) -> UInt8 { index < text.count ? text[index] | 0x20 : 0 }
        guard lowercased(0) == UInt8(ascii: "h"), lowercased(1) == UInt8(ascii: "t"), lowercased(2) == UInt8(ascii: "t"),
              lowercased(3) == UInt8(ascii: "p") else { return false }
        let schemeEnd = lowercased(4) == UInt8(ascii: "s") ? 5 : 4
        guard text.count > schemeEnd + 3, text[schemeEnd...].starts(with: "://".utf8) else { return false }
        var index = schemeEnd + 3
        var inAuthority = true
        var inFragment = false
        var characters = index
        let kinds = Self.byteKinds
        while index < text.count {
            let byte = text[index]
            index += 1
            if byte & 0xC0 != 0x80 { characters += 1 }
            switch kinds[Int(byte)] {
            case .plain:
                continue
            case .delimiter:
                if inAuthority && index == schemeEnd + 4 { return false }
                inAuthority = false
                if byte == UInt8(ascii: "#") {
                    if inFragment { return false }
                    inFragment = true
                }
            case .escape:
                guard index + 1 < text.count, Hexadecimal.value(of: text[index]) != nil, Hexadecimal.value(of: text[index + 1]) != nil else {
                    return false
                }
            case .bracket:
                if !inAuthority { return false }
            case .forbidden:
                return false
            }
        }
        return characters <= locationLimit
    }

    /// What a byte is in a URI past its scheme (`isLocation`).
    private enum ByteKind {
        /// Unreserved (letters, digits, `-._~`), a sub-delimiter (`!$&'()*+,;=`), `:` or `@`;
        /// or a byte of a character past ASCII (an IRI's; the XML parser saw that it is UTF-8).
        case plain
        /// "/", "?" or "#": the end of the authority ("#" begins the fragment).
        case delimiter
        /// "%": two hexadecimal digits follow.
        case escape
        /// "[" or "]": in the authority only (an IPv6 address).
        case bracket
        /// Anything else: a space, a control character, `<>"{}|\^` and `` ` ``.
        case forbidden
    }

    private static let byteKinds: [ByteKind] = (0...255).map { value in
        let byte = UInt8(value)
        if byte >= 0x80 || Text.isASCIILetter(byte) || Text.isASCIIDigit(byte) || "-._~!$&'()*+,;=:@".utf8.contains(byte) { return .plain }
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return .delimiter
        case UInt8(ascii: "%"): return .escape
        case UInt8(ascii: "["), UInt8(ascii: "]"): return .bracket
        default: return .forbidden
        }
    }

    /// How many of each of its elements an entry (`<url>` or `<sitemap>`) has, and where it starts.
    private struct EntryElements {
        var name: String
        var line: Int
        var occurrence: Int
        /// `<loc>`, `<lastmod>`, `<changefreq>` and `<priority>`, in that order (the schema allows no other).
        var counts = (0, 0, 0, 0)

        static let names = ["loc", "lastmod", "changefreq", "priority"]

        mutating func count(_ element: ElementView) {
            if element.isNamed("loc") {
                counts.0 += 1
            } else if element.isNamed("lastmod") {
                counts.1 += 1
            } else if element.isNamed("changefreq") {
                counts.2 += 1
            } else if element.isNamed("priority") {
                counts.3 += 1
            }
        }

        /// One `<loc>`, and at most one of each other element.
        var isWhole: Bool { counts.0 == 1 && counts.1 <= 1 && counts.2 <= 1 && counts.3 <= 1 }

        var problem: String {
            let all = [counts.0, counts.1, counts.2, counts.3]
            if all[0] == 0 { return "<\(name)> has no <loc>; each entry names its page's URL in one <loc>" }
            let repeated = zip(Self.names, all).filter { $0.1 > 1 }.map { "\($0.1) <\($0.0)>" }
            return "<\(name)> has \(repeated.joined(separator: " and ")); an entry may have one of each"
        }
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
