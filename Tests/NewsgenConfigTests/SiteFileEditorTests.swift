import Foundation
import Testing
@testable import NewsgenConfig
import NewsgenTestSupport

/// `newsgen add`'s edit of site.json: the new source's text goes in after the last source,
/// written like it, and every other byte of the file stays as it was.
@Suite("site.json editing")
struct SiteFileEditorTests {
    /// A hand-formatted file: odd spacing, keys in the user's order, a number written as 10.0.
    static let handWritten = """
        {
          "sources": [
            { "feed": "https://one.example/rss", "id": "one",   "category": "World" },
            {"id":"two","feed":"Samples/two.xml"}
          ],
          "title":   "Hand made",
          "articlesPerSource": 10.0
        }

        """

    func write(_ text: String) throws -> URL {
        let file = try TestSupport.temporaryFolder().appendingPathComponent("site.json")
        try Data(text.utf8).write(to: file)
        return file
    }

    /// The run inserted into `original` to give `edited`, placed after the longest common prefix,
    /// when `edited` is exactly that: `original` with one run of bytes inserted, nothing else changed.
    func inserted(into original: String, giving edited: Data) -> String? {
        let old = Array(original.utf8), new = Array(edited)
        guard new.count > old.count else { return nil }
        let prefix = zip(old, new).prefix { $0 == $1 }.count
        let run = new[prefix..<(prefix + new.count - old.count)]
        guard Array(old[..<prefix]) + run + old[prefix...] == new else { return nil }
        return String(decoding: run, as: UTF8.self)
    }

    @Test("a hand-written file keeps every byte outside the inserted source")
    func formattedReflows() throws {
        let file = try write(Self.handWritten)
        let editor = try SiteFileEditor(file: file)
        let edited = try editor.adding(.init(id: "three", name: "Three", feed: "https://three.example/feed.xml"))
        // Everything outside the new entry is the original, byte for byte.
        let added = inserted(into: Self.handWritten, giving: edited)
        // Written like the last source: no space inside the braces, its keys first in its order.
        #expect(added == #",\#n    {"id": "three", "feed": "https://three.example/feed.xml", "name": "Three"}"#, "\(added ?? "not one insertion")")
        #expect(String(decoding: edited, as: UTF8.self).contains(#""articlesPerSource": 10.0"#))
        let config = try SiteConfig.decode(edited, file: file)
        #expect(config.sources.map(\.id) == ["one", "two", "three"])
        #expect(config.sources.last?.name == "Three")
    }

    @Test("a source on one line is followed by one on one line, keys in the last source's order")
    func oneLineTemplate() throws {
        let text = """
            {
              "sources": [
                { "id": "a", "name": "A", "feed": "https://a.example/rss", "category": "World" }
              ]
            }

            """
        let editor = try SiteFileEditor(file: try write(text))
        let edited = try editor.adding(.init(id: "b", name: "B \"quoted\"", category: "Tech", feed: "https://b.example/feed"))
        let added = inserted(into: text, giving: edited)
        #expect(added == ",\n    { \"id\": \"b\", \"name\": \"B \\\"quoted\\\"\", \"feed\": \"https://b.example/feed\", \"category\": \"Tech\" }")
        let config = try SiteConfig.decode(edited, file: editor.file)
        #expect(config.sources.last?.name == "B \"quoted\"")
        #expect(config.sources.last?.category == "Tech")
    }

    @Test("a source over several lines is followed by one over several lines, at its indentation")
    func multiLineTemplate() throws {
        let text = "{\n\t\"sources\": [\n\t\t{\n\t\t\t\"id\": \"a\",\n\t\t\t\"feed\": \"https://a.example/rss\"\n\t\t}\n\t]\n}\n"
        let editor = try SiteFileEditor(file: try write(text))
        let edited = try editor.adding(.init(id: "b", name: "B", feed: "https://b.example/feed"))
        #expect(inserted(into: text, giving: edited)
            == ",\n\t\t{\n\t\t\t\"id\": \"b\",\n\t\t\t\"feed\": \"https://b.example/feed\",\n\t\t\t\"name\": \"B\"\n\t\t}")
    }

    @Test("an empty list gets the source on a line of its own")
    func emptyList() throws {
        let text = "{\n  \"title\": \"T\",\n  \"sources\": []\n}\n"
        let editor = try SiteFileEditor(file: try write(text))
        let edited = try editor.adding(.init(id: "b", feed: "https://b.example/feed"))
        #expect(String(decoding: edited, as: UTF8.self)
            == "{\n  \"title\": \"T\",\n  \"sources\": [\n    { \"id\": \"b\", \"feed\": \"https://b.example/feed\" }\n  ]\n}\n")
        #expect(try SiteConfig.decode(edited, file: editor.file).sources.map(\.id) == ["b"])
    }

    @Test("a source the configuration rejects is not added: the error names its key")
    func invalidSourceRefused() throws {
        let editor = try SiteFileEditor(file: try write(Self.handWritten))
        #expect(throws: ConfigError.self) { try editor.adding(.init(id: "one", feed: "https://x.example/rss")) }
        do {
            _ = try editor.adding(.init(id: "new", feed: "ftp://x.example/rss"))
            Issue.record("an ftp feed was accepted")
        } catch {
            #expect(error.keyPath == "sources[2].feed")
        }
    }

    @Test("ids in use, free ids, and feeds already configured")
    func lookups() throws {
        let editor = try SiteFileEditor(file: try write(Self.handWritten))
        #expect(editor.index(ofID: "two") == 1)
        #expect(editor.index(ofID: "three") == nil)
        #expect(editor.freeID(like: "one") == "one-2")
        #expect(editor.freeID(like: "fresh") == "fresh")
        #expect(editor.source(reading: try #require(URL(string: "HTTPS://One.example/rss/")))?.id == "one")
        #expect(editor.source(reading: try #require(URL(string: "https://one.example/other"))) == nil)
    }

    @Test("writing replaces the file with the edited bytes; a broken file is not opened for editing")
    func saveAndBroken() throws {
        let file = try write(Self.handWritten)
        let editor = try SiteFileEditor(file: file)
        let edited = try editor.adding(.init(id: "three", feed: "https://three.example/feed.xml"))
        try editor.save(edited)
        #expect(try Data(contentsOf: file) == edited)
        #expect(try SiteConfig.load(from: file).sources.count == 3)
        #expect(throws: ConfigError.self) { try SiteFileEditor(file: try write(#"{"sources": [ {"id": "x"} ]}"#)) }
    }
}
