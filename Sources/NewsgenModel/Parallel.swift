import Foundation
import Synchronization

/// The one bounded-parallel map: rendering, validation, publishing and fetching all go through it.
package enum Parallel {
    /// The cores this process may use.
    package static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// `transform` of every item, at most `maxConcurrent` at a time (default: every core), results in item order.
    /// Items go out in order to whichever worker is free, so put the costliest first. Items `isLarge` marks run one
    /// at a time: a waiting one lets later items start, and goes first once the running large one is done.
    package static func map<T: Sendable, R: Sendable>(
        _ items: [T], maxConcurrent: Int = Parallel.cores,
        isLarge: (T) -> Bool = { _ in false },
        _ transform: @escaping @Sendable (T) async -> R
    ) async -> [R] {
        let queue = WorkQueue<R>(large: items.map(isLarge))
        let workers = max(1, min(maxConcurrent, items.count))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    var index = queue.next(after: nil)
                    while let current = index {
                        index = queue.next(after: (current, await transform(items[current])))
                    }
                }
            }
        }
        return queue.results()
    }

    /// `transform` of every item, at most `maxConcurrent` at a time and `maxPerKey` at a time per key (`nil` keys
    /// have no limit); results in item order. An item whose key is at its limit is passed over for the next, so a
    /// slow host holds only `maxPerKey` slots.
    package static func map<T: Sendable, R: Sendable>(
        _ items: [T], maxConcurrent: Int, maxPerKey: Int, key: (T) -> String?,
        _ transform: @escaping @Sendable (T) async -> R
    ) async -> [R] {
        let limit = max(1, maxConcurrent)
        var waiting = KeyedQueue(keys: items.map(key), perKey: max(1, maxPerKey))
        var results: [R?] = Array(repeating: nil, count: items.count)
        await withTaskGroup(of: (Int, R).self) { group in
            var active = 0
            while true {
                while active < limit, let index = waiting.take() {
                    active += 1
                    let item = items[index]
                    group.addTask { (index, await transform(item)) }
                }
                guard let (index, result) = await group.next() else { break }
                active -= 1
                waiting.finished(index)
                results[index] = result
            }
        }
        return results.compactMap { $0 }
    }
}

extension Parallel {
    /// `first` and `second` at once, `second` on another core when one is free.
    package static func both<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
        let a = Place<A>(), b = Place<B>()
        defer {
            a.pointer.deallocate()
            b.pointer.deallocate()
        }
        // concurrentPerform returns once both have run, each into its own place.
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { a.pointer.initialize(to: first()) } else { b.pointer.initialize(to: second()) }
                }
            }
        }
        return (a.pointer.move(), b.pointer.move())
    }

    /// `body` of parts of `items` on every core, results joined in order. Eight parts, each taken by whichever core
    /// is free, so a busy core holds back no more than one part.
    package static func inParts<T: Sendable, R: Sendable>(_ items: [T], _ body: @Sendable (ArraySlice<T>) -> [R]) -> [R] {
        let ranges = Self.ranges(of: items.count, parts: min(partsPerPass, max(1, items.count)))
        let places = ranges.map { _ in Place<[R]>() }
        defer { places.forEach { $0.pointer.deallocate() } }
        withoutActuallyEscaping(body) { body in
            DispatchQueue.concurrentPerform(iterations: ranges.count) { part in
                places[part].pointer.initialize(to: body(items[ranges[part]]))
            }
        }
        var joined: [R] = []
        joined.reserveCapacity(places.reduce(0) { $0 + $1.pointer.pointee.count })
        for place in places { joined += place.pointer.move() }
        return joined
    }

    private static let partsPerPass = 8

    /// `0..<count` cut into `parts` ranges (at least one), in order, no two differing by more than one place.
    package static func ranges(of count: Int, parts: Int) -> [Range<Int>] {
        let parts = max(1, parts)
        return (0..<parts).map { part in count * part / parts..<count * (part + 1) / parts }
    }

    /// Memory for one result of `both` or `inParts`. Safe to share: each place is written by the one
    /// `concurrentPerform` iteration that owns it, and read only after `concurrentPerform` returns.
    private struct Place<T>: @unchecked Sendable {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    }
}

