import Foundation
import Testing
import NewsgenXML
@testable import NewsgenExtract

/// Pages written for these tests: a news page with everything a real one has around its story, and the bad input
/// an unattended build meets (consent walls, legacy charsets, script in the article, huge pages).
@Suite("Extracting a page's article")
struct ArticleExtractorTests {
    static let url = URL(string: "https://news.example.org/world/2026/harbour.html")!

    /// The story's paragraphs: long enough, with commas, to read as prose.
    static let story = [
        "The harbour authority said on Tuesday that the old breakwater, built in 1887, would be rebuilt over the next three years, at a cost of about forty million euros.",
        "Fishermen, who have used the inner basin for generations, welcomed the decision, although several said the works would force them to moor elsewhere for a season.",
        "Engineers found last winter that storms had undermined the foundations, and that a single severe gale could breach the wall, flooding the quays and the market behind them.",
        "The new wall will be two metres higher, faced with granite from the same quarry, and designed so that it can be raised again if the sea keeps rising as forecast.",
    ]

    static func page(head: String = "", article: String? = nil, extra: String = "") -> String {
        let body = article ?? story.map { "<p>\($0)</p>" }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en-GB"><head><meta charset="utf-8"><title>Harbour wall to be rebuilt | Example News</title>\(head)</head>
            <body>
            <nav class="site-nav"><ul><li><a href="/">Home</a></li><li><a href="/world/">World</a></li><li><a href="/sport/">Sport</a></li></ul></nav>
            <div id="cookie-banner"><p>We use cookies to improve your experience, measure audiences and show ads. By continuing you accept them.</p><button>Accept</button></div>
            <div class="layout">
              <article class="story">
                <h1>Harbour wall to be rebuilt</h1>
                <div class="share-bar"><a href="https://social.example/share?u=1">Share on Social</a> <a href="mailto:?subject=x">Email this story</a></div>
                <div class="article-body">
                \(body)
                </div>
              </article>
              <aside class="sidebar"><h3>Most read</h3><ul><li><a href="/a">Celebrity spotted at the harbour cafe</a></li><li><a href="/b">Ten things to do this weekend in the old town</a></li></ul></aside>
            </div>
            <section class="related-stories"><h2>Related stories</h2><ul><li><a href="/c">Storm damages sea front, closing the promenade for a week</a></li><li><a href="/d">Ferry timetable changes for the winter season</a></li></ul></section>
            <div id="comments"><h2>Comments</h2><div class="comment"><p>Finally, after all these years of waiting, somebody listens to the people who live here, thank you.</p></div></div>
            \(extra)
            <footer class="site-footer"><p>Copyright Example News, all rights reserved, including the right to reproduce this page.</p></footer>
            </body></html>
            """
    }

    static func extract(_ html: String, charset: String? = nil) throws(ExtractionFailure) -> ExtractedArticle {
        try ArticleExtractor().extract(html: Array(html.utf8), url: url, declaredCharset: charset)
    }

    @Test("The story's paragraphs are kept; navigation, cookie banner, share bar, sidebar, related list, comments and footer go")
    func keepsTheStoryOnly() throws {
        let article = try Self.extract(Self.page())
        #expect(article.text == Self.story.joined(separator: "\n\n"))
        for furniture in ["Home", "cookies", "Share on Social", "Most read", "Related stories", "Ferry timetable", "Finally, after", "Copyright"] {
            #expect(!article.text.contains(furniture), "\(furniture)")
            #expect(!article.html.contains(furniture), "\(furniture)")
        }
        #expect(article.html.hasPrefix("<"))
        #expect(article.html.contains("<p>The harbour authority said"))
        #expect(article.language == "en-GB")
        #expect(article.title == "Harbour wall to be rebuilt")
    }

    @Test("A page whose only text is a cookie banner has no article")
    func cookieBannerOnly() {
        let html = """
            <html><head><title>Example News</title></head><body>
            <div class="consent-overlay" role="dialog"><h2>We value your privacy</h2>
            <p>We and our 842 partners use cookies and similar technologies to store and access information on your device, to \
            personalise ads and content, measure ads and content, gain audience insights and develop products. You can accept, \
            refuse or manage your choices at any time, including your right to object where legitimate interest is used.</p>
            <button>Accept all</button><button>Manage options</button></div>
            </body></html>
            """
        #expect(throws: ExtractionFailure.self) { try Self.extract(html) }
    }

    @Test("A page of links and teasers, with no story, has no article; the reason says what was found")
    func noArticle() throws {
        let items = (1...40).map { "<li><a href=\"/story/\($0)\">Headline number \($0) about the day's events</a></li>" }.joined()
        let html = "<html><head><title>Front page</title></head><body><h1>Front page</h1><ul class=\"headlines\">\(items)</ul></body></html>"
        let failure = #expect(throws: ExtractionFailure.self) { try Self.extract(html) }
        #expect(failure?.reason.hasPrefix("The page has no article") == true)
    }

    @Test("An empty page has no article")
    func emptyPage() {
        #expect(throws: ExtractionFailure.self) { try Self.extract("") }
        #expect(throws: ExtractionFailure.self) { try Self.extract("<html><body><script>var a = 1;</script></body></html>") }
    }

    @Test("A windows-1252 page labelled ISO-8859-1 in <meta> reads with its curly quotes and accents")
    func legacyCharsetFromMeta() throws {
        let text = "<p>The caf\u{E9}\u{2019}s owner said \u{201C}we are delighted\u{201D}, and the na\u{EF}ve plan \u{2014} at last \u{2014} is going ahead, as everyone in the harbour, from the fishermen to the ferry crews, had hoped for years.</p>"
        let html = Self.page(head: "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\">", article: text + Self.story.map { "<p>\($0)</p>" }.joined())
            .replacingOccurrences(of: "<meta charset=\"utf-8\">", with: "")
        var bytes: [UInt8] = []
        for scalar in html.unicodeScalars {
            switch scalar.value {
            case 0x2019: bytes.append(0x92)
            case 0x201C: bytes.append(0x93)
            case 0x201D: bytes.append(0x94)
            case 0x2014: bytes.append(0x97)
            case 0..<0x100: bytes.append(UInt8(scalar.value))
            default: Issue.record("not in windows-1252: \(scalar)")
            }
        }
        let article = try ArticleExtractor().extract(html: bytes, url: Self.url)
        #expect(article.text.contains("The caf\u{E9}\u{2019}s owner said \u{201C}we are delighted\u{201D}, and the na\u{EF}ve plan \u{2014} at last \u{2014}"))
    }

    @Test("Undeclared bytes that are not UTF-8 read as windows-1252; the HTTP charset wins over <meta>")
    func charsetOrder() throws {
        var latin = Array(Self.page(article: "<p>Cr\u{E8}me br\u{FB}l\u{E9}e, said the chef, is what the harbour caf\u{E9} sells most, in summer and in winter, to fishermen and visitors alike, every day of the week.</p>" + Self.story.map { "<p>\($0)</p>" }.joined())
            .replacingOccurrences(of: "<meta charset=\"utf-8\">", with: "").utf8)
        latin = Array(String(decoding: latin, as: UTF8.self).unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        let guessed = try ArticleExtractor().extract(html: latin, url: Self.url)
        #expect(guessed.text.contains("Cr\u{E8}me br\u{FB}l\u{E9}e"))
        // The page says UTF-8 in <meta>, the server says ISO-8859-1: the server is right.
        let labelled = try ArticleExtractor().extract(html: latin.replacingMeta(), url: Self.url, declaredCharset: "iso-8859-1")
        #expect(labelled.text.contains("Cr\u{E8}me br\u{FB}l\u{E9}e"))
        // A page saved as UTF-8 that still says gb2312 in <meta> is UTF-8.
        let stale = Self.page(head: "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\">",
                              article: "<p>人工智能迈上新台阶, the headline said, and the engineers in the harbour office, who had read it twice, agreed with it at last.</p>" + Self.story.map { "<p>\($0)</p>" }.joined())
            .replacingOccurrences(of: "<meta charset=\"utf-8\">", with: "")
        #expect(try Self.extract(stale).text.contains("人工智能迈上新台阶, the headline said"))
        #expect(CharsetDetector.normalized("ISO-8859-1") == "windows-1252")
        #expect(CharsetDetector.metaCharset(in: Array("<head><META CHARSET='Shift_JIS'>".utf8)) == "shift_jis")
    }

    @Test("Script, event handlers, styles and javascript: links inside the article are gone")
    func scriptRemoved() throws {
        let body = """
            <p onclick="steal()">\(Self.story[0]) <img src="/img/wall.jpg" onerror="alert(1)" alt="The wall"></p>
            <script>document.write('injected text that must not appear anywhere')</script>
            <p style="color:red" onmouseover="x()">\(Self.story[1]) <a href="javascript:alert(2)">a link</a></p>
            <p>\(Self.story[2])</p><p>\(Self.story[3])</p>
            """
        let article = try Self.extract(Self.page(article: body))
        for forbidden in ["script", "onclick", "onerror", "onmouseover", "javascript:", "style=", "injected text", "alert"] {
            #expect(!article.html.contains(forbidden), "\(forbidden)")
        }
        #expect(!article.text.contains("injected"))
        #expect(article.html.contains("<img src=\"https://news.example.org/img/wall.jpg\""))
    }

    @Test("Relative links and images become absolute, against the page's address or its <base href>")
    func absoluteURLs() throws {
        let body = "<p>\(Self.story[0]) <a href=\"../2025/storm.html\">Last year's storm</a> and <a href=\"/maps/harbour\">a map</a>.</p>"
            + "<p><img data-src=\"photos/quay.jpg\" src=\"data:image/gif;base64,R0lGOD\" alt=\"Quay\"></p>"
            + Self.story.dropFirst().map { "<p>\($0)</p>" }.joined()
        let article = try Self.extract(Self.page(article: body))
        #expect(article.html.contains("href=\"https://news.example.org/world/2025/storm.html\""))
        #expect(article.html.contains("href=\"https://news.example.org/maps/harbour\""))
        #expect(article.html.contains("src=\"https://news.example.org/world/2026/photos/quay.jpg\""))

        let based = try Self.extract(Self.page(head: "<base href=\"https://cdn.example.net/news/\">", article: body))
        #expect(based.html.contains("href=\"https://cdn.example.net/2025/storm.html\""))
        #expect(based.html.contains("src=\"https://cdn.example.net/news/photos/quay.jpg\""))
    }

    @Test("Metadata comes from JSON-LD, also inside @graph, before Open Graph and <meta>")
    func jsonLDMetadata() throws {
        let graph = """
            <script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
              {"@type": "WebSite", "name": "Not this"},
              {"@type": "NewsArticle", "headline": "Harbour wall to be rebuilt at last", "datePublished": "2026-03-04T09:30:00+01:00",
               "author": [{"@type": "Person", "name": "Ana Souza"}, {"@type": "Person", "name": "Tom Berg"}],
               "publisher": {"@type": "Organization", "name": "Example News"},
               "image": {"@type": "ImageObject", "url": "/img/lead.jpg"}}]}</script>
            <meta property="og:title" content="OG title">
            <meta name="author" content="Meta Author">
            <meta property="og:site_name" content="OG Site">
            """
        let article = try Self.extract(Self.page(head: graph))
        #expect(article.title == "Harbour wall to be rebuilt at last")
        #expect(article.byline == "Ana Souza, Tom Berg")
        #expect(article.siteName == "Example News")
        #expect(article.published == Date(timeIntervalSince1970: 1_772_613_000))
        #expect(article.image?.absoluteString == "https://news.example.org/img/lead.jpg")

        let openGraph = """
            <meta property="og:title" content="The harbour's new wall">
            <meta name="author" content="Meta Author">
            <meta property="og:site_name" content="OG Site">
            <meta property="og:image" content="https://img.example.org/wall.jpg">
            <meta property="article:published_time" content="2026-03-04T08:30:00Z">
            """
        let fallback = try Self.extract(Self.page(head: openGraph))
        #expect(fallback.title == "The harbour's new wall")
        #expect(fallback.byline == "Meta Author")
        #expect(fallback.siteName == "OG Site")
        #expect(fallback.image?.absoluteString == "https://img.example.org/wall.jpg")
        #expect(fallback.published == Date(timeIntervalSince1970: 1_772_613_000))

        let time = try Self.extract(Self.page(article: "<p class=\"byline\">By Ana Souza</p><time datetime=\"2026-03-04T08:30:00Z\">4 March</time>" + Self.story.map { "<p>\($0)</p>" }.joined()))
        #expect(time.published == Date(timeIntervalSince1970: 1_772_613_000))
        #expect(time.byline == "By Ana Souza")
        #expect(!time.text.contains("By Ana Souza"))
    }

    @Test("A page over the element limit fails with a sentence, without being parsed")
    func hugePage() {
        let limits = DocumentLimits(elements: 5_000)
        let paragraphs = String(repeating: "<p>\(Self.story[0])</p>", count: 6_000)
        let failure = #expect(throws: ExtractionFailure.self) {
            try ArticleExtractor(limits: limits).extract(html: Array(Self.page(article: paragraphs).utf8), url: Self.url)
        }
        #expect(failure?.reason.contains("more than 5,000 elements") == true)
        let bytes = #expect(throws: ExtractionFailure.self) {
            try ArticleExtractor(limits: .standard, maximumBytes: 1_000).extract(html: Array(Self.page().utf8), url: Self.url)
        }
        #expect(bytes?.reason.contains("larger than") == true)
    }

    @Test("Paragraphs written as text between <br><br> become paragraphs")
    func doubleBreaks() throws {
        let body = "<div class=\"entry-content\">" + Self.story.joined(separator: "<br><br>\n") + "</div>"
        let article = try Self.extract(Self.page(article: body))
        #expect(article.text == Self.story.joined(separator: "\n\n"))
    }

    @Test("Title similarity and sentence ends, as the scorer reads them")
    func helpers() {
        #expect(ContentFinder.similarity("Harbour wall to be rebuilt", "Harbour wall to be rebuilt") == 1)
        #expect(ContentFinder.similarity("Harbour wall", "Something else entirely") == 0)
        #expect(ContentFinder.endsASentence("It rained."))
        #expect(!ContentFinder.endsASentence("version 1.2"))
        #expect(ClassHints.isShareElement("post share-buttons"))
        #expect(!ClassHints.isShareElement("shares-count"))
        #expect(ClassHints.weight(of: "article-body") == 25)
        #expect(ClassHints.weight(of: "comment-list") == -25)
        #expect(PageMetadata.articleTitle("Harbour wall to be rebuilt | Example News", headings: [], h1s: []) == "Harbour wall to be rebuilt")
    }
}

private extension Array where Element == UInt8 {
    /// The page with its `<meta>` saying UTF-8 (the bytes are Latin-1).
    func replacingMeta() -> [UInt8] {
        let text = String(decoding: self.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        guard text.contains("<head>") else { return self }
        var result = self
        let marker = Array("<head>".utf8)
        if let index = (0...(count - marker.count)).first(where: { Array(self[$0..<$0 + marker.count]) == marker }) {
            result.insert(contentsOf: Array("<meta charset=\"utf-8\">".utf8), at: index + marker.count)
        }
        return result
    }
}
