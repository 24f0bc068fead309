import Foundation

/// The search index, version 3: what `assets/search.js` reads to search the archive without a server. A browser
/// fetches the manifest and the delta once, then only the chunk of each word typed, then the record shards of the
/// results it shows.
///
/// Stories are numbered oldest first: story 0 is the archive's last (oldest) story, story N−1 its newest. Every file
/// lives under `search/`:
///
/// - `manifest.json`: `{"version":3, "base":B, "chunks":C, "shard":R, "sources":[[id,name]…],
///   "categories":[[slug,name]…], "days":[[day,first]…]}`. Stories 0..<B are in the chunks, the rest in the delta.
///   `days` lists each run of stories sharing a UTC day ("yyyy-mm-dd", "" for no date) with its first story's number,
///   so a date range is a range of numbers.
/// - `terms/<c>.json`, c in 0..<C: `{term: postings, …}` for every term of stories 0..<B whose *key* hashes to c.
///   A term's key is its first three characters (Unicode scalars), so every term a typed prefix of three or more
///   characters can finish is in one chunk; `SearchIndex.chunk(of:count:)` is the hash (FNV-1a over the key's
///   scalar values, modulo C). Besides words, `~s:<source id>` and `~c:<category slug>` list a source's and a
///   category's stories for the filters (keyed by the whole term).
/// - `delta.json`: `{"first":B, "count":D, "terms":{term: postings, …}}`, every term of stories B..<B+D, the newest.
/// - `records/<s>.json`: stories sR..<(s+1)R, each `[title, link, source, day, snippet]`: `link` is the page's slug
///   (`articles/<link>/`) or, for a story without a page, its URL; `source` an index into the manifest's sources
///   (−1 for none); `day` "yyyy-mm-dd" or ""; `snippet` the summary (or the full text's start), plain text.
///
/// Postings (`SearchPostings`) list a term's stories in rising order with the weight of the term in each: a BM25 term
/// frequency over the story's fields with fixed field lengths, so that a story's weights never depend on the others
/// (`SearchWeights`). The browser adds the inverse document frequency from the postings' length and N.
///
/// Terms are all in the delta until B reaches the next multiple of `deltaBound`, so a build adding one newest story
/// rewrites the delta and the last record shard (and the manifest when a new day begins); every `deltaBound`
/// stories the delta is merged into the chunks. Every file is a function of the archive alone, in a fixed order, so
/// a build with the same stories writes the same bytes and carries every index file over.
struct SearchIndex: Sendable {
    static let version = 3
    static let recordsPerShard = 16
    static let deltaBound = 32

    static let manifestPath = "search/manifest.json"
    static let deltaPath = "search/delta.json"
    static func chunkPath(_ chunk: Int) -> String { "search/terms/\(chunk).json" }
    static func shardPath(_ shard: Int) -> String { "search/records/\(shard).json" }

    /// The shard number of a `shardPath`, or `nil` for another path.
    static func shard(ofPath path: String) -> Int? {
        let prefix = "search/records/", suffix = ".json"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix) else { return nil }
        return Int(path.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// The stories that go into the chunks, of `count`: the largest multiple of `deltaBound` not above it.
    static func baseCount(of count: Int) -> Int { count / deltaBound * deltaBound }

    /// How many chunks the stories in them are spread over: a power of two from 16 to 4,096, about 256 stories' terms
    /// each, so a chunk stays small as the archive grows and the count changes only when it doubles.
    static func chunkCount(base: Int) -> Int {
        var chunks = 16
        while chunks < 4_096 && chunks * 256 < base { chunks *= 2 }
        return chunks
    }

    /// Every file of the index for `count` stories, before any is made.
    static func paths(storyCount count: Int) -> [String] {
        let chunks = chunkCount(base: baseCount(of: count))
        let shards = (count + recordsPerShard - 1) / recordsPerShard
        return [manifestPath, deltaPath] + (0..<chunks).map(chunkPath) + (0..<shards).map(shardPath)
    }

    /// A term's key: its first three scalars, or the whole term for a filter's term (`~…`).
    static func key(of term: String) -> Substring.UnicodeScalarView {
        let scalars = term.unicodeScalars
        if scalars.first == "~" { return scalars[...] }
        return scalars.prefix(3)
    }

    /// The chunk that holds `term`, of `count` chunks (FNV-1a over its key's scalar values, as search.js hashes).
    static func chunk(of term: String, count: Int) -> Int {
        var hash: UInt32 = 2_166_136_261
        for scalar in key(of: term) {
            hash ^= scalar.value
            hash = hash &* 16_777_619
        }
        return Int(hash % UInt32(count))
    }
}
