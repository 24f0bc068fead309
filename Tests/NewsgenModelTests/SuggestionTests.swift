import Testing
@testable import NewsgenModel

/// The one "did you mean" ranking that site.json keys, saved.json keys, template names and commands share.
@Suite("Suggestions")
struct SuggestionTests {
    @Test("Damerau–Levenshtein: a swap of two neighbours counts one edit", arguments: [
        ("titel", "title", 1), ("titel", "site", 2), ("titl", "title", 1), ("", "abc", 3), ("abc", "", 3),
        ("abc", "abc", 0), ("ca", "abc", 3), ("headline", "heading", 2), ("fead", "feed", 1), ("ab", "ba", 1),
    ])
    func distance(a: String, b: String, expected: Int) {
        #expect(Suggestion.distance(a, b) == expected)
        #expect(Suggestion.distance(b, a) == expected)
    }

    @Test("the nearest name in scope wins, whatever the order the names come in", arguments: [
        ("titel", ["site", "title", "heading"], "title"),
        ("titl", ["site", "title", "heading"], "title"),
        ("tilte", ["title", "site"], "title"),
        ("fead", ["id", "name", "feed", "newsapi"], "feed"),
        ("apiKey", ["baseURL", "apiKeyEnv", "refreshMinutes"], "apiKeyEnv"),
        ("read-later", ["favorites", "readLater"], "readLater"),
        ("bui", ["build", "validate", "serve"], "build"),
    ])
    func nearest(word: String, names: [String], expected: String) {
        #expect(Suggestion.closest(to: word, in: names) == expected)
        #expect(Suggestion.closest(to: word, in: names.reversed()) == expected)
    }

    @Test("no suggestion when nothing is close", arguments: [
        ("frobnicate", ["build", "validate", "serve", "saved", "sources", "add"]),
        ("titel", ["site", "heading"]),
        ("x", ["q", "id"]),
        ("severity", ["title", "site", "heading"]),
    ])
    func nothingClose(word: String, names: [String]) {
        #expect(Suggestion.closest(to: word, in: names) == nil)
        #expect(Suggestion.ranked(word, among: names).isEmpty)
    }

    @Test("several close names: nearest first, then alphabetical")
    func ranking() {
        #expect(Suggestion.ranked("sorce", among: ["sources", "source", "score", "force"]) == ["force", "source"])
        #expect(Suggestion.ranked("Title", among: ["titles", "title"]) == ["title", "titles"])
    }
}
