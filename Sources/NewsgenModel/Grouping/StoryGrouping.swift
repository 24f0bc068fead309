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

        // Every story's group as known, with each group's earliest time and its sources.
        var groupOf: [Int: String] = [:]
        var earliest: [String: Double] = [:]
        var sources: [String: Set<String>] = [:]
        for index in stories.indices {
            guard let time = times[index], let group = known[stories[index].id] else { continue }
            groupOf[index] = group
            earliest[group] = min(earliest[group] ?? time, time)
            sources[group, default: []].insert(stories[index].sourceID)
        }

        // The stories a newcomer may be compared with lie within two windows of it: a group spans one window from its
        // earliest story. Word weights are those of these stories, the news of those days.
        let compared = stories.indices.filter { index in
            guard let time = times[index] else { return false }
            return time >= first - 2 * window && time <= last + 2 * window
        }.sorted(by: earliestFirst)
        let vectors = TermVectors(compared.map { Self.fields(of: stories[$0]) })
        let place = Dictionary(uniqueKeysWithValues: compared.enumerated().map { ($1, $0) })
        let distinctive = max(20, compared.count / 20)

        var members: [String: [Int]] = [:]
        var postings: [Int32: [Int]] = [:]
        func indexTerms(of position: Int) {
            let vector = vectors.vectors[position]
            for term in vector.terms where vectors.documentFrequency[Int(term)] <= distinctive {
                postings[term, default: []].append(position)
            }
        }
        for (position, story) in compared.enumerated() {
            guard let group = groupOf[story] else { continue }
            members[group, default: []].append(position)
            indexTerms(of: position)
        }

        var assigned: [String: String] = [:]
        for story in newcomers {
            guard let position = place[story], let time = times[story] else { continue }
            let source = stories[story].sourceID
            var candidates: [String] = []
            for term in vectors.vectors[position].terms {
                for other in postings[term] ?? [] {
                    if let group = groupOf[compared[other]] { candidates.append(group) }
                }
            }
            var best: (score: Float, group: String)?
            for group in Set(candidates).sorted() {
                guard let start = earliest[group], abs(time - start) <= window,
                      sources[group]?.contains(source) != true, let others = members[group], !others.isEmpty
                else { continue }
                var sum: Float = 0
                for other in others { sum += vectors.similarity(position, other) }
                let score = sum / Float(others.count)
                if score >= threshold, score > best?.score ?? -1 { best = (score, group) }
            }
            let group = best?.group ?? stories[story].id
            assigned[stories[story].id] = group
            groupOf[story] = group
            earliest[group] = min(earliest[group] ?? time, time)
            sources[group, default: []].insert(source)
            members[group, default: []].append(position)
            indexTerms(of: position)
        }
        return assigned
    }
}
