/// "Did you mean …?" for names the user typed: the CLI's subcommands, as site.json's keys.
public enum Suggestion {
    /// The name within edit distance 2 of `word`, or one it is the start of (`bui` → `build`).
    public static func closest(to word: String, in names: [String]) -> String? {
        ConfigReader.closest(to: word, in: names)
    }
}
