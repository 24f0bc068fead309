import Foundation
import NewsgenModel
package import NewsgenXML

/// A change newsgen made to a malformed feed so it reads strictly and keeps every character of its text
/// (shown with `--verbose`). Needed because libxml2's recovery drops every entity reference after the first
/// error: one bare `&` turns a later `Tom &amp; Jerry` into "Tom Jerry".
package enum FeedRepair: Sendable, Hashable, CustomStringConvertible {
    /// White space or byte-order marks before the first `<`.
    case removedLeadingJunk
    /// An XML declaration after other content (a comment, say), removed.
    case removedMisplacedDeclaration
    /// A UTF-32 or UTF-16 document rewritten as UTF-8 (libxml2 reads no UTF-32).
    case transcoded(from: String)
    /// The declared encoding does not match the bytes (or libxml2 does not know it).
    case redeclaredEncoding(declared: String?, read: String)
    /// `&` that starts no reference, escaped as `&amp;`.
    case escapedAmpersands(count: Int, line: Int)
    /// `<` that starts no tag, escaped as `&lt;`: before a space, or a never-closed tag holding only text
    /// (`<title>the <best> stall</title>`).
    case escapedLessThan(count: Int, line: Int)
    /// HTML entities XML does not define (`&nbsp;`), replaced with their characters.
    case replacedEntities([String])
    /// References to characters XML forbids (`&#0;`), removed.
    case removedForbiddenReferences(count: Int)
    /// Still malformed after the repairs above: read with recovery, every entity first written as a character
    /// reference so no text is dropped.
    case recovered(XMLDiagnostic)

    package var description: String {
        switch self {
        case .removedLeadingJunk:
            "removed white space or a byte-order mark before the first tag"
        case .removedMisplacedDeclaration:
            "removed an XML declaration that was not at the start"
        case .transcoded(let encoding):
            "read the \(encoding) document as UTF-8"
        case .redeclaredEncoding(let declared, let read):
            "read as \(read): the bytes are not the declared \(declared ?? "UTF-8 (the default)")"
        case .escapedAmpersands(let count, let line):
            "escaped \(count) bare & (the first on line \(line))"
        case .escapedLessThan(let count, let line):
            "escaped \(count) bare < (the first on line \(line))"
        case .replacedEntities(let names):
            "replaced HTML entities XML does not define with their characters: " + names.map { "&\($0);" }.joined(separator: " ")
        case .removedForbiddenReferences(let count):
            "removed \(count) references to characters XML forbids"
        case .recovered(let diagnostic):
            "still malformed at line \(diagnostic.line), column \(diagnostic.column) (\(diagnostic.message)): read the rest with libxml2's recovery, keeping all text"
        }
    }
}

/// Rewrites a document that failed a strict parse into one that can pass, recording each change. Works on
/// ASCII-compatible bytes, where `&`, `<` and entity names are the same bytes; wider encodings are transcoded first.
struct FeedRepairer {
    private(set) var bytes: [UInt8]
    private(set) var repairs: [FeedRepair] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// UTF-32 and UTF-16 documents as UTF-8, with the declaration saying so.
    mutating func transcodeWideEncodings(includingUTF16: Bool) {
        guard let (encoding, text) = Self.decodeWide(bytes, includingUTF16: includingUTF16) else { return }
        var utf8 = Array(text.utf8)
        if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { utf8.removeFirst(3) }
        bytes = utf8
        setDeclaredEncoding("UTF-8")
        repairs.append(.transcoded(from: encoding))
    }

