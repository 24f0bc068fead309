import Testing
@testable import NewsgenXML
@testable import NewsgenModel

/// Escaping for XML text and attribute values, which every title, summary and link of a feed
/// and a page goes through.
@Suite("XML escaping")
struct XMLWriterTests {
    @Test("markup characters are escaped; quotes and line feeds only in attribute values")
    func markup() {
        #expect(XMLWriter.escape("Fish & <chips> \"today\"\n", quotes: false) == "Fish &amp; &lt;chips&gt; \"today\"\n")
        #expect(XMLWriter.escape("Fish & <chips> \"today\"\n", quotes: true) == "Fish &amp; &lt;chips&gt; &quot;today&quot;&#10;")
        #expect(XMLWriter.escape("a\r\nb\tc", quotes: false) == "a&#13;\nb\tc")
    }

    @Test("characters XML 1.0 does not allow are dropped, wherever they stand; the rest of the text is kept")
    func forbidden() {
        #expect(XMLWriter.escape("\u{1}start, mid\u{8}dle, end\u{1F}", quotes: false) == "start, middle, end")
        #expect(XMLWriter.escape("\u{FFFE}x\u{FFFF}", quotes: true) == "x")
        #expect(XMLWriter.escape("\u{FFFD} and \u{EFFF} stay", quotes: true) == "\u{FFFD} and \u{EFFF} stay")
    }

    @Test("the same as escaping scalar by scalar, for every character class, in any order")
    func matchesScalarRule() {
        let samples: [Unicode.Scalar] = ["a", "&", "<", ">", "\"", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{85}", "é",
                                         "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{10000}", "🦊"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &generator) { text.append(samples.randomElement(using: &generator) ?? "a") }
            for quotes in [false, true] {
                #expect(XMLWriter.escape(String(text), quotes: quotes) == Self.reference(String(text), quotes: quotes), "\(String(text).debugDescription)")
            }
        }
    }

    @Test("a document: nested elements indented, attributes without a value left out, text and attributes escaped")
    func document() {
        var xml = XMLWriter()
        xml.open("feed", ["xmlns": "urn:x", "lang": nil])
        xml.element("title", "Fish & <chips>", ["type": "text \"plain\""])
        xml.element("none", nil)
        xml.open("entry")
        xml.empty("link", ["href": "https://example.com/?a=1&b=2", "rel": nil])
        xml.element("id", "caf\u{E9} \u{1}\u{FFFE}🦊")
        xml.element("loc", "https://example.com/?a=1&", "p<q>/\u{1}")
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="urn:x">
              <title type="text &quot;plain&quot;">Fish &amp; &lt;chips&gt;</title>
              <entry>
                <link href="https://example.com/?a=1&amp;b=2"/>
                <id>caf\u{E9} 🦊</id>
                <loc>https://example.com/?a=1&amp;p&lt;q&gt;/</loc>
              </entry>
            </feed>

            """
        var bytes = xml
        #expect(xml.finish() == expected)
        #expect(bytes.finishBytes() == Array(expected.utf8), "the same document as bytes")
    }

    /// The rule, scalar by scalar, as it was written before escaping worked on bytes.
    static func reference(_ text: String, quotes: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "\n" where quotes: result += "&#10;"
            case "\r": result += "&#13;"
            default: if Text.isAllowedInXML(scalar) { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }
}
