import Foundation
import Testing
@testable import NewsgenCore

@Suite("Saved lists")
struct SavedListsTests {
    func decode(_ json: String) throws(ConfigError) -> SavedLists {
        try SavedFile.decode(Data(json.utf8), file: "saved.json")
    }

    @Test("the contract's shape, unknown keys allowed")
    func decodes() throws {
        let lists = try decode("""
            { "favorites": [ { "url": "https://example.com/story", "title": "optional", "savedAt": "2026-11-20T08:00:00Z", "color": "red" } ],
              "readLater": [ { "url": "https://example.com/other" }, { "id": "abc" } ], "device": "phone" }
            """)
        #expect(lists.favorites == [SavedEntry(url: "https://example.com/story", title: "optional", savedAt: TestSupport.date("2026-11-20T08:00:00Z"))])
        #expect(lists.readLater.count == 2)
        #expect(try decode("").favorites.isEmpty, "an empty file is empty lists")
    }

    @Test("broken entries name their key path", arguments: [
        (#"{"favorites": {}}"#, "saved.json: favorites: expected an array of entries"),
        (#"{"favorites": [{"title": "no url"}]}"#, "saved.json: favorites[0]: needs a url"),
        (#"{"readLater": [{"url": "javascript:alert(1)"}]}"#, "saved.json: readLater[0].url: expected an absolute http(s) URL"),
        (#"{"readLater": [{"url": "https://a.b/", "savedAt": "yesterday"}]}"#, "saved.json: readLater[0].savedAt: expected a date"),
        (#"{"favorites": [3]}"#, "saved.json: favorites[0]: expected an object with a url, found a number"),
    ])
    func errors(json: String, expected: String) {
        #expect {
            try decode(json)
        } throws: { error in
            (error as? ConfigError)?.description.hasPrefix(expected) == true
        }
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

    @Test("entries match articles by normalized URL or id; unmatched ones are built from the entry")
    func matching() {
        let articles = [
            Article(id: "https://example.com/a", sourceID: "s", title: "A", url: "https://example.com/a?utm_medium=feed"),
            Article(id: "s:guid-7", sourceID: "s", title: "Seven", guid: "guid-7"),
        ]
        let matcher = SavedMatcher(articles: articles)
        #expect(matcher.match(SavedEntry(url: "HTTPS://example.com/a/#top"))?.title == "A")
        #expect(matcher.match(SavedEntry(id: "guid-7"))?.title == "Seven")
        #expect(matcher.match(SavedEntry(id: "s:guid-7"))?.title == "Seven")
        #expect(matcher.match(SavedEntry(url: "https://example.com/z")) == nil)
        let placeholder = SavedMatcher.placeholder(for: SavedEntry(url: "https://example.com/z/story", title: nil))
        #expect(placeholder.title == "example.com/z/story")
        #expect(placeholder.url == "https://example.com/z/story")
        #expect(SavedMatcher.placeholder(for: SavedEntry(url: "https://example.com/q", title: "Mine")).title == "Mine")
    }
}
