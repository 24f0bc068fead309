import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Synchronization
import NewsgenModel

/// Paths and helpers shared by the tests.
package enum TestSupport {
    /// The repository root (this file is Tests/NewsgenTestSupport/TestSupport.swift).
    package static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    package static let fixtures = repository.appendingPathComponent("Tests/NewsgenTestSupport/Fixtures")
    /// feedparser's test feeds: the project's shared copy beside the repository when it is there,
    /// else the one `Scripts/install-deps` fetched from PyPI into `.feedparser-tests/`.
    package static let corpus: URL = {
        let shared = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/feedparser-tests")
        return FileManager.default.fileExists(atPath: shared.path) ? shared : repository.appendingPathComponent(".feedparser-tests")
    }()

    package static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// A fresh, empty folder that is removed when the test process ends (or left for inspection on failure).
    package static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("newsgen-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every regular file below `folder`, by its path relative to it, with its bytes.
    package static func fileBytes(below folder: URL) throws -> [String: Data] {
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

    /// A port on 127.0.0.1 for a server the test starts in another process (`newsgen serve`),
    /// free now. A port the kernel picked and that was closed again could be picked again, for
    /// another test's server on port 0 or for the local end of any connection, before the
    /// server bound it: then the server could not listen, or the test spoke to another's. This
    /// one is below the kernel's ephemeral range, which it never picks from, and no two calls
    /// in a test process give the same port.
    package static func serverPort() throws -> Int {
        let (socket, port) = try serverSocket()
        close(socket)
        return port
    }

    /// A socket bound to a port `serverPort` could give, listening with `backlog` when one is
    /// given: the port stays this caller's until it closes the socket.
    package static func serverSocket(listen backlog: Int32? = nil) throws -> (socket: Int32, port: Int) {
        let ephemeral = ephemeralPortsStart()
        let first = firstServerPort
        guard ephemeral > first else { throw TestSupportError("no ports below the ephemeral range (it starts at \(ephemeral))") }
        for _ in first..<ephemeral {
            let port = nextServerPort.withLock { next in
                if next >= ephemeral { next = first }
                defer { next += 1 }
                return next
            }
            if let bound = try? boundSocket(port: port, listen: backlog) { return bound }
        }
        throw TestSupportError("every port from \(first) to \(ephemeral - 1) on 127.0.0.1 is taken")
    }

    /// The lowest port `serverPort` gives, above those of well-known services.
    private static let firstServerPort = 10_000

    /// The next port `serverPort` tries: from a place of its own in each test process, so that
    /// two processes at once seldom try the same ones.
    private static let nextServerPort = Mutex(firstServerPort + Int(getpid() % 200) * 100)

    /// The first port of the kernel's ephemeral range (`ip_local_port_range`), 32768 when unknown.
    private static func ephemeralPortsStart() -> Int {
        let range = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        return range?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
    }

    /// A port on 127.0.0.1 that refuses connections for as long as the returned socket stays
    /// open: bound, so the kernel gives the port to no one else (another test's server once took
    /// a port bound and closed again, between two attempts, and answered them), but not listening.
    /// The caller closes the socket.
    package static func refusingPort() throws -> (socket: Int32, port: Int) {
        try boundSocket()
    }

    /// A TCP socket bound to `host` (any 127.x.y.z) on `port`, or on one the kernel picks (0),
    /// listening with `backlog` when one is given. The caller closes it.
    package static func boundSocket(host: String = "127.0.0.1", port: Int = 0, listen backlog: Int32? = nil) throws -> (socket: Int32, port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestSupportError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
                    && backlog.map { listen(socket, $0) == 0 } ?? true
            }
        }
        guard bound else {
            let error = errno
            close(socket)
            throw TestSupportError("could not bind\(backlog == nil ? "" : " and listen on") a port on \(host): errno \(error)")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Runs CPU-bound work on a thread of its own. Swift's cooperative pool has one thread per
    /// core (two on the CI machine): a test that keeps one busy for seconds (the feedparser
    /// corpus) holds back every other test's tasks meanwhile, such as those racing a deadline
    /// against a loopback server. Assert on the result afterwards, in the test's own task.
    package static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    /// A logger that records every message, so tests can check what a user would read.
    package static func recordingLogger() -> (Logger, LogRecorder) {
        let recorder = LogRecorder()
        var logger = Logger(label: "test") { _ in RecordingHandler(recorder: recorder) }
        logger.logLevel = .debug
        return (logger, recorder)
    }

    package static func date(_ text: String) -> Date {
        guard let date = Dates.parse(text) else { fatalError("bad test date \(text)") }
        return date
    }
}

/// A helper could not set up what a test needs.
package struct TestSupportError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

package final class LogRecorder: @unchecked Sendable {
    package init() {}

    private let lock = NSLock()
    private var entries: [(Logger.Level, String)] = []

    package func append(_ level: Logger.Level, _ message: String) {
        lock.withLock { entries.append((level, message)) }
    }

    package var warnings: [String] { lock.withLock { entries.filter { $0.0 == .warning }.map(\.1) } }
    package var all: [String] { lock.withLock { entries.map(\.1) } }
}

package struct RecordingHandler: LogHandler {
    package let recorder: LogRecorder
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .debug

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        recorder.append(event.level, event.message.description)
    }
}
