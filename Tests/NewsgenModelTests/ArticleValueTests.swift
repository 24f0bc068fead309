import Foundation
import Testing
@testable import NewsgenModel

/// `Article` keeps its fields in a shared box (copy-on-write): it must still behave as a plain
/// struct of them would, in every way the pipeline relies on.
@Suite("Article as a value")
struct ArticleValueTests {
    static let story = Article(
        id: "https://example.com/1", sourceID: "world", title: "Harbour reopens", summary: "The port is open again.",
        author: "A. Writer", url: "https://example.com/1", imageURL: "https://example.com/1.jpg",
        published: Date(timeIntervalSince1970: 1_795_000_000), categories: ["Ports"], guid: "g-1",
        content: "<p>Text.</p>", outlet: "Gazette"
    )

    @Test("changing a copy, field by field, leaves the original and every other copy as they were")
    func copiesAreIndependent() {
        let original = Self.story
        let shared = original
        var changed = original
        changed.title = "Harbour closes"
        changed.categories.append("Trade")
        changed.author = nil
        #expect(original.title == "Harbour reopens" && shared.title == "Harbour reopens")
        #expect(original.categories == ["Ports"] && original.author == "A. Writer")
        #expect(changed.title == "Harbour closes" && changed.categories == ["Ports", "Trade"] && changed.author == nil)
        #expect(changed != original && shared == original)
    }

    @Test("two articles built apart with the same fields are equal and hash alike; any field told apart")
    func equality() {
        let again = Article(
            id: "https://example.com/1", sourceID: "world", title: "Harbour reopens", summary: "The port is open again.",
            author: "A. Writer", url: "https://example.com/1", imageURL: "https://example.com/1.jpg",
            published: Date(timeIntervalSince1970: 1_795_000_000), categories: ["Ports"], guid: "g-1",
            content: "<p>Text.</p>", outlet: "Gazette"
        )
        #expect(again == Self.story)
        #expect(Set([again, Self.story]).count == 1)
        let changes: [(inout Article) -> Void] = [
            { $0.id = "x" }, { $0.sourceID = "x" }, { $0.title = "x" }, { $0.summary = "x" }, { $0.author = "x" },
            { $0.url = "x" }, { $0.imageURL = "x" }, { $0.published = nil }, { $0.categories = [] }, { $0.guid = nil },
            { $0.content = nil }, { $0.outlet = nil },
        ]
        #expect(changes.count == Mirror(reflecting: Self.story).children.count, "one change for each field")
        for change in changes {
            var other = Self.story
            change(&other)
            #expect(other != Self.story)
        }
    }

    @Test("encodes as a struct of its fields would (absent optionals left out) and decodes back")
    func codable() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let bare = Article(id: "a", sourceID: "s", title: "t")
        #expect(String(decoding: try encoder.encode(bare), as: UTF8.self) == #"{"categories":[],"id":"a","sourceID":"s","summary":"","title":"t"}"#)
        #expect(try JSONDecoder().decode(Article.self, from: try encoder.encode(Self.story)) == Self.story)
        #expect(Mirror(reflecting: Self.story).children.compactMap(\.label) == [
            "id", "sourceID", "title", "summary", "author", "url", "imageURL", "published", "categories", "guid", "content", "outlet",
        ])
    }
}
