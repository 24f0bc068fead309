import Foundation

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
            if let suggestion = Self.closest(to: key, in: allowedKeys) {
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

    /// The allowed key within edit distance 2 of `key`, or one it is the start of (`apiKey` → `apiKeyEnv`).
    static func closest(to key: String, in allowed: [String]) -> String? {
        if key.count >= 3, let extended = allowed.first(where: { $0.lowercased().hasPrefix(key.lowercased()) }) {
            return extended
        }
        let scored = allowed.map { ($0, editDistance(key.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