/// Hands out item indices in order, each once, to whichever worker asks, and keeps each result in place; but no
/// large index while another is worked on: a passed-over large index goes first once none is.
private final class WorkQueue<R: Sendable>: Sendable {
    private struct State {
        let large: [Bool]
        var nextIndex = 0
        var waitingLarge: [Int] = []
        var largeRunning = false
        var results: [R?]
    }

    private let state: Mutex<State>

    init(large: [Bool]) {
        state = Mutex(State(large: large, results: Array(repeating: nil, count: large.count)))
    }

    /// Keeps the caller's finished result, if any, and gives it the next index; `nil` when none is left for it.
    func next(after finished: (index: Int, result: R)?) -> Int? {
        state.withLock { state in
            if let (index, result) = finished {
                state.results[index] = result
                if state.large[index] { state.largeRunning = false }
            }
            if !state.largeRunning, !state.waitingLarge.isEmpty {
                state.largeRunning = true
                return state.waitingLarge.removeFirst()
            }
            while state.nextIndex < state.large.count {
                let index = state.nextIndex
                state.nextIndex += 1
                guard state.large[index] else { return index }
                guard !state.largeRunning else {
                    state.waitingLarge.append(index)
                    continue
                }
                state.largeRunning = true
                return index
            }
            // Only large indices wait on the one in progress: its worker takes them in turn.
            return nil
        }
    }

    /// Every result, in the items' order, once every worker is done.
    func results() -> [R] {
        state.withLock { $0.results.compactMap { $0 } }
    }
}

/// Items waiting to run, in item order, of which at most `perKey` of one key run at once (an item without a key has no
/// limit): `take` gives the first item whose key is under its limit, `finished` frees its place. Each costs O(log keys),
/// whatever the count of items: ten thousand images of one host cost ten thousand steps, not their square.
struct KeyedQueue {
    /// Each item's key number; items without a key share the last number, which has no limit.
    private let keyOf: [Int]
    /// Each key's items in item order, and how many of them were taken.
    private var queues: [[Int]]
    private var taken: [Int]
    private var running: [Int]
    /// Whether each key is in `heap`.
    private var ready: [Bool]
    private let perKey: Int
    /// The keys under their limit with items left, as (their first waiting item, key), smallest item first.
    private var heap: [(item: Int, key: Int)] = []

    init(keys: [String?], perKey: Int) {
        var numbers: [String: Int] = [:]
        for key in keys.compactMap({ $0 }) where numbers[key] == nil { numbers[key] = numbers.count }
        let unlimited = numbers.count
        keyOf = keys.map { $0.flatMap { numbers[$0] } ?? unlimited }
        var queues = [[Int]](repeating: [], count: unlimited + 1)
        for (item, key) in keyOf.enumerated() { queues[key].append(item) }
        self.queues = queues
        taken = Array(repeating: 0, count: queues.count)
        running = Array(repeating: 0, count: queues.count)
        ready = Array(repeating: false, count: queues.count)
        self.perKey = perKey
        for key in queues.indices { offer(key) }
    }

    private func limit(of key: Int) -> Int { key == queues.count - 1 ? Int.max : perKey }

    /// The next item to run, or `nil` when every waiting item's key is at its limit (or none waits).
    mutating func take() -> Int? {
        guard let first = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        ready[first.key] = false
        taken[first.key] += 1
        running[first.key] += 1
        offer(first.key)
        return first.item
    }

    /// `item` (taken before) has finished: its key has a place again.
    mutating func finished(_ item: Int) {
        let key = keyOf[item]
        running[key] -= 1
        offer(key)
    }

    /// Puts `key` among the ready ones when it is under its limit, has items left and is not there yet.
    private mutating func offer(_ key: Int) {
        guard !ready[key], running[key] < limit(of: key), taken[key] < queues[key].count else { return }
        ready[key] = true
        heap.append((queues[key][taken[key]], key))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].item < heap[parent].item else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].item < heap[smallest].item { smallest = left }
            if right < heap.count, heap[right].item < heap[smallest].item { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
