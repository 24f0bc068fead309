import Foundation

/// How search reads text into words, the same in the index (here) and in the browser (`assets/search.js`, `fold` and
/// `words`), so that a word typed finds the word written:
/// - folded: lower-cased, decomposed (NFKD) with the combining marks U+0300–U+036F dropped, and final sigma as sigma,
///   so "Café", "CAFE" and "cafe" are one word;
/// - split into words at every character that is not a letter or a number (Unicode categories L and N);
/// - words of one character left out (they would match nearly every story and say little).
/// `SearchPageTests` checks the two implementations against the same cases in a browser.
enum SearchText {
    /// The shortest word that is indexed, or looked up when typed.
    static let shortestWord = 2

    /// `text` folded: "Théâtre" → "theatre".
    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.lowercased()
        }
        let decomposed = text.lowercased().decomposedStringWithCompatibilityMapping
        var folded = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars where !(0x300...0x36F).contains(scalar.value) {
            folded.append(scalar == "ς" ? "σ" : scalar)
        }
        return String(folded)
    }

    /// The folded words of `text`, in order, repeats kept.
    static func words(_ text: String) -> [String] {
        var text = text
        if let words = text.withUTF8(asciiWords) { return words }
        var words: [String] = []
        var current = String.UnicodeScalarView()
        var length = 0
        func end() {
            if length >= shortestWord { words.append(String(current)) }
            current = String.UnicodeScalarView()
            length = 0
        }
        for scalar in fold(text).unicodeScalars {
            if isWordScalar(scalar) {
                current.append(scalar)
                length += 1
            } else if length > 0 {
                end()
            }
        }
        if length > 0 { end() }
        return words
    }

    /// `words` of ASCII text, read on its bytes; `nil` for text that is not ASCII.
    private static func asciiWords(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                word.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                word.append(byte + 32)
            default:
                if word.count >= shortestWord { words.append(String(decoding: word, as: UTF8.self)) }
                word.removeAll(keepingCapacity: true)
            }
        }
        if word.count >= shortestWord { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// A letter or a number, as JavaScript's `[\p{L}\p{N}]` reads it.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x61...0x7A).contains(value) || (0x41...0x5A).contains(value)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }
}
