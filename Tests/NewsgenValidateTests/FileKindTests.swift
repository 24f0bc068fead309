import Testing
@testable import NewsgenValidate

/// Which checks a file gets follows from its path alone.
@Suite("File kinds")
struct FileKindTests {
    @Test("a path's kind, by the last part of its name and, for JSON and XML, its folder", arguments: [
        ("index.html", FileKind.page), ("a/b/PAGE.HTM", .page), ("feeds/headlines.rss", .rss), ("x.atom", .atom),
        ("feeds.opml", .opml), ("feeds/sources/bbc.json", .jsonFeed), ("search.json", .json), ("sitemap.xml", .sitemap),
        ("sitemaps/2.xml", .sitemap), ("other/sitemap.xml", .sitemap), ("data.xml", .xml), ("logo.svg", .xml),
        ("assets/style.css", .other), ("README", .other), (".html", .other), ("a/.rss", .other), ("a.html.", .page),
        (".a.html", .page), ("a..html", .page), ("...", .other), ("a.b/c", .other), ("café.html", .page), ("é.", .other),
    ])
    func kind(_ path: String, _ kind: FileKind) {
        #expect(FileKind(path: path) == kind)
    }

    @Test("the extension is the last of two or more non-empty dot-separated parts, on random names")
    func randomNames() {
        let pieces = [".", ".", "a", "html", "HTML", "rss", "é", "json", "x"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let name = (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let parts = name.split(separator: ".")
            let expected = parts.count > 1 ? String(parts.last ?? "") : ""
            #expect(FileKind.fileExtension(of: name) == expected, "\(name.debugDescription)")
        }
    }
}

/// Problems on a line name which of its same-named elements they are about.
@Suite("Elements counted by name on a line")
struct NameCountsTests {
    @Test("counts match a dictionary's, for lines of few and of many names")
    func counts() {
        var generator = SystemRandomNumberGenerator()
        for names in [4, 40] {
            var counts = PageRules.NameCounts()
            var expected: [String: Int] = [:]
            for step in 0..<2_000 {
                if step % 300 == 299 {
                    counts.removeAll()
                    expected.removeAll()
                }
                let name = "e\(Int.random(in: 0..<names, using: &generator))"
                #expect(counts.count(name) == expected[name, default: 0])
                expected[name, default: 0] += 1
            }
        }
    }
}
