import Testing

@Suite("URL normalization")
struct URLNormalizerTests {
    @Test("same story, different spellings", arguments: [
        ("HTTPS://Example.COM/News/Story", "https://example.com/News/Story"),
        ("https://example.com/story/", "https://example.com/story"),
        ("https://example.com/story#comments", "https://example.com/story"),
        ("https://example.com/story?utm_source=rss&utm_medium=feed", "https://example.com/story"),
        ("https://example.com/story?id=7&utm_campaign=x", "https://example.com/story?id=7"),
        ("https://example.com:443/story", "https://example.com/story"),
        ("http://example.com:80/", "http://example.com"),
        ("https://example.com", "https://example.com"),
        ("  https://example.com/a  ", "https://example.com/a"),
    ])
    func normalizes(input: String, expected: String) {
        #expect(URLNormalizer.normalize(input) == expected)
    }

    @Test("path case and other parameters are kept: they can name different pages")
    func keepsMeaning() {
        #expect(URLNormalizer.normalize("https://example.com/A") != URLNormalizer.normalize("https://example.com/a"))
        #expect(URLNormalizer.normalize("https://example.com/?p=1") != URLNormalizer.normalize("https://example.com/?p=2"))
    }

    @Test("only absolute http(s) URLs normalize", arguments: ["javascript:alert(1)", "mailto:a@b.c", "/relative", "", "ftp://example.com/x", "https://"])
    func rejects(input: String) {
        #expect(URLNormalizer.normalize(input) == nil)
    }

    @Test("links resolve against the feed, and only http(s) survive")
    func absolute() {
        let base = URL(string: "https://example.com/news/feed.xml")
        #expect(URLNormalizer.absoluteHTTP("/a", base: base) == "https://example.com/a")
        #expect(URLNormalizer.absoluteHTTP("b", base: base) == "https://example.com/news/b")
        #expect(URLNormalizer.absoluteHTTP("javascript:alert(1)", base: base) == nil)
        #expect(URLNormalizer.absoluteHTTP("data:text/html,x", base: base) == nil)
        #expect(URLNormalizer.absoluteHTTP("/a", base: nil) == nil)
        #expect(URLNormalizer.absoluteHTTP("/a", base: URL(string: "file:///etc/")) == nil)
    }

