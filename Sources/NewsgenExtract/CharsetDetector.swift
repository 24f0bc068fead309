import Foundation
import NewsgenModel
import NewsgenXML

/// Decides how a page's bytes are encoded, in the order browsers use: the charset the HTTP Content-Type declared,
/// then a byte order mark, then a `<meta charset>` or `<meta http-equiv="Content-Type">` near the start, then UTF-8
/// when the bytes are valid UTF-8, else windows-1252 (what browsers assume for legacy Western pages). Bytes that
/// are valid UTF-8 beyond ASCII are read as UTF-8 before any `<meta>` is consulted.
///
/// The result is bytes libxml2 can read and the name of their encoding: UTF-8 with invalid sequences replaced
/// by U+FFFD, or the page's own bytes with a legacy encoding libxml2 (through iconv) can decode.
struct CharsetDetector {
    /// How far into the page a `<meta>` declaring the charset is looked for.
    static let prescanLength = 4096

    struct Decision: Equatable {
        /// The encoding's name as libxml2 knows it.
        var encoding: String
        var bytes: [UInt8]
    }

    func decide(_ bytes: [UInt8], declared: String?) -> Decision {
        var body = bytes
        var name = declared.flatMap(Self.normalized)
        if let bom = Self.byteOrderMark(bytes) {
            if name == nil { name = bom.encoding }
            if name == bom.encoding { body = Array(bytes.dropFirst(bom.length)) }
        }
        let isUTF8 = body.withUnsafeBytes(Text.isUTF8)
        // A page whose bytes are UTF-8 (and not plain ASCII) is UTF-8 whatever its <meta> says: the label of a page
        // saved or re-served as UTF-8 often stays behind, and legacy text is almost never valid UTF-8 by chance.
        if name == nil, isUTF8, body.contains(where: { $0 >= 0x80 }) { name = "UTF-8" }
        if name == nil { name = Self.metaCharset(in: bytes).flatMap(Self.normalized) }
        // A page cannot declare UTF-16 in its own (ASCII-compatible) bytes: browsers read such a page as UTF-8.
        if let declaredInPage = name, declaredInPage.hasPrefix("UTF-16"), Self.byteOrderMark(bytes) == nil, declared == nil {
            name = nil
        }
        if let name, name != "UTF-8", HTMLTree.canDecode(name) {
            return Decision(encoding: name, bytes: body)
        }
        if name == "UTF-8" || isUTF8 {
            return Decision(encoding: "UTF-8", bytes: Self.repairedUTF8(body))
        }
        return Decision(encoding: "windows-1252", bytes: body)
    }

    /// The BOM's encoding and length, if the bytes start with one.
    static func byteOrderMark(_ bytes: [UInt8]) -> (encoding: String, length: Int)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return ("UTF-8", 3) }
        if bytes.starts(with: [0xFE, 0xFF]) { return ("UTF-16BE", 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return ("UTF-16LE", 2) }
        return nil
    }

    /// A charset name as libxml2 should get it. Names the web treats as windows-1252 (ISO-8859-1, ASCII) become it,
    /// as browsers do: pages labelled Latin-1 use its extra punctuation.
    static func normalized(_ label: String) -> String? {
        let name = label.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\"'"))).lowercased()
        guard !name.isEmpty, name.count <= 40 else { return nil }
        switch name {
        case "utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8":
            return "UTF-8"
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "us-ascii", "ascii", "cp1252", "windows-1252",
             "x-cp1252", "iso-ir-100", "ansi_x3.4-1968", "cp819", "ibm819", "csisolatin1":
            return "windows-1252"
        case "utf-16", "utf-16le", "unicode", "ucs-2":
            return "UTF-16LE"
        case "utf-16be":
            return "UTF-16BE"
        case "gb2312", "gbk", "x-gbk", "chinese", "csgb2312":
            return "GBK"
        case "shift_jis", "shift-jis", "sjis", "x-sjis", "ms_kanji", "windows-31j":
            return "SHIFT_JIS"
        default:
            return name
        }
    }

    /// The charset a `<meta>` in the first `prescanLength` bytes declares: `charset=` inside a `<meta …>` tag
    /// (both `<meta charset="…">` and `content="text/html; charset=…"`).
    static func metaCharset(in bytes: [UInt8]) -> String? {
        let head = bytes.prefix(prescanLength).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        var index = 0
        while let start = find(Array("<meta".utf8), in: head, from: index) {
            let end = head[start...].firstIndex(of: UInt8(ascii: ">")) ?? head.count
            if let charset = find(Array("charset".utf8), in: head, from: start), charset < end {
                var position = charset + 7
                while position < end, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "=")].contains(head[position]) { position += 1 }
                while position < end, [UInt8(ascii: "\""), UInt8(ascii: "'")].contains(head[position]) { position += 1 }
                var value: [UInt8] = []
                while position < end, Self.isLabelByte(head[position]) {
                    value.append(head[position])
                    position += 1
                }
                if !value.isEmpty { return String(decoding: value, as: UTF8.self) }
            }
            index = start + 5
        }
        return nil
    }

    private static func isLabelByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The bytes as valid UTF-8: unchanged when they are, else with each bad sequence replaced by U+FFFD.
    static func repairedUTF8(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.withUnsafeBytes(Text.isUTF8) { return bytes }
        return Array(String(decoding: bytes, as: UTF8.self).utf8)
    }
}
