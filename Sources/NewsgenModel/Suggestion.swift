/// "Did you mean …?" for names the user typed: the CLI's subcommands, site.json's keys,
/// the names a template uses.
public enum Suggestion {
    /// The name within edit distance 2 of `word`, or one it is the start of (`bui` → `build`,
    /// `apiKey` → `apiKeyEnv`).
    public static func closest(to word: String, in names: [String]) -> String? {
        if word.count >= 3, let extended = names.first(where: { $0.lowercased().hasPrefix(word.lowercased()) }) {
            return extended
        }
        let scored = names.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