    @Test("URLs taken as already normalized (without URLComponents) are what URLComponents gives, on random and tricky URLs")
    func fastPath() {
        let tricky = [
            "https://example.com/a", "https://example.com/A/b_c-d~e/f.html", "https://example.com/", "https://example.com",
            "https://example.com/a/", "https://example.com/./a", "https://example.com/a/..", "https://example.com/a/.b",
            "https://Example.com/a", "https://example.com:443/a", "https://user@example.com/a", "https://example.com/a?b=c",
            "https://example.com/a#b", "https://example.com/a%20b", "https://example.com/a b", " https://example.com/a",
            "https://example.com/a\n", "http://example.com//a", "https://-.-/a", "https://./a", "https://1.2.3.4/a",
            "https://xn--bcher-kva.example/a", "https://example.com/ä", "HTTPS://example.com/a", "https:/example.com/a",
            "https:///a", "https://example.com/a.", "https://example.com/a..b", "https://example.com/a/.", "https://example.com/~",
        ]
        let pieces = ["http://", "https://", "HTTP://", "ftp://", "example.com", "EXAMPLE.com", "news.example.org", "a-b.c", ":80", ":443",
                      ":8080", "/", "//", "/a", "/B", "/story", "/2026/11/21", ".", "..", "/.", "/..", "-", "_", "~", "?", "#", "%20", "%zz",
                      "=", "&", "utm_source=x", "id=7", " ", "@", "ü", "+", ";", ",", "'", "(", "*", "!", "$"]
        var generator = SystemRandomNumberGenerator()
        var random: [String] = []
        for _ in 0..<20_000 {
            let scheme = ["http://", "https://"].randomElement(using: &generator) ?? ""
            random.append(scheme + (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined())
        }
        // Plausible story URLs, which mostly take the fast path, with now and then a piece that must not.
        let hosts = ["example.com", "news.example.org", "a-b.c", "Example.com", "example.com:443", "x"]
        let segments = ["a", "B", "story", "2026", "x.html", "a-b_c~d", ".", "..", ".x", "", "a%20b", "ä", "a?b=1", "a#c"]
        for _ in 0..<20_000 {
            let scheme = ["http://", "https://"].randomElement(using: &generator) ?? ""
            let path = (0..<Int.random(in: 0...5, using: &generator)).map { _ in segments.randomElement(using: &generator) ?? "" }.joined(separator: "/")
            random.append(scheme + (hosts.randomElement(using: &generator) ?? "") + "/" + path)
        }
        var fast = 0
        for url in tricky + random {
            #expect(URLNormalizer.normalize(url) == URLNormalizer.normalizeByComponents(url), "\(url.debugDescription)")
            if URLNormalizer.isNormalized(url) { fast += 1 }
        }
        #expect(fast > 1_000, "the random URLs exercise the fast path")
        #expect(URLNormalizer.isNormalized("https://example.com/2026/11/21/harbour-reopens.html"))

        // The readers and checks take a URL in this form as Foundation's URL would read it.
        let base = URL(string: "https://base.example/feed/")
        for url in tricky + random {
            #expect(URLNormalizer.host(of: url) == URL(string: url)?.host, "\(url.debugDescription)")
            let trimmed = url.trimmedWhitespace
            guard !trimmed.isEmpty else { continue }
            #expect(URLNormalizer.absoluteHTTP(url, base: base) == URLNormalizer.absoluteHTTPByURL(trimmed, base: base), "\(url.debugDescription)")
        }
    }
}

import Foundation
@testable import NewsgenModel
import NewsgenTestSupport

@Suite("Article lists")
struct ArticleListTests {
    func article(_ id: String, url: String?, guid: String? = nil, date: String?, source: String = "s") -> Article {
        Article(id: id, sourceID: source, title: id, url: url, published: date.map(TestSupport.date), guid: guid)
    }

    @Test("newest first; undated last in feed order")
    func sorting() {
        let list = [
            article("old", url: nil, date: "2026-11-01T00:00:00Z"),
            article("undated1", url: nil, date: nil),
            article("new", url: nil, date: "2026-11-21T00:00:00Z"),
            article("undated2", url: nil, date: nil),
        ].sortedNewestFirst()
        #expect(list.map(\.id) == ["new", "old", "undated1", "undated2"])
    }

    @Test("duplicates by normalized URL, by guid within a source, and by id")
    func deduplication() {
        let list = [
            article("a", url: "https://example.com/x", date: nil),
            article("b", url: "HTTPS://EXAMPLE.COM/x/?utm_source=y", date: nil),
            article("c", url: nil, guid: "g", date: nil),
            article("d", url: nil, guid: "g", date: nil),
            article("e", url: nil, guid: "g", date: nil, source: "other"),
            // A story with neither URL nor guid is known by its id alone (its title in its source):
            // two copies of it, one listed and one cached, are one story.
            article("s:Item Title", url: nil, date: nil),
            article("s:Item Title", url: nil, date: nil),
            article("s:Other Title", url: nil, date: nil),
        ].deduplicated()
        #expect(list.map(\.id) == ["a", "c", "e", "s:Item Title", "s:Other Title"])
    }

