import Foundation
import Hummingbird
import HummingbirdTesting

/// Runs a real HTTP server on 127.0.0.1 (a free port) for the length of `body`.
func withTestServer<T: Sendable>(
    _ configure: (Router<BasicRequestContext>) -> Void,
    _ body: @Sendable (URL) async throws -> T
) async throws -> T {
    let router = Router()
    configure(router)
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    return try await app.test(.live) { client in
        let port = try #require(client.port)
        return try await body(URL(string: "http://127.0.0.1:\(port)")!)
    }
}

/// Counts requests and remembers their headers, across the server's tasks.
final class RequestLog: @unchecked Sendable {
    struct Entry: Sendable {
        var path: String
        /// The whole request target: path and query, as sent.
        var uri: String
        /// The query parameters, percent-decoded.
        var query: [String: String]
        /// By lowercased name.
        var headers: [String: String]
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    func record(_ request: Request) {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { query[String(key)] = String(value) }
        lock.withLock { entries.append(Entry(path: request.uri.path, uri: request.uri.description, query: query, headers: headers)) }
    }

    var count: Int { lock.withLock { entries.count } }
    var last: [String: String]? { lock.withLock { entries.last?.headers } }
    var all: [Entry] { lock.withLock { entries } }
}

extension Response {
    static func body(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

import Testing

extension Response {
    static func json(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response.body(data, status: status, headers: fields)
    }

    /// A NewsAPI error answer: `{"status": "error", "code", "message"}`.
    static func newsAPIError(_ code: String, _ message: String, status: Int) -> Response {
        let body = (try? JSONSerialization.data(withJSONObject: ["status": "error", "code": code, "message": message])) ?? Data()
        return json(body, status: HTTPResponse.Status(code: status))
    }
}
