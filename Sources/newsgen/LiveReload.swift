import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// What `serve --watch` tells the pages open in a browser: reload after each successful rebuild, or show a failed one's
/// error. Only `serve --watch` responses change; published files never hold a trace of it.
///
/// Each HTML page served gets `<script src="/_newsgen/live.js" defer>` before `</head>` (same origin, so the pages'
/// `script-src 'self'` allows it); the script listens to the server-sent event stream `/_newsgen/events`:
///
/// - `event: reload` after a rebuild that published (exit status 0 or 3): the page reloads.
/// - `event: build-error` with the error lines as `data:` when a rebuild failed (and on connecting while it still has):
///   the page shows them in a banner. Until a rebuild succeeds, every page asked for is a 500 error page with those lines.
/// - `: heartbeat` comments every 15 seconds, so that a proxy keeps the connection open.
///
/// The stream ends when the server stops, so it never keeps newsgen running.
final class LiveReload: Sendable {
    static let eventsPath = "/_newsgen/events"
    static let scriptPath = "/_newsgen/live.js"
    static let scriptTag = "<script src=\"\(scriptPath)\" defer></script>"
    static let heartbeat: Duration = .seconds(15)

    enum Event: Sendable, Equatable {
        case reload
        case failed(String)
        case heartbeat

        /// The event as sent: each error line a `data:` line of its own, which EventSource joins with newlines.
        var text: String {
            switch self {
            case .reload: "event: reload\ndata: rebuilt\n\n"
            case .failed(let message):
                "event: build-error\n" + message.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined() + "\n"
            case .heartbeat: ": heartbeat\n\n"
            }
        }
    }

    private struct State {
        var failure: String?
        var listeners: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextListener = 0
    }

    private let state = Mutex(State())

    /// The error of the last build when it failed; `nil` once a build succeeds.
    var currentFailure: String? { state.withLock { $0.failure } }

    /// A rebuild published: open pages reload.
    func rebuilt() {
        send(.reload, failure: nil)
    }

    /// A rebuild failed with `message` (its error lines): open pages show it.
    func failed(_ message: String) {
        send(.failed(message), failure: message)
    }

    private func send(_ event: Event, failure: String?) {
        let continuations = state.withLock { state in
            state.failure = failure
            return Array(state.listeners.values)
        }
        for continuation in continuations { continuation.yield(event) }
    }

