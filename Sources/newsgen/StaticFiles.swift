import Foundation
import Hummingbird
import Logging

/// How `serve` answers for the output folder. Hummingbird's `FileMiddleware` serves the files
/// (a folder's index.html, ETag and If-None-Match, Last-Modified, Range); the middlewares around
/// it keep the preview to GET and HEAD, give feeds and pages the content types they are published
/// with, answer a missing file with a line saying which, and keep the query of a folder's redirect.
enum StaticFiles {
    static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "rss": "application/rss+xml; charset=utf-8", "atom": "application/atom+xml; charset=utf-8",
        "json": "application/json; charset=utf-8", "opml": "text/x-opml; charset=utf-8", "xml": "application/xml; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "ico": "image/x-icon", "txt": "text/plain; charset=utf-8",
    ]

    static let jsonFeedType = "application/feed+json; charset=utf-8"

    /// A router that has no routes: every GET or HEAD falls through to the files of `root`.
    /// With `live` (`serve --watch`), pages reload after a rebuild (see `LiveReload`).
    static func router(root: URL, live: LiveReload? = nil, logger: Logger) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: MethodCheck())
        if let live { router.add(middleware: LiveReload.Middleware(live: live)) }
        router.add(middleware: NotFoundPage())
        router.add(middleware: PreviewHeaders())
        router.add(middleware: FolderRedirect())
        router.add(middleware: FileMiddleware(root.path, searchForIndexHtml: true, logger: logger))
        return router
    }

    /// The content type of the file at `path` of the output (a path ending in `/` is its folder's
    /// index.html): the JSON Feeds under feeds/ are `application/feed+json`. `nil` for a type
    /// newsgen does not publish.
    static func type(ofPath path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let name = path.hasSuffix("/") || parts.isEmpty ? "index.html" : String(parts[parts.count - 1])
        let pathExtension = (name as NSString).pathExtension.lowercased()
        if pathExtension == "json", parts.first == "feeds" { return jsonFeedType }
        return types[pathExtension]
    }

    /// Answers every method but GET and HEAD with 405 and `Allow: GET, HEAD`.
    struct MethodCheck<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            guard request.method == .get || request.method == .head else {
                return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD", .contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "\(request.method.rawValue) is not allowed: this is a static preview (GET and HEAD only)\n")))
            }
            return try await next(request, context)
        }
    }

    /// Answers a path with no file behind it with 404 and `Not found: /path` (HEAD: the same
    /// headers, no body).
    struct NotFoundPage<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            do {
                return try await next(request, context)
            } catch let error as any HTTPResponseError where error.status == .notFound {
                let path = request.uri.path.removingPercentEncoding ?? request.uri.path
                let response = Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                                        body: .init(byteBuffer: ByteBuffer(string: "Not found: \(path)\n")))
                return request.method == .head ? response.createHeadResponse() : response
            }
        }
    }

    /// A folder asked for without its trailing slash (`/search?q=harbour`) is redirected to the folder
    /// (`/search/?q=harbour`) with the path as the request wrote it (percent-encoding kept) and its query
    /// kept: `FileMiddleware` redirects to the decoded path and drops the query.
    struct FolderRedirect<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            var response = try await next(request, context)
            guard response.status == .movedPermanently, response.headers[.location] != nil else { return response }
            response.headers[.location] = Self.location(path: request.uri.path, query: request.uri.query)
            return response
        }

        /// The folder's address for a request's path and query: a slash after the path, then the query if any. The
        /// path starts with one slash, so that `//host/folder` cannot redirect to another host.
        static func location(path: String, query: String?) -> String {
            let folder = "/" + path.drop { $0 == "/" } + (path.hasSuffix("/") ? "" : "/")
            guard let query, !query.isEmpty else { return folder }
            return folder + "?" + query
        }
    }

    /// Sets the content type newsgen publishes each file with, and `Cache-Control: no-cache` so
    /// that a browser asks again (with the ETag) after a rebuild, on what `FileMiddleware` served.
    struct PreviewHeaders<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            var response = try await next(request, context)
            guard [.ok, .partialContent, .notModified].contains(response.status) else { return response }
            let path = request.uri.path.removingPercentEncoding ?? request.uri.path
            if let type = StaticFiles.type(ofPath: path) { response.headers[.contentType] = type }
            response.headers[.cacheControl] = "no-cache"
            return response
        }
    }
}
