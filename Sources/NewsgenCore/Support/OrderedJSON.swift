import Foundation

/// JSON that keeps the order of object keys and numbers as written, so that a file newsgen
/// edits for the user (saved.json) keeps its keys and entries where they were and reads the
/// same after each edit.
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

    /// Parses strictly (`JSONDocument`), keeping the order of keys and each number as written.
    static func parse(_ data: Data) throws(JSONSyntaxProblem) -> OrderedJSON {
        let root = try JSONDocument.parse(data)
        let bytes = [UInt8](data)
        func convert(_ node: JSONNode) -> OrderedJSON {
            switch node.value {
            case .object(let members): .object(members.map { ($0.key, convert($0.value)) })
            case .array(let elements): .array(elements.map(convert))
            case .string(let text): .string(text)
            case .number: .number(numberText(in: bytes, at: node.offset))
            case .bool(let value): .bool(value)
            case .null: .null
            }
        }
        return convert(root)
    }

    /// The text of the (already validated) number that starts at `offset`.
    private static func numberText(in bytes: [UInt8], at offset: Int) -> String {
        var end = offset
        while end < bytes.count, "+-0123456789.eE".utf8.contains(bytes[end]) { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
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
