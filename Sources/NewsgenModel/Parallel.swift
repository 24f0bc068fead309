import Foundation
import Synchronization

/// The one bounded-parallel map: rendering, validation, publishing and fetching all go through it.
package enum Parallel {
    /// The cores this process may use.
    package static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// `transform` applied to every item, at most `maxConcurrent` at a time (every core by
    /// default), results in the items' order.
    ///
    /// Items are handed out one at a time, in order, to whichever of the `maxConcurrent` workers
    /// is free, so a worker that drew cheap items takes more of them: put the costliest items
    /// first for the shortest run. Items `isLarge` marks (a site's largest pages, tens of
    /// megabytes each while they are made) run one at a time: one that must wait lets the items
    /// after it start, and starts first once the large one running is done.
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

    /// `transform` applied to every item, at most `maxConcurrent` at a time and at most
    /// `maxPerKey` at a time of the items that share a key (items with a `nil` key have no such
    /// limit); results in the items' order.
    ///
    /// Items start in order, except that one whose key is at its limit is passed over for the
    /// next one that may start: the fetch stage keys sources by host, so a slow host holds
    /// `maxPerKey` slots and the others go on around it.
    package static func map<T: Sendable, R: Sendable>(
        _ items: [T], maxConcurrent: Int, maxPerKey: Int, key: (T) -> String?,
        _ transform: @escaping @Sendable (T) async -> R
    ) async -> [R] {
        let keys = items.map(key)
        let limit = max(1, maxConcurrent)
        let perKey = max(1, maxPerKey)
        var waiting = Array(items.indices)
        var running: [String: Int] = [:]
        var results: [R?] = Array(repeating: nil, count: items.count)
        await withTaskGroup(of: (Int, R).self) { group in
            var active = 0
            while true {
                var position = 0
                while active < limit, position < waiting.count {
                    let index = waiting[position]
                    if let key = keys[index] {
                        guard running[key, default: 0] < perKey else {
                            position += 1
                            continue
                        }
                        running[key, default: 0] += 1
                    }
                    waiting.remove(at: position)
                    active += 1
                    let item = items[index]
                    group.addTask { (index, await transform(item)) }
                }
                guard let (index, result) = await group.next() else { break }
                active -= 1
                if let key = keys[index] { running[key, default: 1] -= 1 }
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
        // concurrentPerform returns once both have run (the calling thread runs one of them),
        // each into its own place.
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { a.pointer.initialize(to: first()) } else { b.pointer.initialize(to: second()) }
                }
            }
        }
        return (a.pointer.move(), b.pointer.move())
    }

    /// `body` applied to parts of `items` on every core at once, the results joined in order.
    /// The items are cut into eight parts, each taken by whichever core is free, so that a core
    /// busy with other work holds back no more than a part.
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

    /// How many parts `inParts` makes.
    private static let partsPerPass = 8

    /// The places `0..<count` cut into `parts` ranges (at least one) of nearly equal size, in
    /// order: none is more than one place longer than another. Fewer places than parts leave
    /// some ranges empty.
    package static func ranges(of count: Int, parts: Int) -> [Range<Int>] {
        let parts = max(1, parts)
        return (0..<parts).map { part in count * part / parts..<count * (part + 1) / parts }
    }

    /// Memory for one result of `both` or `inParts`. Safe to share: each place is written by
    /// the one iteration of `concurrentPerform` that owns it, and read only after
    /// `concurrentPerform` has returned.
    private struct Place<T>: @unchecked Sendable {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    }
}

/// Hands out the indices of the items, each once, in order, to whichever worker asks next, and
/// keeps each worker's result in its item's place; but no large index while another is being
/// worked on: a large index passed over waits, and is handed out first once none is.
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

    /// Keeps the result of the item the caller finished, if any, and gives it the next index;
    /// `nil` when there is nothing left for it.
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
            // Nothing left but large indices waiting for the one being worked on: the worker
            // on it takes them when it is done, one after the other.
            return nil
        }
    }

    /// Every result, in the items' order, once every worker is done.
    func results() -> [R] {
        state.withLock { $0.results.compactMap { $0 } }
    }
}
