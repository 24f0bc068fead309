import Foundation

/// JSON that keeps the order of object keys, so that a file newsgen edits for the user
/// (saved.json) keeps its unknown fields where they were and reads the same after each edit.
indirect enum OrderedJSON: Sendable, Hashable {
    case object([(key: String, value: OrderedJSON)])
    case array([OrderedJSON])
    case string(String)
    /// A number as written, so that it is written back unchanged.
    case number(String)
    case bool(Bool)
    case null

    static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
        switch (lhs, rhs) {
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(a), .array(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.bool(a), .bool(b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(String(describing: self))
    }

    subscript(key: String) -> OrderedJSON? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// Sets (or appends) a key of an object.
    mutating func set(_ key: String, _ value: OrderedJSON?) {
        guard case .object(var pairs) = self else { return }
        if let index = pairs.firstIndex(where: { $0.key == key }) {
            if let value { pairs[index].value = value } else { pairs.remove(at: index) }
        } else if let value {
            pairs.append((key, value))
        }
        self = .object(pairs)
    }

    var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    // MARK: - Reading

    struct SyntaxError: Error, CustomStringConvertible {
        var offset: Int
        var message: String
        var description: String { "\(message) at byte \(offset)" }
    }

    static func parse(_ data: Data) throws -> OrderedJSON {
        var parser = Parser(bytes: Array(data))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw SyntaxError(offset: parser.index, message: "unexpected text after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        func fail(_ message: String) -> SyntaxError { SyntaxError(offset: index, message: message) }

        mutating func value(depth: Int) throws -> OrderedJSON {
            guard depth < 128 else { throw fail("nesting too deep") }
            guard index < bytes.count else { throw fail("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var pairs: [(String, OrderedJSON)] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object([]) }
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                    let key = try string()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected :") }
                    index += 1
                    skipWhitespace()
                    pairs.append((key, try value(depth: depth + 1)))
                    skipWhitespace()
                    guard index < bytes.count else { throw fail("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
                    throw fail("expected , or }")
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [OrderedJSON] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array([]) }
                while true {
                    skipWhitespace()
                    items.append(try value(depth: depth + 1))
                    skipWhitespace()
                    guard index < bytes.count else { throw fail("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                    throw fail("expected , or ]")
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default:
                let start = index
                while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                guard !text.isEmpty, Double(text) != nil else { index = start; throw fail("unexpected character") }
                return .number(text)
            }
        }

        mutating func literal(_ word: String) throws {
            let utf8 = Array(word.utf8)
            guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else { throw fail("unexpected character") }
            index += utf8.count
        }

        /// A string token, decoded through JSONDecoder (escapes and surrogate pairs done right).
        mutating func string() throws -> String {
            let start = index
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard index < bytes.count else { throw fail("unterminated string") }
            index += 1
            do {
                return try JSONDecoder().decode(String.self, from: Data(bytes[start..<index]))
            } catch {
                throw SyntaxError(offset: start, message: "malformed string")
            }
        }
    }

    // MARK: - Writing

    /// Two-space indentation, keys in their order, a newline at the end: the same value always
    /// gives the same bytes.
    func formatted() -> String {
        var output = ""
        write(to: &output, indent: 0)
        return output + "\n"
    }

    private func write(to output: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch self {
        case .object(let pairs):
            guard !pairs.isEmpty else { output += "{}"; return }
            output += "{\n"
            for (index, pair) in pairs.enumerated() {
                output += pad + Self.quoted(pair.key) + ": "
                pair.value.write(to: &output, indent: indent + 1)
                output += index < pairs.count - 1 ? ",\n" : "\n"
            }
            output += closing + "}"
        case .array(let items):
            guard !items.isEmpty else { output += "[]"; return }
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += pad
                item.write(to: &output, indent: indent + 1)
                output += index < items.count - 1 ? ",\n" : "\n"
            }
            output += closing + "]"
        case .string(let string): output += Self.quoted(string)
        case .number(let number): output += number
        case .bool(let bool): output += bool ? "true" : "false"
        case .null: output += "null"
        }
    }

    static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
