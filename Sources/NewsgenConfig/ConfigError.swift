/// A problem in a configuration or data file, naming the file and the key path.
///
/// Reads as one line: `site.json: sources[3].feed: expected a URL or a path`.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// The key path inside the file (`sources[3].feed`), empty for the whole file.
    public var keyPath: String
    /// Where in the file, for a syntax error: line and column, from 1.
    public var position: (line: Int, column: Int)?
    public var message: String

    public init(file: String, keyPath: String, position: (line: Int, column: Int)? = nil, message: String) {
        self.file = file
        self.keyPath = keyPath
        self.position = position
        self.message = message
    }

    /// `site.json: sources[3].fead: unknown key; …`, or `site.json:3:17: expected …` for a syntax
    /// error (as a compiler prints it, so that editors can jump to it).
    public var description: String {
        let location = position.map { "\(file):\($0.line):\($0.column)" } ?? file
        return keyPath.isEmpty ? "\(location): \(message)" : "\(location): \(keyPath): \(message)"
    }

    public static func == (lhs: ConfigError, rhs: ConfigError) -> Bool {
        (lhs.file, lhs.keyPath, lhs.message, lhs.position?.line, lhs.position?.column)
            == (rhs.file, rhs.keyPath, rhs.message, rhs.position?.line, rhs.position?.column)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(keyPath)
        hasher.combine(message)
        hasher.combine(position?.line)
        hasher.combine(position?.column)
    }
}
