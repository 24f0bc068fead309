import Dispatch
import Foundation
import Logging
import NewsgenBuild
import NewsgenConfig
import Synchronization

/// SIGINT (Ctrl-C) and SIGTERM during a build. The first cancels the build: it stops at its next step, removes its
/// staging folder, releases the lock, and newsgen exits 130 or 143 saying nothing was published. Work that ignores
/// cancellation gets `grace`; then newsgen removes its staging folders itself and exits with the same status. A second
/// signal exits at once, like a kill. The served folder is untouched either way.
enum StopSignals {
    /// How long a cancelled build has to end on its own.
    static let grace: DispatchTimeInterval = .seconds(1)

    /// Where signals are handled: a queue of its own, which libdispatch gives a thread even while the build's work holds
    /// every core (the global queues would handle the signal only after it).
    static let queue = DispatchQueue(label: "newsgen.stop-signals")

    /// Runs a build with SIGINT and SIGTERM cancelling it; its exit status, or 128 + the signal's number when stopped. Its
    /// logger falls silent once a stop is asked for: a stopped build's reports are noise.
    static func run(_ runner: BuildRunner) async -> Int32 {
        // Read here, so that a stop that cannot wait knows which output's staging folders are its own.
        let config: SiteConfig
        do {
            config = try runner.loadConfig()
        } catch {
            runner.logger.error("\(error)")
            return 1
        }
        let stop = Received()
        let logger = runner.logger
        var runner = runner
        runner.logger = Logger(label: logger.label) { _ in SilencedOnStop(base: logger.handler, stop: stop) }
        runner.logger.logLevel = logger.logLevel
        let task = Task { [runner] in await runner.run(config) }
        let publisher = Publisher(output: config.output)
        let sources = [SIGINT, SIGTERM].map { number in
            #if canImport(Darwin)
            // Darwin's signal sources sit below signal(3), so the default action must be off; on Linux Dispatch takes it.
            signal(number, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if stop.record(number) {
                    task.cancel()
                    queue.asyncAfter(deadline: .now() + grace) {
                        guard stop.claimEnd() else { return }
                        publisher.removeOwnStaging()
                        FileHandle.standardError.write(Data("newsgen: build stopped by \(name(of: number)); the work under way was ended, the served folder is as it was\n".utf8))
                        // At once: exit(3) would run the process's exit handlers beside threads still at work.
                        _exit(128 + number)
                    }
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
        guard stop.claimEnd() else {
            // Too late: the forced stop is removing the staging folders and will exit.
            while true { try? await Task.sleep(for: .seconds(60)) }
        }
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

    /// The first stop signal received, shared by the signal and log handlers, and who ends the process after it.
    final class Received: Sendable {
        private struct State {
            var first: Int32?
            var ended = false
        }

        private let state = Mutex(State())

        /// Whether the caller (the returning build or the forced stop) is the first to end the build; the other does nothing.
        func claimEnd() -> Bool {
            state.withLock { state in
                guard !state.ended else { return false }
                state.ended = true
                return true
            }
        }

        var signal: Int32? { state.withLock { $0.first } }

        /// Records a signal; whether it was the first.
        func record(_ number: Int32) -> Bool {
            state.withLock { state in
                guard state.first == nil else { return false }
                state.first = number
                return true
            }
        }
    }

    /// Passes log lines on until a stop signal arrives, then drops them (they would only repeat `run`'s one line); a line
    /// that asks someone to act (metadata `afterStop`) still goes through.
    struct SilencedOnStop: ForwardingLogHandler {
        var base: any LogHandler
        let stop: Received

        func log(event: LogEvent) {
            guard stop.signal == nil || event.metadata?["afterStop"] != nil else { return }
            base.log(event: event)
        }
    }
}
