import Synchronization
import Foundation
import Testing
@testable import NewsgenModel

/// The one bounded-parallel map behind rendering, validation, publishing and fetching.
@Suite("Parallel.map")
struct ParallelTests {
    /// Counts the transforms running at once, and the most ever seen.
    final class Gauge: Sendable {
        private let counts = Mutex((running: 0, highest: 0))

        func enter() { counts.withLock { $0.running += 1; $0.highest = max($0.highest, $0.running) } }
        func leave() { counts.withLock { $0.running -= 1 } }
        var peak: Int { counts.withLock { $0.highest } }
    }

    @Test("results come back in the items' order, however long each takes")
    func keepsOrder() async {
        let items = Array(0..<40)
        let results = await Parallel.map(items, maxConcurrent: 4) { item in
            // The early items take longest, so they finish last.
            try? await Task.sleep(for: .milliseconds(2 * (40 - item) % 17))
            return "item \(item)"
        }
        #expect(results == items.map { "item \($0)" })
    }

    @Test("never more than maxConcurrent at once, and that many are used", arguments: [1, 3, 8])
    func bounded(limit: Int) async {
        let gauge = Gauge()
        let results = await Parallel.map(Array(0..<24), maxConcurrent: limit) { item in
            gauge.enter()
            try? await Task.sleep(for: .milliseconds(20))
            gauge.leave()
            return item * 2
        }
        #expect(results == (0..<24).map { $0 * 2 })
        #expect(gauge.peak == limit)
    }

    @Test("a synchronous transform, no items, and a limit below one")
    func edges() async {
        #expect(await Parallel.map([Int](), maxConcurrent: 4) { $0 + 1 }.isEmpty)
        #expect(await Parallel.map([1, 2, 3], maxConcurrent: 0) { $0 + 1 } == [2, 3, 4])
        #expect(await Parallel.map(["a", "b"]) { $0.uppercased() } == ["A", "B"])
    }

    @Test("large items run one at a time, the small ones around them go on, and every result comes back in order")
    func largeOneAtATime() async {
        let large = Gauge(), all = Gauge()
        // Large items in a row, at the start, and at the end, where nothing small is left to go on with.
        let isLarge: Set<Int> = [0, 1, 2, 10, 11, 20, 27, 28, 29]
        let results = await Parallel.map(Array(0..<30), maxConcurrent: 3, isLarge: { isLarge.contains($0) }) { item in
            all.enter()
            if isLarge.contains(item) { large.enter() }
            try? await Task.sleep(for: .milliseconds(isLarge.contains(item) ? 15 : 3))
            if isLarge.contains(item) { large.leave() }
            all.leave()
            return item * 10
        }
        #expect(results == (0..<30).map { $0 * 10 })
        #expect(large.peak == 1, "two large items ran at once")
        #expect(all.peak > 1, "small items ran beside the large ones")
    }

    /// Counts the instances alive.
    final class Counted: Sendable {
        static let alive = Mutex(0)
        let number: Int
        init(_ number: Int) { self.number = number; Self.alive.withLock { $0 += 1 } }
        deinit { Self.alive.withLock { $0 -= 1 } }
    }

    @Test("each result is kept once: every one is there, in order, and none outlives the array of results")
    func resultsOwnedOnce() async {
        do {
            let results = await Parallel.map(Array(0..<1000), maxConcurrent: 3) { Counted($0) }
            #expect(results.map(\.number) == Array(0..<1000))
            #expect(Counted.alive.withLock { $0 } == 1000)
        }
        #expect(Counted.alive.withLock { $0 } == 0)
    }

    @Test("both runs its two parts, each once, and gives their results in order")
    func both() {
        let runs = Mutex(0)
        let (number, text) = Parallel.both({ () -> Int in
            runs.withLock { $0 += 1 }
            return (1...1000).reduce(0, +)
        }, { () -> String in
            runs.withLock { $0 += 1 }
            return String(repeating: "ab", count: 3)
        })
        #expect(number == 500_500)
        #expect(text == "ababab")
        #expect(runs.withLock { $0 } == 2)
        // Results that are references come back alive, owned once.
        let (first, second) = Parallel.both({ [1, 2, 3] }, { ["a": [4]] })
        #expect(first == [1, 2, 3] && second == ["a": [4]])
    }

