import Dispatch
import Foundation
import Logging

/// SIGINT (Ctrl-C) and SIGTERM (cron's or systemd's stop) during a build.
///
/// The first one cancels the build: the build stops at its next step, removes its staging folder,
/// releases the lock, and newsgen exits 130 (SIGINT) or 143 (SIGTERM) with one line saying that
/// nothing was published. The served folder is untouched. A second signal exits at once, as a
/// kill would: the served folder is still whole, and the next build removes the staging folder.
enum StopSignals {
    /// Runs a build with SIGINT and SIGTERM cancelling it; its exit status, or 128 + the signal's
    /// number when a signal stopped it. Its logger falls silent once a stop is asked for, since
    /// what a stopped build reports is noise.
    static func run(_ runner: BuildRunner) async -> Int32 {
        let stop = Received()
        let logger = runner.logger
        var runner = runner
        runner.logger = Logger(label: logger.label) { _ in SilencedOnStop(base: logger.handler, stop: stop) }
        runner.logger.logLevel = logger.logLevel
        let task = Task { [runner] in await runner.run() }
        let sources = [SIGINT, SIGTERM].map { number in
            #if canImport(Darwin)
            // Darwin's signal sources sit below signal(3): the default action must be off.
            // On Linux, Dispatch takes the signal itself.
            signal(number, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.record(number) {
                    task.cancel()
                } else {
                    // The second signal: the user does not want to wait for the clean-up.
                    FileHandle.standardError.write(Data("newsgen: stopped (\(name(of: number)) again); nothing was published\n".utf8))
                    exit(128 + number)
                }
            }
            source.resume()
            return source
        }
        let status = await task.value
        for source in sources { source.cancel() }
        guard let number = stop.signal else { return status }
        // Exit status 1 is "nothing published"; 0 and 3 mean the swap happened before the stop.
        let outcome = status == 1 ? "nothing was published" : "the new site had already been published"
        FileHandle.standardError.write(Data("newsgen: build stopped by \(name(of: number)); \(outcome)\n".utf8))
        return 128 + number
    }

    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }

    /// The first stop signal received, shared by the signal handlers and the log handler.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var first: Int32?

        var signal: Int32? { lock.withLock { first } }

        /// Records a signal; whether it was the first.
        func record(_ number: Int32) -> Bool {
            lock.withLock {
                guard first == nil else { return false }
                first = number
                return true
            }
        }
    }

    /// Passes log lines on until a stop signal arrives, then drops them: a stopped build's
    /// errors (cancelled requests, "stopped before publishing") would only repeat the one line
    /// `run` prints. A line that asks someone to act (metadata `afterStop`) still goes through.
    struct SilencedOnStop: ForwardingLogHandler {
        var base: any LogHandler
        let stop: Received

        func log(event: LogEvent) {
            guard stop.signal == nil || event.metadata?["afterStop"] != nil else { return }
            base.log(event: event)
        }
    }
}
