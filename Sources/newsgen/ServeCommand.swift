import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NewsgenCore

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site, then serve the output on 127.0.0.1 for a preview.",
        discussion: "With --watch, site.json, the templates, the saved lists and local feed files are watched and the site is rebuilt when one changes."
    )

    @Option(name: .shortAndLong, help: "The site configuration.")
    var config = "site.json"

    @Option(name: .shortAndLong, help: "The port to listen on (127.0.0.1 only).")
    var port = 8080

    @Flag(help: "Rebuild when the configuration, templates, saved lists or local feeds change.")
    var watch = false

    @Flag(help: "Make no network request: build from the cache and local files only.")
    var offline = false

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be from 1 to 65535.") }
    }

    func run() async throws {
        let logger = logging.makeLogger()
        let runner = BuildRunner(configPath: config, offline: offline, wait: true, logger: logger)
        let siteConfig: SiteConfig
        do {
            siteConfig = try runner.loadConfig()
        } catch {
            logger.error("\(error)")
            throw ExitCode(1)
        }
        let status = await runner.run()
        if status == 1 && !FileManager.default.fileExists(atPath: siteConfig.output.path) {
            throw ExitCode(1)
        }
        let router = Router()
        let root = siteConfig.output
        router.get("/") { request, _ in StaticFiles.response(for: request.uri.path, root: root) }
        router.get("**") { request, _ in StaticFiles.response(for: request.uri.path, root: root) }
        var serverLogger = Logger(label: "newsgen.serve")
        serverLogger.logLevel = .warning
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { _ in
                FileHandle.standardError.write(Data("newsgen: serving \(root.path) on http://127.0.0.1:\(port)/ (Ctrl-C to stop)\n".utf8))
            },
            logger: serverLogger
        )
        if watch {
            let watched = SiteWatcher(config: siteConfig)
            Task {
                var last = watched.snapshot()
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    let now = watched.snapshot()
                    if now != last {
                        last = now
                        logger.warning("change seen; rebuilding")
                        _ = await runner.run()
                    }
                }
            }
        }
        try await app.runService()
    }
}

/// Serves files from the output folder with the content types feeds and pages need.
enum StaticFiles {
    static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "rss": "application/rss+xml; charset=utf-8", "atom": "application/atom+xml; charset=utf-8",
        "json": "application/json; charset=utf-8", "opml": "text/x-opml; charset=utf-8", "xml": "application/xml; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "ico": "image/x-icon", "txt": "text/plain; charset=utf-8",
    ]

    static func response(for rawPath: String, root: URL) -> Response {
        let decoded = rawPath.removingPercentEncoding ?? rawPath
        let parts = decoded.split(separator: "/").filter { $0 != "." }
        guard !parts.contains("..") else { return Response(status: .forbidden) }
        var file = parts.reduce(root) { $0.appendingPathComponent(String($1)) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
            file.appendPathComponent("index.html")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "Not found: \(decoded)\n")))
        }
        let type = types[file.pathExtension.lowercased()] ?? "application/octet-stream"
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The modification times of everything a build reads from disk.
struct SiteWatcher: Sendable {
    var config: SiteConfig

    func snapshot() -> [String: Date] {
        var paths = [config.file.path] + config.saved.map(\.path)
        for source in config.sources {
            if case .feed(.file(let url)) = source.kind { paths.append(url.path) }
            if case .json(.file(let url)) = source.kind { paths.append(url.path) }
        }
        if let files = FileManager.default.enumerator(atPath: config.templates.path)?.allObjects as? [String] {
            paths += files.map { config.templates.appendingPathComponent($0).path }
        }
        var times: [String: Date] = [:]
        for path in paths {
            times[path] = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        }
        return times
    }
}
