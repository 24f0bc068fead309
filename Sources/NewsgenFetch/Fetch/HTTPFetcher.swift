package import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import Synchronization
public import NewsgenModel

/// An HTTP response with its body fully read.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Why an HTTP request produced no usable response: the transport half of `SourceError`.
public typealias HTTPFetchError = SourceError.TransportFailure

/// GET requests with the limits an unattended build needs: a total deadline per request (from
/// connect to the body's last byte, so a server that trickles one byte a second is cut off like
/// a silent one), at most two connections to one host, at most five redirects, a capped body
/// size, gzip and deflate, and newsgen's User-Agent.
///
/// It owns one AsyncHTTPClient client, made at its first request (a build whose sources are
/// all local files makes none, and starts no event loop threads), which `shutdown()` releases;
/// tests point it at servers on 127.0.0.1.
public struct HTTPFetcher: Sendable {
    /// The deadline of a request that names none (`timeoutSeconds` in site.json, 30 s by default).
    public var timeout: Duration
    public var maximumBytes: Int
    private let client: Client

    /// A fetcher with a client of its own, made when first needed; call `shutdown()` when done with it.
    ///
    /// Requests that carry a secret (NewsAPI's X-Api-Key) need `followRedirects: false`:
    /// AsyncHTTPClient sends custom headers along to wherever a redirect points.
    public init(followRedirects: Bool = true, timeout: Duration = .seconds(30), maximumBytes: Int = 10 * 1_048_576) {
        client = Client(owned: { Self.makeClient(maximumBytes: maximumBytes, followRedirects: followRedirects) })
        self.timeout = timeout
        self.maximumBytes = maximumBytes
    }

    /// Releases the client's connections and threads, if it was made.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Whether the fetcher's own client was made (by a request).
    package var madeClient: Bool { client.isMade }

    /// The AsyncHTTPClient client: one given, or one of the fetcher's own, made at the first
    /// request and shut down by `shutdown()` (a client never made has nothing to release).
    private final class Client: Sendable {
        private enum State {
            case toMake(@Sendable () -> HTTPClient)
            case made(HTTPClient)
            case given(HTTPClient)
        }

        private let state: Mutex<State>

        init(owned make: @escaping @Sendable () -> HTTPClient) {
            state = Mutex(.toMake(make))
        }

        init(given client: HTTPClient) {
            state = Mutex(.given(client))
        }

        var client: HTTPClient {
            state.withLock { state in
                switch state {
                case .toMake(let make):
                    let client = make()
                    state = .made(client)
                    return client
                case .made(let client), .given(let client):
                    return client
                }
            }
        }

        var isMade: Bool {
            if case .made = state.withLock({ $0 }) { true } else { false }
        }

        func shutdown() async throws {
            if case .made(let client) = state.withLock({ $0 }) { try await client.shutdown() }
        }
    }

    static func makeClient(maximumBytes: Int = 10 * 1_048_576, followRedirects: Bool = true) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: followRedirects ? .follow(max: 5, allowCycles: false) : .disallow,
            // No read timeout: `get` puts one deadline over the whole request, body included
            // (AsyncHTTPClient's own deadline ends when the head arrives).
            timeout: .init(connect: .seconds(10), read: nil),
            decompression: .enabled(limit: .size(maximumBytes))
        )
        configuration.httpVersion = .automatic
        // AsyncHTTPClient would otherwise retry a failed connect on its own until the connect
        // timeout: RetryPolicy is the one place that retries.
        configuration.connectionPool.retryConnectionEstablishment = false
        // Requests beyond these wait in the pool (their deadline running): one slow host holds
        // two connections, never the whole fetch stage's.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = maximumConnectionsPerHost
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The most connections the client opens to one host (the fetch stage also starts at most
    /// this many sources of one host at a time).
    package static let maximumConnectionsPerHost = 2

    /// A fetcher over `client`, which the caller owns (tests share `HTTPClient.shared`).
    package init(client: HTTPClient, timeout: Duration = .seconds(30), maximumBytes: Int = 10 * 1_048_576) {
        self.client = Client(given: client)
        self.timeout = timeout
        self.maximumBytes = maximumBytes
    }

    /// Sends a GET and reads the whole body; any status is a response, only transport problems throw.
    /// The whole exchange, from connect to the body's last byte, ends at `timeout` (the fetcher's
    /// own when `nil`) with `.timedOut`.
    public func get(_ url: URL, headers extra: [(String, String)] = [], timeout: Duration? = nil) async throws(HTTPFetchError) -> HTTPResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: NewsgenVersion.userAgent)
        request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        for (name, value) in extra {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        let limit = timeout ?? self.timeout
        let seconds = limit.seconds
        let (client, maximumBytes, prepared) = (self.client.client, maximumBytes, request)
        do {
            return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
                group.addTask {
                    let response = try await client.execute(prepared, deadline: .now() + .nanoseconds(limit.nanoseconds))
                    let body = try await response.body.collect(upTo: maximumBytes)
                    return HTTPResponse(
                        status: Int(response.status.code),
                        headers: response.headers.map { ($0.name, $0.value) },
                        body: Data(body.readableBytesView)
                    )
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return nil
                }
                // The first to finish wins; cancelling the request closes its connection.
                defer { group.cancelAll() }
                guard case let response?? = try await group.next() else { throw DeadlinePassed() }
                return response
            }
        } catch {
            throw Self.classify(error, seconds: seconds, limit: maximumBytes)
        }
    }

    /// The total deadline passed before the body's last byte.
    private struct DeadlinePassed: Error {}

    /// What went wrong, by the error's type. The decompressor's limit is the body's size limit
    /// (`makeClient` sets both), so a gzip bomb is "too large", like a plain body over the limit.
    private static func classify(_ error: any Error, seconds: Double, limit: Int) -> HTTPFetchError {
        switch error {
        case is DeadlinePassed:
            .timedOut(seconds: seconds)
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: .timedOut(seconds: seconds)
            case .redirectLimitReached, .redirectCycleDetected: .tooManyRedirects
            default: .connection(String(describing: error))
            }
        case is NIOTooManyBytesError:
            .tooLarge(limit: limit)
        case let error as NIOHTTPDecompression.DecompressionError:
            error == .limit ? .tooLarge(limit: limit) : .badEncoding
        case is NIOHTTPDecompression.ExtraDecompressionError:
            .badEncoding
        case let error as IOError:
            .connection(String(cString: strerror(error.errnoCode)).lowercased())
        default:
            .connection(String(describing: error))
        }
    }
}

extension Duration {
    /// The duration in seconds, fractions kept.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds (for NIO's deadlines).
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
