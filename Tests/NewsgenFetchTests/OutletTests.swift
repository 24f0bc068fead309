import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenFetch
import NewsgenTestSupport

/// The outlet that published an article, as each kind of source names it.
@Suite("Outlets")
struct OutletTests {
    @Test("RSS: an item's <source> is its outlet; an item without one has none")
    func rssSource() throws {
        let feed = try TestSupport.parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Digest</title><link>https://digest.example/</link><description>d</description>
            <item><title>Syndicated</title><link>https://post.example/a</link>
              <source url="https://post.example/rss.xml">  The Meridian Post </source></item>
            <item><title>Own story</title><link>https://digest.example/b</link></item>
            </channel></rss>
            """)
        let articles = feed.articles(sourceID: "digest", base: nil, limit: 10)
        #expect(articles.map(\.title) == ["Syndicated", "Own story"])
        #expect(articles.map(\.outlet) == ["The Meridian Post", nil])
    }

    @Test("NewsAPI: source.name is the outlet; an article without a name has none")
    func newsAPI() throws {
        let payload = try #require(NewsPayload.decode(try NewsAPITestSupport.fixture("top-headlines.json")))
        let articles = NewsPayload.articles(payload.items ?? [], sourceID: "uk", limit: 10, categories: false, format: .newsAPI)
        let byTitle = Dictionary(uniqueKeysWithValues: articles.map { ($0.title, $0.outlet) })
        #expect(byTitle["Harbour cranes return to work after the storm"] == "Meridian Wire")
        #expect(byTitle["Night market reopens on the river bank"] == "Valley Courier")
        #expect(byTitle["Mill town's co-op bank marks fifty years"] == "Northern Ledger")
        let unnamed = NewsPayload.decode(Data(#"{"status": "ok", "articles": [{"source": {"id": "x"}, "title": "T", "url": "https://x.example/t"}]}"#.utf8))
        #expect(NewsPayload.articles(unnamed?.items ?? [], sourceID: "x", limit: 10, categories: false, format: .newsAPI).map(\.outlet) == [nil])
    }

    @Test("JSON news APIs: source.name is the outlet, as with NewsAPI")
    func newsJSON() throws {
        let payload = try #require(NewsPayload.decode(try NewsAPITestSupport.fixture("contract.json")))
        let articles = NewsPayload.articles(payload.items ?? [], sourceID: "contract", limit: 10, categories: true, format: .newsJSON)
        #expect(Set(articles.compactMap(\.outlet)) == ["Coindesk.com", "Innovationexcellence.com", "Bitcoinist.com"])
        #expect(articles.allSatisfy { $0.outlet != nil })
    }
}
