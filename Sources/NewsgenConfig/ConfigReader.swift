import Foundation
import NewsgenModel
import NewsgenXML

/// Reads one JSON object of a configuration file strictly: every key must be known,
/// every value of the expected kind, and every error names its key path.
struct ConfigReader {
    let file: String
    let path: String
    private let object: JSONNode

    /// Wraps `value`, which must be an object. A key given twice counts with its first value.
    init(_ value: JSONNode, file: String, path: String, allowedKeys: [String]) throws(ConfigError) {
        guard let members = value.members else {
            throw ConfigError(file: file, keyPath: path, message: "expected an object, found \(value.kindName)")
        }
        self.file = file
        self.path = path
        self.object = value
        for key in Set(members.map(\.key)).sorted() where !allowedKeys.contains(key) {
            var message = "unknown key"
            if let suggestion = Suggestion.closest(to: key, in: allowedKeys) {
                message += "; did you mean \(suggestion)?"
            }
            message += " (allowed: \(allowedKeys.joined(separator: ", ")))"
            throw ConfigError(file: file, keyPath: child(key), message: message)
        }
    }

    /// Parses a configuration file's bytes. An error names the line and column and what was
    /// expected there (`site.json:3:17: expected ',' or '}' after an object member, found '"'`).
    static func parse(_ data: Data, file: String) throws(ConfigError) -> JSONNode {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw ConfigError(file: file, keyPath: "", message: "is empty; expected a JSON object")
        }
        do {
            return try JSONDocument.parse(data)
        } catch {
            throw syntaxError(error, file: file)
        }
    }

    /// A JSON syntax problem as a configuration error, with its line and column.
    static func syntaxError(_ problem: JSONSyntaxProblem, file: String) -> ConfigError {
        ConfigError(file: file, keyPath: "", position: (problem.line, problem.column), message: problem.message)
    }

    func contains(_ key: String) -> Bool { value(key) != nil }

    /// The key's value; `null` counts as absent.
    func value(_ key: String) -> JSONNode? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func error(_ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, keyPath: key.isEmpty ? path : child(key), message: message)
    }

    func string(_ key: String) throws(ConfigError) -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value.string else {
            throw error(key, "expected a string, found \(value.kindName)")
        }
        return string
    }

    func nonEmptyString(_ key: String) throws(ConfigError) -> String? {
        guard let string = try string(key) else { return nil }
        guard !string.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw error(key, "expected a non-empty string")
        }
        return string
    }

    func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let bool) = value.value else {
            throw error(key, "expected true or false, found \(value.kindName)")
        }
        return bool
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value.value, number.rounded() == number,
              let integer = Int(exactly: number), range.contains(integer) else {
            throw error(key, "expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(Self.describe(value))")
        }
        return integer
    }

    private static func describe(_ value: JSONNode) -> String {
        if case .number(let number) = value.value { return value.numberText ?? String(number) }
        return value.kindName
    }
}
