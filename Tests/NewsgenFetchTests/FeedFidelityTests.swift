import Foundation
import Testing
@testable import NewsgenFetch
import NewsgenTestSupport
import NewsgenModel

/// Relative links, text constructs and the fallbacks readers expect (issue 11, points 2–4).
@Suite("Feed fidelity")
struct FeedFidelityTests {
    private func first(_ text: String, url: String = "test.xml") throws -> Article {
        try #require(TestSupport.parse(text, url: url).articles(sourceID: "s", base: nil, limit: 10).first)
    }

    // MARK: - xml:base and the document URL

    @Test("RSS: an item link resolves against the item's xml:base")
    func rssXMLBase() throws {
        let article = try first("""
            <rss version="2.0"><channel><title>T</title><link>http://example.com/</link>
            <item xml:base="http://example.org/news/"><title>A</title><link>2026/a.html</link></item></channel></rss>
            """)
        #expect(article.url == "http://example.org/news/2026/a.html")
    }

    @Test("Atom: nested xml:base resolves each against its parent")
    func nestedXMLBase() throws {
        let article = try first("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.com/root/">
              <title>T</title>
              <entry xml:base="section/"><title>A</title><id>urn:a</id>
                <link xml:base="deeper/" href="story.html"/></entry>
            </feed>
            """)
        #expect(article.url == "http://example.com/root/section/deeper/story.html")
    }

    @Test("an absolute xml:base on an element replaces the outer one")
    func absoluteInnerBase() throws {
        let article = try first("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.com/">
              <title>T</title><entry xml:base="https://other.example/x/"><title>A</title><id>urn:a</id><link href="../y"/></entry>
            </feed>
            """)
        #expect(article.url == "https://other.example/y")
    }

    @Test("without xml:base, links resolve against the document URL")
    func documentURL() throws {
        let article = try first("""
            <rss version="2.0"><channel><title>T</title><link>http://homepage.example/</link>
            <item><title>A</title><link>/a.html</link></item></channel></rss>
            """, url: "https://feeds.example/news/rss.xml")
        #expect(article.url == "https://feeds.example/a.html")
    }

    @Test("a relative xml:base resolves against the document URL")
    func relativeBaseAgainstDocument() throws {
        let article = try first("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="blog/"><title>T</title>
            <entry><title>A</title><id>urn:a</id><link href="post"/></entry></feed>
            """, url: "http://example.com/feeds/atom.xml")
        #expect(article.url == "http://example.com/feeds/blog/post")
    }

    @Test("images resolve against xml:base too")
    func imageBase() throws {
        let article = try first("""
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>T</title>
            <item xml:base="http://example.com/i/"><title>A</title><link>a</link><media:thumbnail url="pic.jpg"/></item></channel></rss>
            """)
        #expect(article.imageURL == "http://example.com/i/pic.jpg")
    }

    @Test("URLs in full content resolve against the content's xml:base")
    func contentBase() throws {
        let article = try first("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.com/"><title>T</title>
            <entry><title>A</title><id>urn:a</id><link href="a"/>
            <content type="html" xml:base="http://cdn.example/p/">&lt;p&gt;See &lt;a href="x.html"&gt;this&lt;/a&gt; &lt;img src="i.png"&gt;&lt;/p&gt;</content></entry></feed>
            """)
        #expect(article.content == #"<p>See <a href="http://cdn.example/p/x.html">this</a> <img src="http://cdn.example/p/i.png" alt="" loading="lazy"/></p>"#)
    }

    // MARK: - Text constructs

    private func atomEntry(_ title: String, ns: String = "http://www.w3.org/2005/Atom") throws -> Article {
        try first("<feed xmlns=\"\(ns)\"><title>T</title><entry>\(title)<id>urn:a</id><link href=\"http://example.com/a\"/></entry></feed>")
    }

    @Test("Atom 1.0 type=\"html\" title is decoded and stripped")
    func htmlTitle() throws {
        #expect(try atomEntry(#"<title type="html">Tom &amp;amp; Jerry &lt;b&gt;live&lt;/b&gt;</title>"#).title == "Tom & Jerry live")
    }

