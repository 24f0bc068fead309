import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenBuild

/// The archive read from the cache holds its own copy of every story a source lists now; the
/// build swaps in the source's copy where the two are equal, so their text is in memory once.
@Suite("Archive text shared with the sources")
struct ArchiveSharingTests {
    /// Where a string's bytes are (long strings live on the heap, one buffer per copy).
    static func storage(_ string: String) -> UnsafeRawPointer? {
        var string = string
        return string.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    /// A story; `copied` gives each of its strings a buffer of its own, as decoding a row does.
    static func story(_ id: String, source: String, title: String, copied: Bool = false) -> Article {
        func text(_ string: String) -> String { copied ? String(decoding: Array(string.utf8), as: UTF8.self) : string }
        return Article(id: text(id), sourceID: text(source), title: text(title),
                       summary: text("A summary long enough to be stored on the heap, not inline."),
                       url: text("https://example.com/\(id)"), guid: text(id))
    }

    @Test("an archived story equal to a listed one becomes the listed copy; one that differs, or no source lists, stays the archive's")
    func sharing() throws {
        let json = #"{"title": "Sharing", "sources": [{"id": "world", "feed": "world.xml"}]}"#
        let config = try SiteConfig.decode(Data(json.utf8), file: URL(fileURLWithPath: "/nonexistent/site.json"))
        let listed = [Self.story("a", source: "world", title: "Harbour reopens after the long winter storms"),
                      Self.story("b", source: "world", title: "Comet seen at dawn over the northern hills")]
        let report = SourceReport(config: config.sources[0], status: .fetched, name: "World", articles: listed)
        // As decoded from SQLite: equal values in buffers of their own.
        let archive = [
            Self.story("a", source: "world", title: "Harbour reopens after the long winter storms", copied: true),
            Self.story("b", source: "world", title: "Comet seen at dawn over the northern hills (an earlier title)", copied: true),
            Self.story("c", source: "world", title: "A story no source lists any more, kept in the archive", copied: true),
        ]
        #expect(Self.storage(archive[0].summary) != Self.storage(listed[0].summary), "the test starts from separate copies")

        let listedStories = ListedStories([report])
        let (shared, unlisted) = (listedStories.sharingText(of: archive), listedStories.unlisted(in: archive))
        #expect(shared == archive, "the same stories, in the same order")
        #expect(unlisted.map(\.id) == ["b", "c"], "those no source lists as they are, in order")
        #expect(Self.storage(unlisted[0].title) == Self.storage(archive[1].title))
        #expect(Self.storage(shared[0].title) == Self.storage(listed[0].title), "an equal story is the source's copy")
        #expect(Self.storage(shared[0].summary) == Self.storage(listed[0].summary))
        #expect(Self.storage(shared[1].title) == Self.storage(archive[1].title), "a story that differs stays as archived")
        #expect(Self.storage(shared[2].title) == Self.storage(archive[2].title))
    }
}
