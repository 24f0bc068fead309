import ArgumentParser
import Foundation
import Logging
import NewsgenConfig
import NewsgenBuild

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Fetch the sources, merge the saved lists, render, validate and publish the site.",
        discussion: "Exit status: 0 published and every source fresh; 3 published, but a source failed; 1 nothing published; 2 usage error."
    )

    @OptionGroup var site: SiteOptions

    @Option(name: .shortAndLong, help: "Publish here instead of site.json's output folder.")
    var output: String?

    @Flag(help: "Make no network request: build from the cache and local files only.")
    var offline = false

    @Flag(help: "Fetch every source now, ignoring refresh intervals.")
    var refresh = false

    @Flag(help: "Render, write and validate every file, carrying nothing over from the published site.")
    var full = false

    @Flag(help: "If another build is running, wait for it instead of exiting.")
    var wait = false

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        let logger = logging.makeLogger()
        let status = await StopSignals.run(BuildRunner(site: site, outputOverride: output, offline: offline,
                                                       refresh: refresh, full: full, wait: wait, logger: logger,
                                                       progress: TerminalProgress.forBuild(logging)))
        if status != 0 { throw ExitCode(status) }
    }
}

/// Loads the configuration, takes the lock, runs one build and reports it; shared by `build` and `serve`.
struct BuildRunner: Sendable {
    var site: SiteOptions
    var outputOverride: String?
    var offline = false
    var refresh = false
    var full = false
    var wait = false
    var logger: Logger
    /// The updating line on a terminal, if there is one.
    var progress: BuildProgress?

    /// Reads the configuration afresh, then builds; the build's exit status (0, 3 or 1).
    func run() async -> Int32 {
        let config: SiteConfig
        do {
            config = try loadConfig()
        } catch {
            logger.error("\(error)")
            return 1
        }
        return await run(config)
    }

    /// Builds with a configuration already read; the build's exit status (0, 3 or 1).
    func run(_ config: SiteConfig) async -> Int32 {
        var options = Build.Options(offline: offline, refresh: refresh, full: full)
        options.progress = progress
        let result: Result<BuildReport, BuildError>
        do {
            result = .success(try await Build.runStandard(config: config, options: options, waitForLock: wait, logger: logger))
        } catch {
            result = .failure(error)
        }
        // The progress line goes before the build's last words.
        progress?.finish()
        switch result {
        case .success(let report):
            if report.published {
                logger.info("published \(report.output.path): \(report.filesWritten) files written, \(report.filesUnchanged) unchanged, \(report.filesCarried) carried, \(String(format: "%.2f", report.totalSeconds)) s (validation \(String(format: "%.2f", report.validationSeconds)) s of the cores' time)")
            } else {
                logger.info("kept \(report.output.path) as it was: \(report.filesCarried) files carried, \(String(format: "%.2f", report.totalSeconds)) s")
            }
            return report.exitStatus
        case .failure(let error):
            for line in error.description.split(separator: "\n") { logger.error("\(line)") }
            return 1
        }
    }

    func loadConfig() throws -> SiteConfig {
        var config = try site.load()
        if let outputOverride {
            config.output = URL(fileURLWithPath: outputOverride).standardizedFileURL
            try config.checkOutputOverlaps(outputKey: "--output")
        }
        return config
    }
}
