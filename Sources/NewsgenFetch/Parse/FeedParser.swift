package import Foundation
package import NewsgenXML

/// Why a document could not be read as a feed.
package enum FeedError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case notAFeed(found: String)
    case malformedXML(XMLDiagnostic)
    case malformedJSON(String)

    public var description: String {
        switch self {
        case .empty: "the document is empty"
        case .notAFeed(let found): "not an RSS, Atom or JSON feed (found \(found))"
        case .malformedXML(let diagnostic) where diagnostic.line == 0:
            // libxml2 gives no position when it cannot convert the bytes at all (UTF-32, say).
            "cannot read the document's text encoding: \(diagnostic.message)"
        case .malformedXML(let diagnostic): "malformed XML at line \(diagnostic.line), column \(diagnostic.column): \(diagnostic.message)"
        case .malformedJSON(let detail): "malformed JSON: \(detail)"
        }
    }
}

/// Reads RSS 2.0 (and 0.9x), RSS 1.0, Atom 1.0 (and 0.3) and JSON Feed documents.
package enum FeedParser {
    /// Parses a feed document of any supported format, recovering what libxml2 can from sloppy XML.
    public static func parse(_ data: Data, url: String) throws(FeedError) -> ParsedFeed {
        guard let first = data.first(where: { !isSpaceOrBOM($0) }) else { throw .empty }
        if first == UInt8(ascii: "{") {
            return try JSONFeedReader.read(data)
        }
        let (root, diagnostics) = data.withUnsafeBytes { LibXML.parseXML($0, url: url, recover: true) }
        guard let root else {
            if let problem = diagnostics.first(where: { $0.severity != .warning }) {
                throw .malformedXML(problem)
            }
            throw .notAFeed(found: "no XML root element")
        }
        switch (root.name, root.namespace) {
        case ("rss", _):
            return RSSReader.read(root, format: .rss2)
        case ("RDF", _):
            return RSSReader.read(root, format: .rss1)
        case ("feed", _):
            // Atom 1.0, Atom 0.3, and the pre-standard namespaces some feeds still use.
            return AtomReader.read(root)
        case ("html", _), ("HTML", _):
            throw .notAFeed(found: "an HTML page")
        default:
            throw .notAFeed(found: "<\(root.name)>")
        }
    }

    private static func isSpaceOrBOM(_ byte: UInt8) -> Bool {
        // UTF-8 BOM bytes and ASCII white space; UTF-16 documents start with a BOM byte too.
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0xEF || byte == 0xBB || byte == 0xBF
            || byte == 0xFE || byte == 0xFF || byte == 0x00
    }
}


extension XMLElement {
    /// Trimmed text of the first child with this name, or `nil` when absent or blank.
    func childText(_ name: String, in namespace: String? = nil) -> String? {
        guard let text = child(name, in: namespace)?.text.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return nil
        }
        return text
    }

    /// The first image found in Media RSS elements (`media:thumbnail`, `media:content`, also inside `media:group`).
    var mediaImage: String? {
        for child in children where Namespace.isMedia(child.namespace) {
            switch child.name {
            case "thumbnail":
                if let url = child.attribute("url") { return url }
            case "content":
                let medium = child.attribute("medium")?.lowercased()
                let type = child.attribute("type")?.lowercased()
                if medium == "image" || type?.hasPrefix("image/") == true || (medium == nil && type == nil && Self.looksLikeImage(child.attribute("url"))),
                   let url = child.attribute("url") {
                    return url
                }
                if let thumbnail = child.child("thumbnail", in: child.namespace)?.attribute("url") { return thumbnail }
            case "group":
                if let url = child.mediaImage { return url }
            default:
                continue
            }
        }
        return nil
    }

    static func looksLikeImage(_ url: String?) -> Bool {
        guard let path = url?.lowercased().split(separator: "?").first else { return false }
        return [".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".svg"].contains { path.hasSuffix($0) }
    }
}
