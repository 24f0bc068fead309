import Foundation
import Hummingbird
import Logging
import NewsgenModel
import NewsgenConfig

/// A loopback stand-in for NewsAPI: its fixtures, a site using it, and fast retries.
package enum NewsAPITestSupport {
    /// A key no test output may contain.
    package static let key = "nk-7f3e9a1c5d2b4e6f-test-0042"
    package static let environment = ["NEWS_API_KEY": key]

    package static func fixture(_ name: String) throws -> Data {
        try TestSupport.fixture("newsapi/\(name)")
    }

    /// A site whose `newsapi.baseURL` is `{server}/v2`, with these sources and its cache in `folder`.
    package static func config(
        server: URL, sources: [SourceConfig], language: String = "en", requestPerSource: Bool = false,
        articlesPerSource: Int = 10, folder: URL? = nil
    ) throws -> SiteConfig {
        let folder = try folder ?? TestSupport.temporaryFolder()
        let json = """
            {"language": "\(language)", "articlesPerSource": \(articlesPerSource),
             "newsapi": {"baseURL": "\(server.absoluteString)/v2", "requestPerSource": \(requestPerSource)},
             "templates": "\(TestSupport.repository.appendingPathComponent("Templates").path)",
             "sources": []}
            """
        var config = try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
        config.sources = sources
        return config
    }

    /// A top-headlines answer with one article for each of `ids`, as NewsAPI gives for `sources=…`.
    package static func answer(forSources ids: [String], totalResults: Int? = nil) -> Data {
        var seen: [String: Int] = [:]
        let articles: [[String: Any]] = ids.enumerated().map { index, id in
            let occurrence = seen[id, default: 0]
            seen[id] = occurrence + 1
            return [
                "source": ["id": id, "name": "Outlet \(id)"],
                "author": NSNull(),
                "title": "Story from \(id)",
                "description": "What happened at \(id).",
                "url": "https://\(id).example/story" + (occurrence == 0 ? "" : "-\(occurrence)"),
                "urlToImage": NSNull(),
                "publishedAt": String(format: "2026-11-21T08:%02d:00Z", index % 60),
                "content": NSNull(),
            ]
        }
        let body: [String: Any] = ["status": "ok", "totalResults": totalResults ?? articles.count, "articles": articles]
        return (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
    }
}
