import Foundation

/// The words of a story that grouping compares: letters folded to lowercase without accents, English stopwords left out,
/// a plural's `s` taken off, and figures kept whole (`3.25`, `8,412`, `2-1`, `2:05:41`), since a score or a price tells one
/// match or one day's market from another. The same text always gives the same terms, on every machine.
package enum StoryTerms {
    /// Calls `body` with each term of `text`, in order. With `markup`, the text is HTML: tags and character references
    /// are skipped, so only what a reader sees is read.
    package static func forEach(in text: String, markup: Bool = false, _ body: (String) -> Void) {
        var word: [UInt8] = []
        word.reserveCapacity(32)
        var kind = Kind.none
        var skipping = Skip.none

        func flush() {
            defer {
                word.removeAll(keepingCapacity: true)
                kind = .none
            }
            switch kind {
            case .none:
                return
            case .number:
                while let last = word.last, !isDigit(last) { word.removeLast() }
                if !word.isEmpty { body(String(decoding: word, as: UTF8.self)) }
            case .letters:
                guard word.count >= 2 else { return }
                let term = String(decoding: word, as: UTF8.self)
                guard !stopwords.contains(term) else { return }
                body(stemmed(term))
            }
        }

        for scalar in text.unicodeScalars {
            switch skipping {
            case .tag:
                if scalar == ">" { skipping = .none }
                continue
            case .reference(let length):
                skipping = scalar == ";" || length > 10 ? .none : .reference(length + 1)
                continue
            case .none:
                break
            }
            let value = scalar.value
            if value < 0x80 {
                let byte = UInt8(value)
                if isDigit(byte) {
                    if kind == .letters { flush() }
                    word.append(byte)
                    kind = .number
                } else if let lower = lowercaseLetter(byte) {
                    if kind == .number { flush() }
                    word.append(lower)
                    kind = .letters
                } else if kind == .number, figureMarks.contains(byte), let last = word.last, isDigit(last) {
                    // Kept only if a digit follows: `flush` drops a trailing mark.
                    word.append(byte)
                } else {
                    flush()
                    if markup && byte == UInt8(ascii: "<") { skipping = .tag }
                    if markup && byte == UInt8(ascii: "&") { skipping = .reference(0) }
                }
            } else if scalar.properties.isAlphabetic {
                if kind == .number { flush() }
                word.append(contentsOf: folded(scalar).utf8)
                kind = .letters
            } else {
                flush()
            }
        }
        flush()
    }

    private enum Kind { case none, letters, number }
    private enum Skip { case none, tag, reference(Int) }

    /// Marks that join the digits of one figure: `3.25`, `8,412`, `2-1`, `2:05:41`, `24/7`.
    private static let figureMarks: Set<UInt8> = [UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "/")]

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func lowercaseLetter(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x61...0x7A: byte
        case 0x41...0x5A: byte + 0x20
        default: nil
        }
    }

    /// A letter outside ASCII, lowercased and without its accents (`É` reads `e`, `ß` reads `ss`).
    private static func folded(_ scalar: Unicode.Scalar) -> String {
        String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }

    /// A plural read as its singular, roughly: `rates` → `rate`, `stories` → `story`; `-ss`, `-us` and `-is` are kept.
    static func stemmed(_ term: String) -> String {
        let utf8 = term.utf8
        guard let last = utf8.last, last == UInt8(ascii: "s"), utf8.count > 3 else { return term }
        if utf8.count > 4, term.hasSuffix("ies") { return String(term.dropLast(3)) + "y" }
        let before = utf8[utf8.index(utf8.endIndex, offsetBy: -2)]
        if before == UInt8(ascii: "s") || before == UInt8(ascii: "u") || before == UInt8(ascii: "i") { return term }
        return String(term.dropLast())
    }

    /// Words too common in English news to tell one story from another.
    static let stopwords: Set<String> = [
        "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "because",
        "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down",
        "during", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "herself",
        "him", "himself", "his", "how", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my",
        "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out",
        "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them",
        "themselves", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very",
        "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you",
        "your", "yours", "yourself", "yourselves", "says", "said", "say", "new", "us", "may", "might", "must", "shall", "one",
        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ]
}
