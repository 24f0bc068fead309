import Foundation
import Testing
@testable import NewsgenFetch
import NewsgenTestSupport

@Suite("Feed formats")
struct FeedParserTests {
    @Test("RSS 2.0: every field an article needs")
    func rss2() throws {
        let feed = try TestSupport.parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/" xmlns:atom="http://www.w3.org/2005/Atom">
            <channel>
              <title>Example News</title><link>https://example.com/</link><description>d</description>
              <atom:link href="https://example.com/feed.xml" rel="self"/>
              <item>
                <title>First &amp; foremost</title>
                <link>https://example.com/a</link>
                <description>&lt;p&gt;Hello &lt;b&gt;world&lt;/b&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;/p&gt;</description>
                <dc:creator>Ada Lovelace</dc:creator>
                <pubDate>Sat, 21 Nov 2026 08:15:00 GMT</pubDate>
                <guid isPermaLink="false">item-1</guid>
                <category>Tech</category><category>Science</category>
                <media:thumbnail url="https://img.example.com/a.jpg"/>
              </item>
              <item>
                <title>Second</title>
                <link>/relative/b</link>
                <author>news@example.com (Grace Hopper)</author>
                <pubDate>Sun, 22 Nov 2026 09:00:00 +0100</pubDate>
                <enclosure url="https://img.example.com/b.png" type="image/png" length="10"/>
              </item>
            </channel></rss>
            """)
        #expect(feed.format == .rss2)
        #expect(feed.title == "Example News")
        #expect(feed.homepage == "https://example.com/")
        let articles = feed.articles(sourceID: "ex", base: nil, limit: 10)
        #expect(articles.map(\.title) == ["Second", "First & foremost"], "newest first")
        let first = try #require(articles.last)
        #expect(first.summary == "Hello world", "markup stripped, script dropped")
        #expect(first.author == "Ada Lovelace")
        #expect(first.published == TestSupport.date("2026-11-21T08:15:00Z"))
        #expect(first.categories == ["Tech", "Science"])
        #expect(first.imageURL == "https://img.example.com/a.jpg")
        #expect(first.guid == "item-1")
        let second = try #require(articles.first)
        #expect(second.url == "https://example.com/relative/b", "relative links resolve against the channel link")
        #expect(second.author == "Grace Hopper")
        #expect(second.imageURL == "https://img.example.com/b.png")
    }

    @Test("RSS 1.0 (RDF): items beside the channel, Dublin Core fields")
    func rss1() throws {
        let feed = try TestSupport.parse("""
            <?xml version="1.0"?>
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel rdf:about="https://example.org/"><title>RDF News</title><link>https://example.org/</link><description>x</description></channel>
              <item rdf:about="https://example.org/1">
                <title>One</title><link>https://example.org/1</link><description>First item</description>
                <dc:creator>Lin</dc:creator><dc:date>2026-11-20T10:00:00+02:00</dc:date><dc:subject>Markets</dc:subject>
              </item>
            </rdf:RDF>
            """)
        #expect(feed.format == .rss1)
        #expect(feed.title == "RDF News")
        let article = try #require(feed.articles(sourceID: "rdf", base: nil, limit: 10).first)
        #expect(article.title == "One")
        #expect(article.url == "https://example.org/1")
        #expect(article.author == "Lin")
        #expect(article.published == TestSupport.date("2026-11-20T08:00:00Z"))
        #expect(article.categories == ["Markets"])
    }

    @Test("Atom 1.0: text constructs, alternate link, first image of XHTML content")
    func atom() throws {
        let feed = try TestSupport.parse("""
            <feed xmlns="http://www.w3.org/2005/Atom">
              <title type="html">Atom &amp;lt;News&amp;gt;</title>
              <link rel="self" href="https://example.net/feed.atom"/>
              <link href="https://example.net/"/>
              <author><name>Desk</name></author>
              <entry>
                <title>Entry one</title>
                <id>tag:example.net,2026:1</id>
                <link rel="alternate" type="text/html" href="https://example.net/1"/>
                <updated>2026-11-21T10:00:00Z</updated><published>2026-11-21T09:00:00.5+01:00</published>
                <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Body <em>text</em></p><img src="https://img.example.net/1.jpg" alt=""/></div></content>
                <category term="tech" label="Technology"/>
              </entry>
              <entry>
                <title>Entry two</title><id>tag:example.net,2026:2</id>
                <link href="https://example.net/2"/>
                <updated>2026-11-20T10:00:00Z</updated>
                <summary type="html">&lt;p&gt;An &lt;a href="x"&gt;HTML&lt;/a&gt; summary&lt;/p&gt;</summary>
                <author><name>Kim</name></author>
              </entry>
            </feed>
            """)
        #expect(feed.format == .atom)
        #expect(feed.title == "Atom <News>")
        #expect(feed.homepage == "https://example.net/")
        let articles = feed.articles(sourceID: "atom", base: nil, limit: 10)
        #expect(articles.count == 2)
        let one = articles[0]
        #expect(one.title == "Entry one")
        #expect(one.url == "https://example.net/1")
        #expect(one.summary == "Body text")
        #expect(one.imageURL == "https://img.example.net/1.jpg")
        #expect(one.author == "Desk", "the feed's author stands in for an entry without one")
        #expect(one.published == TestSupport.date("2026-11-21T08:00:00.5Z"))
        #expect(one.categories == ["Technology"])
        #expect(articles[1].summary == "An HTML summary")
        #expect(articles[1].author == "Kim")
    }

    @Test("JSON Feed 1.1, with the type slips found in the wild")
    func jsonFeed() throws {
        let feed = try TestSupport.parse("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "JSON News", "home_page_url": "https://example.io/",
             "items": [
               {"id": 42, "url": "https://example.io/42", "title": "Numbers as ids", "content_html": "<p>Hi <img src='https://img.example.io/42.png'></p>",
                "date_published": "2026-11-19T07:30:00Z", "authors": [{"name": "Sam"}], "tags": ["a", "b"]},
               {"id": "x", "url": "https://example.io/x", "summary": "Plain <not a tag>", "author": {"name": "Old Style"}, "image": "https://img.example.io/x.jpg"}
             ]}
            """, url: "feed.json")
        #expect(feed.format == .jsonFeed)
        #expect(feed.title == "JSON News")
        let articles = feed.articles(sourceID: "json", base: nil, limit: 10)
        #expect(articles.count == 2)
        let numbered = try #require(articles.first { $0.guid == "42" })
        #expect(numbered.imageURL == "https://img.example.io/42.png")
        #expect(numbered.summary == "Hi")
        #expect(numbered.author == "Sam")
        #expect(numbered.categories == ["a", "b"])
        let plain = try #require(articles.first { $0.guid == "x" })
        #expect(plain.summary == "Plain <not a tag>", "JSON Feed summary is plain text, kept as written")
        #expect(plain.title == "Plain <not a tag>", "an item without a title takes its text")
        #expect(plain.author == "Old Style")
    }

    @Test("Hostile links and markup never reach an article")
    func hostileInput() throws {
        let feed = try TestSupport.parse("""
            <rss version="2.0"><channel><title>t</title>
            <item><title>&lt;img src=x onerror=alert(1)&gt;Click</title><link>javascript:alert(1)</link>
              <description>&lt;iframe src="https://evil.example/"&gt;&lt;/iframe&gt;&lt;a href="javascript:x"&gt;safe text&lt;/a&gt;</description>
              <enclosure url="data:image/png;base64,AAAA" type="image/png"/>
              <guid isPermaLink="false">g1</guid></item>
            </channel></rss>
            """)
        let article = try #require(feed.articles(sourceID: "evil", base: nil, limit: 10).first)
        #expect(article.url == nil, "javascript: links are dropped")
        #expect(article.imageURL == nil, "data: images are dropped")
        #expect(article.title == "Click")
        #expect(article.summary == "safe text")
    }

    @Test("An image named only in a summary's markup, whatever the case of its tag")
    func imageInSummaryMarkup() throws {
        let feed = try TestSupport.parse("""
            <rss version="2.0"><channel><title>t</title><link>https://news.example/</link>
            <item><title>Upper</title><link>https://news.example/1</link>
              <description>&lt;p&gt;Text &lt;IMG SRC="/pics/1.jpg" ALT=""&gt;&lt;/p&gt;</description></item>
            <item><title>Mixed</title><link>https://news.example/2</link>
              <description>&lt;ImG alt="" src="https://img.example/2.png"/&gt; and words</description></item>
            <item><title>Escaped</title><link>https://news.example/3</link>
              <description>&amp;lt;img src="https://img.example/3.png"&amp;gt; is how a page shows a picture</description></item>
            <item><title>Other tag</title><link>https://news.example/4</link>
              <description>&lt;imgx src="https://img.example/4.png"&gt;&lt;/imgx&gt; &lt;im</description></item>
            </channel></rss>
            """)
        let images = Dictionary(uniqueKeysWithValues: feed.articles(sourceID: "s", base: nil, limit: 10).map { ($0.title, $0.imageURL) })
        #expect(images["Upper"] == "https://news.example/pics/1.jpg", "an upper-case tag, its src resolved against the channel")
        #expect(images["Mixed"] == "https://img.example/2.png")
        #expect(images["Escaped"] == .some(nil), "text that shows a tag is not one")
        #expect(images["Other tag"] == .some(nil), "<imgx> is not an image, and a cut-off \"<im\" is read safely")
    }

    @Test("External entities and DTDs are never loaded")
    func externalEntities() throws {
        let secret = try TestSupport.temporaryFolder().appendingPathComponent("secret.txt")
        try "TOP-SECRET-CONTENT".write(to: secret, atomically: true, encoding: .utf8)
        let feed = try TestSupport.parse("""
            <?xml version="1.0"?>
            <!DOCTYPE rss [ <!ENTITY xxe SYSTEM "file://\(secret.path)"> ]>
            <rss version="2.0"><channel><title>t</title>
            <item><title>Leak: &xxe;</title><link>https://example.com/x</link></item>
            </channel></rss>
            """)
        let article = try #require(feed.articles(sourceID: "x", base: nil, limit: 10).first)
        #expect(!article.title.contains("TOP-SECRET"))
    }

    @Test("Exponential entity expansion does not hang or blow up")
    func billionLaughs() throws {
        var entities = #"<!ENTITY lol0 "lol">"#
        for level in 1...12 {
            entities += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let started = Date()
        let feed = try? TestSupport.parse("<?xml version=\"1.0\"?><!DOCTYPE rss [\(entities)]><rss version=\"2.0\"><channel><title>t</title><item><title>&lol12;</title><link>https://example.com/</link></item></channel></rss>")
        #expect(Date().timeIntervalSince(started) < 5)
        let title = feed?.articles(sourceID: "x", base: nil, limit: 10).first?.title ?? ""
        #expect(title.count < 10_000)
    }

    @Test("Sloppy XML is recovered where libxml2 can")
    func recovery() throws {
        let feed = try TestSupport.parse("""
            <rss version="2.0"><channel><title>Sloppy</title>
            <item><title>Unescaped & ampersand</title><link>https://example.com/1</link></item>
            <item><title>Unclosed</title><link>https://example.com/2</link>
            </channel></rss>
            """)
        let titles = feed.articles(sourceID: "s", base: nil, limit: 10).map(\.title)
        #expect(titles.contains("Unclosed"))
    }

    @Test("Not a feed: a clear error, not a crash", arguments: [
        ("", "empty"),
        ("<html><body>Hello</body></html>", "an HTML page"),
        ("<opml version=\"2.0\"/>", "<opml>"),
        ("{\"hello\": 1}", "without version or items"),
        ("{ broken", "malformed JSON"),
        ("\u{0}\u{1}garbage", "XML"),
    ])
    func notAFeed(input: String, expected: String) {
        #expect {
            try TestSupport.parse(input)
        } throws: { error in
            String(describing: error).contains(expected)
        }
    }

    @Test("Per-source limit, de-duplication by normalized URL then guid")
    func limitsAndDuplicates() throws {
        var items = ""
        for index in 0..<15 {
            items += "<item><title>N\(index)</title><link>https://example.com/\(index)</link><pubDate>Sat, 21 Nov 2026 \(10 + index % 10):00:\(10 + index) GMT</pubDate></item>"
        }
        items += "<item><title>dup</title><link>HTTPS://EXAMPLE.com/3/#frag</link></item>"
        items += "<item><title>g1</title><guid isPermaLink=\"false\">same</guid></item><item><title>g2</title><guid isPermaLink=\"false\">same</guid></item>"
        let feed = try TestSupport.parse("<rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>")
        let all = feed.articles(sourceID: "s", base: nil, limit: 100)
        #expect(all.count == 16, "15 distinct URLs and one guid; the URL duplicate and the guid duplicate are dropped")
        #expect(!all.contains { $0.title == "dup" || $0.title == "g2" })
        #expect(feed.articles(sourceID: "s", base: nil, limit: 10).count == 10)
    }
}
