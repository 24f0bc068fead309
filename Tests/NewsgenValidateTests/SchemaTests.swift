import Foundation
import Testing
@testable import NewsgenXML
@testable import NewsgenValidate
@testable import NewsgenRender
import NewsgenTestSupport

/// The RELAX NG schemas, run directly through libxml2.
@Suite("RELAX NG schemas")
struct SchemaTests {
    /// Sitemaps are checked while streaming (`SitemapRules`); the other formats from a tree.
    func schemaMessages(_ kind: FileKind, _ text: String) throws -> [String] {
        let schema = try #require(try Schemas.compiled[kind]?.get())
        if kind == .sitemap {
            let streamed = Data(text.utf8).withUnsafeBytes { LibXML.checkStreaming($0, url: "test.xml", schema: schema, depth: 0) { _, _ in } }
            #expect(streamed.syntax.isEmpty, "\(streamed.syntax)")
            return streamed.schema.map(\.message)
        }
        let checked = Data(text.utf8).withUnsafeBytes { LibXML.check($0, url: "test.xml", schema: schema) }
        #expect(checked.syntax.isEmpty, "\(checked.syntax)")
        return checked.schema.map(\.message)
    }

    @Test("a streaming check finds what a check of the tree finds, and visits elements only down to its depth", arguments: [
        SchemaTests.sitemap,
        SchemaTests.sitemapIndex,
        #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url><url><lastmod>2026-11-21</lastmod></url></urlset>"#,
        #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc><lastmod>yesterday</lastmod></url></urlset>"#,
        #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/relative/</loc><priority>2</priority></url></urlset>"#,
        #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc><extra/></url></urlset>"#,
        #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>"#,
        #"<urlset><url><loc>https://a.example/</loc></url></urlset>"#,
        #"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></sitemapindex>"#,
    ])
    func streaming(_ text: String) throws {
        let schema = try #require(try Schemas.compiled[.sitemap]?.get())
        let tree = Data(text.utf8).withUnsafeBytes { LibXML.check($0, url: "sitemap.xml", schema: schema) }
        var visited: [String] = []
        let streamed = Data(text.utf8).withUnsafeBytes {
            LibXML.checkStreaming($0, url: "sitemap.xml", schema: schema, depth: 1) { element, depth in visited.append("\(depth) \(element.name)") }
        }
        #expect(streamed.syntax.isEmpty && tree.syntax.isEmpty)
        #expect(streamed.schema.isEmpty == tree.schema.isEmpty, "stream: \(streamed.schema), tree: \(tree.schema)")
        let root = try #require(tree.root)
        #expect(visited == ["0 \(root.name)"] + root.children.map { "1 \($0.name)" })
    }

    @Test("a streaming check of a document that is not well-formed reports its syntax, not the schema")
    func streamingBroken() throws {
        let schema = try #require(try Schemas.compiled[.sitemap]?.get())
        for text in [#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>x</loc></url>"#, ""] {
            let streamed = Data(text.utf8).withUnsafeBytes { LibXML.checkStreaming($0, url: "sitemap.xml", schema: schema, depth: 1) { _, _ in } }
            #expect(!streamed.syntax.isEmpty, "\(text)")
            #expect(streamed.schema.isEmpty, "\(streamed.schema)")
        }
    }

    @Test("the embedded schemas are the .rng files, byte for byte")
    func embedded() throws {
        let folder = TestSupport.repository.appendingPathComponent("Sources/NewsgenValidate/Schemas")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".rng") }
        #expect(Set(files) == Set(Schemas.files.map(\.file)))
        #expect(Set(EmbeddedFiles.schemas.keys) == Set(files), "run Scripts/embed-files")
        for file in files {
            #expect(EmbeddedFiles.schemas[file] == (try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)),
                    "\(file) differs from its embedded copy: run Scripts/embed-files")
        }
    }

    @Test("every schema compiles")
    func compile() throws {
        for kind in [FileKind.rss, .atom, .opml, .sitemap] {
            let result = try #require(Schemas.compiled[kind])
            if case .failure(let error) = result { Issue.record("\(error)") }
        }
    }

    static let rss = """
        <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>T</title>
        <link>HTTPS://Example.org/</link><description>D</description>
        <atom:link href="https://example.org/feed.rss" rel="self"/>
        <item><title>A</title><link>https://example.org/a</link></item></channel></rss>
        """
    static let atom = """
        <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><id>urn:x</id><updated>2026-11-20T08:00:00Z</updated>
        <author><name>N</name></author><entry><title>A</title><id>urn:a</id><updated>2026-11-20T08:00:00Z</updated></entry></feed>
        """
    static let opml = """
        <opml version="2.0"><head><title>T</title></head><body><outline text="A" type="rss" xmlUrl="https://example.org/a.rss"/></body></opml>
        """
    static let sitemap = """
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.org/</loc></url></urlset>
        """
    static let sitemapIndex = """
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.org/sitemaps/1.xml</loc></sitemap></sitemapindex>
        """

    @Test("a minimal document of each format is valid (an http(s) scheme in any case)")
    func minimal() throws {
        #expect(try schemaMessages(.rss, Self.rss).isEmpty)
        #expect(try schemaMessages(.atom, Self.atom).isEmpty)
        #expect(try schemaMessages(.opml, Self.opml).isEmpty)
        #expect(try schemaMessages(.sitemap, Self.sitemap).isEmpty)
        #expect(try schemaMessages(.sitemap, Self.sitemapIndex).isEmpty)
    }

    @Test("each schema rejects a document missing a required element", arguments: [
        (FileKind.rss, SchemaTests.rss, "<title>T</title>", "Expecting an element title, got nothing"),
        (.rss, SchemaTests.rss, "<description>D</description>", "Expecting an element description, got nothing"),
        (.rss, SchemaTests.rss, #"<atom:link href="https://example.org/feed.rss" rel="self"/>"#, "Expecting an element link, got nothing"),
        (.rss, SchemaTests.rss, "<title>A</title>", "Element item failed to validate content"),
        (.atom, SchemaTests.atom, "<id>urn:x</id>", "Expecting an element id, got nothing"),
        (.atom, SchemaTests.atom, "<title>T</title>", "Expecting an element title, got nothing"),
        // Inside an interleave libxml2 names the entry, not what it lacks.
        (.atom, SchemaTests.atom, "<id>urn:a</id>", "Element feed has extra content: entry"),
        (.opml, SchemaTests.opml, "<head><title>T</title></head>", "Did not expect element body there"),
        (.opml, SchemaTests.opml, #" xmlUrl="https://example.org/a.rss""#, "Invalid attribute type for element outline"),
        // A sitemap's entry without a <loc> is SitemapRules' to report (SitemapTests): the schema
        // allows an entry's elements in any order and number, as a choice libxml2 can compile.
        // An empty urlset or index is the schema's (libxml2 names no element then).
        (.sitemap, SchemaTests.sitemap, "<url><loc>https://example.org/</loc></url>", "Expecting an element , got nothing"),
        (.sitemap, SchemaTests.sitemapIndex, "<sitemap><loc>https://example.org/sitemaps/1.xml</loc></sitemap>",
         "Expecting an element , got nothing"),
    ])
    func missing(_ kind: FileKind, _ valid: String, _ removed: String, _ message: String) throws {
        #expect(valid.contains(removed))
        let messages = try schemaMessages(kind, valid.replacingOccurrences(of: removed, with: ""))
        #expect(messages.contains { $0.contains(message) }, "\(messages)")
    }
}
