import Foundation
import Synchronization

/// A display of how far a build is (the updating line `newsgen build` shows on a terminal). Called from the build's tasks,
/// so it must be thread-safe and cheap: it may drop updates, but not the first of a phase.
package protocol ProgressReporter: Sendable {
    func update(_ progress: BuildProgress.Snapshot)
    /// The build has ended, published or not: take the display away.
    func finish()
}

/// Counts what a build has done in its current phase and passes each new count to a `ProgressReporter`, once per finished
/// item; a build without one (cron, tests) pays nothing.
package final class BuildProgress: Sendable {
    /// The parts of a build worth a count, named as the line shows them.
    package enum Phase: String, Sendable {
        case fetching, rendering, writing, validating

        package var unit: String { self == .fetching ? "sources" : "files" }
        /// Whether items are counted as they finish; writing and validating only say how many.
        package var countsItems: Bool { self == .fetching || self == .rendering }
    }

    /// Where a phase stands: `done` of `total` items.
    package struct Snapshot: Sendable, Equatable {
        package var phase: Phase
        package var done: Int
        package var total: Int

        package init(phase: Phase, done: Int, total: Int) {
            self.phase = phase
            self.done = done
            self.total = total
        }

        /// The line a terminal shows: `fetching 37/100 sources`, `rendering 4,200/10,600 files`, `validating 10,600 files`.
        package var text: String {
            let total = Self.grouped(total)
            guard phase.countsItems else { return "\(phase.rawValue) \(total) \(phase.unit)" }
            guard self.total > 0 else { return "\(phase.rawValue) \(phase.unit)" }
            return "\(phase.rawValue) \(Self.grouped(done))/\(total) \(phase.unit)"
        }

        /// Thousands separated by commas, whatever the locale (`10,600`).
        static func grouped(_ number: Int) -> String {
            var digits = String(number.magnitude)
            var index = digits.endIndex
            while digits.distance(from: digits.startIndex, to: index) > 3 {
                index = digits.index(index, offsetBy: -3)
                digits.insert(",", at: index)
            }
            return (number < 0 ? "-" : "") + digits
        }
    }

    private let reporter: any ProgressReporter
    /// The phase under way; the reporter is called while it is held, so it sees the counts in order.
    private let current = Mutex<Snapshot?>(nil)

    package init(reporter: any ProgressReporter) {
        self.reporter = reporter
    }

    /// A phase starts with `total` items (0 when only the phase itself knows, see `advance`).
    package func begin(_ phase: Phase, total: Int) {
        let snapshot = Snapshot(phase: phase, done: 0, total: total)
        current.withLock { current in
            current = snapshot
            reporter.update(snapshot)
        }
    }

    /// One more item of `phase` is done; `total` when the caller is the one that knows it. Items of an ended phase are ignored.
    package func advance(_ phase: Phase, total: Int? = nil) {
        current.withLock { current in
            guard var snapshot = current, snapshot.phase == phase else { return }
            snapshot.done += 1
            if let total { snapshot.total = total }
            snapshot.total = max(snapshot.total, snapshot.done)
            current = snapshot
            reporter.update(snapshot)
        }
    }

    package func finish() {
        current.withLock { current in
            current = nil
            reporter.finish()
        }
    }
}
