import Foundation
import Testing
@testable import NewsgenFetch
import NewsgenTestSupport

/// Feeds that are not well-formed XML are repaired and read strictly, never read by a
/// recovery that silently drops text (issue 11, point 1).
@Suite("Repairing malformed feeds")
struct FeedRepairTests {
    private func rss(_ items: String, declaration: String = #"<?xml version="1.0" encoding="UTF-8"?>"#) -> String {
        declaration + "\n<rss version=\"2.0\"><channel><title>T</title><link>http://example.com/</link>\n" + items + "\n</channel></rss>"
    }

    @Test("a bare & in a guid no longer costs later items their &amp; and &lt;")
    func bareAmpersand() throws {
        let feed = try TestSupport.parse(rss("""
            <item><title>One</title><guid>http://example.com/1?a=1&b=2</guid></item>
            <item><title>Tom &amp; Jerry &lt;3</title><link>http://example.com/2?x=1&amp;y=2</link></item>
            """))
        let articles = feed.articles(sourceID: "s", base: nil, limit: 10)
        #expect(articles.map(\.title) == ["One", "Tom & Jerry <3"])
        #expect(articles.map(\.url) == ["http://example.com/1?a=1&b=2", "http://example.com/2?x=1&y=2"])
        #expect(feed.repairs == [.escapedAmpersands(count: 1, line: 3)])
    }

    @Test("undefined HTML entities become their characters")
    func htmlEntities() throws {
        let feed = try TestSupport.parse(rss("<item><title>Caf&eacute;&nbsp;au lait &mdash; &amp; more</title><link>http://example.com/c</link></item>"))
        let article = try #require(feed.articles(sourceID: "s", base: nil, limit: 1).first)
        #expect(article.title == "Café au lait — & more")
        #expect(feed.repairs == [.replacedEntities(["eacute", "nbsp", "mdash"])])
    }

    @Test("an entity the DOCTYPE declares is its text, in a well-formed feed too")
    func declaredEntityWellFormed() throws {
        let feed = try TestSupport.parse("""
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY site "Example News">]>
            <rss version="2.0"><channel><title>&site;</title><item><title>From &site;</title><link>http://example.com/a</link></item></channel></rss>
            """)
        #expect(feed.title == "Example News")
        #expect(feed.articles(sourceID: "s", base: nil, limit: 1).first?.title == "From Example News")
        #expect(feed.repairs.isEmpty)
    }

    @Test("an entity the DOCTYPE declares is not an error")
    func declaredEntity() throws {
        let feed = try TestSupport.parse("""
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY site "Example">]>
            <rss version="2.0"><channel><title>T</title><item><title>A &amp; B &bogus; C &site;</title><link>http://example.com/a</link></item></channel></rss>
            """)
        let article = try #require(feed.articles(sourceID: "s", base: nil, limit: 1).first)
        #expect(article.title == "A & B &bogus; C Example", "an unknown entity is a bare & followed by text; a declared one is its text")
        #expect(feed.repairs == [.escapedAmpersands(count: 1, line: 3)])
    }

    @Test("a bare < in text is escaped")
    func bareLessThan() throws {
        let feed = try TestSupport.parse(rss("<item><title>1 < 2 &amp; 3 > 2</title><link>http://example.com/a</link></item>"))
        #expect(feed.articles(sourceID: "s", base: nil, limit: 1).first?.title == "1 < 2 & 3 > 2")
        #expect(feed.repairs == [.escapedLessThan(count: 1, line: 3)])
    }

    @Test("a tag never closed that holds only text is text, as readers show it; the feed needs no recovery")
    func unclosedTagIsText() throws {
        let feed = try TestSupport.parse(rss("""
            <item><title>Fish & chips van wins the <best> stall award</title><link>http://example.com/a</link></item>
            <item><title>Two <worst> ever <p>one</title><description>A <br> B</description><link>http://example.com/b</link></item>
            """))
        let articles = feed.articles(sourceID: "s", base: nil, limit: 10)
        #expect(articles.map(\.title) == ["Fish & chips van wins the <best> stall award", "Two <worst> ever <p>one"])
        #expect(articles.last?.summary == "A B", "the <br> of HTML text is HTML still")
        #expect(feed.repairs == [.escapedAmpersands(count: 1, line: 3), .escapedLessThan(count: 4, line: 3)])
    }

