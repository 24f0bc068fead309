import NewsgenModel

/// At most `width` documents parsed at once: by default one core fewer than the process has
/// (and at least one). Parsing is work for a core that never suspends, and the fetch stage runs
/// dozens of sources at once on Swift's cooperative pool, one thread a core: without this, a few
/// large feeds take every thread for seconds, and the other sources' requests, their deadlines
/// running, wait for them. A source waiting for a slot is suspended, not blocking a thread.
package actor ParsingSlots {
    private let width: Int
    private var busy = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    package init(width: Int = Parallel.cores - 1) {
        self.width = max(1, width)
    }

    /// Runs `body` in a slot, once one is free, on the caller's executor; a task cancelled while
    /// it waits still runs it (a parse checks cancellation itself, at once).
    package nonisolated func run<T: Sendable, E: Error>(_ body: () throws(E) -> T) async throws(E) -> T {
        await acquire()
        let result = Result(catching: body)
        await release()
        return try result.get()
    }

    private func acquire() async {
        while busy >= width {
            await withCheckedContinuation { waiting.append($0) }
        }
        busy += 1
    }

    private func release() {
        busy -= 1
        if !waiting.isEmpty { waiting.removeFirst().resume() }
    }
}
