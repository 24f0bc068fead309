import Foundation
import Testing
@testable import NewsgenValidate
import NewsgenTestSupport

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

    @Test("validate's summary says how many files of each kind were checked, which get no checks, and what was found")
    func checkSummary() async throws {
        let folder = try TestSupport.temporaryFolder()
        let files = ["assets/style.css": "p {}", "assets/app.js": "", "assets/print.css": "", "CNAME": "news.example.org",
                     "data.json": "{}", "bad.json": "{", "ok.xml": "<a/>", "logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"]
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let report = await SiteValidator.validate(directory: folder)
        #expect(report.filesChecked == 8)
        #expect(report.checkSummary == "checked 4 of 8 files (2 JSON files, 1 XML file, 1 SVG image); 4 have no checks (2 .css, 1 .js, 1 without an extension): 1 problem in 1 file")

        try FileManager.default.removeItem(at: folder.appendingPathComponent("assets"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("CNAME"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("bad.json"))
        let clean = await SiteValidator.validate(directory: folder)
        #expect(clean.checkSummary == "checked 3 files (1 JSON file, 1 XML file, 1 SVG image): 0 problems")
    }

    @Test("the fixture site's summary names every kind it holds")
    func fixtureSummary() async throws {
        let site = try RuleTests.fixtureSite()
        let report = await SiteValidator.validate(directory: site)
        let kinds = try FileManager.default.subpathsOfDirectory(atPath: site.path).filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: site.appendingPathComponent($0).path, isDirectory: &isFolder) && !isFolder.boolValue
        }.map { SummaryKind(path: $0) }
        #expect(kinds.count == report.filesChecked)
        let named = SummaryKind.allCases.compactMap { kind -> String? in
            let count = kinds.count { $0 == kind }
            return count == 0 ? nil : kind.counted(count)
        }
        let others = kinds.count { $0 == nil }
        let head = others == 0 ? "checked \(kinds.count) files" : "checked \(kinds.count - others) of \(kinds.count) files"
        #expect(report.checkSummary.hasPrefix(head + " (" + named.joined(separator: ", ") + ")"), "\(report.checkSummary)")
        #expect(report.checkSummary.hasSuffix(": 0 problems"))
    }
}