    @Test("inParts applies its body to parts of the items, each item once, and joins the results in order, whatever the count")
    func inParts() {
        for count in [0, 1, 2, 7, 8, 9, 15, 1_000] {
            let items = Array(0..<count)
            #expect(Parallel.inParts(items) { $0.map { $0 * 2 } } == items.map { $0 * 2 }, "\(count)")
            #expect(Parallel.inParts(items) { $0.filter { $0.isMultiple(of: 3) } } == items.filter { $0.isMultiple(of: 3) }, "\(count)")
            // The parts are slices of the items, with their places: together each place once.
            let parts = Mutex<[Range<Int>]>([])
            _ = Parallel.inParts(items) { part in
                parts.withLock { $0.append(part.indices) }
                return [Int]()
            }
            let ranges = parts.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound }
            #expect(ranges.flatMap { Array($0) } == items, "\(count): \(ranges)")
            #expect(ranges.count <= 8 && ranges.count == min(8, max(1, count)), "\(count): \(ranges)")
        }
    }

    @Test("ranges cut the places into the parts asked for (at least one), in order, each place once, none more than one place longer than another")
    func ranges() {
        for count in [0, 1, 2, 5, 6, 7, 100, 10_001] {
            for parts in [-1, 0, 1, 2, 6, 8, 200] {
                let ranges = Parallel.ranges(of: count, parts: parts)
                #expect(ranges.count == max(1, parts), "\(count) in \(parts)")
                #expect(ranges.flatMap { Array($0) } == Array(0..<count), "\(count) in \(parts): \(ranges)")
                let lengths = ranges.map(\.count)
                #expect((lengths.max() ?? 0) - (lengths.min() ?? 0) <= 1, "\(count) in \(parts): \(lengths)")
            }
        }
        #expect(Parallel.ranges(of: 10, parts: 3) == [0..<3, 3..<6, 6..<10])
    }

    @Test("the keyed queue gives the first item whose key is under its limit, frees a place when an item finishes, and lets items without a key through")
    func keyedQueue() {
        var queue = KeyedQueue(keys: ["a", "a", "b", nil, "a", "b", nil], perKey: 1)
        var taken: [Int] = []
        while let item = queue.take() { taken.append(item) }
        #expect(taken == [0, 2, 3, 6], "a's first, b's first, and both items without a key")
        queue.finished(2)
        #expect(queue.take() == 5, "b's next once b's first finished")
        #expect(queue.take() == nil)
        queue.finished(0)
        #expect(queue.take() == 1)
        queue.finished(1)
        #expect(queue.take() == 4)
        #expect(queue.take() == nil)

        // Ten thousand items of one host, two at a time: each take and finish is a step, not a pass over the rest.
        var one = KeyedQueue(keys: Array(repeating: "img.example.com", count: 10_000), perKey: 2)
        var order: [Int] = []
        var running = [one.take(), one.take()].compactMap { $0 }
        #expect(one.take() == nil)
        while let first = running.first {
            order.append(first)
            running.removeFirst()
            one.finished(first)
            if let next = one.take() { running.append(next) }
        }
        #expect(order == Array(0..<10_000))
    }

    @Test("map with keys: at most maxPerKey of one key at once, results in order")
    func keyedMap() async {
        let counter = RunningCount()
        let results = await Parallel.map(Array(0..<40), maxConcurrent: 8, maxPerKey: 2, key: { $0 % 4 == 0 ? "slow" : "\($0 % 3)" }) { item in
            await counter.enter(key: item % 4 == 0 ? "slow" : "\(item % 3)")
            await Task.yield()
            await counter.leave(key: item % 4 == 0 ? "slow" : "\(item % 3)")
            return item * 2
        }
        #expect(results == (0..<40).map { $0 * 2 })
        #expect(await counter.highest <= 2)
    }
}

/// The most items of one key seen running at once.
private actor RunningCount {
    private var now: [String: Int] = [:]
    private(set) var highest = 0
    func enter(key: String) {
        now[key, default: 0] += 1
        highest = max(highest, now[key, default: 0])
    }
    func leave(key: String) { now[key, default: 0] -= 1 }
}
