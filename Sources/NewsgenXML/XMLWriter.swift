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
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "\n" where quotes: result += "&#10;"
            case "\r": result += "&#13;"
            default:
                if Text.isAllowedInXML(scalar) { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }
}