    mutating func removeLeadingJunk() {
        var start = 0
        var removedSomething = false
        while start < bytes.count {
            if bytes[start...].starts(with: [0xEF, 0xBB, 0xBF]) {
                removedSomething = removedSomething || start > 0
                start += 3
            } else if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) {
                removedSomething = true
                start += 1
            } else {
                break
            }
        }
        guard start > 0 else { return }
        bytes.removeFirst(start)
        if removedSomething { repairs.append(.removedLeadingJunk) }
    }

    /// Declared UTF-8 (or nothing) on non-UTF-8 bytes reads as windows-1252, the usual truth; an encoding libxml2
    /// does not know is replaced by what the bytes are.
    mutating func fixDeclaredEncoding(firstError: XMLDiagnostic?) {
        let declared = declaredEncoding
        let isUTF8 = bytes.withUnsafeBytes(Text.isUTF8)
        let saysUTF8 = declared.map { ["utf-8", "utf8"].contains($0.lowercased()) } ?? true
        let unknown = firstError?.message.lowercased().contains("encoding") == true && !saysUTF8
        guard (saysUTF8 && !isUTF8) || unknown else { return }
        let read: String
        if saysUTF8 || isUTF8 {
            read = isUTF8 ? "UTF-8" : "windows-1252"
        } else if let declared, let known = Self.iconvName(for: declared) {
            // A codec's other spelling ("437" for CP437): the bytes are in the declared encoding.
            read = known
        } else {
            // Undecodable: guessing would change the text silently, so the feed is rejected with libxml2's reason.
            return
        }
        setDeclaredEncoding(read)
        repairs.append(.redeclaredEncoding(declared: declared, read: read))
    }

    /// iconv's name for `declared` when it knows a usual spelling: Python's codec names write code pages as bare
    /// numbers ("850") and Mac encodings without a hyphen ("maccentraleurope").
    static func iconvName(for declared: String) -> String? {
        let name = declared.uppercased()
        var candidates = [name]
        if !name.isEmpty, name.allSatisfy(\.isNumber) { candidates.append("CP" + name) }
        if name.hasPrefix("MAC"), !name.hasPrefix("MAC-") { candidates.append("MAC-" + name.dropFirst(3)) }
        // The declaration must hold a name XML allows (a letter first): "437" is not one.
        return candidates.first { candidate in
            guard candidate.wholeMatch(of: /[A-Z][A-Z0-9._-]*/) != nil else { return false }
            let converter = iconv_open("UTF-8", candidate)
            guard converter != iconv_t(bitPattern: -1) else { return false }
            iconv_close(converter)
            return true
        }
    }

    /// Escapes bare `&` and `<`, and writes HTML entities and XML's five as character references (recovery keeps
    /// those, not entities). Comments, CDATA, processing instructions and the DOCTYPE, with its entities, are kept.
    mutating func fixReferences() {
        var scanner = ReferenceScanner(bytes)
        scanner.run()
        bytes = scanner.output
        if scanner.bareAmpersands > 0 {
            repairs.append(.escapedAmpersands(count: scanner.bareAmpersands, line: scanner.firstAmpersandLine))
        }
        if scanner.bareLessThans > 0 {
            repairs.append(.escapedLessThan(count: scanner.bareLessThans, line: scanner.firstLessThanLine))
        }
        if !scanner.htmlEntities.isEmpty { repairs.append(.replacedEntities(scanner.htmlEntities)) }
        if scanner.misplacedDeclarations > 0 { repairs.append(.removedMisplacedDeclaration) }
        if scanner.forbiddenReferences > 0 { repairs.append(.removedForbiddenReferences(count: scanner.forbiddenReferences)) }
    }

    mutating func noteRecovery(_ diagnostic: XMLDiagnostic) {
        repairs.append(.recovered(diagnostic))
    }

    // MARK: - The XML declaration

    /// The range of `<?xml … ?>` at the very start.
    private var declarationRange: Range<Int>? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        guard let end = bytes.prefix(512).firstRange(of: Array("?>".utf8)) else { return nil }
        return 0..<end.upperBound
    }

    private var declaredEncoding: String? {
        guard let range = declarationRange else { return nil }
        let declaration = String(decoding: bytes[range], as: UTF8.self)
        guard let match = declaration.firstMatch(of: /encoding\s*=\s*["']([^"']*)["']/) else { return nil }
        return String(match.output.1)
    }

    private mutating func setDeclaredEncoding(_ encoding: String) {
        if let range = declarationRange {
            var declaration = String(decoding: bytes[range], as: UTF8.self)
            if let match = declaration.firstMatch(of: /encoding\s*=\s*["'][^"']*["']/) {
                declaration.replaceSubrange(match.range, with: "encoding=\"\(encoding)\"")
            } else {
                declaration.replaceSubrange(declaration.index(declaration.endIndex, offsetBy: -2)..., with: " encoding=\"\(encoding)\"?>")
            }
            bytes.replaceSubrange(range, with: Array(declaration.utf8))
        } else {
            bytes.insert(contentsOf: Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>".utf8), at: 0)
        }
    }

    // MARK: - Wide encodings

    /// The text of a UTF-32 or UTF-16 document (by byte-order mark or how `<` is written), with the encoding's name.
    private static func decodeWide(_ bytes: [UInt8], includingUTF16: Bool) -> (String, String)? {
        let head = Array(bytes.prefix(4)) + [1, 1, 1, 1]
        if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || head.starts(with: [0x00, 0x00, 0x00, 0x3C]) {
            return ("UTF-32BE", decode32(bytes, bigEndian: true))
        }
        if head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || head.starts(with: [0x3C, 0x00, 0x00, 0x00]) {
            return ("UTF-32LE", decode32(bytes, bigEndian: false))
        }
        guard includingUTF16 else { return nil }
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0x00, 0x3C]) {
            return ("UTF-16BE", decode16(bytes, bigEndian: true))
        }
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0x3C, 0x00]) {
            return ("UTF-16LE", decode16(bytes, bigEndian: false))
        }
        return nil
    }

    private static func decode32(_ bytes: [UInt8], bigEndian: Bool) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index + 3 < bytes.count {
            let quad = bytes[index..<index + 4].map(UInt32.init)
            let value = bigEndian ? quad[0] << 24 | quad[1] << 16 | quad[2] << 8 | quad[3]
                : quad[3] << 24 | quad[2] << 16 | quad[1] << 8 | quad[0]
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            index += 4
        }
        return String(scalars)
    }

    private static func decode16(_ bytes: [UInt8], bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 0
        while index + 1 < bytes.count {
            let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}

/// The byte scanner behind `FeedRepairer.fixReferences()`.
private struct ReferenceScanner {
    let input: [UInt8]
    var output: [UInt8] = []
    var index = 0
    var line = 1
    var declaredEntities: Set<String> = []
    var bareAmpersands = 0
    var firstAmpersandLine = 0
    var bareLessThans = 0
    var firstLessThanLine = 0
    var htmlEntities: [String] = []
    var forbiddenReferences = 0
    var misplacedDeclarations = 0
    /// The open elements: name, place of `<` in the output, line, and child count.
    private var openTags: [(name: ArraySlice<UInt8>, at: Int, line: Int, children: Int)] = []
    /// Whether `openTags` is kept: not past libxml2's depth, so each end tag searches at most that many.
    private var tracksTags = true
    /// Output places of `<` to write as `&lt;`, in order, applied in one pass at the end.
    private var escapedTags: [Int] = []
    private static let maximumTrackedDepth = 256

    init(_ input: [UInt8]) {
        self.input = input
        output.reserveCapacity(input.count + input.count / 16)
    }

    private static let predefined: [String: String] = ["amp": "&#38;", "lt": "&#60;", "gt": "&#62;", "quot": "&#34;", "apos": "&#39;"]

    mutating func run() {
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "<") {
                if starts("<!--") { copy(through: "-->") }
                else if starts("<![CDATA[") { copy(through: "]]>") }
                else if starts("<?xml ") && index > 0 { dropMisplacedDeclaration() }
                else if starts("<?") { copy(through: "?>") }
                else if starts("<!DOCTYPE") || starts("<!doctype") { copyDoctype() }
                else if index + 1 < input.count, Self.startsTag(input[index + 1]) { copyTag() }
                else { bareLessThan() }
            } else if byte == UInt8(ascii: "&") {
                reference()
            } else {
                advance()
            }
        }
        escapeTags()
    }

    /// Writes the `<` of each tag in `escapedTags` as `&lt;`.
    private mutating func escapeTags() {
        guard !escapedTags.isEmpty else { return }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(output.count + 3 * escapedTags.count)
        var copied = 0
        for place in escapedTags.sorted() {
            escaped.append(contentsOf: output[copied..<place])
            escaped.append(contentsOf: "&lt;".utf8)
            copied = place + 1
        }
        escaped.append(contentsOf: output[copied...])
        output = escaped
    }

    private static func startsTag(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte >= 0x80
    }

    private func starts(_ prefix: String) -> Bool {
        input[index...].starts(with: prefix.utf8)
    }

    private mutating func advance() {
        if input[index] == 0x0A { line += 1 }
        output.append(input[index])
        index += 1
    }

    private mutating func copy(through terminator: String) {
        let end = input[index...].firstRange(of: Array(terminator.utf8))?.upperBound ?? input.count
        while index < end { advance() }
    }

    /// `<!DOCTYPE …>` with its internal subset, noting the entities it declares.
    private mutating func copyDoctype() {
        var depth = 0
        var quote: UInt8?
        let start = index
        while index < input.count {
            let byte = input[index]
            advance()
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == UInt8(ascii: ">") && depth <= 0 {
                break
            }
        }
        let doctype = String(decoding: input[start..<index], as: UTF8.self)
        for match in doctype.matches(of: /<!ENTITY\s+([^\s%]+)/) { declaredEntities.insert(String(match.output.1)) }
    }

    /// A start or end tag; references and `<` inside quoted attribute values are repaired too.
    private mutating func copyTag() {
        let (start, tagLine, nameStart) = (output.count, line, index + 1)
        var quote: UInt8?
        var last: UInt8 = 0
        advance()
        while index < input.count {
            let byte = input[index]
            if let open = quote {
                if byte == open { quote = nil; advance() }
                else if byte == UInt8(ascii: "&") { reference() }
                else if byte == UInt8(ascii: "<") { bareLessThan() }
                else { advance() }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
                advance()
            } else if byte == UInt8(ascii: ">") {
                advance()
                noteTag(from: nameStart, at: start, line: tagLine, selfClosing: last == UInt8(ascii: "/"))
                return
            } else if byte == UInt8(ascii: "<") {
                return  // an unclosed tag: leave it to the parser
            } else {
                last = byte
                advance()
            }
        }
    }

    /// Tracks `openTags`. An end tag closing an element below others still open shows they were never elements:
    /// each holding only text has its `<` escaped, as readers show it, innermost first; others are left to the parser.
    private mutating func noteTag(from nameStart: Int, at start: Int, line tagLine: Int, selfClosing: Bool) {
        let isEnd = input[nameStart] == UInt8(ascii: "/")
        let first = isEnd ? nameStart + 1 : nameStart
        guard first < input.count, input[first] != UInt8(ascii: "!") else { return }
        let end = input[first...].firstIndex { [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">")].contains($0) } ?? input.count
        let name = input[first..<end]
        guard tracksTags else { return }
        if !isEnd {
            if !openTags.isEmpty { openTags[openTags.count - 1].children += 1 }
            if !selfClosing { openTags.append((name, start, tagLine, 0)) }
            if openTags.count > Self.maximumTrackedDepth {
                tracksTags = false
                openTags = []
            }
            return
        }
        guard let closed = openTags.lastIndex(where: { $0.name.elementsEqual(name) }) else { return }
        for place in openTags.indices.dropFirst(closed + 1).reversed() {
            guard openTags[place].children == 0 else { break }
            escapedTags.append(openTags[place].at)
            bareLessThans += 1
            if firstLessThanLine == 0 || openTags[place].line < firstLessThanLine { firstLessThanLine = openTags[place].line }
            openTags[place - 1].children -= 1
        }
        openTags.removeSubrange(closed...)
    }

    /// An XML declaration anywhere but the start is an error; the parser reads UTF-8 (or what the repairs settled on)
    /// without it.
    private mutating func dropMisplacedDeclaration() {
        misplacedDeclarations += 1
        let end = input[index...].firstRange(of: Array("?>".utf8))?.upperBound ?? input.count
        line += input[index..<end].filter { $0 == 0x0A }.count
        index = end
    }

    private mutating func bareLessThan() {
        bareLessThans += 1
        if firstLessThanLine == 0 { firstLessThanLine = line }
        output.append(contentsOf: "&lt;".utf8)
        index += 1
    }

    private mutating func bareAmpersand() {
        bareAmpersands += 1
        if firstAmpersandLine == 0 { firstAmpersandLine = line }
        output.append(contentsOf: "&amp;".utf8)
        index += 1
    }

    /// At `&`: a character reference is kept (unless XML forbids its character), a known entity becomes a character
    /// reference, anything else is a bare `&`.
    private mutating func reference() {
        var end = index + 1
        while end < input.count, end - index <= 40, Self.isNameByte(input[end]) || input[end] == UInt8(ascii: "#") { end += 1 }
        guard end < input.count, input[end] == UInt8(ascii: ";"), end > index + 1 else { return bareAmpersand() }
        let name = String(decoding: input[index + 1..<end], as: UTF8.self)
        let replacement: String?
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value else { return bareAmpersand() }
            if let scalar = Unicode.Scalar(value), Text.isAllowedInXML(scalar) {
                // XML spells the hexadecimal form with a lowercase x only.
                replacement = "&#\(value);"
            } else {
                forbiddenReferences += 1
                replacement = ""
            }
        } else if let character = Self.predefined[name] {
            replacement = character
        } else if declaredEntities.contains(name) {
            replacement = "&" + name + ";"
        } else if let scalar = LibXML.htmlEntity(named: name) {
            if !htmlEntities.contains(name) { htmlEntities.append(name) }
            replacement = "&#\(scalar.value);"
        } else {
            replacement = nil
        }
        guard let replacement else { return bareAmpersand() }
        output.append(contentsOf: replacement.utf8)
        index = end + 1
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
