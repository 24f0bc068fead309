import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenRender
import NewsgenTestSupport

/// The archive a site shows: the stories the sources list now and those the cache holds,
/// newest first, each once. The cache's copies of listed stories are, after a build shares
/// their text (`Build.sharingText`), the very copies the sources list; the model leaves those
/// out before sorting (`SiteModelBuilder.init`), which must give the archive the plain rule gives.
@Suite("Archive order")
struct ArchiveOrderTests {
    typealias Generator = SeededGenerator

    static func config() throws -> SiteConfig {
        let json = #"{"title": "Archive", "baseURL": "https://news.example.org/", "sources": [{"id": "a", "feed": "a.xml"}, {"id": "b", "feed": "b.xml"}]}"#
        return try SiteConfig.decode(Data(json.utf8), file: URL(fileURLWithPath: "/nonexistent/site.json"))
    }

    /// A story of `source`, with few distinct URLs, guids, ids and times, so that many collide.
    static func story(_ number: Int, source: String, using generator: inout Generator) -> Article {
        let url = Int.random(in: 0..<4, using: &generator) == 0 ? nil : "https://example.com/\(Int.random(in: 0..<40, using: &generator))"
        let guid = Int.random(in: 0..<3, using: &generator) == 0 ? nil : "g\(Int.random(in: 0..<40, using: &generator))"
        let published = Int.random(in: 0..<5, using: &generator) == 0 ? nil : Date(timeIntervalSince1970: 1_800_000_000 + Double(Int.random(in: 0..<8, using: &generator)) * 3600)
        return Article(id: url ?? "\(source):\(guid ?? "n\(number)")", sourceID: source, title: "Story \(number)", url: url,
                       published: published, guid: guid)
    }

    /// The archive by the rule itself: every listed story kept as a headline and every cached
    /// story, in the archive's order, deduplicated.
    static func reference(headlines: [Article], cached: [Article]) -> [Article] {
        let candidates = headlines + cached
        return candidates.archiveOrder().map { candidates[$0] }.deduplicated()
    }

    @Test("leaving out the cache's copies of the headlines gives the archive the rule gives, copy for copy", arguments: 0..<40)
    func sameArchive(seed: Int) throws {
        var generator = Generator(state: UInt64(seed))
        var lists: [String: [Article]] = [:]
        for source in ["a", "b"] {
            lists[source] = (0..<Int.random(in: 0...25, using: &generator)).map { Self.story($0, source: source, using: &generator) }
        }
        // The cache: listed stories as the very copies listed (most), as equal copies of their
        // own, or changed since; and stories only the cache holds.
        var cached: [Article] = []
        for story in (lists["a"] ?? []) + (lists["b"] ?? []) {
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: continue
            case 1: cached.append(Article(id: story.id, sourceID: story.sourceID, title: story.title, url: story.url, published: story.published, guid: story.guid))
            case 2:
                var changed = story
                changed.title += " (earlier)"
                cached.append(changed)
            default: cached.append(story)
            }
        }
        cached += (0..<Int.random(in: 0...15, using: &generator)).map { Self.story(100 + $0, source: ["a", "b"][$0 % 2], using: &generator) }
        cached.shuffle(using: &generator)
        let config = try Self.config()
        let content = SiteContent(config: config, sources: config.sources.map { SourceReport(config: $0, status: .fetched, name: $0.id, articles: lists[$0.id] ?? []) },
                                  favorites: [], readLater: [], archive: cached, generated: Date(timeIntervalSince1970: 1_800_100_000))
        let model = SiteModelBuilder(content: content)
        let expected = Self.reference(headlines: model.headlines, cached: cached)
        #expect(model.archive.map(\.storageIdentity) == expected.map(\.storageIdentity), "seed \(seed)")
    }
}
