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
    private let lock = NSLock()
    private var entries: [(path: String, headers: [String: String])] = []

    func record(_ request: Request) {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
        lock.withLock { entries.append((request.uri.path, headers)) }
    }

    var count: Int { lock.withLock { entries.count } }
    var last: [String: String]? { lock.withLock { entries.last?.headers } }
}

extension Response {
    static func body(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

import Testing
