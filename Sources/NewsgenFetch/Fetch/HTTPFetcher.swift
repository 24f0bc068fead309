package import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NewsgenModel

/// An HTTP response with its body fully read.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Why an HTTP request produced no usable response.
public enum HTTPFetchError: Error, Sendable, CustomStringConvertible {
    case timedOut(seconds: Int)
    case tooLarge(limit: Int)
    case tooManyRedirects
    /// The body is not the gzip or deflate stream its Content-Encoding says.
    case badEncoding
    case connection(String)

    public var description: String {
        switch self {
        case .timedOut(let seconds): "no complete answer within \(seconds) s"
        case .tooLarge(let limit): "the response is larger than \(limit / 1_048_576) MiB"
        case .tooManyRedirects: "too many redirects"
        case .badEncoding: "the response's gzip or deflate encoding is damaged"
        case .connection(let detail): detail
        }
    }
}

/// GET requests with the limits an unattended build needs: connect and total timeouts,
/// at most five redirects, a capped body size, gzip and deflate, and newsgen's User-Agent.
///
/// It owns one AsyncHTTPClient client, which `shutdown()` releases; tests point it at servers
/// on 127.0.0.1.
public struct HTTPFetcher: Sendable {
    public var timeout: Duration
    public var maximumBytes: Int
    private let client: HTTPClient

    /// A fetcher with a client of its own; call `shutdown()` when done with it.
    ///
    /// Requests that carry a secret (NewsAPI's X-Api-Key) need `followRedirects: false`:
    /// AsyncHTTPClient sends custom headers along to wherever a redirect points.
    public init(followRedirects: Bool = true, timeout: Duration = .seconds(30), maximumBytes: Int = 10 * 1_048_576) {
        self.init(client: Self.makeClient(maximumBytes: maximumBytes, followRedirects: followRedirects), timeout: timeout, maximumBytes: maximumBytes)
    }

    /// Releases the client's connections and threads.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    static func makeClient(maximumBytes: Int = 10 * 1_048_576, followRedirects: Bool = true) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: followRedirects ? .follow(max: 5, allowCycles: false) : .disallow,
            timeout: .init(connect: .seconds(10), read: .seconds(30)),
            decompression: .enabled(limit: .size(maximumBytes))
        )
        configuration.httpVersion = .automatic
        // AsyncHTTPClient would otherwise retry a failed connect on its own, every 0.1 s and
        // growing, until the connect timeout: a closed port cost 10 s and ~7 connects per attempt.
        // RetryPolicy is the one place that retries (three attempts, 1 s and 2 s apart).
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// A fetcher over `client`, which the caller owns (tests share `HTTPClient.shared`).
    package init(client: HTTPClient, timeout: Duration = .seconds(30), maximumBytes: Int = 10 * 1_048_576) {
        self.client = client
        self.timeout = timeout
        self.maximumBytes = maximumBytes
    }

    /// Sends a GET and reads the whole body; any status is a response, only transport problems throw.
    public func get(_ url: URL, headers extra: [(String, String)] = []) async throws(HTTPFetchError) -> HTTPResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: NewsgenVersion.userAgent)
        request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        for (name, value) in extra {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        let seconds = Int(timeout.components.seconds)
        do {
            let response = try await client.execute(request, timeout: .seconds(Int64(seconds)))
            let body = try await response.body.collect(upTo: maximumBytes)
            return HTTPResponse(
                status: Int(response.status.code),
                headers: response.headers.map { ($0.name, $0.value) },
                body: Data(body.readableBytesView)
            )
        } catch {
            throw Self.classify(error, seconds: seconds, limit: maximumBytes)
        }
    }

    /// What went wrong, by the error's type. The decompressor's limit is the body's size limit
    /// (`makeClient` sets both), so a gzip bomb is "too large", like a plain body over the limit.
    private static func classify(_ error: any Error, seconds: Int, limit: Int) -> HTTPFetchError {
        switch error {
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
