import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// Sources shown from the cache get their lists in one read, after every source was fetched,
/// against a real SQLite cache: a story two local files list is stored once, so the file whose
/// copy is not the stored one is read again, and each source still shows its own copy.
@Suite("Cached lists read at once")
struct CachedListsTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    /// An RSS feed of `items` (guid, title), an hour apart, newest first.
    static func feed(_ name: String, _ items: [(guid: String, title: String)]) -> Data {
        let entries = items.enumerated().map { index, item in
            """
            <item><title>\(item.title)</title><link>https://example.com/\(item.guid)</link><guid>https://example.com/\(item.guid)</guid>
            <description>About \(item.title).</description><pubDate>Sat, 21 Nov 2026 \(10 - index):00:00 GMT</pubDate></item>
            """
        }.joined(separator: "\n")
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>\(name)</title><link>https://example.com/\(name)</link><description>\(name)</description>
            \(entries)
            </channel></rss>
            """.utf8)
    }

    /// Three local feeds: "north" and "south" both list the story "shared", each with a title of its own.
    static let feeds: [String: [(guid: String, title: String)]] = [
        "north": [("shared", "Bridge reopens, says the North Desk"), ("n1", "Snow closes the mountain pass")],
        "south": [("shared", "Bridge reopens, says the South Desk"), ("s1", "Harbour cranes return")],
        "east": [("e1", "A new map of the deep sea floor"), ("e2", "Comet seen at dawn")],
    ]

    let folder: URL
    let config: SiteConfig

    init() throws {
        folder = try TestSupport.temporaryFolder()
        for (name, items) in Self.feeds { try Self.feed(name, items).write(to: folder.appendingPathComponent("\(name).xml")) }
        let json = """
            {"title": "Cached lists", "baseURL": "https://news.example.org/",
             "sources": [{"id": "north", "feed": "north.xml"}, {"id": "south", "feed": "south.xml"}, {"id": "east", "feed": "east.xml"}]}
            """
        config = try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
    }

    /// One build against the site's cache. `settled`: the feed files count as unchanged for long
    /// enough that an unchanged one is not read again.
    func build(settled: Bool = true) async throws -> BuildReport {
        let store = try SQLiteStore.open(at: config.cache, logger: TestSupport.recordingLogger().0)
        let ahead: TimeInterval = settled ? 3600 : 0
        let provider = FeedProvider(http: nil, articlesPerSource: config.articlesPerSource, retry: .none, now: { Date().addingTimeInterval(ahead) })
        return try await TestBuild.run(config, options: .init(refresh: true), store: store, providers: [provider], at: Self.now).0
    }

    func titles(_ report: BuildReport, _ source: String) -> [String]? {
        report.sources.first { $0.config.id == source }?.articles.map(\.title)
    }

    @Test("every source shows its own copy of a story two files list, and only the file whose copy is not stored is read again")
    func ownCopies() async throws {
        let first = try await build(settled: true)
        #expect(first.sources.allSatisfy { $0.readNow })
        let store = try SQLiteStore.open(at: config.cache, logger: TestSupport.recordingLogger().0)
        let owner = try #require(try await store.lists(of: ["north"])["north"]?.first?.sourceID)
        let other = owner == "north" ? "south" : "north"

        let second = try await build(settled: true)
        for (name, items) in Self.feeds {
            #expect(titles(second, name) == items.map(\.title), "\(name) shows its own copies, in its order")
            #expect(second.sources.first { $0.config.id == name }?.articles.allSatisfy { $0.sourceID == name } == true)
        }
        let readNow = second.sources.filter { $0.readNow }.map(\.config.id)
        #expect(readNow == [other], "only the source whose copy of the shared story was not the stored one is read again")
        let states = try await store.states(of: ["north", "south", "east"])
        #expect(states[owner]?.httpStatus == 304, "a file left as it was is recorded as not modified")
        #expect(states["east"]?.httpStatus == 304)
        #expect(states[other]?.httpStatus == nil, "the file read again is recorded as read")
        #expect(try String(contentsOf: config.output.appendingPathComponent("sources/\(other)/index.html"), encoding: .utf8)
            .contains(Self.feeds[other]?.first?.title ?? "-"))
    }
}
