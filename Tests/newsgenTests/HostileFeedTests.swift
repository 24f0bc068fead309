import Foundation
import Hummingbird
import NewsgenTestSupport
import Testing

/// Whole `newsgen build` runs with one hostile source beside a good one: whatever the hostile
/// document's shape, the build ends, publishes the good source, and reports the hostile one in one
/// line (or reads it, without expanding what it must not). Their time and memory are measured by
/// `Scripts/hostile-feeds` (BENCHMARKS.md), not here. One at a time: eleven builds of up to
/// 100 MB of input at once would hold both cores from the rest of the suite's timed tests.
@Suite("newsgen build: hostile feeds", .serialized)
struct HostileFeedTests {
    /// One kind of hostile document, and what the build says of its source.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var file: String
        /// Writes the document into `url`.
        var write: @Sendable (URL) throws -> Void
        /// What the warning line about the source says; `nil` when the feed is read (status 0).
        var refused: String?

        var description: String { name }
    }

    static let good = """
        <?xml version="1.0"?><rss version="2.0"><channel><title>Good</title><link>https://good.example/</link>
        <item><title>A good story</title><link>https://good.example/story</link><description>Fine.</description></item>
        </channel></rss>
        """

    /// An RSS document around `items`, with `doctype` before it.
    static func rss(doctype: String = "", _ items: String) -> String {
        "<?xml version=\"1.0\"?>\(doctype)<rss version=\"2.0\"><channel><title>Hostile</title><link>https://hostile.example/</link>\(items)</channel></rss>"
    }

    static func text(_ string: String) -> @Sendable (URL) throws -> Void {
        { try Data(string.utf8).write(to: $0) }
    }

    static let cases: [Case] = [
        Case(name: "billion laughs", file: "laughs.xml", write: text(rss(
            doctype: "<!DOCTYPE rss [<!ENTITY l0 \"lol\">" + (1...9).map { "<!ENTITY l\($0) \"\(String(repeating: "&l\($0 - 1);", count: 10))\">" }.joined() + "]>",
            "<item><title>&l9;</title><link>https://hostile.example/1</link></item>")), refused: nil),
        Case(name: "quadratic blowup", file: "blowup.xml", write: text(rss(
            doctype: "<!DOCTYPE rss [<!ENTITY a \"\(String(repeating: "x", count: 50_000))\">]>",
            "<item><title>t</title><link>https://hostile.example/1</link><description>\(String(repeating: "&a;", count: 16_000))</description></item>")),
            refused: "entity expansion beyond 1 MB"),
        Case(name: "quadratic blowup in attributes", file: "attribute-blowup.xml", write: text(rss(
            doctype: "<!DOCTYPE rss [<!ENTITY a \"\(String(repeating: "x", count: 50_000))\">]>",
            "<item><title>t</title><link>https://hostile.example/1</link><enclosure type=\"image/png\" url=\"\(String(repeating: "&a;", count: 16_000))\"/></item>")),
            refused: "entity expansion beyond 1 MB"),
        Case(name: "parameter entities", file: "parameter.xml", write: text(rss(
            doctype: "<!DOCTYPE rss [<!ENTITY % p \"<!ENTITY q 'text'>\"> %p; <!ENTITY % x SYSTEM \"file:///etc/passwd\"> %x;]>",
            "<item><title>Parameter &q;</title><link>https://hostile.example/1</link></item>")), refused: nil),
        Case(name: "external entities", file: "external.xml", write: text(rss(
            doctype: "<!DOCTYPE rss [<!ENTITY secret SYSTEM \"file:///etc/passwd\"><!ENTITY remote SYSTEM \"http://127.0.0.1:9/x\">]>",
            "<item><title>External &secret;&remote;</title><link>https://hostile.example/1</link></item>")), refused: nil),
        Case(name: "deeply nested elements", file: "deep.xml", write: text(rss(
            "<item><title>Deep</title><link>https://hostile.example/1</link><description>"
                + String(repeating: "<d>", count: 100_000) + String(repeating: "</d>", count: 100_000) + "</description></item>")), refused: nil),
        Case(name: "100,000 tags never closed, then 100,000 end tags of none", file: "unclosed.xml", write: text(rss(
            "<item><title>Unclosed</title><link>https://hostile.example/1</link><description>"
                + String(repeating: "<b>x", count: 100_000) + String(repeating: "</z>", count: 100_000) + "</description></item>")), refused: nil),
        Case(name: "100,000 attributes", file: "attributes.xml", write: text(rss(
            "<item a=\"1\" " + (0..<100_000).map { "a\($0)=\"1\"" }.joined(separator: " ") + "><title>t</title></item>")),
            refused: "an element with more than 1,000 attributes"),
        Case(name: "one text node of 100 MB", file: "huge.xml", write: { url in
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.write(contentsOf: Data(rss("<item><title>Huge</title><description>").dropLast("</channel></rss>".count).utf8))
            let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<100 { try handle.write(contentsOf: block) }
            try handle.write(contentsOf: Data("</description></item></channel></rss>".utf8))
        }, refused: "larger than 10 MiB"),
        Case(name: "1,000,000 tiny items", file: "items.xml", write: text(rss(String(repeating: "<item/>", count: 1_000_000))),
             refused: "more than 200,000 elements"),
        Case(name: "1,000,000 tiny items in a JSON Feed", file: "items.json", write: text(
            "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"Hostile\", \"items\": [" + Array(repeating: "{}", count: 1_000_000).joined(separator: ",") + "]}"),
             refused: "more than 200,000 JSON values"),
    ]

    /// A site of two local sources, `hostile` (the case's file) and `good`.
    func site(_ hostile: Case) throws -> URL {
        let folder = try TestSupport.temporaryFolder()
        try hostile.write(folder.appendingPathComponent(hostile.file))
        try Data(Self.good.utf8).write(to: folder.appendingPathComponent("good.xml"))
        let config = """
            {"title": "Hostile", "sources": [{"id": "hostile", "feed": "\(hostile.file)"}, {"id": "good", "feed": "good.xml"}]}
            """
        try Data(config.utf8).write(to: folder.appendingPathComponent("site.json"))
        return folder
    }

    @Test("A whole build with one hostile local source ends, publishes the other, and names the hostile one", arguments: cases)
    func hostileLocalSource(_ hostile: Case) async throws {
        let folder = try site(hostile)
        let run = try await CLITests().newsgen(["build", "--offline"], in: folder)
        let index = try String(contentsOf: folder.appendingPathComponent("public/index.html"), encoding: .utf8)
        #expect(index.contains("A good story"), "the good source is published: \(run.stderr)")
        if let refused = hostile.refused {
            #expect(run.status == 3, "published, one source failed: \(run.stderr)")
            let line = run.stderr.split(separator: "\n").first { $0.contains("source \"hostile\"") }
            #expect(line?.contains(refused) == true, "\(run.stderr)")
            let page = try String(contentsOf: folder.appendingPathComponent("public/sources/hostile/index.html"), encoding: .utf8)
            #expect(page.contains("Couldn’t be reached") && !page.contains(refused),
                    "the source's page says it has no stories in a sentence of its own; the reason is the log's")
        } else {
            #expect(run.status == 0, "\(run.stderr)")
            #expect(!index.contains("root:"), "no file was read into the page")
        }
    }

    @Test("The quadratic blowup over HTTP: the other sources of its host are fetched and published")
    func hostileOverHTTP() async throws {
        let blowup = try #require(Self.cases.first { $0.name == "quadratic blowup" })
        let document = try TestSupport.temporaryFolder().appendingPathComponent("blowup.xml")
        try blowup.write(document)
        let hostile = try Data(contentsOf: document)
        try await withTestServer({ router in
            router.get("hostile.xml") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: hostile))) }
            for number in 1...4 {
                router.get("good\(number).xml") { _, _ in
                    let feed = Self.good.replacingOccurrences(of: "A good story", with: "Good story \(number)")
                        .replacingOccurrences(of: "good.example/story", with: "good.example/story\(number)")
                    return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: feed)))
                }
            }
        }) { server in
            let folder = try TestSupport.temporaryFolder()
            let sources = ["{\"id\": \"hostile\", \"feed\": \"\(server.appendingPathComponent("hostile.xml").absoluteString)\"}"]
                + (1...4).map { "{\"id\": \"good\($0)\", \"feed\": \"\(server.appendingPathComponent("good\($0).xml").absoluteString)\"}" }
            try Data("{\"sources\": [\(sources.joined(separator: ", "))]}".utf8).write(to: folder.appendingPathComponent("site.json"))
            let run = try await CLITests().newsgen(["build"], in: folder)
            #expect(run.status == 3, "\(run.stderr)")
            #expect(run.stderr.contains("source \"hostile\": entity expansion beyond 1 MB"), "\(run.stderr)")
            let index = try String(contentsOf: folder.appendingPathComponent("public/index.html"), encoding: .utf8)
            for number in 1...4 { #expect(index.contains("Good story \(number)"), "good\(number) is published") }
        }
    }
}