    /// A new listener's events, starting with the current failure if any, and the continuation that feeds them.
    func listen() -> (AsyncStream<Event>, AsyncStream<Event>.Continuation) {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = state.withLock { state in
            defer { state.nextListener += 1 }
            state.listeners[state.nextListener] = continuation
            if let failure = state.failure { continuation.yield(.failed(failure)) }
            return state.nextListener
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return (stream, continuation)
    }

    // MARK: - Responses

    static let eventsHeaders: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"]

    /// The event stream: events until the client goes away or the server shuts down gracefully.
    func eventsResponse() -> Response {
        let (events, continuation) = listen()
        let body = ResponseBody { writer in
            // However the stream ends, this listener is gone.
            defer { continuation.finish() }
            // A reconnecting EventSource waits a second, not the browser's default of three.
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: Self.heartbeat)
                            continuation.yield(.heartbeat)
                        }
                    }
                    for await event in events {
                        try await writer.write(ByteBuffer(string: event.text))
                    }
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                continuation.finish()
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: Self.eventsHeaders, body: body)
    }

    static func scriptResponse() -> Response {
        Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                 body: .init(byteBuffer: ByteBuffer(string: LiveReloadScript.source)))
    }

    /// The page served instead of any page while the last build failed: its error, escaped, and the script, so it reloads.
    static func errorPage(_ message: String) -> Response {
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>Build failed — newsgen serve</title>
            \(scriptTag)
            </head>
            <body>
            <main>
            <h1>The last build failed</h1>
            <p>newsgen serve shows this page instead of the previous build's until a rebuild succeeds; this page reloads then.</p>
            <pre>\(escape(message))</pre>
            </main>
            </body>
            </html>

            """
        return Response(status: .internalServerError, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// `html` with the script tag before its first `</head>` (in any case); `nil` when it has none.
    static func injecting(into html: ByteBuffer) -> ByteBuffer? {
        let bytes = Array(html.readableBytesView)
        let closing = Array("</head>".utf8)
        guard bytes.count >= closing.count else { return nil }
        for start in 0...(bytes.count - closing.count) where bytes[start] == UInt8(ascii: "<") {
            let matches = (0..<closing.count).allSatisfy { offset in
                let byte = bytes[start + offset]
                // ASCII letters compare without case.
                let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
                return lowered == closing[offset]
            }
            guard matches else { continue }
            var result = ByteBuffer()
            result.reserveCapacity(bytes.count + scriptTag.utf8.count)
            result.writeBytes(bytes[..<start])
            result.writeString(scriptTag)
            result.writeBytes(bytes[start...])
            return result
        }
        return nil
    }

    /// The `serve --watch` router part: answers its own two paths, serves the error page while the last build failed, and
    /// adds the script to every HTML page.
    struct Middleware<Context: RequestContext>: RouterMiddleware {
        let live: LiveReload

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            let path = request.uri.path
            switch path {
            case LiveReload.eventsPath:
                // HEAD opens no stream.
                return request.method == .head ? Response(status: .ok, headers: LiveReload.eventsHeaders) : live.eventsResponse()
            case LiveReload.scriptPath:
                let response = LiveReload.scriptResponse()
                return request.method == .head ? response.createHeadResponse() : response
            default:
                break
            }
            let decoded = path.removingPercentEncoding ?? path
            guard StaticFiles.type(ofPath: decoded)?.hasPrefix("text/html") == true else { return try await next(request, context) }
            if let failure = live.currentFailure {
                let response = LiveReload.errorPage(failure)
                return request.method == .head ? response.createHeadResponse() : response
            }
            // Asked for whole (no Range), by GET (so HEAD tells the length GET sends) and unconditionally: a page cached
            // without the script (by plain `serve`) has the same ETag.
            var head = request.head
            head.method = .get
            head.headerFields[.range] = nil
            head.headerFields[.ifRange] = nil
            head.headerFields[.ifNoneMatch] = nil
            head.headerFields[.ifModifiedSince] = nil
            var response = try await next(Request(head: head, body: request.body), context)
            guard response.status == .ok, response.headers[.contentType]?.hasPrefix("text/html") == true else {
                return request.method == .head ? response.createHeadResponse() : response
            }
            let collector = Collector()
            try await response.body.write(Collector.Writer(collector: collector))
            let collected = collector.buffer
            let page = LiveReload.injecting(into: collected) ?? collected
            response.headers[.contentLength] = String(page.readableBytes)
            response.headers[.acceptRanges] = nil
            response.headers[.eTag] = nil
            response.headers[.lastModified] = nil
            response.body = .init(byteBuffer: page)
            return request.method == .head ? response.createHeadResponse() : response
        }
    }

    final class Collector: Sendable {
        private let bytes = Mutex(ByteBuffer())

        var buffer: ByteBuffer { bytes.withLock { $0 } }

        struct Writer: ResponseBodyWriter {
            let collector: Collector

            mutating func write(_ buffer: ByteBuffer) async throws {
                var buffer = buffer
                collector.bytes.withLock { _ = $0.writeBuffer(&buffer) }
            }

            consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
        }
    }
}

/// Records the error lines a build logs (passing every line on), so a failed rebuild's message can be sent to the pages.
struct ErrorRecordingLogHandler: ForwardingLogHandler {
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])

        func append(_ line: String) { lines.withLock { $0.append(line) } }

        /// The lines recorded since the last call, and forgets them.
        func take() -> [String] {
            lines.withLock { lines in
                defer { lines = [] }
                return lines
            }
        }
    }

    var base: any LogHandler
    let lines: Lines

    func log(event: LogEvent) {
        if event.level >= .error { lines.append(event.message.description) }
        base.log(event: event)
    }
}
