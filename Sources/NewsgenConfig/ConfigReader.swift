import Foundation
import NewsgenModel
import NewsgenXML

/// A configuration file as messages name it (the path as the user gave it, or absolute) with its bytes, from
/// which an error takes the line and column of the key or value it is about.
struct ConfigDocument: Sendable {
    let file: String
    let data: Data

    /// A problem at byte `offset` of the file (an offset the parser recorded); the whole file's with `nil`.
    func error(_ keyPath: String, at offset: Int?, _ message: String) -> ConfigError {
        ConfigError(file: file, keyPath: keyPath, position: offset.map { JSONDocument.position(of: $0, in: data) }, message: message)
    }

    /// Parses the file's bytes. An error names the line and column and what was expected there
    /// (`site.json:3:17: expected ',' or '}' after an object member, found '"'`).
    func parse() throws(ConfigError) -> JSONNode {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw ConfigError(file: file, keyPath: "", message: "is empty; expected a JSON object")
        }
        do {
            return try JSONDocument.parse(data)
        } catch {
            throw ConfigError(file: file, keyPath: "", position: (error.line, error.column), message: error.message)
        }
    }
}

/// Reads one JSON object of a configuration file strictly: every key must be known, every value of the expected
/// kind, and every error names its key path and the line and column of its key in the file (of the object, for a
/// key that is missing).
struct ConfigReader {
    let document: ConfigDocument
    let path: String
    private let object: JSONNode

    var file: String { document.file }

    /// Wraps `value`, which must be an object. A key given twice counts with its first value.
    init(_ value: JSONNode, document: ConfigDocument, path: String, allowedKeys: [String]) throws(ConfigError) {
        guard let members = value.members else {
            throw document.error(path, at: value.offset, "expected an object, found \(value.kindName)")
        }
        self.document = document
        self.path = path
        self.object = value
        // The first unknown key in the file's order.
        for member in members where !allowedKeys.contains(member.key) {
            var message = "unknown key"
            if let suggestion = Suggestion.closest(to: member.key, in: allowedKeys) {
                message += "; did you mean \(suggestion)?"
            }
            message += " (allowed: \(allowedKeys.joined(separator: ", ")))"
            throw document.error(child(member.key), at: member.keyOffset, message)
        }
    }

    func contains(_ key: String) -> Bool { value(key) != nil }

    /// The key's value; `null` counts as absent.
    func value(_ key: String) -> JSONNode? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The line and column of each key's name (the first, for a key given twice).
    var keyPositions: [String: (line: Int, column: Int)] {
        var positions: [String: (line: Int, column: Int)] = [:]
        for member in object.members ?? [] where positions[member.key] == nil {
            positions[member.key] = JSONDocument.position(of: member.keyOffset, in: document.data)
        }
        return positions
    }

    /// A problem with `key` at its name in the file; with the object's position when the key is missing or `key` is
    /// empty (the object itself).
    func error(_ key: String, _ message: String) -> ConfigError {
        let offset = key.isEmpty ? object.offset : object.members?.first(where: { $0.key == key })?.keyOffset ?? object.offset
        return document.error(key.isEmpty ? path : child(key), at: offset, message)
    }

    /// A problem with `node`, a value inside this object (an element of one of its arrays), at its position.
    func error(_ keyPath: String, at node: JSONNode, _ message: String) -> ConfigError {
        document.error(child(keyPath), at: node.offset, message)
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
