package import Foundation
package import NewsgenXML

/// Why a document could not be read as a feed.
package enum FeedError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case notAFeed(found: String)
    case malformedXML(XMLDiagnostic)
    case malformedJSON(String)
    /// The document is over one of the limits every document is read within.
    case overLimit(DocumentLimitError)

    public var description: String {
        switch self {
        case .empty: "the document is empty"
        case .notAFeed(let found): "not an RSS, Atom or JSON feed (found \(found))"
        case .malformedXML(let diagnostic) where diagnostic.line == 0:
            // libxml2 gives no position when it cannot convert the bytes at all (UTF-32, say).
            "cannot read the document's text encoding: \(diagnostic.message)"
        case .malformedXML(let diagnostic): "malformed XML at line \(diagnostic.line), column \(diagnostic.column): \(diagnostic.message)"
        case .malformedJSON(let detail): "malformed JSON: \(detail)"
        case .overLimit(let problem): problem.description
        }
    }
}

/// Reads RSS 2.0 (and 0.9x), RSS 1.0, Atom 1.0 (and 0.3) and JSON Feed documents.
package enum FeedParser {
    /// Parses a feed of any supported format; relative links resolve against `url` (after `xml:base`) when absolute.
    /// XML is read strictly; a malformed document is repaired (`FeedRepair`) and read strictly again, and only then
    /// with libxml2's recovery on the repaired bytes, so no entity or text is lost. All attempts share `limits`.
    public static func parse(_ data: Data, url: String, limits: DocumentLimits = .standard) throws(FeedError) -> ParsedFeed {
        guard let first = data.first(where: { !isSpaceOrBOM($0) }) else { throw .empty }
        if first == UInt8(ascii: "{") {
            return try JSONFeedReader.read(data, limits: limits)
        }
        let (root, repairs) = try readXML(data, url: url, limits: limits)
        try checkTime(limits)
        var feed = try read(root)
        feed.repairs = repairs
        return feed
    }

    static func checkTime(_ limits: DocumentLimits) throws(FeedError) {
        do { try limits.checkTime() } catch { throw .overLimit(error) }
    }

    /// The document's root element, and the repairs it took to read it.
    private static func readXML(_ data: Data, url: String, limits: DocumentLimits) throws(FeedError) -> (XMLElement, [FeedRepair]) {
        do {
            var repairer = FeedRepairer(Array(data))
            // libxml2 reads no UTF-32, so transcode before the first attempt.
            repairer.transcodeWideEncodings(includingUTF16: false)
            let strict = try parseStrictly(repairer.bytes, url: url, limits: limits)
            if let root = strict.root { return (root, repairer.repairs) }
            let firstError = strict.diagnostics.first { $0.severity != .warning }

            try limits.checkTime()
            repairer.transcodeWideEncodings(includingUTF16: true)
            repairer.removeLeadingJunk()
            repairer.fixDeclaredEncoding(firstError: firstError)
            repairer.fixReferences()
            let repaired = try parseStrictly(repairer.bytes, url: url, limits: limits)
            if let root = repaired.root { return (root, repairer.repairs) }

            let (recovered, _) = try LibXML.parseXML(repairer.bytes, url: url, recover: true, limits: limits)
            let remaining = repaired.diagnostics.first { $0.severity != .warning } ?? firstError
            if let recovered {
                if let remaining { repairer.noteRecovery(remaining) }
                return (recovered, repairer.repairs)
            }
            if let firstError { throw FeedError.malformedXML(firstError) }
            throw FeedError.notAFeed(found: "no XML root element")
        } catch let error as FeedError {
            throw error
        } catch let error as DocumentLimitError {
            throw .overLimit(error)
        } catch {
            throw .notAFeed(found: "\(error)")
        }
    }

    /// The root when well-formed. Namespace errors lose nothing and pass; an undefined entity does not, as its text
    /// would be dropped.
    private static func parseStrictly(_ bytes: [UInt8], url: String, limits: DocumentLimits) throws(DocumentLimitError) -> (root: XMLElement?, diagnostics: [XMLDiagnostic]) {
        let (root, diagnostics) = try LibXML.parseXML(bytes, url: url, recover: false, limits: limits)
        let lossy = diagnostics.contains { $0.severity == .fatal || $0.message.contains("Entity") }
        return (lossy ? nil : root, diagnostics)
    }

    private static func read(_ root: XMLElement) throws(FeedError) -> ParsedFeed {
        switch (root.name, root.namespace) {
        case ("rss", _):
            return RSSReader.read(root, format: .rss2)
        case ("RDF", _):
            return RSSReader.read(root, format: .rss1)
        case ("feed", _):
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
    /// Trimmed text of the first child with this name; `nil` when absent or blank.
    func childText(_ name: String, in namespace: String? = nil) -> String? {
        child(name, in: namespace)?.nonBlankText
    }

    var nonBlankText: String? {
        let text = text.trimmedWhitespace
        return text.isEmpty ? nil : text
    }

    /// The first image found in Media RSS elements (`media:thumbnail`, `media:content`, also inside `media:group`).
    var mediaImage: String? {
        Self.mediaImage(among: children)
    }

    /// The first image the Media RSS elements among `children` name.
    static func mediaImage(among children: [XMLElement]) -> String? {
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
