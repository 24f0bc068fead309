import Foundation
import Testing
@testable import NewsgenXML
@testable import NewsgenValidate
@testable import NewsgenRender
import NewsgenTestSupport

/// Sitemaps within the protocol: at most 50,000 URLs a file, and past that a sitemap index.
@Suite("Sitemaps")
struct SitemapTests {
    static let context = FeedContext(baseURL: URL(string: "https://news.example.org/")!, language: "en", siteTitle: "T")

    /// Writes the sitemap files for `pages` into a new folder, as a build would.
    func writeSitemaps(pages: [String], limit: Int) throws -> (folder: URL, files: [String: String]) {
        let folder = try TestSupport.temporaryFolder()
        var written: [String: String] = [:]
        for file in SitemapWriter.files(pages: pages, limit: limit) {
            let text = String(decoding: SitemapWriter.bytes(file, context: Self.context), as: UTF8.self)
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            written[file.path] = text
        }
        return (folder, written)
    }

    /// What validating a folder holding `sitemap` as sitemap.xml and `index` as sitemaps/index.xml
    /// finds, each problem as "path:line:column rule message".
    func problems(sitemap: String, index: String) async throws -> [String] {
        let folder = try TestSupport.temporaryFolder()
        try sitemap.write(to: folder.appendingPathComponent("sitemap.xml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sitemaps"), withIntermediateDirectories: true)
        try index.write(to: folder.appendingPathComponent("sitemaps/index.xml"), atomically: true, encoding: .utf8)
        let report = await SiteValidator.validate(directory: folder)
        return report.problems.map { "\($0.path):\($0.line):\($0.column) \($0.rule.rawValue) \($0.message)" }
    }

    func locs(_ text: String) -> [String] {
        text.components(separatedBy: "<loc>").dropFirst().compactMap { $0.components(separatedBy: "</loc>").first }
    }

