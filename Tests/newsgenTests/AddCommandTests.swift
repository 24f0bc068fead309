import Foundation
import Hummingbird
import NewsgenConfig
import NewsgenTestSupport
import Testing

/// `newsgen add` as a user runs it, against pages and feeds served on 127.0.0.1.
@Suite("newsgen add")
struct AddCommandTests {
    let cli = CLITests()

    /// A hand-written site.json: its own spacing and key order, which an edit must keep.
    static let siteJSON = """
        {
          "title":  "My news",
          "sources": [
            { "id": "one", "feed": "Samples/one.xml",  "category": "World" },
            { "id": "the-meridian-post", "name": "Taken", "feed": "https://taken.example/rss" }
          ],
          "articlesPerSource": 12
        }

        """

    static let page = Data("""
        <!DOCTYPE html><html><head><title>The Meridian Post</title>
        <link rel="alternate" type="application/rss+xml" title="World" href="feeds/world.xml">
        </head><body><p>Front page</p></body></html>
        """.utf8)

    func site(_ text: String = siteJSON) throws -> URL {
        let folder = try TestSupport.temporaryFolder()
        try Data(text.utf8).write(to: folder.appendingPathComponent("site.json"))
        return folder
    }

    func withSite(_ body: @Sendable (URL) async throws -> Void) async throws {
        let feed = try TestSupport.fixture("world.xml")
        let atom = try Data(contentsOf: TestSupport.repository.appendingPathComponent("Samples/feeds/technology.atom"))
        try await withTestServer({ router in
            router.get("news/index.html") { _, _ in Response.body(Self.page, headers: [.contentType: "text/html"]) }
            router.get("news/feeds/world.xml") { _, _ in Response.body(feed, headers: [.contentType: "application/rss+xml"]) }
            router.get("two.html") { _, _ in
                Response.body(Data("""
                    <html><head><link rel="alternate" type="application/rss+xml" href="/news/feeds/world.xml">
                    <link rel="alternate" type="application/atom+xml" href="/tech.atom"></head></html>
                    """.utf8))
            }
            router.get("tech.atom") { _, _ in Response.body(atom) }
        }, body)
    }

    @Test("adds the page's feed after the last source; every other byte of site.json is kept, and it loads")
    func adds() async throws {
        try await withSite { base in
            let folder = try site(Self.siteJSON.replacingOccurrences(of: "the-meridian-post", with: "taken"))
            let original = try Data(contentsOf: folder.appendingPathComponent("site.json"))
            let run = try await cli.newsgen(["add", base.appendingPathComponent("news/index.html").absoluteString, "--category", "World"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            #expect(run.stdout.contains(#"RSS 2.0 feed "The Meridian Post" with 8 items"#), "\(run.stdout)")
            #expect(run.stdout.contains(#"Added source "the-meridian-post""#), "\(run.stdout)")
            let edited = try Data(contentsOf: folder.appendingPathComponent("site.json"))
            let feedURL = base.appendingPathComponent("news/feeds/world.xml").absoluteString
            let entry = #",\#n    { "id": "the-meridian-post", "name": "The Meridian Post", "feed": "\#(feedURL)", "category": "World" }"#
            // The original bytes with one run inserted after the last source, nothing else.
            let anchor = try #require(original.range(of: Data(#""https://taken.example/rss" }"#.utf8))).upperBound
            #expect(edited == original[..<anchor] + Data(entry.utf8) + original[anchor...])
            let config = try SiteConfig.load(from: folder.appendingPathComponent("site.json"))
            #expect(config.sources.map(\.id) == ["one", "taken", "the-meridian-post"])
            #expect(config.sources.last?.category == "World")
        }
    }

    @Test("--dry-run prints the source it would add and writes nothing")
    func dryRun() async throws {
        try await withSite { base in
            let folder = try site()
            let file = folder.appendingPathComponent("site.json")
            let before = try Data(contentsOf: file)
            let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
            let run = try await cli.newsgen(["add", base.appendingPathComponent("news/feeds/world.xml").absoluteString,
                                             "--id", "meridian", "--name", "Meridian", "--dry-run"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains(#"{ "id": "meridian", "name": "Meridian", "feed": ""#), "\(run.stdout)")
            #expect(try Data(contentsOf: file) == before)
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == modified)
        }
    }

    @Test("an id in use is one line with another id to use, and the file is not changed")
    func idInUse() async throws {
        try await withSite { base in
            let folder = try site()
            let before = try Data(contentsOf: folder.appendingPathComponent("site.json"))
            let derived = try await cli.newsgen(["add", base.appendingPathComponent("news/index.html").absoluteString], in: folder)
            #expect(derived.status == 1)
            #expect(derived.stderr == #"newsgen: error: the id "the-meridian-post" is already used by sources[1] in site.json; give it another with --id, such as --id the-meridian-post-2"# + "\n")
            let given = try await cli.newsgen(["add", base.appendingPathComponent("news/index.html").absoluteString, "--id", "one"], in: folder)
            #expect(given.status == 1)
            #expect(given.stderr.hasPrefix(#"newsgen: error: the id "one" is already used by sources[0]"#), "\(given.stderr)")
            #expect(try Data(contentsOf: folder.appendingPathComponent("site.json")) == before)
        }
    }

    @Test("a URL already configured, several feeds, no page: exit 1 with one line each; not http(s): exit 2")
    func refusals() async throws {
        try await withSite { base in
            let folder = try site()
            let before = try Data(contentsOf: folder.appendingPathComponent("site.json"))
            let configured = try await cli.newsgen(["add", "https://TAKEN.example/rss/"], in: folder)
            #expect(configured.status == 1)
            #expect(configured.stderr.contains(#"is already in site.json: it is the feed of source "the-meridian-post""#), "\(configured.stderr)")
            let several = try await cli.newsgen(["add", base.appendingPathComponent("two.html").absoluteString, "--id", "x"], in: folder)
            #expect(several.status == 1)
            #expect(several.stderr.split(separator: "\n").count == 1)
            #expect(several.stderr.contains("/news/feeds/world.xml") && several.stderr.contains("/tech.atom")
                && several.stderr.contains("\"Circuit Weekly\""), "\(several.stderr)")
            let missing = try await cli.newsgen(["add", base.appendingPathComponent("nowhere").absoluteString, "--id", "x"], in: folder)
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("cannot fetch") && missing.stderr.contains("HTTP 404"), "\(missing.stderr)")
            let ftp = try await cli.newsgen(["add", "ftp://example.org/feed"], in: folder)
            #expect(ftp.status == 2)
            #expect(ftp.stderr.contains("is not an http(s) URL"), "\(ftp.stderr)")
            #expect(try Data(contentsOf: folder.appendingPathComponent("site.json")) == before)
        }
    }
}
