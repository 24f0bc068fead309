import NewsgenModel
/// Writes XML one node at a time, escaping every text node and attribute and dropping the
/// characters XML forbids. Markup is never built by string interpolation anywhere else.
package struct XMLWriter {
    private(set) var output: String
    private var stack: [String] = []
    private var depth: Int { stack.count }

    package init() {
        output = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    }

    /// Opens an element; attributes with `nil` values are left out.
    package mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:]) {
        indent()
        output += "<" + name
        appendAttributes(attributes)
        output += ">\n"
        stack.append(name)
    }

    /// Closes the innermost open element.
    package mutating func close() {
        guard let name = stack.popLast() else { return }
        indent()
        output += "</" + name + ">\n"
    }

    /// An element holding text; nothing is written when `text` is `nil`.
    package mutating func element(_ name: String, _ text: String?, _ attributes: KeyValuePairs<String, String?> = [:]) {
        guard let text else { return }
        indent()
        output += "<" + name
        appendAttributes(attributes)
        output += ">" + Self.escape(text, quotes: false) + "</" + name + ">\n"
    }

    /// An element with attributes only.
    package mutating func empty(_ name: String, _ attributes: KeyValuePairs<String, String?>) {
        indent()
        output += "<" + name
        appendAttributes(attributes)
        output += "/>\n"
    }

    /// The finished document (closing anything still open).
    package mutating func finish() -> String {
        while !stack.isEmpty { close() }
        return output
    }

    private mutating func indent() {
        output += String(repeating: "  ", count: depth)
    }

    private mutating func appendAttributes(_ attributes: KeyValuePairs<String, String?>) {
        for (name, value) in attributes {
            guard let value else { continue }
            output += " " + name + "=\"" + Self.escape(value, quotes: true) + "\""
        }
    }

    package static func escape(_ text: String, quotes: Bool) -> String {
        // On UTF-8 bytes: feeds and pages escape every title and summary, and most need nothing
        // done, so a text without a byte to change is returned as it is, without a copy.
        var text = text
        let escaped = text.withUTF8 { bytes -> [UInt8]? in
            var output: [UInt8] = []
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
                if output.isEmpty { output.reserveCapacity(bytes.count + 16) }
                output.append(contentsOf: bytes[copied..<index])
                replacement.withUTF8Buffer { output.append(contentsOf: $0) }
                index += length
                copied = index
            }
            guard copied > 0 else { return nil }
            output.append(contentsOf: bytes[copied...])
            return output
        }
        guard let escaped else { return text }
        return String(decoding: escaped, as: UTF8.self)
    }
}
