import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import NewsgenBuild

/// The one updating line a build shows on a terminal: redrawn in place with `\r` at most ten times a second, and cleared
/// (`\r` ESC `[K`) before any other stderr line and when the build ends. Only when stderr is a terminal and neither
/// --quiet nor --verbose is given, so under cron stderr's bytes are exactly what they would be without it.
final class TerminalProgress: ProgressReporter, Sendable {
    /// The line on standard error. Every line newsgen writes there goes through `write`.
    static let standardError = TerminalProgress(descriptor: STDERR_FILENO)

    /// The shortest time between two redraws of one phase.
    static let interval: Duration = .milliseconds(100)
    static let clear = "\r\u{1B}[K"

    private let descriptor: Int32
    private let clock = ContinuousClock()
    /// What is on the terminal; held while writing, so that lines are never interleaved.
    private let state = Mutex(State())

    private struct State {
        var shown: String?
        var lastDraw: ContinuousClock.Instant?
        var lastPhase: BuildProgress.Phase?
    }

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A build's progress on this line, or `nil` unless stderr is a terminal (not `TERM=dumb`) at the default log level.
    static func forBuild(_ logging: LoggingOptions, descriptor: Int32 = STDERR_FILENO) -> BuildProgress? {
        guard !logging.quiet, !logging.verbose, isatty(descriptor) == 1,
              ProcessInfo.processInfo.environment["TERM"] != "dumb" else { return nil }
        return BuildProgress(reporter: descriptor == STDERR_FILENO ? standardError : TerminalProgress(descriptor: descriptor))
    }

    func update(_ progress: BuildProgress.Snapshot) {
        state.withLock { state in
            let now = clock.now
            if progress.phase == state.lastPhase, let lastDraw = state.lastDraw, now - lastDraw < Self.interval { return }
            state.lastPhase = progress.phase
            state.lastDraw = now
            state.shown = progress.text
            put("\r" + progress.text + "\u{1B}[K")
        }
    }

    func finish() {
        state.withLock { state in
            if state.shown != nil { put(Self.clear) }
            state = State()
        }
    }

    /// Writes a whole line (a warning, an error), clearing the progress line first and redrawing it after, so it stays last.
    func write(_ line: String) {
        state.withLock { state in
            guard let shown = state.shown else { return put(line) }
            put(Self.clear + line + "\r" + shown + "\u{1B}[K")
        }
    }

    private func put(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
