import Foundation
import Testing
@testable import NewsgenModel

@Suite("Text")
struct TextTests {
    /// What `collapsingWhitespace` must do, written the slow and obvious way: Unicode's
    /// White_Space property of each scalar.
    static func collapsedByScalars(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        return String(result)
    }

    @Test("runs of white space become one space, and the ends are trimmed")
    func collapses() {
        #expect(Text.collapsingWhitespace("  Storm\t\n  hits\u{00A0}\u{2003}the  coast \r\n") == "Storm hits the coast")
        #expect(Text.collapsingWhitespace("") == "")
        #expect(Text.collapsingWhitespace(" \u{3000}\u{85} ") == "")
        #expect(Text.collapsingWhitespace("Café, 東京 and 🚀 launch") == "Café, 東京 and 🚀 launch")
    }

    @Test("every White_Space scalar counts as space, and no other scalar does")
    func whitespaceIsUnicodes() {
        // Every scalar up to U+3100 (all White_Space scalars are below it), then a sample of
        // the rest of each UTF-8 length, between two letters.
        let values = Array(0x1...0x3100) + Array(stride(from: 0x3101, through: 0xFFFF, by: 13)) + Array(stride(from: 0x10000, through: 0x10FFFF, by: 4099))
        let scalars = values.compactMap(Unicode.Scalar.init)
        var mismatches: [String] = []
        for scalar in scalars {
            let text = "a" + String(scalar) + "b"
            if Text.collapsingWhitespace(text) != Self.collapsedByScalars(text) {
                mismatches.append(String(scalar.value, radix: 16))
            }
        }
        #expect(mismatches.isEmpty, "differs for U+\(mismatches.prefix(20).joined(separator: ", U+"))")
    }

    @Test("mixed texts collapse as the scalar-by-scalar definition says")
    func mixedTexts() {
        let pieces = ["a", " ", "\u{00A0}", "é", "\u{2028}", "\t", "ß", "\u{1680}", "東", "\u{202F}", "🚀", "\n", "\u{205F}", "x"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            #expect(Text.collapsingWhitespace(text) == Self.collapsedByScalars(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("trimmedWhitespace trims what Foundation's whitespacesAndNewlines trims, and nothing else, from Strings and Substrings")
    func trimmedWhitespace() {
        // Every White_Space scalar, and neighbours that are not (zero-width space, BOM, word joiner).
        let edges: [Unicode.Scalar] = ["\t", "\n", "\u{0B}", "\u{0C}", "\r", " ", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{200A}",
                                       "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{200B}", "\u{FEFF}", "\u{2060}", "x", "é"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...8, using: &generator) { text.append(edges.randomElement(using: &generator) ?? " ") }
            let string = "<" + String(text) + ">" + String(text)
            #expect(String(text).trimmedWhitespace == String(text).trimmingCharacters(in: .whitespacesAndNewlines), "\(String(text).debugDescription)")
            let sub = string.dropFirst()
            #expect(sub.trimmedWhitespace == sub.trimmingCharacters(in: .whitespacesAndNewlines), "\(String(sub).debugDescription)")
        }
        #expect(" \r\n Headline\u{3000}".trimmedWhitespace == "Headline")
    }

    @Test("isUTF8 judges bytes as String(validating:) does: overlong forms, surrogates, cut sequences, past U+10FFFF")
    func utf8() {
        func judged(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes(Text.isUTF8) }
        func expected(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }
        let cases: [[UInt8]] = [
            [], Array("Harbour reopens…".utf8), Array("日本 🚢 Zoë".utf8),
            [0x80], [0xBF, 0x41], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xC2, 0x41], [0xC2, 0x80],
            [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xE0, 0xA0, 0x80], [0xE1, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
            [0xEF, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xF0, 0x90, 0x80], [0xE2, 0x80, 0xA6, 0x80],
        ]
        for bytes in cases { #expect(judged(bytes) == expected(bytes), "\(bytes)") }
        #expect(judged(Array("Harbour reopens…".utf8)))
        #expect(!judged([0xED, 0xA0, 0x80]), "a surrogate")
        // Random bytes, mostly high ones, cut anywhere.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                Bool.random(using: &generator) ? UInt8.random(in: 0x80...0xFF, using: &generator) : UInt8.random(in: 0...0xFF, using: &generator)
            }
            #expect(judged(bytes) == expected(bytes), "\(bytes)")
        }
    }

    @Test("plainJSONRun ends at the first quote, backslash or control character wherever it stands in a word of eight, and tells whether the run is ASCII")
    func plainJSONRun() {
        // Every stopping byte at every place of a 21-byte text, after each start, with and
        // without a non-ASCII byte before it; checked against a byte-by-byte scan.
        for stopper: UInt8 in [0x22, 0x5C, 0x00, 0x0A, 0x1F] {
            for place in 0...21 {
                for wide in [nil, 0, 5, 9, 20] as [Int?] {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 21)
                    if let wide { bytes[wide] = 0xC3 }
                    if place < bytes.count { bytes[place] = stopper }
                    for start in [0, 1, 3, 8, 13] {
                        let (end, isASCII) = bytes.withUnsafeBytes { Text.plainJSONRun(in: $0, from: start) }
                        let expectedEnd = bytes.indices.first { $0 >= start && (bytes[$0] < 0x20 || bytes[$0] == 0x22 || bytes[$0] == 0x5C) } ?? bytes.count
                        #expect(end == expectedEnd, "stopper \(stopper) at \(place), from \(start)")
                        #expect(isASCII == bytes[min(start, expectedEnd)..<expectedEnd].allSatisfy { $0 < 0x80 }, "stopper \(stopper) at \(place), wide \(wide ?? -1), from \(start)")
                    }
                }
            }
        }
        // 0x7F and bytes at or above 0x80 do not stop a run; 0x20 (a space) does not either.
        let plain: [UInt8] = [0x20, 0x7F, 0x80, 0xFF, 0x21, 0x23, 0x5B, 0x5D, 0x61, 0x62]
        #expect(plain.withUnsafeBytes { Text.plainJSONRun(in: $0, from: 0) } == (10, false))
    }
}
