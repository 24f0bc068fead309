import Foundation

/// A JSON document as a plain value, so that configuration can be read strictly
/// (unknown keys rejected, every error naming its key path).
enum JSONValue: Sendable, Hashable, Decodable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses JSON bytes; the error explains where the syntax is broken.
    static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            throw JSONSyntaxError(detail: detail ?? context.debugDescription)
        } catch {
            throw JSONSyntaxError(detail: String(describing: error))
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

struct JSONSyntaxError: Error, Sendable {
    var detail: String
}
