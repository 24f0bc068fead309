import Foundation
import NewsgenModel

/// Writes the files of the search index (`SearchIndex`) for stories numbered oldest first.
struct SearchIndexWriter: Sendable {
    var stories: [SearchStory]
    /// Every source's id and name, in site.json's order: `SearchStory.source` counts in it.
    var sources: [(id: String, name: String)]
    /// Every category's slug and name, in site.json's order.
    var categories: [(slug: String, name: String)]

    /// Every file of the index by path: exactly `SearchIndex.paths(storyCount: stories.count)`.
    func files() -> [String: Data] {
        let count = stories.count
        let base = SearchIndex.baseCount(of: count)
        let chunkCount = SearchIndex.chunkCount(base: base)
        let stories = self.stories
        let weights = Parallel.inParts(Array(stories.indices)) { part in part.map { SearchWeights.weights(of: stories[$0]) } }

        // Postings per term, in rising story order: the chunks' for stories 0..<base, the delta's for the rest.
        var chunked: [String: [(number: Int, weight: Int)]] = [:]
        var delta: [String: [(number: Int, weight: Int)]] = [:]
        for (number, terms) in weights.enumerated() {
            for (term, weight) in terms {
                if number < base {
                    chunked[term, default: []].append((number, weight))
                } else {
                    delta[term, default: []].append((number, weight))
                }
            }
        }
        var chunks = [[String]](repeating: [], count: chunkCount)
        for term in chunked.keys { chunks[SearchIndex.chunk(of: term, count: chunkCount)].append(term) }

        var files: [String: Data] = [:]
        files[SearchIndex.manifestPath] = manifest(base: base, chunks: chunkCount)
        var deltaJSON = JSONBytes(capacity: 1 << 12)
        deltaJSON.append("{\"count\":")
        deltaJSON.integer(count - base)
        deltaJSON.append(",\"first\":")
        deltaJSON.integer(base)
        deltaJSON.append(",\"terms\":")
        Self.terms(delta, origin: base, into: &deltaJSON)
        deltaJSON.append("}\n")
        files[SearchIndex.deltaPath] = deltaJSON.data()
        for (number, terms) in chunks.enumerated() {
            var json = JSONBytes(capacity: 1 << 12)
            Self.terms(chunked, only: terms, origin: 0, into: &json)
            json.append("\n")
            files[SearchIndex.chunkPath(number)] = json.data()
        }
        for shard in 0..<(count + SearchIndex.recordsPerShard - 1) / SearchIndex.recordsPerShard {
            let start = shard * SearchIndex.recordsPerShard
            files[SearchIndex.shardPath(shard)] = records(stories[start..<min(count, start + SearchIndex.recordsPerShard)])
        }
        return files
    }

    private func manifest(base: Int, chunks: Int) -> Data {
        var json = JSONBytes(capacity: 1 << 12)
        json.append("{\"base\":")
        json.integer(base)
        json.append(",\"categories\":[")
        for (position, category) in categories.enumerated() {
            if position > 0 { json.append(",") }
            json.strings([category.slug, category.name])
        }
        json.append("],\"chunks\":")
        json.integer(chunks)
        json.append(",\"days\":[")
        var previous: String?
        var first = true
        for (number, story) in stories.enumerated() where story.day != previous {
            previous = story.day
            if !first { json.append(",") }
            first = false
            json.append("[")
            json.string(story.day)
            json.append(",")
            json.integer(number)
            json.append("]")
        }
        json.append("],\"shard\":")
        json.integer(SearchIndex.recordsPerShard)
        json.append(",\"sources\":[")
        for (position, source) in sources.enumerated() {
            if position > 0 { json.append(",") }
            json.strings([source.id, source.name])
        }
        json.append("],\"version\":")
        json.integer(SearchIndex.version)
        json.append("}\n")
        return json.data()
    }

    private func records(_ stories: ArraySlice<SearchStory>) -> Data {
        var json = JSONBytes(capacity: stories.count * 320)
        json.append("[")
        for (position, story) in stories.enumerated() {
            json.append(position > 0 ? ",\n[" : "[")
            json.string(story.title)
            json.append(",")
            json.string(story.link)
            json.append(",")
            json.integer(story.source)
            json.append(",")
            json.string(story.day)
            json.append(",")
            json.string(story.snippet)
            json.append("]")
        }
        json.append("]\n")
        return json.data()
    }

    /// `{term: postings, …}` for `only` (default every term), in code-point order.
    private static func terms(_ postings: [String: [(number: Int, weight: Int)]], only: [String]? = nil, origin: Int,
                              into json: inout JSONBytes) {
        let terms = (only ?? Array(postings.keys)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        json.append("{")
        var bytes: [UInt8] = []
        for (position, term) in terms.enumerated() {
            if position > 0 { json.append(",") }
            json.string(term)
            json.append(":")
            bytes.removeAll(keepingCapacity: true)
            SearchPostings.encode(postings[term] ?? [], origin: origin, into: &bytes)
            bytes.withUnsafeBufferPointer { json.string(utf8: $0) }
        }
        json.append("}")
    }
}
