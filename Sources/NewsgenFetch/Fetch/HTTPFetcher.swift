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
    /// The address the response came from, after redirects; `nil` when not known.
    public var url: URL? = nil

    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Why an HTTP request produced no usable response: the transport half of `SourceError`.
public typealias HTTPFetchError = SourceError.TransportFailure

/// GET with the limits an unattended build needs: one deadline per request from connect to the body's last byte
/// (a trickling server is cut off like a silent one), at most two connections per host, five redirects, a capped
/// body, gzip and deflate, and newsgen's User-Agent. Its AsyncHTTPClient client is made at the first request
/// (all-local builds start no event loop threads) and released by `shutdown()`.
public struct HTTPFetcher: Sendable {
    /// The deadline of a request that names none (`timeoutSeconds` in site.json, 30 s by default).
    public var timeout: Duration
    public var maximumBytes: Int
    private let client: Client

    /// A fetcher with its own client, made when first needed; call `shutdown()` when done. Requests carrying a
    /// secret (NewsAPI's X-Api-Key) need `followRedirects: false`: AsyncHTTPClient forwards custom headers on redirect.
    public init(followRedirects: Bool = true, timeout: Duration = .seconds(30), maximumBytes: Int = 10 * 1_048_576) {
        client = Client(owned: { Self.makeClient(maximumBytes: maximumBytes, followRedirects: followRedirects) })
        self.timeout = timeout
        self.maximumBytes = maximumBytes
    }

    /// Releases the client's connections and threads, if it was made.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    package var madeClient: Bool { client.isMade }

    /// The AsyncHTTPClient client: given, or the fetcher's own, made at the first request and shut down by `shutdown()`.
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

    /// The client of a fetcher. `connecting` bounds making a connection and waiting for one in the pool: a request whose
    /// deadline passes meanwhile ends only then, since AsyncHTTPClient does not give up a connection under way.
    package static func makeClient(maximumBytes: Int = 10 * 1_048_576, followRedirects: Bool = true,
                                   connecting: Duration = .seconds(10)) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: followRedirects ? .follow(max: 5, allowCycles: false) : .disallow,
            // No read timeout: `get` puts one deadline over the whole request, body included.
            timeout: .init(connect: TimeAmount(connecting), read: nil),
            decompression: .enabled(limit: .size(maximumBytes))
        )
        configuration.httpVersion = .automatic
        // RetryPolicy is the one place that retries.
        configuration.connectionPool.retryConnectionEstablishment = false
        // Further requests wait in the pool, so one slow host holds two connections, never the whole stage's.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = maximumConnectionsPerHost
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The most connections to one host (the fetch stage also starts at most this many sources per host at once).
    package static let maximumConnectionsPerHost = 2

    /// A fetcher over `client`, which the caller owns (tests share `HTTPClient.shared`).
    package init(client: HTTPClient, timeout: Duration = .seconds(30), maximumBytes: Int = 10 * 1_048_576) {
        self.client = Client(given: client)
        self.timeout = timeout
        self.maximumBytes = maximumBytes
    }

    /// Sends a GET and reads the whole body; any status is a response, only transport problems throw. The whole
    /// exchange ends at `timeout` (the fetcher's own when `nil`) with `.timedOut`. The body is read only when
    /// `readingBody` accepts the status and headers (else the response has an empty body).
    public func get(
        _ url: URL, headers extra: [(String, String)] = [], timeout: Duration? = nil,
        readingBody: @escaping @Sendable (_ status: Int, _ headers: [(name: String, value: String)]) -> Bool = { _, _ in true }
    ) async throws(HTTPFetchError) -> HTTPResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: NewsgenVersion.userAgent)
        request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        for (name, value) in extra {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        return try await execute(request, timeout: timeout, readingBody: readingBody)
    }

    /// Sends a POST of `form` as `application/x-www-form-urlencoded` (a name may repeat), with `get`'s deadline and
    /// limits; any status is a response, only transport problems throw.
    public func post(_ url: URL, form: [(name: String, value: String)], timeout: Duration? = nil) async throws(HTTPFetchError) -> HTTPResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "User-Agent", value: NewsgenVersion.userAgent)
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: Self.formEncoded(form)))
        return try await execute(request, timeout: timeout) { _, _ in true }
    }

    /// `name=value&…`, each escaped as HTML forms do (space as `+`; ASCII letters, digits and `*-._` as they are).
    static func formEncoded(_ form: [(name: String, value: String)]) -> String {
        func escaped(_ text: String) -> String {
            (text.addingPercentEncoding(withAllowedCharacters: formAllowed) ?? text).replacingOccurrences(of: " ", with: "+")
        }
        return form.map { escaped($0.name) + "=" + escaped($0.value) }.joined(separator: "&")
    }

    /// What a form leaves unescaped; the space is left to become `+`.
    private static let formAllowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._ ")

    /// Executes `request` and reads its body when `readingBody` accepts the status and headers, all within `timeout`.
    private func execute(
        _ request: HTTPClientRequest, timeout: Duration?,
        readingBody: @escaping @Sendable (_ status: Int, _ headers: [(name: String, value: String)]) -> Bool
    ) async throws(HTTPFetchError) -> HTTPResponse {
        let limit = timeout ?? self.timeout
        let seconds = limit.seconds
        let (client, maximumBytes, prepared) = (self.client.client, maximumBytes, request)
        do {
            return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
                group.addTask {
                    let response = try await client.execute(prepared, deadline: .now() + .nanoseconds(limit.nanoseconds))
                    let (status, headers) = (Int(response.status.code), response.headers.map { ($0.name, $0.value) })
                    guard readingBody(status, headers) else {
                        return HTTPResponse(status: status, headers: headers, body: Data(), url: response.url)
                    }
                    let body = try await response.body.collect(upTo: maximumBytes)
                    return HTTPResponse(status: status, headers: headers, body: Data(body.readableBytesView), url: response.url)
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

    private struct DeadlinePassed: Error {}

    /// Classifies the error. The decompressor's limit is the body limit, so a gzip bomb is "too large" too.
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
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Whole nanoseconds, for NIO's deadlines.
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
