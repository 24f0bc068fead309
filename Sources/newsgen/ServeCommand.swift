import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import Logging
import ServiceLifecycle
import NewsgenConfig
import NewsgenBuild

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site, then serve the output on 127.0.0.1 for a preview.",
        discussion: "With --watch, site.json, the templates, the saved lists and local feed files are watched and the site is rebuilt when one changes; the pages open in a browser reload after each rebuild, or show the error of a failed one."
    )

    @OptionGroup var site: SiteOptions

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
        // Before the build, so that a busy port costs no build and says so in one line.
        if let problem = Listening.problem(port: port) { throw CommandFailure(problem) }
        // The build's error lines are kept, so that --watch can show a failed build in the pages.
        let errors = ErrorRecordingLogHandler.Lines()
        var buildLogger = Logger(label: logger.label) { _ in ErrorRecordingLogHandler(base: logger.handler, lines: errors) }
        buildLogger.logLevel = logger.logLevel
        let runner = BuildRunner(site: site, offline: offline, wait: true, logger: buildLogger, progress: TerminalProgress.forBuild(logging))
        let siteConfig = try runner.loadConfig()
        let status = await runner.run(siteConfig)
        if status == 1 && !FileManager.default.fileExists(atPath: siteConfig.output.path) {
            throw ExitCode(1)
        }
        let live = watch ? LiveReload() : nil
        let firstErrors = errors.take()
        let root = siteConfig.output
        if status == 1 {
            live?.failed(firstErrors.joined(separator: "\n"))
            if !logging.quiet {
                note("the build failed (see the error above); serving the last good site from \(root.path)"
                     + (watch ? ", its pages showing the error until a rebuild succeeds" : ""))
            }
        }
        var serverLogger = Logger(label: "newsgen.serve") { _ in StderrLogHandler() }
        serverLogger.logLevel = .critical
        let quiet = logging.quiet
        let router = StaticFiles.router(root: root, live: live, logger: serverLogger)
        let services: [any Service] = live.map {
            [SiteWatcher.Rebuilding(watcher: SiteWatcher(config: siteConfig), runner: runner, quiet: quiet, live: $0, errors: errors)]
        } ?? []
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(Listening.host, port: port)),
            services: services,
            onServerRunning: { _ in
                if !quiet { note("serving \(root.path) on http://\(Listening.host):\(port)/ (Ctrl-C to stop)") }
            },
            logger: serverLogger
        )
        do {
            try await app.runService()
        } catch {
            // Another process may have taken the port since the check above.
            throw CommandFailure(Listening.problem(port: port) ?? "cannot serve on \(Listening.host):\(port): \(error)")
        }
    }
}

/// Information for the person at the terminal (`newsgen: …` on stderr), such as where `serve` listens; not a warning.
func note(_ message: String) {
    FileHandle.standardError.write(Data("newsgen: \(message)\n".utf8))
}

/// Whether `serve` can listen where it wants to.
enum Listening {
    static let host = "127.0.0.1"

    /// Why `port` cannot be listened on at 127.0.0.1, or `nil` when it can: binds a socket as the server will
    /// (SO_REUSEADDR) and closes it at once.
    static func problem(port: Int) -> String? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var yes: Int32 = 1
        _ = setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result != 0 else { return nil }
        let code = errno
        if code == EADDRINUSE {
            return "port \(port) is in use on \(host) (stop what listens there, or choose another with --port)"
        }
        return "cannot listen on \(host):\(port): \(String(cString: strerror(code)).lowercased())"
    }
}

/// The modification times of everything a build reads from disk.
struct SiteWatcher: Sendable {
    var config: SiteConfig

    /// The files that differ between two snapshots, as one phrase: "site.json", "3 files".
    func changes(from old: [String: Date], to new: [String: Date]) -> String {
        let changed = Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.sorted()
        guard changed.count == 1, let path = changed.first else { return "\(changed.count) files" }
        let folder = config.file.deletingLastPathComponent().path + "/"
        return path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path
    }

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

extension SiteWatcher {
    /// The `--watch` loop as a service of the server's `Application`: once a second it rebuilds when a file changed; it
    /// ends on graceful shutdown, after any rebuild under way.
    struct Rebuilding: Service {
        var watcher: SiteWatcher
        var runner: BuildRunner
        var quiet: Bool
        /// Told of each rebuild, for the pages open in a browser.
        var live: LiveReload
        /// The error lines `runner` logs.
        var errors: ErrorRecordingLogHandler.Lines

        func run() async throws {
            var last = watcher.snapshot()
            if !quiet { note("watching \(last.count) files for changes") }
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
                guard !Task.isShuttingDownGracefully && !Task.isCancelled else { return }
                let now = watcher.snapshot()
                guard now != last else { continue }
                let changed = watcher.changes(from: last, to: now)
                last = now
                if !quiet { note("\(changed) changed; rebuilding") }
                let started = ContinuousClock.now
                _ = errors.take()
                let status = await runner.run()
                let seconds = (ContinuousClock.now - started) / .seconds(1)
                if !quiet { note(Self.outcome(status: status, seconds: seconds, output: watcher.config.output.path)) }
                // 3 published with a source failing: the pages reload; 1 published nothing.
                if status == 1 {
                    let lines = errors.take()
                    live.failed(lines.isEmpty ? "the build failed (exit status 1)" : lines.joined(separator: "\n"))
                } else {
                    live.rebuilt()
                }
            }
        }

        /// The line after a rebuild with the build's exit status: what was published, or, when nothing was, that the
        /// last good site is still served (its pages showing the error until a rebuild succeeds).
        static func outcome(status: Int32, seconds: Double, output: String) -> String {
            let time = String(format: "%.2f", seconds)
            switch status {
            case 0: return "rebuilt in \(time) s"
            case 3: return "rebuilt in \(time) s; a source failed and is shown from the cache or as unavailable (see the warnings above)"
            default:
                return "rebuild failed after \(time) s (see the error above); still serving the last good site from \(output), "
                    + "its pages showing the error until a rebuild succeeds"
            }
        }
    }
}
