/// "Did you mean …?" for names the user typed: the CLI's subcommands, site.json's and saved.json's keys, the names a
/// template uses. One ranking for all of them.
public enum Suggestion {
    /// The names close to `word`, nearest first. Names are compared without case by Damerau–Levenshtein distance
    /// (optimal string alignment: an insertion, deletion, substitution or swap of two neighbours counts 1). A name is
    /// close when that distance is at most 1 (2 for a word of six characters or more) and less than the word's length,
    /// or when the word, three characters or more, is the name's start (`apiKey` → `apiKeyEnv`). Names as near come in
    /// alphabetical order (without case, then with), so the answer never depends on the order the names come in.
    public static func ranked(_ word: String, among names: [String]) -> [String] {
        let typed = Array(word.lowercased())
        let limit = typed.count >= 6 ? 2 : 1
        var candidates: [(name: String, distance: Int)] = []
        for name in Set(names) where name != word {
            let lowered = Array(name.lowercased())
            let distance = Self.distance(typed, lowered)
            let isClose = distance <= limit && distance < typed.count
            let isStart = typed.count >= 3 && lowered.starts(with: typed)
            if isClose || isStart { candidates.append((name, distance)) }
        }
        return candidates.sorted { ($0.distance, $0.name.lowercased(), $0.name) < ($1.distance, $1.name.lowercased(), $1.name) }
            .map(\.name)
    }

    /// The nearest of `names` to `word` by `ranked(_:among:)`; `nil` when none is close.
    public static func closest(to word: String, in names: [String]) -> String? {
        ranked(word, among: names).first
    }

    /// The Damerau–Levenshtein distance (optimal string alignment) between two strings, by characters.
    public static func distance(_ a: String, _ b: String) -> Int {
        distance(Array(a), Array(b))
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows of the table: two back (for swaps), the previous one and the current one.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = Swift.min(best, beforePrevious[j - 2] + 1)
                }
                current[j] = best
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
