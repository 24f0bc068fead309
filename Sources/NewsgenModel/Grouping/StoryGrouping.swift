public import Foundation

/// Groups stories about the same event, as several outlets tell it: TF-IDF cosine over title, summary and the start of
/// the full text, within a time window, offline and deterministic (the same stories and the same known groups give the
/// same groups, bit for bit).
///
/// Only stories not yet grouped are assigned, earliest first (by time, then id); a group once given is never changed, so
/// the caller keeps each story's group (the cache does) and a later run adds new stories to groups without reshuffling
/// the others, however the weights of words drift as the news changes. A story joins the group whose stories it is most
/// like on average, when that average reaches `threshold`, the group's earliest story is within `window` of it, and no
/// story of the group comes from its source; otherwise it starts a group of its own, keyed by its id. Undated stories
/// are never grouped.
///
/// Candidates are found through an index of the words few stories share (at most `max(20, 5 %)` of the stories
/// compared), so the cost grows with the stories and their distinctive words, not with every pair of stories.
package struct StoryGrouping: Sendable {
    /// What grouping reads of a story.
    package struct Story: Sendable {
        package var id: String
        package var sourceID: String
        package var published: Date?
        package var title: String
        package var summary: String
        /// The full text as sanitized HTML, when the story has it; its first `textTermLimit` terms are read.
        package var html: String?

        package init(id: String, sourceID: String, published: Date?, title: String, summary: String, html: String? = nil) {
            self.id = id
            self.sourceID = sourceID
            self.published = published
            self.title = title
            self.summary = summary
            self.html = html
        }
    }

    /// The least average similarity for a story to join a group; tuned on the labelled stories of the tests
    /// (`Tests/NewsgenTestSupport/Fixtures/grouping/labelled.json`, docs/grouping.md).
    package static let defaultThreshold: Float = 0.35
    /// How far apart in time a group's stories may be: from its earliest story.
    package static let defaultWindow: TimeInterval = 48 * 3600
    /// How much the words of a title count against those of a summary (1) and of the full text (`textWeight`).
    static let titleWeight: Float = 2
    static let textWeight: Float = 0.5
    static let textTermLimit = 300

    package var threshold: Float
    package var window: TimeInterval

    package init(threshold: Float = Self.defaultThreshold, window: TimeInterval = Self.defaultWindow) {
        self.threshold = threshold
        self.window = window
    }

    /// The fields of a story that its vector is made of.
    package static func fields(of story: Story) -> [TermVectors.Field] {
        var fields = [TermVectors.Field(story.title, weight: titleWeight), TermVectors.Field(story.summary, weight: 1)]
        if let html = story.html { fields.append(TermVectors.Field(html, weight: textWeight, markup: true, limit: textTermLimit)) }
        return fields
    }

    /// The group of each dated story of `stories` that `known` (story id → group key) does not hold, by story id.
    /// Stories in `known` keep their groups; those in `known` but not in `stories` are not looked at.
    package func assign(_ stories: [Story], known: [String: String]) -> [String: String] {
        let times = stories.map { $0.published?.timeIntervalSince1970 }
        let earliestFirst = { (left: Int, right: Int) -> Bool in
            (times[left] ?? 0, stories[left].id) < (times[right] ?? 0, stories[right].id)
        }
        let newcomers = stories.indices.filter { times[$0] != nil && known[stories[$0].id] == nil }.sorted(by: earliestFirst)
        guard let first = newcomers.first.flatMap({ times[$0] }), let last = newcomers.last.flatMap({ times[$0] }) else { return [:] }

        // The groups known, numbered in order of their keys, each with its earliest time and its sources.
        var groups = Groups()
        var knownGroup = Array(repeating: -1, count: stories.count)
        for key in Set(stories.indices.compactMap { times[$0] != nil ? known[stories[$0].id] : nil }).sorted() {
            groups.add(key: key)
        }
        for index in stories.indices {
            guard let time = times[index], let key = known[stories[index].id], let group = groups.number[key] else { continue }
            knownGroup[index] = group
            groups.note(time: time, source: stories[index].sourceID, in: group)
        }

        // The stories a newcomer may be compared with lie within two windows of it: a group spans one window from its
        // earliest story. Word weights are those of these stories, the news of those days.
        let compared = stories.indices.filter { index in
            guard let time = times[index] else { return false }
            return time >= first - 2 * window && time <= last + 2 * window
        }.sorted(by: earliestFirst)
        let comparedTimes = compared.map { times[$0] ?? 0 }
        let vectors = TermVectors(compared.map { Self.fields(of: stories[$0]) })
        let place = Dictionary(uniqueKeysWithValues: compared.enumerated().map { ($1, $0) })

        // Each distinctive word's stories, in time order (`compared` is): a newcomer reads only those within two windows.
        let distinctive = max(20, compared.count / 20)
        var postings: [Int32: [Int]] = [:]
        for (position, vector) in vectors.vectors.enumerated() {
            for term in vector.terms where vectors.documentFrequency[Int(term)] <= distinctive {
                postings[term, default: []].append(position)
            }
        }
        var groupAt = compared.map { knownGroup[$0] }
        var members = Array(repeating: [Int](), count: groups.keys.count)
        for (position, group) in groupAt.enumerated() where group >= 0 { members[group].append(position) }

        var assigned: [String: String] = [:]
        for story in newcomers {
            guard let position = place[story], let time = times[story] else { continue }
            let source = stories[story].sourceID
            let from = Self.firstIndex(in: comparedTimes, notBefore: time - 2 * window)
            let to = Self.firstIndex(in: comparedTimes, notBefore: time + 2 * window + 1)
            var candidates: [Int] = []
            for term in vectors.vectors[position].terms {
                guard let posting = postings[term] else { continue }
                var index = Self.firstIndex(in: posting, notBefore: from)
                while index < posting.count, posting[index] < to {
                    if groupAt[posting[index]] >= 0 { candidates.append(groupAt[posting[index]]) }
                    index += 1
                }
            }
            candidates.sort()
            var best: (score: Float, group: Int)?
            var previous = -1
            for group in candidates where group != previous {
                previous = group
                guard abs(time - groups.earliest[group]) <= window, !groups.sources[group].contains(source) else { continue }
                var sum: Float = 0
                for other in members[group] { sum += vectors.similarity(position, other) }
                let score = sum / Float(members[group].count)
                guard score >= threshold else { continue }
                if let chosen = best, score < chosen.score || (score == chosen.score && groups.keys[group] > groups.keys[chosen.group]) {
                    continue
                }
                best = (score, group)
            }
            let group = best?.group ?? groups.add(key: stories[story].id)
            assigned[stories[story].id] = groups.keys[group]
            groups.note(time: time, source: source, in: group)
            groupAt[position] = group
            if group == members.count { members.append([]) }
            members[group].append(position)
        }
        return assigned
    }

    /// The groups seen while assigning, by number: key, earliest time, sources.
    private struct Groups {
        var keys: [String] = []
        var number: [String: Int] = [:]
        var earliest: [Double] = []
        var sources: [Set<String>] = []

        /// Numbers a new group; returns its number.
        @discardableResult
        mutating func add(key: String) -> Int {
            if let known = number[key] { return known }
            keys.append(key)
            number[key] = keys.count - 1
            earliest.append(.infinity)
            sources.append([])
            return keys.count - 1
        }

        mutating func note(time: Double, source: String, in group: Int) {
            earliest[group] = min(earliest[group], time)
            sources[group].insert(source)
        }
    }

    /// The first index of ascending `values` whose value is at least `bound` (`values.count` when none is).
    private static func firstIndex<Value: Comparable>(in values: [Value], notBefore bound: Value) -> Int {
        var (low, high) = (0, values.count)
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
