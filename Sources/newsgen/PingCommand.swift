import ArgumentParser
import Foundation
import NewsgenBuild
import NewsgenConfig
import NewsgenFetch

struct PingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ping",
        abstract: "Tell the WebSub hubs about the feeds the last builds changed, once the site is uploaded.",
        discussion: """
            For sites uploaded after the build (rsync, S3): with "websub": {"hubs": [...], "ping": "manual"} \
            in site.json, `build` records the feeds whose bytes changed, and `newsgen ping`, run after the \
            upload, sends each hub one publish request for them (hub.mode=publish, hub.url for each feed). \
            A feed is taken off the record once its hub accepted it, so a ping is neither lost nor sent \
            twice; a hub that fails (after one retry, timeoutSeconds each) keeps its feeds for the next run.

            Example:
              newsgen build && rsync -a public/ host:/var/www/news/ && newsgen ping

            Exit status: 0 every hub accepted (or nothing was pending); 1 a hub failed, or site.json has no \
            websub hubs; 2 usage error.
            """
    )

    @OptionGroup var site: SiteOptions
    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        var logger = logging.makeLogger()
        // What was sent is worth a line even without --verbose, as `saved` and `add` report what they did.
        if !logging.quiet && !logging.verbose { logger.logLevel = .info }
        let config = try site.load()
        guard let settings = config.websub else {
            throw CommandFailure("\(site.path) names no WebSub hubs: add \"websub\": {\"hubs\": [\"https://…\"]} to ping them")
        }
        let http = HTTPFetcher()
        let pings = WebSubPings(settings: settings, baseURL: config.baseURL, cache: config.cache, http: http,
                                timeout: .seconds(config.timeoutSeconds), logger: logger)
        let result: Result<WebSubPings.Report, any Error>
        do {
            result = .success(try await pings.pingPending())
        } catch {
            result = .failure(error)
        }
        try? await http.shutdown()
        let report: WebSubPings.Report
        switch result {
        case .success(let done): report = done
        case .failure(let error): throw CommandFailure("\(PendingPings.location(cache: config.cache).path): \(error)")
        }
        if report.accepted.isEmpty && report.failed.isEmpty { logger.info("WebSub: no feed is waiting for a ping") }
        if !report.failed.isEmpty { throw ExitCode(1) }
    }
}
