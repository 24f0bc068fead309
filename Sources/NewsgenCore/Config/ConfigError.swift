/// A problem in a configuration or data file, naming the file and the key path.
///
/// Reads as one line: `site.json: sources[3].feed: expected a URL or a path`.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// The key path inside the file (`sources[3].feed`), empty for the whole file.
    public var keyPath: String
    public var message: String

    public init(file: String, keyPath: String, message: String) {
        self.file = file
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        keyPath.isEmpty ? "\(file): \(message)" : "\(file): \(keyPath): \(message)"
    }
}
