import Foundation
import NewsgenModel

/// Writes the files of the search index (`SearchIndex`) for stories numbered oldest first.
struct SearchIndexWriter: Sendable {
    /// How many stories the index holds.
    var count: Int
    /// Story `number` with the text it is found by, made when its turn comes: the texts of a few thousand stories are
    /// held at once, never the archive's.
    var story: @Sendable (_ number: Int) -> SearchStory
    /// Every source's id and name, in site.json's order: `SearchRecord.source` counts in it.
    var sources: [(id: String, name: String)]
    /// Every category's slug and name, in site.json's order.
    var categories: [(slug: String, name: String)]

    /// The index as made: the manifest, the delta and the chunks by path, and the records the shards are made of,
    /// one shard at a time as it is asked for (together the shards are the largest part of the index).
    struct Made: Sendable {
        var files: [String: Data]
        var records: [SearchRecord]

        /// The bytes of `path`, one of `SearchIndex.paths`; `nil` for another path.
        func data(_ path: String) -> Data? {
            if let data = files[path] { return data }
            guard let shard = SearchIndex.shard(ofPath: path) else { return nil }
            let start = shard * SearchIndex.recordsPerShard
            guard start < records.count else { return nil }
            return SearchIndexWriter.shard(records[start..<min(records.count, start + SearchIndex.recordsPerShard)])
        }
    }

    /// Stories whose weights are worked out at once: a build holds the weights of these, not of the whole archive.
    static let storiesAtOnce = 4_096

    /// Every file of the index by path: exactly `SearchIndex.paths(storyCount: count)`.
    func files() -> [String: Data] {
        let made = make()
        return Dictionary(uniqueKeysWithValues: SearchIndex.paths(storyCount: count).compactMap { path in
            made.data(path).map { (path, $0) }
        })
    }

    /// The index, its record shards left to be made as asked.
    func make() -> Made {
        let base = SearchIndex.baseCount(of: count)
        let chunkCount = SearchIndex.chunkCount(base: base)
        let story = self.story

        // Postings per term (`SearchPostings.packed`), in rising story order: the chunks' for stories 0..<base, the
        // delta's for the rest.
        var chunked: [String: [UInt32]] = [:]
        var delta: [String: [UInt32]] = [:]
        var records: [SearchRecord] = []
        records.reserveCapacity(count)
        for first in stride(from: 0, to: count, by: Self.storiesAtOnce) {
            let numbers = Array(first..<min(count, first + Self.storiesAtOnce))
            let made = Parallel.inParts(numbers) { part in
                part.map { number in
                    let found = story(number)
                    return (found.record, SearchWeights.weights(of: found))
                }
            }
            for (number, (record, terms)) in zip(numbers, made) {
                records.append(record)
                for (term, weight) in terms {
                    let posting = SearchPostings.packed(number, weight)
                    if number < base {
                        chunked[term, default: []].append(posting)
                    } else {
                        delta[term, default: []].append(posting)
                    }
                }
            }
        }
        var chunks = [[String]](repeating: [], count: chunkCount)
        for term in chunked.keys { chunks[SearchIndex.chunk(of: term, count: chunkCount)].append(term) }

        var files: [String: Data] = [:]
        files[SearchIndex.manifestPath] = manifest(base: base, chunks: chunkCount, records: records)
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
        return Made(files: files, records: records)
    }

    private func manifest(base: Int, chunks: Int, records: [SearchRecord]) -> Data {
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
        for (number, record) in records.enumerated() where record.day != previous {
            previous = record.day
            if !first { json.append(",") }
            first = false
            json.append("[")
            json.string(record.day)
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

    /// A record shard's bytes.
    static func shard(_ records: ArraySlice<SearchRecord>) -> Data {
        var json = JSONBytes(capacity: records.count * 320)
        json.append("[")
        for (position, story) in records.enumerated() {
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
    private static func terms(_ postings: [String: [UInt32]], only: [String]? = nil, origin: Int,
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