    @Test("the archive's order: newest first, then by id, copies in their order; deduplication by URLs normalized beforehand gives what deduplicating gives")
    func archiveOrderAndPlaces() {
        let stories = [
            article("b", url: "https://example.com/x", date: "2026-11-21T00:00:00Z"),
            article("a", url: "https://example.com/y", date: "2026-11-21T00:00:00Z"),
            article("c", url: nil, date: nil),
            article("a", url: "HTTPS://EXAMPLE.COM/y/?utm_source=z", date: "2026-11-21T00:00:00Z", source: "other"),
            article("d", url: "https://example.com/x#top", date: "2026-11-22T00:00:00Z"),
            article("e", url: nil, guid: "g", date: nil),
            article("f", url: nil, guid: "g", date: nil),
        ]
        #expect(stories.archiveOrder().map { stories[$0].id } == ["d", "a", "a", "b", "c", "e", "f"])
        #expect(stories.archiveOrder() == [4, 1, 3, 0, 2, 5, 6])
        let urls = stories.map { $0.url.flatMap(URLNormalizer.normalize) }
        #expect(stories.normalizedURLs() == urls)
        #expect(stories.deduplicated(urls: urls) == stories.deduplicated())
        #expect(stories.placesKept(urls: urls) == [0, 1, 2, 5], "the same URL normalized, or the same guid in one source, once")
        // Keys are looked up by their hashes and compared in full when a hash was seen: with
        // every key of one hash, each is compared with every one seen, and the same are kept.
        let alike = stories.indices.map { place in KeyHashes(id: 7, url: urls[place] == nil ? nil : 7, guid: stories[place].guid == nil ? nil : 7) }
        #expect(stories.placesKept(urls: urls, hashes: alike) == [0, 1, 2, 5])
    }

    @Test("deduplication of a site's stories, their keys hashed on both cores, keeps what one pass of sets of the keys keeps")
    func deduplicationAtScale() {
        // 6,000 stories (hashed in halves from 2,000): every third names the URL of the story
        // half its number in another spelling, every fifth has no URL, and each five in a row
        // share a guid (every tenth story is in another source, so its guid is its own there);
        // every seventh has the id of the story half its number.
        let stories = (0..<6_000).map { n in
            let url: String? = n % 5 == 0 ? nil : n % 3 == 0 ? "HTTPS://Example.com/story/\(n / 2)/?utm_source=x" : "https://example.com/story/\(n)"
            return article(n % 7 == 0 ? "s\(n / 2)" : "s\(n)", url: url, guid: "g\(n / 5)", date: nil, source: n % 10 == 0 ? "other" : "feed")
        }
        let urls = stories.normalizedURLs()
        var seenURLs = Set<String>(), seenGUIDs = Set<[String]>(), seenIDs = Set<String>()
        let expected = stories.indices.filter { place in
            if let url = urls[place], !seenURLs.insert(url).inserted { return false }
            if let guid = stories[place].guid, !guid.isEmpty, !seenGUIDs.insert([stories[place].sourceID, guid]).inserted { return false }
            return seenIDs.insert(stories[place].id).inserted
        }
        #expect(expected.count > 1_000 && expected.count < 5_000, "some kept and some dropped: \(expected.count)")
        #expect(stories.placesKept(urls: urls) == expected)
    }

    @Test("slugs are safe path segments")
    func slugs() {
        #expect(Slug.make("Science & Technology") == "science-technology")
        #expect(Slug.make("Zoë Ångström") == "zoe-angstrom")
        #expect(Slug.make("../../etc") == "etc")
        #expect(Slug.make("日本") == "")
        #expect(Slug.make("A tiny satellite built by students has sent back its first photos", limit: 50) == "a-tiny-satellite-built-by-students-has-sent-back")
        #expect(Slug.make("Supercalifragilistic", limit: 5) == "super")
        #expect(Slug.digest("a") != Slug.digest("b"))
        #expect(Slug.digest("a").count == 16)
        // FNV-1a's 64 bits in sixteen lowercase digits, leading zeros kept (pages are named with them).
        #expect(Slug.digest("") == "cbf29ce484222325")
        #expect(Slug.digest("a") == "af63dc4c8601ec8c")
        #expect(Slug.digest("foobar") == "85944171f73967e8")
        #expect(Slug.digest("story-0") == "00286367d3e1a027")
    }

    @Test("slugs of plain ASCII titles (made without ICU's transform) are what the transform path gives")
    func asciiSlugs() {
        let pieces = ["Harbour", "cranes", "RETURN", "2026", "&", "--", " ", "...", "x", "Q3's", "a/b", "\t", "7%", "Zz", "_", "@"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let title = (0..<Int.random(in: 0...14, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "x" }.joined()
            let limit = Int.random(in: 3...70, using: &generator)
            // U+00A0 at the start sends the title down the transform path without changing its slug.
            #expect(Slug.make(title, limit: limit) == Slug.make("\u{A0}" + title, limit: limit), "\(title.debugDescription) limit \(limit)")
        }
    }
}
