import Foundation
import Testing
@testable import NewsgenRender

/// search.json cuts each summary at a word's end (`SiteModelBuilder.shortened`), counting only
/// as far as the limit and trimming scalar by scalar. It must cut exactly as counting the whole
/// text and trimming with Foundation did.
@Suite("Shortened summaries")
struct ShortenedSummaryTests {
    /// The cut as it was first written: the whole text counted, Foundation's trim.
    static func reference(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        let prefix = text.prefix(limit - 1)
        let cut = prefix.lastIndex(where: \.isWhitespace).map { prefix[..<$0] } ?? prefix
        return cut.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters)) + "…"
    }

    @Test("texts around the limit, with spaces, punctuation, line breaks, accents, emoji and combining marks, are cut as before")
    func randomTexts() {
        let pieces = ["word", "Zoë", " ", "  ", ".", ",", "!", "…", "—", "\n", "\t", "\u{A0}", "e\u{301}", "👩‍👩‍👧", "🇳🇴", "日本", "«", "»",
                      "(", ")", "\"", "'", "x", "\r\n", "-", "a.b"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "x" }.joined()
            let limit = Int.random(in: 1...60, using: &generator)
            #expect(SiteModelBuilder.shortened(text, to: limit) == Self.reference(text, to: limit), "\(text.debugDescription) at \(limit)")
        }
    }

    @Test("ASCII texts, cut on their bytes, are cut as before: every ASCII character, line breaks, and a mark or letter past ASCII near the limit")
    func asciiTexts() {
        // Every printable ASCII character and the control characters that are whitespace, whole
        // words, and a few pieces past ASCII that join the character before them or are letters.
        let ascii = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) } + ["\t", "\n", "\u{0B}", "\u{0C}", "\r", "\r\n", "word", "news"]
        let beyond = ["\u{301}", "\u{200D}", "é", "\u{85}", "\u{A0}", "日"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<6_000 {
            var text = (0..<Int.random(in: 0...60, using: &generator)).map { _ in ascii.randomElement(using: &generator) ?? "x" }.joined()
            let limit = Int.random(in: 1...50, using: &generator)
            if Bool.random(using: &generator), let piece = beyond.randomElement(using: &generator) {
                let place = text.utf8.count == 0 ? 0 : Int.random(in: max(0, limit - 2)...(limit + 2), using: &generator)
                let index = text.utf8.index(text.utf8.startIndex, offsetBy: min(place, text.utf8.count))
                text.insert(contentsOf: piece, at: index)
            }
            #expect(SiteModelBuilder.shortened(text, to: limit) == Self.reference(text, to: limit), "\(text.debugDescription) at \(limit)")
            // As search.json takes it: bytes and an ellipsis, without a string made.
            let handed = SiteModelBuilder.withShortened(text, to: limit) { String(decoding: $0, as: UTF8.self) + ($1 ? "…" : "") }
            #expect(handed == Self.reference(text, to: limit), "withShortened: \(text.debugDescription) at \(limit)")
        }
    }

    @Test("a summary is cut before the last space that fits, without trailing punctuation, and one that fits is kept whole")
    func examples() {
        #expect(SiteModelBuilder.shortened("The harbour reopens, after a week.", to: 20) == "The harbour…")
        #expect(SiteModelBuilder.shortened("Short enough.", to: 20) == "Short enough.")
        #expect(SiteModelBuilder.shortened("Exactly twenty chars", to: 20) == "Exactly twenty chars")
        #expect(SiteModelBuilder.shortened("... ... ... ... ... ...", to: 10) == "…")
    }
}
