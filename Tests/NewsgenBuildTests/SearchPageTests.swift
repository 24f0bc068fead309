import Foundation
import Testing
import Hummingbird
@testable import NewsgenBuild
@testable import NewsgenRender
import NewsgenTestSupport

/// The search page's script, run by headless Chromium on the sample site (`SearchBrowser`): what typing finds and
/// how it is ranked, marked and filtered, and that the browser reads words and chunks as the index writes them.
@Suite("Search page in a browser")
struct SearchPageTests {
    static let harbourStrike = "Harbour strike ends as dockworkers & port authority agree wage deal"
    static let harbourside = "Late header sends unbeaten Harbourside into the cup quarter-finals"

    /// Texts the browser's `words` and `chunkOf` must read as `SearchText` and `SearchIndex` do.
    static let folding = ["Théâtre", "CAFÉ crème", "İstanbul", "ΟΔΟΣ ΣΟΦΙΑΣ", "ﬁnance ①②", "Don't panic: B2B, 2026!",
                          "東京タワー", "Zürich-Straße", "naïve façade", "a I o", "Ελληνικά ΚΑΙ ελληνικα", "ǅemal Ⅻ"]

    /// Ranking cases for `newsgenSearch.rank`, with the order each must give.
    static let ranking: [(SearchBrowser.RankCase, [Int])] = [
        // Equal weights: the newest (highest number) first.
        (.init(terms: [[[1, 10], [2, 10], [3, 10]]], stories: 10), [3, 2, 1]),
        // A heavier weight first, then newest.
        (.init(terms: [[[1, 20], [2, 10], [3, 10]]], stories: 10), [1, 3, 2]),
        // Every word must match; the rarer word weighs more (BM25's idf).
        (.init(terms: [[[5, 10], [6, 5]], [[5, 5], [6, 10]] + (7..<60).map { [$0, 1] }], stories: 100), [5, 6]),
    ]

    @Test("typing finds the stories every word is in, title matches first, the last word as a prefix, with matched words marked; filters and ?q= work; Enter opens the first")
    func typing() async throws {
        let browser = try SearchBrowser.chromium()
        let (output, _) = try await SampleSiteValidationTests.buildSample()
        let harness = SearchBrowser.harness(
            typed: ["harbour", "THÉÂTRE chekhov", "qzxvw", "harbour ", "the ", "harbour strike"],
            linked: ["?q=harbour%20strike", "?q=harbour&source=touchline", "?q=harbour&category=world",
                     "?q=harbour&from=2026-11-20", "?source=touchline"],
            folding: Self.folding, ranking: Self.ranking.map(\.0))
        try Data(harness.utf8).write(to: output.appendingPathComponent("search-harness.html"))

        let dom = try await withTestServer({ router in
            router.add(middleware: FileMiddleware(output.path, searchForIndexHtml: true))
        }) { url in
            try await SearchBrowser.dumpDOM(browser, url: url.appendingPathComponent("search-harness.html"))
        }
        let report = try SearchBrowser.report(in: dom)
        #expect(report.error == nil, "the harness failed: \(report.error ?? "")")
        let typed = try #require(report.typed)
        try #require(typed.count == 6)

        let harbour = typed[0]
        #expect(Set(harbour.titles.prefix(2)) == [Self.harbourStrike, Self.harbourside], "title matches first: \(harbour.titles)")
        #expect(harbour.titles.count > 2, "a word in the summary or full text finds its story too: \(harbour.titles)")
        #expect(harbour.status == "\(harbour.titles.count) stories match \u{201C}harbour\u{201D}.")
        #expect(harbour.hrefs.allSatisfy { $0.contains("/articles/") }, "results link to the stories' pages: \(harbour.hrefs)")
        #expect(harbour.focusable, "every result is a link Tab reaches")
        #expect(harbour.url == "?q=harbour", "the query is kept in the URL")
        #expect(!harbour.marks.isEmpty && harbour.marks.allSatisfy { $0.lowercased().hasPrefix("harbour") }, "\(harbour.marks)")

        let folded = typed[1]
        #expect(folded.titles == ["Theatre company stages Chekhov in a working launderette — and it works"], "\(folded.titles)")
        #expect(folded.status == "1 story matches \u{201C}THÉÂTRE chekhov\u{201D}.")
        #expect(folded.marks == ["Theatre", "Chekhov"], "\(folded.marks)")

        let nonsense = typed[2]
        #expect(nonsense.titles.isEmpty)
        #expect(nonsense.status == "No stories match \u{201C}qzxvw\u{201D}.")

        let whole = typed[3]
        #expect(whole.titles.contains(Self.harbourStrike) && !whole.titles.contains(Self.harbourside),
                "after a space the word is whole, not a prefix: \(whole.titles)")

        let many = typed[4]
        #expect(many.titles.count == 5, "five at a time: \(many.titles.count)")
        #expect(many.status.hasSuffix("\u{201C}the\u{201D}; the first 5 are shown."), "\(many.status)")

        let both = typed[5]
        #expect(both.titles.first == Self.harbourStrike, "\(both.titles)")
        #expect(both.titles.count < harbour.titles.count, "every word must match: \(both.titles)")

        let linked = try #require(report.linked)
        try #require(linked.count == 5)
        #expect(linked[0].titles.first == Self.harbourStrike, "?q= is read: \(linked[0].titles)")
        #expect(linked[1].titles == [Self.harbourside], "?source= keeps that source's stories: \(linked[1].titles)")
        #expect(linked[1].status == "1 story matches \u{201C}harbour\u{201D} from Touchline.")
        #expect(linked[2].titles.contains(Self.harbourStrike) && !linked[2].titles.contains(Self.harbourside),
                "?category= keeps that section's stories: \(linked[2].titles)")
        #expect(!linked[3].titles.contains(Self.harbourStrike) && linked[3].titles.contains(Self.harbourside),
                "?from= leaves out older days: \(linked[3].titles)")
        #expect(linked[4].titles.count == 5 && linked[4].status.hasSuffix(" from Touchline; the first 5 are shown."),
                "a filter alone lists its stories, newest first: \(linked[4].status)")
        #expect(report.afterEnter?.hasPrefix("/articles/harbour-strike-ends") == true, "Enter opens the first result: \(report.afterEnter ?? "nothing")")
        #expect(report.label == "Words to look for in titles, summaries, full text, sources and tags", "the box is labelled")

        #expect(report.words == Self.folding.map(SearchText.words), "the browser reads words as the index does")
        let terms = Self.folding.flatMap(SearchText.words)
        #expect(report.chunks == terms.map { SearchIndex.chunk(of: $0, count: 64) }, "the browser finds a word's chunk where the index put it")
        #expect(report.ranked == Self.ranking.map(\.1), "ranking: weight times rarity, then newest")
        #expect(report.rankedFirst == Self.ranking.map { Array($0.1.prefix(1)) }, "a limit keeps the first of the same order")
    }
}
