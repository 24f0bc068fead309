import Foundation
import Testing
@testable import NewsgenBuild
@testable import NewsgenRender
import NewsgenTestSupport

/// Open Graph, Twitter's card and JSON-LD on the sample site's pages.
@Suite("Share cards")
struct ShareCardTests {
    private func read(_ output: URL, _ path: String) throws -> String {
        try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
    }

    private func meta(_ property: String, in page: String) -> String? {
        for attribute in ["property", "name"] {
            let prefix = "<meta \(attribute)=\"\(property)\" content=\""
            guard let start = page.range(of: prefix), let end = page[start.upperBound...].firstIndex(of: "\"") else { continue }
            return String(page[start.upperBound..<end])
        }
        return nil
    }

    @Test("a story page: its card, the original as canonical, and a NewsArticle that parses as JSON")
    func storyPage() async throws {
        let (output, _) = try await SampleSiteValidationTests.buildSample()
        let folder = try #require(FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("articles").path)
            .first { $0.hasPrefix("coastal-nations-sign-pact") })
        let page = try read(output, "articles/\(folder)/index.html")
        #expect(meta("og:type", in: page) == "article")
        #expect(meta("og:title", in: page)?.hasPrefix("Coastal nations sign pact") == true)
        #expect(meta("og:url", in: page) == "https://news.example.org/articles/\(folder)/")
        #expect(meta("og:site_name", in: page) == "Morning Brief")
        #expect(meta("og:image", in: page)?.hasPrefix("https://") == true)
        #expect(meta("twitter:card", in: page) == "summary_large_image")
        #expect(page.contains(#"<link rel="canonical" href="https://meridianpost.example/world/2026/11/21/storm-surge-warning-pact?utm_source=rss&amp;utm_medium=feed"/>"#))

        let start = try #require(page.range(of: #"<script type="application/ld+json">"#))
        let end = try #require(page[start.upperBound...].range(of: "</script>"))
        let json = String(page[start.upperBound..<end.lowerBound])
        #expect(!json.contains("<") && !json.contains("&"), "nothing an XML parser or the script element reads as markup")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["@type"] as? String == "NewsArticle")
        #expect((object["headline"] as? String)?.hasPrefix("Coastal nations sign pact") == true)
        #expect(object["datePublished"] is String && object["dateModified"] is String)
        #expect((object["publisher"] as? [String: Any])?["name"] is String)
        #expect((object["image"] as? [String])?.first?.hasPrefix("https://") == true)
    }

    @Test("a tab carries the site's card, its own address as canonical, and no JSON-LD")
    func tabPage() async throws {
        let (output, _) = try await SampleSiteValidationTests.buildSample()
        let page = try read(output, "index.html")
        #expect(meta("og:type", in: page) == "website")
        #expect(meta("og:url", in: page) == "https://news.example.org/")
        #expect(meta("og:site_name", in: page) == "Morning Brief")
        #expect(meta("twitter:card", in: page) == "summary")
        #expect(page.contains(#"<link rel="canonical" href="https://news.example.org/"/>"#))
        #expect(!page.contains("application/ld+json"))
    }

    @Test("JSON-LD text cannot end its element or start markup")
    func scriptSafe() {
        #expect(ShareCard.scriptSafe(#"{"headline":"a </script><b> & c"}"#) == #"{"headline":"a \u003c/script\u003e\u003cb\u003e \u0026 c"}"#)
    }
}
