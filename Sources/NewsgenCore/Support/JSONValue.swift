import Foundation

/// A JSON document as a plain value, so that configuration can be read strictly
/// (unknown keys rejected, every error naming its key path).
enum JSONValue: Sendable, Hashable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// Parses JSON bytes with the strict parser (`JSONDocument`), so that an error says where
    /// the syntax is broken (line and column) and what was expected. A key given twice in one
    /// object keeps its first value.
    static func parse(_ data: Data) throws(JSONSyntaxProblem) -> JSONValue {
        JSONValue(try JSONDocument.parse(data))
    }

    private init(_ node: JSONNode) {
        switch node.value {
        case .object(let members):
            self = .object(Dictionary(members.map { ($0.key, JSONValue($0.value)) }, uniquingKeysWith: { first, _ in first }))
        case .array(let elements): self = .array(elements.map(JSONValue.init))
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number)
        case .bool(let bool): self = .bool(bool)
        case .null: self = .null
        }
    }

    /// What a user would call this kind of value, for error messages.
    var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }
}

extension JSONValue {
    var string: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    var object: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// A string, or a number written without a fractional part when it has none.
    var scalarText: String? {
        switch self {
        case .string(let string): return string
        case .number(let number):
            if let integer = Int(exactly: number) { return String(integer) }
            return String(number)
        default: return nil
        }
    }
}