    @Test("an element never closed that holds elements is left to the parser's recovery, which keeps its items")
    func unclosedElementWithChildren() throws {
        let feed = try TestSupport.parse(rss("""
            <item><title>One &amp; only</title><link>http://example.com/1</link>
            <item><title>Two</title><link>http://example.com/2</link></item>
            """))
        #expect(feed.repairs.contains { if case .recovered = $0 { true } else { false } })
        #expect(!feed.repairs.contains { if case .escapedLessThan = $0 { true } else { false } })
    }

    @Test("a byte-order mark or white space before the declaration is removed")
    func leadingJunk() throws {
        let text = "\n  \u{FEFF}" + rss("<item><title>A &amp; B</title><link>http://example.com/a</link></item>")
        let feed = try FeedParser.parse(Data(text.utf8), url: "test.xml")
        #expect(feed.articles(sourceID: "s", base: nil, limit: 1).first?.title == "A & B")
        #expect(feed.repairs == [.removedLeadingJunk])
    }

    @Test("windows-1252 bytes declared as UTF-8 are read as windows-1252")
    func wrongDeclaredEncoding() throws {
        var data = Data(rss("<item><title>Caf\u{E9} \u{201C}quoted\u{201D}</title><link>http://example.com/a</link></item>").utf8)
        // Re-encode the title's characters as windows-1252 bytes.
        data = Data(String(decoding: data, as: UTF8.self).data(using: .windowsCP1252) ?? Data())
        let feed = try FeedParser.parse(data, url: "test.xml")
        #expect(feed.articles(sourceID: "s", base: nil, limit: 1).first?.title == "Café “quoted”")
        #expect(feed.repairs == [.redeclaredEncoding(declared: "UTF-8", read: "windows-1252")])
    }