    @Test("Atom 1.0 type=\"xhtml\" title is the div's text, script dropped")
    func xhtmlTitle() throws {
        let article = try atomEntry(#"<title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Tom &amp; <b>Jerry</b><script>alert(1)</script></div></title>"#)
        #expect(article.title == "Tom & Jerry")
    }

    @Test("Atom 1.0 type=\"text\" keeps markup-looking text as text")
    func textTitle() throws {
        #expect(try atomEntry(#"<title type="text">a &lt;b&gt; tag</title>"#).title == "a <b> tag")
    }

    @Test("Atom 0.3 mode=\"escaped\" content is HTML")
    func escapedContent() throws {
        let article = try atomEntry(#"<title>A</title><content type="text/html" mode="escaped">&lt;p&gt;Hi &amp;amp; bye&lt;/p&gt;</content>"#,
                                    ns: "http://purl.org/atom/ns#")
        #expect(article.summary == "Hi & bye")
        #expect(article.content == "<p>Hi &amp; bye</p>")
    }

    @Test("Atom 0.3 mode=\"base64\" content is decoded")
    func base64Content() throws {
        let html = Data("<p>Base <b>64</b></p><script>x()</script>".utf8).base64EncodedString()
        let article = try atomEntry(#"<title>A</title><content type="text/html" mode="base64">\#(html)</content>"#,
                                    ns: "http://purl.org/atom/ns#")
        #expect(article.summary == "Base 64")
        #expect(article.content == "<p>Base <b>64</b></p>")
    }

    @Test("Atom 0.3 mode=\"base64\" plain text")
    func base64Text() throws {
        let text = Data("Plain & simple".utf8).base64EncodedString()
        #expect(try atomEntry(#"<title mode="base64">\#(text)</title>"#, ns: "http://purl.org/atom/ns#").title == "Plain & simple")
    }

    /// Out of spec (a title is text, HTML or XHTML), but feedparser and the lenient readers
    /// decode base64 wherever `type` is a MIME type neither text nor XML; feedparser's test
    /// feeds atom10/entry_title_base64*.xml and feed_title_base64*.xml are such titles.
    @Test("Atom 1.0 title and summary typed application/octet-stream are base64, decoded as feedparser decodes them")
    func base64AtomOneTitle() throws {
        let encoded = "\n    " + Data("Example <b>Atom</b>".utf8).base64EncodedString() + "\n  "
        let article = try atomEntry(#"<title type="application/octet-stream">\#(encoded)</title>"#
            + #"<summary type="application/octet-stream">\#(Data("Tom & Jerry".utf8).base64EncodedString())</summary>"#)
        #expect(article.title == "Example <b>Atom</b>")
        #expect(article.summary == "Tom & Jerry")
        let feed = try TestSupport.parse(#"<feed xmlns="http://www.w3.org/2005/Atom"><title type="application/octet-stream">\#(encoded)</title></feed>"#)
        #expect(feed.title == "Example <b>Atom</b>")
        // Text that is not base64 of UTF-8 is read as written; an empty type is text.
        #expect(try atomEntry(#"<title type="image/png">not base64!</title>"#).title == "not base64!")
        #expect(try atomEntry(#"<title type="">evil</title>"#).title == "evil")
        #expect(try atomEntry(#"<title type="application/xml">plain</title>"#).title == "plain", "XML is not base64")
    }

    @Test("the four base64 Atom 1.0 titles of feedparser's tests read as feedparser reads them")
    func base64CorpusTitles() throws {
        let cases = [
            "entry_title_base64.xml": "Example <b>Atom</b>", "entry_title_base64_2.xml": "<p>History of the &lt;blink&gt; tag</p>",
            "feed_title_base64.xml": "Example <b>Atom</b>", "feed_title_base64_2.xml": "<p>History of the &lt;blink&gt; tag</p>",
        ]
        for (name, expected) in cases {
            let data = try Data(contentsOf: TestSupport.corpus.appendingPathComponent("wellformed/atom10/\(name)"))
            let feed = try FeedParser.parse(data, url: name)
            let title = name.hasPrefix("feed") ? feed.title : feed.articles(sourceID: "s", base: nil, limit: 1).first?.title
            #expect(title == expected, "\(name)")
        }
    }

    @Test("an RSS title is HTML when it looks like HTML, as feedparser decides, else text as written")
    func rssTitleHTMLOrText() throws {
        func title(_ raw: String) throws -> String? {
            try first("<rss version=\"2.0\"><channel><title>T</title><item><title>\(raw)</title><link>http://example.com/a</link></item></channel></rss>").title
        }
        #expect(try title("Tom &amp;amp; Jerry") == "Tom & Jerry", "an entity: HTML")
        #expect(try title("&lt;b&gt;Cup&lt;/b&gt; final") == "Cup final", "HTML's own elements, closed: HTML")
        #expect(try title("Fish &amp; chips van wins the &lt;best&gt; stall award") == "Fish & chips van wins the <best> stall award",
                "no end tag, no reference: text")
        #expect(try title("the &lt;best&gt; &amp;amp; &lt;/best&gt;") == "the <best> &amp; </best>", "an element HTML does not have: text")
        #expect(try title("1 &lt; 2") == "1 < 2")
    }

    @Test("script, style, noscript and template contents are not text", arguments: ["script", "style", "noscript", "template"])
    func invisibleElements(element: String) throws {
        let article = try first("""
            <rss version="2.0"><channel><title>T</title><item><title>A</title><link>http://example.com/a</link>
            <description>&lt;p&gt;hello&lt;/p&gt;&lt;\(element)&gt;alert(1)&lt;/\(element)&gt;</description></item></channel></rss>
            """)
        #expect(article.summary == "hello")
    }

    @Test("a summary that starts with script is still only its text")
    func leadingScript() throws {
        let article = try first("""
            <rss version="2.0"><channel><title>T</title><item><title>A</title><link>http://example.com/a</link>
            <description>&lt;script&gt;alert(1)&lt;/script&gt;&lt;style&gt;p{}&lt;/style&gt;hello</description></item></channel></rss>
            """)
        #expect(article.summary == "hello")
    }

    // MARK: - Fallbacks

    @Test("feed title from dc:title when <title> is missing")
    func dcTitle() throws {
        let feed = try TestSupport.parse("""
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><dc:title>DC Title</dc:title><link>http://example.com/</link></channel></rss>
            """)
        #expect(feed.title == "DC Title")
        let atom = try TestSupport.parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Atom DC</dc:title></feed>
            """)
        #expect(atom.title == "Atom DC")
    }

    @Test("an RSS item's date from dc:date, atom:published or atom:updated", arguments: [
        #"<dc:date>2026-11-21T08:15:00Z</dc:date>"#,
        #"<atom:published>2026-11-21T08:15:00Z</atom:published>"#,
        #"<atom:updated>2026-11-21T08:15:00Z</atom:updated>"#,
    ])
    func rssDateFallback(element: String) throws {
        let article = try first("""
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>T</title>
            <item><title>A</title><link>http://example.com/a</link>\(element)</item></channel></rss>
            """)
        #expect(article.published == TestSupport.date("2026-11-21T08:15:00Z"))
    }

    @Test("the author from dc:creator, author, itunes:author or the channel's", arguments: [
        ("<dc:creator>Ada</dc:creator>", ""),
        ("<author>ada@example.com (Ada)</author>", ""),
        ("<itunes:author>Ada</itunes:author>", ""),
        ("", "<dc:creator>Ada</dc:creator>"),
        ("", "<managingEditor>ada@example.com (Ada)</managingEditor>"),
        ("", "<itunes:author>Ada</itunes:author>"),
    ])
    func authorFallback(item: String, channel: String) throws {
        let article = try first("""
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>T</title>\(channel)<item><title>A</title><link>http://example.com/a</link>\(item)</item></channel></rss>
            """)
        #expect(article.author == "Ada")
    }

    @Test("an Atom entry's author from its source, then the feed")
    func atomAuthorFallback() throws {
        let article = try first("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><author><name>Feed Author</name></author>
            <entry><title>A</title><id>urn:a</id><link href="http://example.com/a"/><source><author><name>Source Author</name></author></source></entry></feed>
            """)
        #expect(article.author == "Source Author")
    }
}
