import Testing
@testable import NewsgenModel

/// A slug of an ASCII text is made on its bytes (`Slug.makeASCII`); it must be the slug the
/// general way (`Slug.makeFolding`: lowercased, scalar by scalar) makes.
@Suite("Slugs")
struct SlugTests {
    @Test("ASCII texts of any characters and length give the slug the general way gives, at every limit")
    func asciiAsGeneral() {
        let pieces = (0x00...0x7F).map { String(UnicodeScalar(UInt8($0))) } + ["Harbour", "CRANES", "2026", "  ", "--", "a-b", String(repeating: "x", count: 70)]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "x" }.joined()
            let limit = Int.random(in: 1...70, using: &generator)
            #expect(Slug.make(text, limit: limit) == Slug.makeFolding(text, limit: limit), "\(text.debugDescription) at \(limit)")
        }
    }

    @Test("slugs keep letters and digits, lowercased, joined by single hyphens, cut at a word's end; diacritics are stripped")
    func examples() {
        #expect(Slug.make("Harbour Cranes Return -- at Last!") == "harbour-cranes-return-at-last")
        #expect(Slug.make("The harbour reopens after a week", limit: 20) == "the-harbour-reopens")
        #expect(Slug.make(String(repeating: "a", count: 30), limit: 10) == String(repeating: "a", count: 10))
        #expect(Slug.make("Zoë's café, Škoda") == "zoe-s-cafe-skoda")
        #expect(Slug.make("!!!") == "")
    }

    @Test("Hexadecimal.value reads a digit in either case, and no other byte")
    func hexadecimalValue() {
        for byte in UInt8.min...UInt8.max {
            let expected = Int(String(UnicodeScalar(byte)), radix: 16).map(UInt8.init)
            #expect(Hexadecimal.value(of: byte) == expected, "\(byte)")
        }
    }
}
