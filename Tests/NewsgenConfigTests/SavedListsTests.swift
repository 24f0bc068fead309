import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
import NewsgenTestSupport

@Suite("Saved lists")
struct SavedListsTests {
    func decode(_ json: String) throws(ConfigError) -> SavedLists {
        try SavedFile.decode(Data(json.utf8), file: "saved.json")
    }

    func reading(_ json: String) throws(ConfigError) -> SavedFile.Reading {
        try SavedFile.reading(Data(json.utf8), file: "saved.json")
    }

    func error(_ json: String) -> String {
        do {
            _ = try reading(json)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test("the contract's shape")
    func decodes() throws {
        let lists = try decode("""
            { "favorites": [ { "url": "https://example.com/story", "title": "optional", "savedAt": "2026-11-20T08:00:00Z" } ],
              "readLater": [ { "url": "https://example.com/other" }, { "id": "abc" } ] }
            """)
        #expect(lists.favorites == [SavedEntry(url: "https://example.com/story", title: "optional", savedAt: TestSupport.date("2026-11-20T08:00:00Z"))])
        #expect(lists.readLater.count == 2)
        #expect(try decode("").favorites.isEmpty, "an empty file is empty lists")
        #expect(try decode(#"{"favorites": null}"#).favorites.isEmpty)
    }

    @Test("unknown keys are errors with did-you-mean, as in site.json", arguments: [
        (#"{"read-later": []}"#, "saved.json:1:2: read-later: unknown key; did you mean readLater? (allowed: favorites, readLater)"),
        (#"{"favorites": [], "favourites": []}"#, "saved.json:1:19: favourites: unknown key; did you mean favorites? (allowed: favorites, readLater)"),
        (#"{"favorites": [], "device": "laptop"}"#, "saved.json:1:19: device: unknown key (allowed: favorites, readLater)"),
        (#"{"favorites": [{"url": "https://a.example/", "titel": "x"}]}"#,
         "saved.json:1:46: favorites[0].titel: unknown key; did you mean title? (allowed: url, id, title, savedAt)"),
        (#"{"readLater": [{"url": "https://a.example/"}, {"url": "https://b.example/", "saved": "2026-11-20T08:00:00Z"}]}"#,
         "saved.json:1:77: readLater[1].saved: unknown key; did you mean savedAt? (allowed: url, id, title, savedAt)"),
    ])
    func unknownKeys(json: String, expected: String) {
        #expect(error(json) == expected)
    }

    @Test("a file that is not JSON names the line and column and what was expected", arguments: [
        ("{\n  \"favorites\": [\n    {\"url\": \"https://a.example/\"},\n  ]\n}\n",
         "saved.json:4:3: expected another element after ','; JSON allows no trailing comma"),
        ("{\n  \"favorites\": []\n  \"readLater\": []\n}\n",
         "saved.json:3:3: expected ',' or '}' after an object member, found '\"'"),
        ("{\"favorites\": [{\"url\": \"https://a.example/}]}",
         "saved.json:1:24: this string is never closed; expected '\"' before the end of the file"),
    ])
    func notJSON(json: String, expected: String) {
        #expect(error(json) == expected)
    }

    @Test("a broken file shape is an error naming the key path", arguments: [
        (#"{"favorites": {}}"#, "saved.json:1:2: favorites: expected an array of entries, found an object"),
        (#"[]"#, "saved.json:1:1: expected an object with favorites and readLater, found an array"),
    ])
    func shapeErrors(json: String, expected: String) {
        #expect(error(json) == expected)
    }

    @Test("an entry newsgen cannot use is skipped with a warning naming file and entry; the rest is used", arguments: [
        (#"{"url": "not a url"}"#, #"saved.json:1:50: favorites[1]: url "not a url" is not an absolute http(s) URL; skipped"#),
        (#"{"url": "javascript:alert(1)"}"#, #"saved.json:1:50: favorites[1]: url "javascript:alert(1)" is not an absolute http(s) URL; skipped"#),
        (#"{"title": "no url"}"#, "saved.json:1:50: favorites[1]: has neither a url nor an id; skipped"),
        (#"{"url": "https://b.example/", "savedAt": "yesterday"}"#,
         #"saved.json:1:50: favorites[1]: savedAt "yesterday" is not a date such as 2026-11-20T08:00:00Z; skipped"#),
        (#"{"url": "https://b.example/", "title": 7}"#, "saved.json:1:50: favorites[1]: title is a number; expected a string; skipped"),
        (#"3"#, "saved.json:1:50: favorites[1]: expected an object with a url, found a number; skipped"),
        (#""https://b.example/""#, "saved.json:1:50: favorites[1]: expected an object with a url, found a string; skipped"),
    ])
    func badEntry(entry: String, warning: String) throws {
        let reading = try reading("""
            {"favorites": [{"url": "https://a.example/one"}, \(entry), {"id": "abc"}],
             "readLater": [{"url": "https://c.example/"}]}
            """)
        #expect(reading.warnings.map(\.description) == [warning])
        #expect(reading.lists.favorites.map(\.key) == ["https://a.example/one", "id:abc"], "the good entries around it survive")
        #expect(reading.lists.readLater.count == 1)
        #expect(try decode("{\"favorites\": [\(entry)]}").favorites.isEmpty, "decode leaves the entry out too")
    }

    @Test("saved add and remove refuse a file with an unknown key or that is not JSON, with the same error")
    func editorRefuses() throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appendingPathComponent("saved.json")
        for (text, expected) in [
            (#"{"favorites": [], "read-later": []}"#, ":1:19: read-later: unknown key; did you mean readLater? (allowed: favorites, readLater)"),
            (#"{"favorites": [{"url": "https://a.example/", "titel": "A"}]}"#, ":1:46: favorites[0].titel: unknown key; did you mean title? (allowed: url, id, title, savedAt)"),
            ("{\"favorites\": [],}", ":1:18: expected another member after ','; JSON allows no trailing comma"),
        ] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            do {
                _ = try SavedFileEditor(file: file)
                Issue.record("edited \(text)")
            } catch {
                #expect(error.description == file.path + (expected.hasPrefix(":") ? "" : ": ") + expected)
            }
            #expect(try String(contentsOf: file, encoding: .utf8) == text, "the file is left as it was")
        }
    }

    @Test("saved add keeps an entry a build skips, and says so")
    func editorKeepsSkippedEntries() throws {
        let file = try TestSupport.temporaryFolder().appendingPathComponent("saved.json")
        try #"{"favorites": [{"url": "not a url"}]}"#.write(to: file, atomically: true, encoding: .utf8)
        var editor = try SavedFileEditor(file: file)
        #expect(editor.warnings.map(\.description) == [file.path + #":1:16: favorites[0]: url "not a url" is not an absolute http(s) URL; skipped"#])
        #expect(editor.add(url: "https://b.example/", to: .favorites, title: nil, at: TestSupport.date("2026-11-21T12:00:00Z")) == .added)
        try editor.save()
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains(#""url": "not a url""#) && saved.contains(#""url": "https://b.example/""#))
    }

    @Test("saved add writes numbers back as they were written, and keys in their order")
    func editorKeepsNumbersAsWritten() throws {
        let file = try TestSupport.temporaryFolder().appendingPathComponent("saved.json")
        try #"{"readLater": [], "favorites": [{"url": "https://a.example/", "id": 1.50E+2}]}"#.write(to: file, atomically: true, encoding: .utf8)
        var editor = try SavedFileEditor(file: file)
        #expect(editor.warnings.count == 1, "an id that is not a string is skipped by a build")
        _ = editor.add(url: "https://b.example/", to: .favorites, title: nil, at: TestSupport.date("2026-11-21T12:00:00Z"))
        try editor.save()
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains(#""id": 1.50E+2"#), "\(saved)")
        #expect(saved.range(of: "readLater")!.lowerBound < saved.range(of: "favorites")!.lowerBound)
    }

    @Test("files from several devices merge: one entry per article, first title, earliest save, newest first")
    func merge() {
        let phone = SavedLists(favorites: [
            SavedEntry(url: "https://example.com/a", savedAt: TestSupport.date("2026-11-20T10:00:00Z")),
            SavedEntry(url: "https://example.com/b", title: "B from phone", savedAt: TestSupport.date("2026-11-19T10:00:00Z")),
        ])
        let laptop = SavedLists(favorites: [
            SavedEntry(url: "HTTPS://EXAMPLE.COM/b/?utm_source=x", title: "B from laptop", savedAt: TestSupport.date("2026-11-18T10:00:00Z")),
            SavedEntry(url: "https://example.com/c"),
        ], readLater: [SavedEntry(url: "https://example.com/a")])
        let merged = SavedLists.merge([phone, laptop])
        #expect(merged.favorites.map(\.url) == ["https://example.com/a", "https://example.com/b", "https://example.com/c"])
        #expect(merged.favorites[1].title == "B from phone")
        #expect(merged.favorites[1].savedAt == TestSupport.date("2026-11-18T10:00:00Z"))
        #expect(merged.readLater.count == 1, "the two lists stay separate")
    }

    @Test("entries match articles by normalized URL or id, the first article in order winning; unmatched ones are built from the entry")
    func matching() {
        let articles = [
            Article(id: "https://example.com/a", sourceID: "s", title: "A", url: "https://example.com/a?utm_medium=feed"),
            Article(id: "s:guid-7", sourceID: "s", title: "Seven", guid: "guid-7"),
            Article(id: "t:a", sourceID: "t", title: "A again", url: "https://EXAMPLE.com/a/"),
            Article(id: "guid-7", sourceID: "t", title: "Seven again"),
            Article(id: "t:8", sourceID: "t", title: "Eight", guid: "s:guid-7"),
        ]
        let entries = [
            SavedEntry(url: "HTTPS://example.com/a/#top"), SavedEntry(id: "guid-7"), SavedEntry(id: "s:guid-7"),
            SavedEntry(url: "https://example.com/z"), SavedEntry(url: "https://example.com/none", id: "t:8"),
        ]
        let matcher = SavedMatcher(lists: [Array(articles[..<2]), Array(articles[2...])], entries: entries)
        #expect(matcher.match(entries[0])?.title == "A")
        #expect(matcher.match(entries[1])?.title == "Seven", "a GUID of an earlier article before a later article's id")
        #expect(matcher.match(entries[2])?.title == "Seven", "an id before a later article's GUID")
        #expect(matcher.match(entries[3]) == nil)
        #expect(matcher.match(entries[4])?.title == "Eight", "an id when the URL matches nothing")
        #expect(matcher.match(SavedEntry(id: "t:a")) == nil, "only the entries given are indexed")
        let placeholder = SavedMatcher.placeholder(for: SavedEntry(url: "https://example.com/z/story", title: nil))
        #expect(placeholder.title == "example.com/z/story")
        #expect(placeholder.url == "https://example.com/z/story")
        #expect(SavedMatcher.placeholder(for: SavedEntry(url: "https://example.com/q", title: "Mine")).title == "Mine")
    }
}