    @Test("an encoding libxml2 does not know is replaced by what the bytes are")
    func unknownEncoding() throws {
        let feed = try TestSupport.parse(rss("<item><title>Café</title><link>http://example.com/a</link></item>",
                                             declaration: #"<?xml version="1.0" encoding="x-made-up"?>"#))
        #expect(feed.articles(sourceID: "s", base: nil, limit: 1).first?.title == "Café")
        #expect(feed.repairs == [.redeclaredEncoding(declared: "x-made-up", read: "UTF-8")])
    }

    @Test("a code page declared by number is read in that code page, not guessed")
    func codePageByNumber() throws {
        // 0x80 is Ç in code page 437 (and € in windows-1252, the guess this must not make).
        var data = Data(#"<?xml version="1.0" encoding="437"?><rss version="2.0"><channel><title>"#.utf8)
        data.append(0x80)
        data.append(contentsOf: Array("</title><link>http://example.com/</link></channel></rss>".utf8))
        let feed = try FeedParser.parse(data, url: "test.xml")
        #expect(feed.title == "Ç")
        #expect(feed.repairs == [.redeclaredEncoding(declared: "437", read: "CP437")])
    }

    @Test("an encoding nothing here decodes, on bytes that are not UTF-8, is not guessed: the feed is rejected with libxml2's reason")
    func undecodableEncoding() throws {
        var data = Data(#"<?xml version="1.0" encoding="x-made-up"?><rss version="2.0"><channel><title>"#.utf8)
        data.append(0x80)
        data.append(contentsOf: Array("</title><link>http://example.com/</link></channel></rss>".utf8))
        #expect {
            try FeedParser.parse(data, url: "test.xml")
        } throws: { error in
            guard case .malformedXML(let diagnostic)? = error as? FeedError else { return false }
            return diagnostic.message.lowercased().contains("encoding")
        }
    }

    @Test("UTF-32 documents are read", arguments: [true, false])
    func utf32(bigEndian: Bool) throws {
        let text = "\u{FEFF}" + rss("<item><title>Ünïcode ✓ 𝄞</title><link>http://example.com/a</link></item>",
                                    declaration: #"<?xml version="1.0" encoding="UTF-32"?>"#)
        var data = Data()
        for scalar in text.unicodeScalars {
            let value = bigEndian ? scalar.value.bigEndian : scalar.value.littleEndian
            withUnsafeBytes(of: value) { data.append(contentsOf: $0) }
        }
        let feed = try FeedParser.parse(data, url: "test.xml")
        #expect(feed.articles(sourceID: "s", base: nil, limit: 1).first?.title == "Ünïcode ✓ 𝄞")
        #expect(feed.repairs == [.transcoded(from: bigEndian ? "UTF-32BE" : "UTF-32LE")])
    }

    @Test("a feed that stays malformed keeps its entities and says it was recovered")
    func recoveredKeepsText() throws {
        let feed = try TestSupport.parse(rss("""
            <item><title>Stray end tag</title></bogus><link>http://example.com/1</link></item>
            <item><title>Tom &amp; Jerry &lt;3</title><link>http://example.com/2?x=1&amp;y=2</link></item>
            """))
        let articles = feed.articles(sourceID: "s", base: nil, limit: 10)
        #expect(articles.contains { $0.title == "Tom & Jerry <3" && $0.url == "http://example.com/2?x=1&y=2" })
        guard case .recovered? = feed.repairs.last else {
            Issue.record("expected a recovery note, got \(feed.repairs)")
            return
        }
    }

    @Test("a well-formed feed is read as it is, with no repair")
    func wellFormedUntouched() throws {
        let feed = try TestSupport.parse(rss("<item><title>A &amp; B <![CDATA[& more]]></title><link>http://example.com/a</link></item>"))
        #expect(feed.articles(sourceID: "s", base: nil, limit: 1).first?.title == "A & B & more")
        #expect(feed.repairs.isEmpty)
    }

    @Test("CDATA sections and comments are not repaired")
    func cdataLeftAlone() throws {
        let feed = try TestSupport.parse(rss("<item><title>a & b <![CDATA[x &amp; y]]></title><!-- c & d --><link>http://example.com/a</link></item>"))
        #expect(feed.articles(sourceID: "s", base: nil, limit: 1).first?.title == "a & b x & y", "an RSS title is HTML, so the CDATA's &amp; is decoded once")
        #expect(feed.repairs == [.escapedAmpersands(count: 1, line: 3)])
    }

    @Test("an XML declaration after a comment is removed")
    func misplacedDeclaration() throws {
        let feed = try TestSupport.parse("<!-- generated -->\n" + rss("<item><title>A &amp; B</title><link>http://example.com/a</link></item>"))
        #expect(feed.articles(sourceID: "s", base: nil, limit: 1).first?.title == "A & B")
        #expect(feed.repairs == [.removedMisplacedDeclaration])
    }

    @Test("character references: &#X41; is spelled &#65;, a forbidden &#0; is removed")
    func characterReferences() throws {
        let feed = try TestSupport.parse(rss("<item><title>&#X41;&#0;B &#x263A;</title><link>http://example.com/a</link></item>"))
        #expect(feed.articles(sourceID: "s", base: nil, limit: 1).first?.title == "AB ☺")
        #expect(feed.repairs == [.removedForbiddenReferences(count: 1)])
    }

    @Test("repairs read as sentences")
    func descriptions() {
        #expect(FeedRepair.escapedAmpersands(count: 2, line: 7).description == "escaped 2 bare & (the first on line 7)")
        #expect(FeedRepair.replacedEntities(["nbsp"]).description == "replaced HTML entities XML does not define with their characters: &nbsp;")
    }
}
