import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization

/// Runs a real HTTP server on `host` (any 127.x.y.z address: Linux routes all of 127/8 to the
/// loopback interface, so each address is a "host" of its own) for the length of `body`.
/// (HummingbirdTesting's live mode always binds localhost, hence a runner of its own.)
package func withTestServer<T: Sendable>(
    host: String,
    _ configure: (Router<BasicRequestContext>) -> Void,
    _ body: @Sendable (URL) async throws -> T
) async throws -> T {
    let router = Router()
    configure(router)
    let (ports, portSink) = AsyncStream<Int>.makeStream()
    var logger = Logger(label: "test-server-\(host)")
    logger.logLevel = .warning
    let app = Application(
        router: router, configuration: .init(address: .hostname(host, port: 0)),
        onServerRunning: { channel in
            portSink.yield(channel.localAddress?.port ?? 0)
            portSink.finish()
        },
        logger: logger
    )
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.run() }
        defer { group.cancelAll() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0, let url = URL(string: "http://\(host):\(port)") else {
            throw TestServerError.noPort
        }
        return try await body(url)
    }
}

/// A server that accepts connections (the kernel completes the handshake) and never sends a
/// byte: the listening socket is never `accept`ed from. Closed when `body` returns.
package func withSilentServer<T>(host: String = "127.0.0.1", _ body: (URL) async throws -> T) async throws -> T {
    let (socket, port) = try TestSupport.boundSocket(host: host, listen: 64)
    defer { close(socket) }
    guard let url = URL(string: "http://\(host):\(port)") else { throw TestSupportError("no URL for \(host):\(port)") }
    return try await body(url)
}

extension Response {
    /// A 200 whose body is `count` bytes sent one at a time, `interval` apart: a server that
    /// trickles. The head goes out at once.
    package static func trickle(_ count: Int, every interval: Duration, contentType: String = "application/rss+xml") -> Response {
        Response(status: .ok, headers: [.contentType: contentType], body: ResponseBody { writer in
            for _ in 0..<count {
                try await writer.write(ByteBuffer(string: " "))
                try await Task.sleep(for: interval)
            }
            try await writer.finish(nil)
        })
    }
}

/// Counts requests in flight at a server, and the most there ever were, in all and per host.
package final class InFlightGauge: @unchecked Sendable {
    package init() {}

    private let lock = NSLock()
    private var current: [String: Int] = [:]
    private var peak: [String: Int] = [:]
    private var total = 0
    private var totalPeak = 0

    /// Runs `body` counted as one request to `host`.
    package func measure<T>(_ host: String, _ body: () async throws -> T) async rethrows -> T {
        lock.withLock {
            current[host, default: 0] += 1
            peak[host] = max(peak[host, default: 0], current[host, default: 0])
            total += 1
            totalPeak = max(totalPeak, total)
        }
        defer {
            lock.withLock {
                current[host, default: 1] -= 1
                total -= 1
            }
        }
        return try await body()
    }

    /// The most requests to one host at once.
    package var peakPerHost: Int { lock.withLock { peak.values.max() ?? 0 } }
    /// The most requests at once, all hosts together.
    package var peakOverall: Int { lock.withLock { totalPeak } }
}

/// One server per host in `hosts`, each set up by `configure` (told its host), for the length
/// of `body`, which gets their base URLs in the same order.
package func withTestServers<T: Sendable>(
    hosts: [String],
    _ configure: @escaping @Sendable (Router<BasicRequestContext>, String) -> Void,
    _ body: @escaping @Sendable ([URL]) async throws -> T
) async throws -> T {
    guard let host = hosts.first else { return try await body([]) }
    return try await withTestServer(host: host, { configure($0, host) }) { url in
        try await withTestServers(hosts: Array(hosts.dropFirst()), configure) { rest in
            try await body([url] + rest)
        }
    }
}

/// An event a test or a test server waits on: `wait()` returns once `open()` was called, at once if it already was.
package final class Gate: Sendable {
    private let state = Mutex((isOpen: false, waiters: [CheckedContinuation<Void, Never>]()))

    package init() {}

    package func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    package func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}
