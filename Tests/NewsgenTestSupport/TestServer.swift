import Foundation
import Hummingbird
import HummingbirdTesting

/// Runs a real HTTP server on 127.0.0.1 (a free port) for the length of `body`.
package func withTestServer<T: Sendable>(
    _ configure: (Router<BasicRequestContext>) -> Void,
    _ body: @Sendable (URL) async throws -> T
) async throws -> T {
    let router = Router()
    configure(router)
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    return try await app.test(.live) { client in
        guard let port = client.port, let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw TestServerError.noPort
        }
        return try await body(url)
    }
}

/// The live test server did not report the port it listens on.
package enum TestServerError: Error {
    case noPort
}

/// Counts requests and remembers their headers, across the server's tasks.
package final class RequestLog: @unchecked Sendable {
    package init() {}

    package struct Entry: Sendable {
        package var path: String
        /// The whole request target: path and query, as sent.
        package var uri: String
        /// The query parameters, percent-decoded.
        package var query: [String: String]
        /// By lowercased name.
        package var headers: [String: String]
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    package func record(_ request: Request) {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { query[String(key)] = String(value) }
        lock.withLock { entries.append(Entry(path: request.uri.path, uri: request.uri.description, query: query, headers: headers)) }
    }

    package var count: Int { lock.withLock { entries.count } }
    package var last: [String: String]? { lock.withLock { entries.last?.headers } }
    package var all: [Entry] { lock.withLock { entries } }
}

extension Response {
    package static func body(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}


extension Response {
    package static func json(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response.body(data, status: status, headers: fields)
    }

    /// A NewsAPI error answer: `{"status": "error", "code", "message"}`.
    package static func newsAPIError(_ code: String, _ message: String, status: Int) -> Response {
        let body = (try? JSONSerialization.data(withJSONObject: ["status": "error", "code": code, "message": message])) ?? Data()
        return json(body, status: HTTPResponse.Status(code: status))
    }
}
