import Foundation
import NewsgenModel

/// Writes the files of the search index (`SearchIndex`) for stories by their numbers.
struct SearchIndexWriter: Sendable {
    /// The numbers of the stories the index holds, rising; a number below the last that is not here is a hole.
    var numbers: [Int]
    /// The story numbered `numbers[index]`, with the text it is found by, made when its turn comes: the texts of a few
    /// thousand stories are held at once, never the archive's.
    var story: @Sendable (_ index: Int) -> SearchStory
    /// Every source's id and name, in site.json's order: `SearchRecord.source` counts in it.
    var sources: [(id: String, name: String)]
    /// Every category's slug and name, in site.json's order.
    var categories: [(slug: String, name: String)]

    /// The index as made: the manifest, the delta and the chunks by path, and each number's record (`nil` for a hole),
    /// of which the shards are made one at a time as asked for (together they are the largest part of the index).
    struct Made: Sendable {
        var files: [String: Data]
        var records: [SearchRecord?]

        /// The bytes of `path`, one of `SearchIndex.paths`; `nil` for another path.
        func data(_ path: String) -> Data? {
            if let data = files[path] { return data }
            guard let shard = SearchIndex.shard(ofPath: path) else { return nil }
            let start = shard * SearchIndex.recordsPerShard
            let slice = records[min(records.count, start)..<min(records.count, start + SearchIndex.recordsPerShard)]
            guard slice.contains(where: { $0 != nil }) else { return nil }
            return SearchIndexWriter.shard(slice)
        }
    }

    /// Stories whose weights are worked out at once: a build holds the weights of these, not of the whole archive.
    static let storiesAtOnce = 4_096

    /// One past the highest number.
    var end: Int { (numbers.last ?? -1) + 1 }

    /// Every file of the index by path: exactly `SearchIndex.paths(numbers:)`.
    func files() -> [String: Data] {
        let made = make()
        return Dictionary(uniqueKeysWithValues: SearchIndex.paths(numbers: numbers).compactMap { path in
            made.data(path).map { (path, $0) }
        })
    }

    /// The index, its record shards left to be made as asked.
    func make() -> Made {
        let end = self.end
        let base = SearchIndex.baseCount(of: end)
        let chunkCount = SearchIndex.chunkCount(base: base)
        let story = self.story

        // Postings per term (`SearchPostings.packed`), in rising story order: the chunks' for stories below `base`, the
        // delta's for the rest.
        var chunked: [String: [UInt32]] = [:]
        var delta: [String: [UInt32]] = [:]
        var records = [SearchRecord?](repeating: nil, count: end)
        for first in stride(from: 0, to: numbers.count, by: Self.storiesAtOnce) {
            let indices = Array(first..<min(numbers.count, first + Self.storiesAtOnce))
            let made = Parallel.inParts(indices) { part in
                part.map { index in
                    let found = story(index)
                    return (found.record, SearchWeights.weights(of: found))
                }
            }
            for (index, (record, terms)) in zip(indices, made) {
                let number = numbers[index]
                records[number] = record
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
        deltaJSON.integer(end - base)
        deltaJSON.append(",\"first\":")
        deltaJSON.integer(base)
        deltaJSON.append(",\"stories\":")
        deltaJSON.integer(numbers.count)
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

    private func manifest(base: Int, chunks: Int, records: [SearchRecord?]) -> Data {
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
        for (number, record) in records.enumerated() {
            // A hole is listed as a story without a date: no date range holds it.
            let day = record?.day ?? ""
            guard day != previous else { continue }
            if previous != nil { json.append(",") }
            previous = day
            json.append("[")
            json.string(day)
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

    /// A record shard's bytes: `null` for a hole.
    static func shard(_ records: ArraySlice<SearchRecord?>) -> Data {
        var json = JSONBytes(capacity: records.count * 320)
        json.append("[")
        for (position, record) in records.enumerated() {
            if position > 0 { json.append(",\n") }
            guard let story = record else {
                json.append("null")
                continue
            }
            json.append("[")
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
