import Foundation
import Testing
@testable import NewsgenConfig
@testable import NewsgenBuild
import NewsgenTestSupport

/// site.json's `static` folder in a build: copied as it is, linked relatively, carried when unchanged.
@Suite("Static files")
struct StaticBuildTests {
    /// An incremental test site whose world feed shows images from the site itself, with a static folder.
    private func site(files: [String: String] = ["images/harbour.svg": Self.svg]) throws -> IncrementalTests.Site {
        var site = try IncrementalTests.Site()
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
            <channel><title>World Desk</title><link>https://example.com/world</link><description>World</description>
            <item><title>Harbour cranes return</title><link>https://example.com/world/0</link>
            <description>Cranes.</description><pubDate>20 Nov 2026 09:00:00 GMT</pubDate>
            <content:encoded><![CDATA[<p>Full text.</p><p><img src="https://news.example.org/images/harbour.svg" alt="Cranes"></p>]]></content:encoded>
            <media:thumbnail url="https://news.example.org/images/harbour.svg"/></item>
            <item><title>Rivers rise</title><link>https://example.com/world/1</link>
            <description>Rivers.</description><pubDate>19 Nov 2026 09:00:00 GMT</pubDate>
            <media:thumbnail url="https://news.example.org/images/elsewhere.svg"/></item>
            </channel></rss>
            """
        try Data(feed.utf8).write(to: site.folder.appendingPathComponent("world.xml"))
        let folder = site.folder.appendingPathComponent("static")
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        site.config.staticFolder = folder
        return site
    }

    static let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 18"><rect width="32" height="18" fill="#369"/></svg>"##

    private func read(_ site: IncrementalTests.Site, _ path: String) throws -> String {
        try String(contentsOf: site.output.appendingPathComponent(path), encoding: .utf8)
    }

    private func articlePage(_ site: IncrementalTests.Site, _ prefix: String) throws -> String {
        let folder = try #require(FileManager.default.contentsOfDirectory(atPath: site.output.appendingPathComponent("articles").path)
            .first { $0.hasPrefix(prefix) })
        return try read(site, "articles/\(folder)/index.html")
    }

    @Test("static files are copied as they are, and the site's own images are linked relative to each page")
    func copiedAndLinked() async throws {
        let site = try site(files: ["images/harbour.svg": Self.svg, "robots.txt": "User-agent: *\n"])
        try await site.build()
        #expect(try read(site, "images/harbour.svg") == Self.svg)
        #expect(try read(site, "robots.txt") == "User-agent: *\n")
        let index = try read(site, "index.html")
        #expect(index.contains(#"<img class="thumb" src="images/harbour.svg""#), "relative from the front page")
        #expect(index.contains(#"src="https://news.example.org/images/elsewhere.svg""#), "a URL under baseURL that names no static file stays absolute")
        let page = try articlePage(site, "harbour-cranes-return")
        #expect(page.contains(#"<img class="hero" src="../../images/harbour.svg""#))
        #expect(page.contains(#"<img src="../../images/harbour.svg" alt="Cranes""#), "the full text's image too")
        let rss = try read(site, "feeds/sources/world.rss")
        #expect(rss.contains(#"url="https://news.example.org/images/harbour.svg""#), "feeds keep absolute URLs")
    }

    @Test("a static file where newsgen writes a file or needs a folder is refused, naming it")
    func clashes() async throws {
        for (file, expected) in [
            ("index.html", "static: index.html is a file newsgen writes; rename or move it"),
            ("assets/style.css", "static: assets/style.css is a file newsgen writes; rename or move it"),
            ("articles", "static: articles is a folder newsgen writes into; rename or move it"),
            ("search/manifest.json/x.txt", "static: search/manifest.json/ is a folder of static files, but newsgen writes the file search/manifest.json; rename or move it"),
        ] {
            let site = try site(files: [file: "x"])
            do {
                try await site.build()
                Issue.record("\(file) was accepted")
            } catch {
                #expect("\(error)" == site.config.file.path + ": " + expected)
            }
            #expect(!FileManager.default.fileExists(atPath: site.output.path), "nothing published for \(file)")
        }
    }

    @Test("an unchanged static file is carried; a changed one is written; the result is what a full build gives")
    func incremental() async throws {
        let site = try site(files: ["images/harbour.svg": Self.svg, "notes/a.txt": "a"])
        try await site.build()
        let before = try IncrementalTests.Snapshot(site.output)
        let second = try await site.build()
        #expect(second.filesWritten == 0)
        #expect(try IncrementalTests.Snapshot(site.output) == before, "static files carried, inode and time kept")
        let folder = try #require(site.config.staticFolder)
        try Data("b".utf8).write(to: folder.appendingPathComponent("notes/a.txt"))
        try await site.build()
        let after = try IncrementalTests.Snapshot(site.output)
        #expect(before.changed(in: after) == ["notes/a.txt"])
        #expect(try await site.referenceBuild() == after.bytes)
    }
}
