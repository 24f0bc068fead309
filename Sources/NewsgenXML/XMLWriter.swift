import NewsgenModel
/// Writes XML one node at a time as UTF-8, escaping every text node and attribute and dropping characters XML
/// forbids. Markup is never built by string interpolation anywhere else.
package struct XMLWriter {
    private var output: [UInt8] = []
    private var stack: [String] = []

    /// The XML declaration every document begins with, and its line break.
    package static let declaration = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"

    package init() {
        append(Self.declaration)
    }

    /// Opens an element; attributes with `nil` values are left out.
    package mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:]) {
        startTag(name, attributes)
        append(">\n")
        stack.append(name)
    }

    /// Closes the innermost open element.
    package mutating func close() {
        guard let name = stack.popLast() else { return }
        indent()
        append("</")
        append(name)
        append(">\n")
    }

    /// An element holding text; nothing is written when `text` is `nil`.
    package mutating func element(_ name: String, _ text: String?, _ attributes: KeyValuePairs<String, String?> = [:]) {
        guard let text else { return }
        element(name, attributes) { $0.appendEscaped(text, quotes: false) }
    }

    /// An element holding `prefix` then `text`, written without joining them first.
    package mutating func element(_ name: String, _ prefix: String, _ text: String) {
        element(name, [:]) { writer in
            writer.appendEscaped(prefix, quotes: false)
            writer.appendEscaped(text, quotes: false)
        }
    }

    /// An element on one line, its text written by `writeText`.
    private mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String?>, writeText: (inout XMLWriter) -> Void) {
        startTag(name, attributes)
        append(">")
        writeText(&self)
        append("</")
        append(name)
        append(">\n")
    }

    /// An element with attributes only.
    package mutating func empty(_ name: String, _ attributes: KeyValuePairs<String, String?>) {
        startTag(name, attributes)
        append("/>\n")
    }

    /// The finished document (closing anything still open).
    package mutating func finish() -> String {
        String(decoding: finishBytes(), as: UTF8.self)
    }

    /// The finished document as its UTF-8 bytes, for a file.
    package mutating func finishBytes() -> [UInt8] {
        while !stack.isEmpty { close() }
        return output
    }

    private mutating func startTag(_ name: String, _ attributes: KeyValuePairs<String, String?>) {
        indent()
        append("<")
        append(name)
        for (attribute, value) in attributes {
            guard let value else { continue }
            append(" ")
            append(attribute)
            append("=\"")
            appendEscaped(value, quotes: true)
            append("\"")
        }
    }

    private mutating func indent() {
        for _ in stack.indices { append("  ") }
    }

    private mutating func append(_ markup: StaticString) {
        markup.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    private mutating func append(_ name: String) {
        var name = name
        name.withUTF8 { output.append(contentsOf: $0) }
    }

    private mutating func appendEscaped(_ text: String, quotes: Bool) {
        var text = text
        text.withUTF8 { Self.appendEscaped($0, quotes: quotes, to: &output) }
    }

    package static func escape(_ text: String, quotes: Bool) -> String {
        // A text with nothing to change is returned without a copy.
        var text = text
        let escaped = text.withUTF8 { bytes -> [UInt8]? in
            guard mayNeedEscaping(bytes) else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 16)
            appendEscaping(bytes, quotes: quotes, to: &output)
            return output
        }
        guard let escaped else { return text }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Bytes below 0x40 escaping may change or drop (controls, `"`, `&`, `<`, `>`), as a mask.
    private static let markupBytes: UInt64 = 0xFFFF_FFFF | 1 << 0x22 | 1 << 0x26 | 1 << 0x3C | 1 << 0x3E

    /// Whether `bytes` hold a byte escaping may change: one of `markupBytes`, or 0xEF (U+FFFE, U+FFFF start with it).
    private static func mayNeedEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte == 0xEF || (byte < 0x40 && markupBytes >> byte & 1 == 1) { return true }
        return false
    }

    /// Appends `bytes` to `output`, escaped.
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, quotes: Bool, to output: inout [UInt8]) {
        if mayNeedEscaping(bytes) {
            appendEscaping(bytes, quotes: quotes, to: &output)
        } else {
            output.append(contentsOf: bytes)
        }
    }

    /// Appends `bytes` to `output` with each byte escaping changes changed.
    private static func appendEscaping(_ bytes: UnsafeBufferPointer<UInt8>, quotes: Bool, to output: inout [UInt8]) {
        var copied = 0
        var index = 0
        while index < bytes.count {
            let replacement: StaticString
            var length = 1
            switch bytes[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\"") where quotes: replacement = "&quot;"
            case 0x0A where quotes: replacement = "&#10;"
            case 0x0D: replacement = "&#13;"
            case 0x09, 0x0A:
                index += 1
                continue
            case 0x00..<0x20:
                replacement = ""  // not allowed in XML 1.0: dropped
            case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                replacement = ""  // U+FFFE and U+FFFF: not allowed in XML 1.0
                length = 3
            default:
                index += 1
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
            replacement.withUTF8Buffer { output.append(contentsOf: $0) }
            index += length
            copied = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
    }
}
