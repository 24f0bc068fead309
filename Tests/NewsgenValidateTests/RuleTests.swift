import Foundation
import Testing
@testable import NewsgenValidate
import NewsgenTestSupport

/// One output file broken in one way, and the problem that must name it.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var rule: ValidationRule
    /// The file of Fixtures/site to break.
    var file: String
    var replace: String
    var with: String
    /// Part of the expected message.
    var message: String
    /// Text of the broken file where the problem must point (its first occurrence); `nil` for line 1, column 1.
    var at: String?
    /// Whether every problem of the file must be of `rule` (false when one break trips two rules).
    var only = true

    var testDescription: String { "\(rule.rawValue) in \(file): \(message)" }
}

@Suite("Validation rules")
struct RuleTests {
    /// A copy of Fixtures/site, a small site that passes every rule.
    static func fixtureSite() throws -> URL {
        let folder = try TestSupport.temporaryFolder().appendingPathComponent("site")
        try FileManager.default.copyItem(at: TestSupport.fixtures.appendingPathComponent("site"), to: folder)
        return folder
    }

    @Test("the fixture site passes every rule, with and without its baseURL")
    func fixtureSitePasses() async throws {
        let site = try Self.fixtureSite()
        let report = await SiteValidator.validate(directory: site)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.filesChecked == 9)
        let withBase = await SiteValidator.validate(directory: site, baseURL: URL(string: "https://news.example.org/"))
        #expect(withBase.problems.isEmpty, "\(withBase.problems)")
    }

    static let cases: [RuleCase] = [
        // Pages
        RuleCase(rule: .htmlPolyglot, file: "index.html", replace: "<!DOCTYPE html>\n", with: "",
                 message: "a page must start with <!DOCTYPE html>"),
        RuleCase(rule: .htmlPolyglot, file: "index.html", replace: #" xmlns="http://www.w3.org/1999/xhtml""#, with: "",
                 message: #"the root element must be <html xmlns="http://www.w3.org/1999/xhtml">"#, at: "<html"),
        RuleCase(rule: .htmlPolyglot, file: "index.html", replace: #"<meta charset="utf-8"/>"#, with: #"<meta charset="iso-8859-1"/>"#,
                 message: #"must declare <meta charset="utf-8"/>"#, at: "<meta"),
        RuleCase(rule: .htmlLang, file: "index.html", replace: #" lang="en""#, with: "",
                 message: "<html> has no lang attribute", at: "<html"),
        RuleCase(rule: .htmlLang, file: "index.html", replace: #"lang="en""#, with: #"lang="en_GB""#,
                 message: #"lang="en_GB" is not a language tag"#, at: "<html"),
        RuleCase(rule: .htmlLang, file: "index.html", replace: #"lang="en""#, with: #"lang="x""#,
                 message: #"lang="x" is not a language tag"#, at: "<html"),
        RuleCase(rule: .htmlOneH1, file: "index.html", replace: "<h1>Headlines</h1>", with: "<h2>Headlines</h2>",
                 message: "the page has no <h1>", at: "<body>"),
        RuleCase(rule: .htmlOneH1, file: "index.html", replace: #"<h2 id="world-title"><a href="sources/meridian/">World</a></h2>"#,
                 with: #"<h1 id="world-title"><a href="sources/meridian/">World</a></h1>"#,
                 message: "a second <h1> (the first is on line 13)", at: #"<h1 id="world-title">"#),
        RuleCase(rule: .htmlUniqueID, file: "index.html", replace: #"<section id="world">"#, with: #"<section id="main">"#,
                 message: #"id "main" is used again (first on line 12)"#, at: #"<section id="main">"#),
        RuleCase(rule: .htmlImgAlt, file: "index.html", replace: #" alt="The Meridian Post""#, with: "",
                 message: #"<img src="assets/logo.svg"> has no alt attribute"#, at: "<img"),
        RuleCase(rule: .htmlLocalLink, file: "index.html", replace: #"<a href="sources/meridian/">"#, with: #"<a href="sources/nowhere/">"#,
                 message: #"href="sources/nowhere/" leads to sources/nowhere/index.html, which is not in the output"#, at: #"<a href="sources/nowhere/">"#),
        // A link is read as its attribute's value, references decoded, and reported as such.
        RuleCase(rule: .htmlLocalLink, file: "index.html", replace: #"<a href="sources/meridian/">"#, with: #"<a href="sources/a&amp;b&#x2F;">"#,
                 message: #"href="sources/a&b/" leads to sources/a&b/index.html, which is not in the output"#, at: #"<a href="sources/a&amp;b"#),
        RuleCase(rule: .htmlLocalLink, file: "index.html", replace: #"src="assets/logo.svg""#, with: #"src="assets/logo.png""#,
                 message: #"src="assets/logo.png" leads to assets/logo.png, which is not in the output"#, at: "<img"),
        RuleCase(rule: .htmlLocalLink, file: "sources/meridian/index.html", replace: #"<a href="../../">"#, with: #"<a href="../../../">"#,
                 message: #"href="../../../" leads outside the site"#, at: #"<a href="../../../">"#),
        RuleCase(rule: .htmlLinkScheme, file: "index.html", replace: #"<a href="mailto:desk@example.org">"#, with: #"<a href="javascript:alert(1)">"#,
                 message: #"href="javascript:alert(1)" uses the javascript: scheme"#, at: #"<a href="javascript:"#),
        RuleCase(rule: .htmlFeedLink, file: "index.html",
                 replace: """
                     <link rel="alternate" type="application/rss+xml" title="Headlines (RSS)" href="feeds/headlines.rss"/>
                     <link rel="alternate" type="application/atom+xml" title="Headlines (Atom)" href="feeds/headlines.atom"/>

                     """,
                 with: "", message: #"no <link rel="alternate"> to an RSS, Atom or JSON feed in the output"#, at: "<head>"),
        RuleCase(rule: .htmlFeedLink, file: "sources/meridian/index.html", replace: "feeds/sources/meridian.json", with: "feeds/sources/gone.json",
                 message: #"no <link rel="alternate">"#, at: "<head>", only: false),
        RuleCase(rule: .xmlWellFormed, file: "index.html", replace: "<h1>Headlines</h1>", with: "<h1>Headlines</h2>",
                 message: "Opening and ending tag mismatch: h1 line 13 and h2", at: "\n<section"),
        RuleCase(rule: .xmlWellFormed, file: "sources/meridian/index.html", replace: "<h1>The Meridian Post</h1>", with: "<h1>The&nbsp;Meridian Post</h1>",
                 message: "Entity 'nbsp' not defined", at: "Meridian Post</h1>"),

        // RSS
        RuleCase(rule: .rssSchema, file: "feeds/headlines.rss", replace: "    <link>https://news.example.org/</link>\n", with: "",
                 message: "Expecting an element link, got nothing", at: "<channel>"),
        RuleCase(rule: .rssSchema, file: "feeds/headlines.rss", replace: "<dc:creator>Ann Lee</dc:creator>",
                 with: #"<itunes:author xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">Ann Lee</itunes:author>"#,
                 message: "Element item has extra content: author", at: "<itunes:author"),
        RuleCase(rule: .rssDate, file: "feeds/headlines.rss", replace: "<pubDate>Fri, 20 Nov 2026 08:00:00 +0000</pubDate>",
                 with: "<pubDate>Fri, 20 Nov 26 08:00:00 +0000</pubDate>",
                 message: #"pubDate "Fri, 20 Nov 26 08:00:00 +0000" has a two-digit year"#, at: "<pubDate>"),
        RuleCase(rule: .rssDate, file: "feeds/headlines.rss", replace: "Thu, 19 Nov 2026 17:30 GMT", with: "Wed, 19 Nov 2026 17:30 GMT",
                 message: "names a Wednesday, but 19 Nov 2026 is a Thursday", at: "<pubDate>Wed"),
        RuleCase(rule: .rssDate, file: "feeds/headlines.rss", replace: "<lastBuildDate>Fri, 20 Nov 2026 08:00:00 +0000", with: "<lastBuildDate>2026-11-20T08:00:00Z",
                 message: #"lastBuildDate "2026-11-20T08:00:00Z" is not an RFC 822 date"#, at: "<lastBuildDate>"),
        RuleCase(rule: .rssGuidPermalink, file: "feeds/headlines.rss", replace: #"<guid isPermaLink="false">"#, with: "<guid>",
                 message: #"guid "tag:news.example.org,2026:0a1b2c" is not an http(s) URL, so it needs isPermaLink="false""#, at: "<guid>tag"),
        RuleCase(rule: .rssGuidUnique, file: "feeds/headlines.rss", replace: #"<guid isPermaLink="false">tag:news.example.org,2026:0a1b2c</guid>"#,
                 with: #"<guid isPermaLink="true">https://example.com/one</guid>"#,
                 message: #"guid "https://example.com/one" is already used by the item on line 13"#, at: "<guid isPermaLink=\"true\">https://example.com/one</guid>\n      <description>"),
        RuleCase(rule: .feedSelfLink, file: "feeds/headlines.rss", replace: "https://news.example.org/feeds/headlines.rss", with: "https://news.example.org/feeds/other.rss",
                 message: #"atom:link rel="self" href "https://news.example.org/feeds/other.rss" does not end with the feed's own path, feeds/headlines.rss"#, at: "<atom:link"),
        RuleCase(rule: .feedSelfLink, file: "feeds/headlines.rss",
                 replace: #"    <atom:link href="https://news.example.org/feeds/headlines.rss" rel="self" type="application/rss+xml"/>"# + "\n", with: "",
                 message: #"no atom:link rel="self""#, at: "<channel>", only: false),
        RuleCase(rule: .xmlForbiddenChar, file: "feeds/headlines.rss", replace: "<title>Night trains return</title>", with: "<title>Night trains &#1;return</title>",
                 message: "invalid xmlChar value 1", at: "return</title>"),
        RuleCase(rule: .xmlForbiddenChar, file: "feeds/headlines.rss", replace: "<title>Night trains return</title>", with: "<title>Night trains \u{0B}return</title>",
                 message: "invalid Char value 11", at: "\u{0B}return</title>"),

        // Atom
        RuleCase(rule: .atomSchema, file: "feeds/headlines.atom", replace: "  <id>https://news.example.org/feeds/headlines.atom</id>\n", with: "",
                 message: "id", at: "<feed"),
        RuleCase(rule: .atomIDUnique, file: "feeds/headlines.atom", replace: "<id>tag:news.example.org,2026:0a1b2c</id>", with: "<id>https://example.com/one</id>",
                 message: #"entry id "https://example.com/one" is already used by the entry on line 14"#, at: "<id>https://example.com/one</id>\n    <link rel=\"alternate\" type=\"text/html\" href=\"https://news"),
        RuleCase(rule: .atomDate, file: "feeds/headlines.atom", replace: "2026-11-19T18:30:00.250+01:00", with: "2026-11-19T18:30:00",
                 message: #"updated "2026-11-19T18:30:00" has no time zone"#, at: "<updated>2026-11-19"),
        RuleCase(rule: .atomDate, file: "feeds/headlines.atom", replace: "<published>2026-11-20T08:00:00Z", with: "<published>2026-11-20t08:00:00z",
                 message: #"published "2026-11-20t08:00:00z" is not an RFC 3339 date-time"#, at: "<published>"),
        RuleCase(rule: .feedSelfLink, file: "feeds/headlines.atom", replace: #"href="https://news.example.org/feeds/headlines.atom""#, with: #"href="/feeds/headlines.atom""#,
                 message: #"link rel="self" href "/feeds/headlines.atom" is not an absolute http(s) URL"#, at: #"<link rel="self""#),

        // JSON Feed
        RuleCase(rule: .jsonWellFormed, file: "feeds/sources/meridian.json", replace: #"["World", "Rail"]"#, with: #"["World", "Rail",]"#,
                 message: "not valid JSON: expected another element after ','; JSON allows no trailing comma", at: "]\n    },"),
        RuleCase(rule: .jsonFeedRequired, file: "feeds/sources/meridian.json", replace: "  \"title\": \"The Meridian Post\",\n", with: "",
                 message: "the feed has no title"),
        RuleCase(rule: .jsonFeedRequired, file: "feeds/sources/meridian.json", replace: #""id": "tag:news.example.org,2026:0a1b2c""#, with: #""id": 7"#,
                 message: "items[1].id must be a non-empty string, not a number", at: "7"),
        RuleCase(rule: .jsonFeedRequired, file: "feeds/sources/meridian.json", replace: #""content_html": "<p>Stocks rose on Thursday.</p>""#, with: #""summary": "Stocks rose.""#,
                 message: "items[1] has neither content_html nor content_text", at: "{\n      \"id\": \"tag"),
        RuleCase(rule: .jsonFeedType, file: "feeds/sources/meridian.json", replace: #""tags": ["World", "Rail"]"#, with: #""tags": "World""#,
                 message: "items[0].tags must be an array of strings, not a string", at: #""World""#),
        RuleCase(rule: .jsonFeedType, file: "feeds/sources/meridian.json", replace: #""date_published": "2026-11-20T08:00:00Z""#, with: #""date_published": "Fri, 20 Nov 2026 08:00:00 +0000""#,
                 message: #"items[0].date_published "Fri, 20 Nov 2026 08:00:00 +0000" is not an RFC 3339 date-time"#, at: #""Fri, "#),
        RuleCase(rule: .jsonFeedIDUnique, file: "feeds/sources/meridian.json", replace: #""id": "tag:news.example.org,2026:0a1b2c""#, with: #""id": "https://example.com/one""#,
                 message: #"items[1].id "https://example.com/one" is already the id of items[0]"#, at: "\"https://example.com/one\",\n      \"content_html"),
        RuleCase(rule: .xmlForbiddenChar, file: "feeds/sources/meridian.json", replace: #""title": "Night trains return""#, with: #""title": "Night trains\u0001 return""#,
                 message: "items[0].title holds U+0001, a character XML forbids", at: #""Night trains\u0001"#),
        RuleCase(rule: .feedSelfLink, file: "feeds/sources/meridian.json", replace: "feeds/sources/meridian.json", with: "feeds/meridian.json",
                 message: #"feed_url "https://news.example.org/feeds/meridian.json" does not end with the feed's own path, feeds/sources/meridian.json"#,
                 at: #""https://news.example.org/feeds/meridian.json""#),

        // OPML and sitemap
        RuleCase(rule: .opmlSchema, file: "feeds/sources.opml", replace: #" xmlUrl="https://news.example.org/feeds/headlines.rss""#, with: "",
                 message: "outline", at: #"<outline type="rss""#),
        RuleCase(rule: .opmlSchema, file: "feeds/sources.opml", replace: "  <head>\n    <title>Morning Brief — feeds</title>\n  </head>\n", with: "",
                 message: "Did not expect element body there", at: "<body>"),
        RuleCase(rule: .sitemapSchema, file: "sitemap.xml", replace: "    <loc>https://news.example.org/</loc>\n", with: "",
                 message: "loc", at: "<url>"),
        RuleCase(rule: .sitemapSchema, file: "sitemap.xml", replace: "<loc>https://news.example.org/</loc>", with: "<loc>/</loc>",
                 message: "<loc>/</loc> is not an absolute http(s) URL (RFC 3986) of at most 2048 characters", at: "<loc>/"),
    ]

    @Test("a file that breaks a rule gets a problem naming the rule, at the right line and column", arguments: cases)
    func breaking(_ example: RuleCase) async throws {
        let site = try Self.fixtureSite()
        let file = site.appendingPathComponent(example.file)
        let good = try String(contentsOf: file, encoding: .utf8)
        try #require(good.contains(example.replace), "the fixture holds the text to replace")
        let broken = good.replacingOccurrences(of: example.replace, with: example.with)
        try broken.write(to: file, atomically: true, encoding: .utf8)

        let report = await SiteValidator.validate(directory: site)
        let problem = try #require(
            report.problems.first { $0.path == example.file && $0.rule == example.rule && $0.message.contains(example.message) },
            "\(report.problems.map(\.description).joined(separator: "\n"))"
        )
        let (line, column) = example.at.map { Self.position(of: $0, in: broken) } ?? (1, 1)
        #expect(problem.line == line && problem.column == column, "\(problem), expected \(line):\(column)")
        #expect(report.problems.allSatisfy { $0.path == example.file }, "\(report.problems)")
        if example.only {
            #expect(report.problems.allSatisfy { $0.rule == example.rule }, "\(report.problems)")
        }
    }

    @Test("JSON that is not a feed (the search index) is checked as JSON: what is not JSON is a problem at its place")
    func otherJSON() async throws {
        let site = try Self.fixtureSite()
        let index = site.appendingPathComponent("search.json")
        try (#"[{"title": "A", "url": "a/"},"# + "\n" + #" {"title": "B" "url": "b/"}]"#).write(to: index, atomically: true, encoding: .utf8)
        let report = await SiteValidator.validate(directory: site)
        #expect(report.problems.map(\.description) == [
            "search.json:2:16: json-well-formed: not valid JSON: expected ',' or '}' after an object member, found '\"'",
        ])
        try (#"[{"title": "A", "url": "a/"},"# + "\n" + #" {"title": "B", "url": "b/"}]"#).write(to: index, atomically: true, encoding: .utf8)
        let fixed = await SiteValidator.validate(directory: site)
        #expect(fixed.problems.isEmpty, "\(fixed.problems)")
        #expect(fixed.filesChecked == 10)
    }

    @Test("a feed link is recognised in any case, among other rel tokens, with type parameters and spaces",
          arguments: [
              #"rel="Alternate nofollow" type="application/rss+xml""#,
              "rel=\"nofollow\tALTERNATE\" type=\"application/rss+xml\"",
              #"rel="alternate" type=" Application/RSS+XML ; charset=utf-8""#,
              #"rel="alternate" type="application/feed+json""#,
          ])
    func feedLinkRecognised(_ attributes: String) async throws {
        let report = try await Self.validatingHome(withFeedLink: attributes)
        #expect(!report.problems.contains { $0.rule == .htmlFeedLink }, "\(report.problems)")
    }

    @Test("a link that is not an alternate of a feed type is no feed link",
          arguments: [
              #"rel="alternates" type="application/rss+xml""#,
              #"rel="stylesheet alternate-x" type="application/rss+xml""#,
              #"rel="alternate" type="application/rss+xmlx""#,
              #"rel="alternate" type="text/html""#,
              #"rel="alternate" type="""#,
              #"rel="alternate""#,
          ])
    func notAFeedLink(_ attributes: String) async throws {
        let report = try await Self.validatingHome(withFeedLink: attributes)
        #expect(report.problems.contains { $0.rule == .htmlFeedLink && $0.path == "index.html" }, "\(report.problems)")
    }

    /// Validates the fixture site with its home page's two feed links replaced by one `<link>` with these attributes.
    private static func validatingHome(withFeedLink attributes: String) async throws -> ValidationReport {
        let site = try fixtureSite()
        let home = site.appendingPathComponent("index.html")
        let good = try String(contentsOf: home, encoding: .utf8)
        let links = """
            <link rel="alternate" type="application/rss+xml" title="Headlines (RSS)" href="feeds/headlines.rss"/>
            <link rel="alternate" type="application/atom+xml" title="Headlines (Atom)" href="feeds/headlines.atom"/>

            """
        try #require(good.contains(links), "the fixture's home page has its two feed links")
        let link = #"    <link \#(attributes) title="Headlines" href="feeds/headlines.rss"/>"# + "\n"
        try good.replacingOccurrences(of: links, with: link).write(to: home, atomically: true, encoding: .utf8)
        return await SiteValidator.validate(directory: site)
    }

    @Test("every rule has a file that breaks it")
    func everyRuleIsCovered() {
        let covered = Set(Self.cases.map(\.rule)).union([.fileUnreadable])
        #expect(Set(ValidationRule.allCases).subtracting(covered).isEmpty, "\(Set(ValidationRule.allCases).subtracting(covered))")
    }

    @Test("a file that cannot be read (gone since the folder was listed) is a problem, not a crash")
    func unreadable() throws {
        let site = try Self.fixtureSite()
        let context = SiteValidator.Context(root: site, site: SiteFiles(files: ["gone.rss"]), baseURL: nil)
        let problems = SiteValidator.check(file: site.appendingPathComponent("gone.rss").path, path: "gone.rss", context: context)
        #expect(problems.map(\.rule) == [.fileUnreadable])
        #expect(problems.first?.description.hasPrefix("gone.rss:0:0: file-unreadable: cannot be read") == true, "\(problems)")
    }

    @Test("with the site's baseURL, a self link must be exactly baseURL + path")
    func selfLinkWithBaseURL() async throws {
        let site = try Self.fixtureSite()
        let report = await SiteValidator.validate(directory: site, baseURL: URL(string: "https://news.example.com/brief/"))
        let selfLinks = report.problems.filter { $0.rule == .feedSelfLink }
        #expect(selfLinks.map(\.path) == ["feeds/headlines.atom", "feeds/headlines.rss", "feeds/sources/meridian.json"])
        #expect(selfLinks.first?.message == #"link rel="self" href "https://news.example.org/feeds/headlines.atom" is not where the feed is served: https://news.example.com/brief/feeds/headlines.atom"#)
        #expect(report.problems.count == selfLinks.count, "\(report.problems)")
    }

    @Test("every problem in a file is reported, not just the first, in order")
    func everyProblem() async throws {
        let site = try Self.fixtureSite()
        let page = site.appendingPathComponent("index.html")
        var text = try String(contentsOf: page, encoding: .utf8)
        text = text.replacingOccurrences(of: #" lang="en""#, with: "")
            .replacingOccurrences(of: #" alt="The Meridian Post""#, with: "")
            .replacingOccurrences(of: #"<section id="world">"#, with: #"<section id="main">"#)
        try text.write(to: page, atomically: true, encoding: .utf8)
        let report = await SiteValidator.validate(directory: site)
        #expect(report.problems.map(\.rule) == [.htmlLang, .htmlUniqueID, .htmlImgAlt])
        #expect(report.summary == "3 problems in 1 of 9 files")
    }

    /// Line and column (in characters) where `marker` first occurs in `text`.
    static func position(of marker: String, in text: String) -> (Int, Int) {
        guard let range = text.range(of: marker) else { return (0, 0) }
        let before = text[..<range.lowerBound]
        let line = before.filter { $0 == "\n" }.count + 1
        let lineStart = before.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        return (line, text.unicodeScalars[lineStart..<range.lowerBound].count + 1)
    }
}
