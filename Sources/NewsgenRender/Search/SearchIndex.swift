import Foundation

/// The search index, version 4: what `assets/search.js` reads to search the archive without a server. A browser
/// fetches the manifest and the delta once, then only the chunk of each word typed, then the record shards of the
/// results it shows.
///
/// Each story has a number (`SearchNumbering`) that it keeps while it stays in the archive: numbers count the archive
/// oldest first, then go on in the order stories arrive; a story that leaves leaves a hole until the stories are
/// renumbered. With E one past the highest number, every file lives under `search/`:
///
/// - `manifest.json`: `{"version":4, "base":B, "chunks":C, "shard":R, "sources":[[id,name]…],
///   "categories":[[slug,name]…], "days":[[day,first]…]}`. Stories numbered below B are in the chunks, the rest in the
///   delta. `days` lists each run of numbers sharing a UTC day ("yyyy-mm-dd"; "" for a story without a date and for a
///   hole) with its first number, so a date range is a set of ranges of numbers.
/// - `terms/<c>.json`, c in 0..<C: `{term: postings, …}` for every term of the stories below B whose *key* hashes to c.
///   A term's key is its first three characters (Unicode scalars), so every term a typed prefix of three or more
///   characters can finish is in one chunk; `SearchIndex.chunk(of:count:)` is the hash (FNV-1a over the key's
///   scalar values, modulo C). Besides words, `~s:<source id>` and `~c:<category slug>` list a source's and a
///   category's stories for the filters (keyed by the whole term).
/// - `delta.json`: `{"count":E−B, "first":B, "stories":N, "terms":{term: postings, …}}`: every term of the stories
///   numbered B and above (the newest), and N, how many stories the index holds (holes are not counted).
/// - `records/<s>.json`: numbers sR..<(s+1)R, each `[title, link, source, day, snippet]` or `null` for a hole (a shard
///   of holes alone is not written): `link` is the page's slug (`articles/<link>/`) or, for a story without a page,
///   its URL; `source` an index into the manifest's sources (−1 for none); `day` "yyyy-mm-dd" or ""; `snippet` the
///   summary (or the full text's start), plain text.
///
/// Postings (`SearchPostings`) list a term's stories in rising order with the weight of the term in each: a BM25 term
/// frequency over the story's fields with fixed field lengths, so that a story's weights never depend on the others
/// (`SearchWeights`). The browser adds the inverse document frequency from the postings' length and N.
///
/// Terms are all in the delta until E reaches the next multiple of `deltaBound`, so a build adding one newest story
/// rewrites the delta and the last record shard (and the manifest when a new day begins); every `deltaBound` numbers
/// the delta is merged into the chunks. A story leaving rewrites its record shard, the chunks of its terms (or the
/// delta) and the manifest. Every file is a function of the archive and its numbering, in a fixed order, so a build
/// with the same stories writes the same bytes and carries every index file over.
struct SearchIndex: Sendable {
    static let version = 4
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

    /// The numbers that go into the chunks, of `0..<end`: those below the largest multiple of `deltaBound` not above it.
    static func baseCount(of end: Int) -> Int { end / deltaBound * deltaBound }

    /// How many chunks the numbers below `base` are spread over: a power of two from 16 to 4,096, about 256 stories'
    /// terms each, so a chunk stays small as the archive grows and the count changes only when it doubles.
    static func chunkCount(base: Int) -> Int {
        var chunks = 16
        while chunks < 4_096 && chunks * 256 < base { chunks *= 2 }
        return chunks
    }

    /// Every file of the index for stories with `numbers` (rising), before any is made.
    static func paths(numbers: [Int]) -> [String] {
        let chunks = chunkCount(base: baseCount(of: (numbers.last ?? -1) + 1))
        var shards: [Int] = []
        for number in numbers where shards.last != number / recordsPerShard { shards.append(number / recordsPerShard) }
        return [manifestPath, deltaPath] + (0..<chunks).map(chunkPath) + shards.map(shardPath)
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
