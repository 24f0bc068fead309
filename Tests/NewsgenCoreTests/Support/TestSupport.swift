import Foundation
import Logging
@testable import NewsgenCore

/// Paths and helpers shared by the tests.
enum TestSupport {
    /// The repository root (this file is Tests/NewsgenCoreTests/Support/TestSupport.swift).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Tests/NewsgenCoreTests/Fixtures")
    /// feedparser's test feeds: the project's shared copy beside the repository when it is there,
    /// else the one `Scripts/install-deps` fetched from PyPI into `.feedparser-tests/`.
    static let corpus: URL = {
        let shared = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/feedparser-tests")
        return FileManager.default.fileExists(atPath: shared.path) ? shared : repository.appendingPathComponent(".feedparser-tests")
    }()

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// A fresh, empty folder that is removed when the test process ends (or left for inspection on failure).
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("newsgen-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every regular file below `folder`, by its path relative to it, with its bytes.
    static func fileBytes(below folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [] {
            let url = folder.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    /// A logger that records every message, so tests can check what a user would read.
    static func recordingLogger() -> (Logger, LogRecorder) {
        let recorder = LogRecorder()
        var logger = Logger(label: "test") { _ in RecordingHandler(recorder: recorder) }
        logger.logLevel = .debug
        return (logger, recorder)
    }

    static func parse(_ text: String, url: String = "test.xml") throws -> ParsedFeed {
        try FeedParser.parse(Data(text.utf8), url: url)
    }

    static func date(_ text: String) -> Date {
        guard let date = Dates.parse(text) else { fatalError("bad test date \(text)") }
        return date
    }
}

final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(Logger.Level, String)] = []

    func append(_ level: Logger.Level, _ message: String) {
        lock.withLock { entries.append((level, message)) }
    }

    var warnings: [String] { lock.withLock { entries.filter { $0.0 == .warning }.map(\.1) } }
    var all: [String] { lock.withLock { entries.map(\.1) } }
}

struct RecordingHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recorder.append(event.level, event.message.description)
    }
}