    @Test("a sitemap's buffer is made at its very size, whatever the base URL's and the paths' lengths")
    func bufferSize() throws {
        for base in ["https://a.example/", "https://news.example.org/a/rather/long/prefix/for/the/whole/site/"] {
            let context = FeedContext(baseURL: try #require(URL(string: base)), language: "en", siteTitle: "T")
            for pages in [[], ["index.html"], (1...300).map { "articles/\(String(repeating: "word-", count: $0 % 20))\($0)/" }] {
                let file = SitemapWriter.File(path: SitePaths.sitemap, body: .urls(pages))
                #expect(SitemapWriter.bytes(file, context: context).count == SitemapWriter.size(of: pages, context: context), "\(base), \(pages.count) pages")
            }
        }
    }

    @Test("up to the limit, one sitemap.xml lists every page")
    func oneFile() throws {
        let pages = (1...10).map { "articles/\($0)/" }
        let (_, files) = try writeSitemaps(pages: pages, limit: 10)
        #expect(Array(files.keys) == ["sitemap.xml"])
        #expect(locs(files["sitemap.xml"] ?? "") == pages.map { "https://news.example.org/" + $0 })
    }

    @Test("past the limit, sitemap.xml is an index of sitemaps/<n>.xml, each within the limit, listing every page once")
    func index() async throws {
        let pages = (1...25).map { "articles/\($0)/" }
        let (folder, files) = try writeSitemaps(pages: pages, limit: 10)
        #expect(Set(files.keys) == ["sitemap.xml", "sitemaps/1.xml", "sitemaps/2.xml", "sitemaps/3.xml"])
        let index = try #require(files["sitemap.xml"])
        #expect(index.contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"))
        #expect(locs(index) == (1...3).map { "https://news.example.org/sitemaps/\($0).xml" })
        let parts = (1...3).map { locs(files["sitemaps/\($0).xml"] ?? "") }
        #expect(parts.map(\.count) == [10, 10, 5])
        #expect(parts.flatMap { $0 } == pages.map { "https://news.example.org/" + $0 })
        let report = await SiteValidator.validate(directory: folder)
        #expect(report.filesChecked == 4)
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test("at the real limit: 50,001 pages make two sitemaps (50,000 and 1) that validate")
    func realLimit() async throws {
        let pages = (1...50_001).map { "articles/story-number-\($0)/" }
        let (folder, files) = try writeSitemaps(pages: pages, limit: SitemapWriter.urlLimit)
        #expect(Set(files.keys) == ["sitemap.xml", "sitemaps/1.xml", "sitemaps/2.xml"])
        #expect(locs(files["sitemaps/2.xml"] ?? "") == ["https://news.example.org/articles/story-number-50001/"])
        let report = await SiteValidator.validate(directory: folder)
        #expect(report.problems.isEmpty, "\(report.problems.prefix(3))")
    }

    @Test("a sitemap of more than 50,000 URLs is a sitemap-schema problem that says to split it")
    func overLimit() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = SitemapWriter.File(path: "sitemap.xml", body: .urls((1...50_001).map { "p/\($0)/" }))
        try Data(SitemapWriter.bytes(file, context: Self.context)).write(to: folder.appendingPathComponent("sitemap.xml"))
        let report = await SiteValidator.validate(directory: folder)
        #expect(report.problems.map(\.rule) == [.sitemapSchema])
        #expect(report.problems.first?.message == "<urlset> has 50001 <url> entries; a sitemap may list at most 50000; split it into sitemaps listed by a sitemap index")
    }

    @Test("an entry has one <loc> and at most one of each other element, in any order; each that has not is reported at its start tag")
    func entryElements() async throws {
        let ns = "http://www.sitemaps.org/schemas/sitemap/0.9"
        let sitemap = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="\(ns)">
            <url><loc>https://a.example/1</loc></url><url><lastmod>2026-11-24</lastmod></url>
            <url><priority>0.5</priority><changefreq>daily</changefreq><lastmod>2026-11-24</lastmod><loc>https://a.example/3</loc></url>
            <url><loc>https://a.example/4</loc><loc>https://a.example/4b</loc></url><url></url>
            <url><loc>https://a.example/6</loc><lastmod>2026-11-24</lastmod><lastmod>2026-11-25</lastmod><priority>1</priority><priority>0</priority></url>
            </urlset>

            """
        let index = """
            <?xml version="1.0" encoding="UTF-8"?>
            <sitemapindex xmlns="\(ns)">
              <sitemap><lastmod>2026-11-24</lastmod><loc>https://a.example/sitemaps/1.xml</loc></sitemap>
              <sitemap><lastmod>2026-11-24</lastmod></sitemap>
            </sitemapindex>

            """
        let found = try await problems(sitemap: sitemap, index: index)
        let none = "has no <loc>; each entry names its page's URL in one <loc>"
        #expect(found == [
            "sitemap.xml:3:42 sitemap-schema <url> \(none)",
            "sitemap.xml:5:1 sitemap-schema <url> has 2 <loc>; an entry may have one of each",
            "sitemap.xml:5:73 sitemap-schema <url> \(none)",
            "sitemap.xml:6:1 sitemap-schema <url> has 2 <lastmod> and 2 <priority>; an entry may have one of each",
            "sitemaps/index.xml:4:3 sitemap-schema <sitemap> \(none)",
        ])
    }

    @Test("files below sitemaps/ are checked as sitemaps: a relative loc in an index part is reported")
    func partsAreSitemaps() async throws {
        #expect(FileKind(path: "sitemaps/3.xml") == .sitemap)
        #expect(FileKind(path: "other/3.xml") == .xml)
        let folder = try TestSupport.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sitemaps"), withIntermediateDirectories: true)
        try #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/a/</loc></url></urlset>"#
            .write(to: folder.appendingPathComponent("sitemaps/1.xml"), atomically: true, encoding: .utf8)
        let report = await SiteValidator.validate(directory: folder)
        #expect(report.problems.map(\.rule) == [.sitemapSchema])
    }

    @Test("a <loc> is an absolute http(s) URI in any case, of at most 2,048 characters, each where a URI may hold it", arguments: [
        ("https://news.example.org/a/", true), ("HTTP://A.EXAMPLE", true), ("hTTpS://x", true),
        ("https://example.org/" + String(repeating: "é", count: 2_028), true),
        ("https://example.org/" + String(repeating: "a", count: 2_029), false),
        ("/a/", false), ("", false), ("ftp://example.org/", false), ("https://", false), ("https:/example.org/", false),
        ("httpss://example.org/", false), ("https://example.org/a b", false), (" https://example.org/", false),
        ("https://example.org/\t", false), ("https://example.org/\n", false), ("https://example.org/\r", false),
        ("mailto:a@example.org", false), ("https:", false),
        // What a URI may hold, and where (RFC 3986), and an IRI's characters past ASCII.
        ("https://user@[::1]:8080/a-b_c.d~e/!$&'()*+,;=:@/?q=1&r=%2F#top", true), ("https://example.org/caf%C3%A9", true),
        ("https://example.org/café/日本", true), ("https://example.org/#a?b/c", true), ("https://example.org?q", true),
        ("https://example.org/a%", false), ("https://example.org/a%2", false), ("https://example.org/a%zz", false),
        ("https://example.org/a#b#c", false), ("https://example.org/[1]", false), ("https:///path", false), ("https://#a", false),
        ("https://example.org/<a>", false), ("https://example.org/\"q\"", false), ("https://example.org/{a}", false),
        ("https://example.org/a|b", false), ("https://example.org/a\\b", false), ("https://example.org/a^b", false),
        ("https://example.org/a`b", false), ("https://example.org/\u{7F}", false), ("https://example.org/\u{0}", false),
    ])
    func location(_ text: String, allowed: Bool) {
        #expect(SitemapRules.isLocation(Array(text.utf8)) == allowed)
    }

    @Test("each wrong <loc> is reported at its own start tag, in a sitemap and an index; a <loc> in pieces is read whole")
    func wrongLocations() async throws {
        let ns = "http://www.sitemaps.org/schemas/sitemap/0.9"
        let sitemap = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="\(ns)">
            <url><loc>https://a.example/1</loc></url><url><loc>ftp://a.example/2</loc></url><url><loc>/3</loc></url>
            <url><loc>https://a.example/<!-- a comment -->4</loc><lastmod>2026-11-24</lastmod></url>
            <url><lastmod>2026-11-24</lastmod><loc><![CDATA[https://a.example/5 and more]]></loc></url>
            </urlset>

            """
        let index = """
            <?xml version="1.0" encoding="UTF-8"?>
            <sitemapindex xmlns="\(ns)">
              <sitemap><loc>https://a.example/sitemaps/1.xml</loc></sitemap>
              <sitemap><loc>sitemaps/2.xml</loc></sitemap>
            </sitemapindex>

            """
        let found = try await problems(sitemap: sitemap, index: index)
        let rest = "is not an absolute http(s) URL (RFC 3986) of at most 2048 characters"
        #expect(found == [
            "sitemap.xml:3:47 sitemap-schema <loc>ftp://a.example/2</loc> \(rest)",
            "sitemap.xml:3:86 sitemap-schema <loc>/3</loc> \(rest)",
            "sitemap.xml:5:35 sitemap-schema <loc>https://a.example/5 and more</loc> \(rest)",
            "sitemaps/index.xml:4:12 sitemap-schema <loc>sitemaps/2.xml</loc> \(rest)",
        ])
    }
}
