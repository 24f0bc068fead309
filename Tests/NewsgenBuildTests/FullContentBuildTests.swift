import Foundation
import Testing
@testable import NewsgenBuild
@testable import NewsgenStore
import NewsgenModel
import NewsgenTestSupport

/// The sample site's full-text stories (issue 11, point 5), built end to end.
@Suite("Full content on the sample site")
struct FullContentBuildTests {
    private func read(_ output: URL, _ path: String) throws -> String {
        try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("a story with full text shows it under its headline, sanitized, with the link to the original")
    func storyPage() async throws {
        let (output, _) = try await SampleSiteValidationTests.buildSample()
        let folder = try #require(FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("articles").path)
            .first { $0.hasPrefix("coastal-nations-sign-pact") })
        let page = try read(output, "articles/\(folder)/index.html")
        let body = try #require(page.range(of: #"<div class="story-body">"#))
        #expect(page.range(of: "<h1")?.lowerBound ?? page.endIndex < body.lowerBound, "under the headline")
        #expect(page.contains("<li>Readings from 340 tide gauges will be shared every <strong>five minutes</strong>"))
        #expect(!page.contains("tide-gauge.jpg"), "an outlet's image the site has not fetched (offline) is left out, never a broken picture")
        #expect(!page.contains("track("), "the feed's script and onerror are gone")
        #expect(page.contains(#"<p class="read-on"><a href="https://meridianpost.example/world/2026/11/21/storm-surge-warning-pact?utm_source=rss&amp;utm_medium=feed">"#))
    }

    @Test("the site's own feeds carry the sanitized content")
    func feeds() async throws {
        let (output, _) = try await SampleSiteValidationTests.buildSample()
        let rss = try read(output, "feeds/sources/meridian-world.rss")
        #expect(rss.contains("<content:encoded>&lt;p&gt;Twelve governments"))
        #expect(!rss.contains("track("))
        let atom = try read(output, "feeds/sources/meridian-world.atom")
        #expect(atom.contains(#"<content type="html">&lt;p&gt;Twelve governments"#))
        let json = try read(output, "feeds/sources/meridian-world.json")
        #expect(json.contains(#""content_html" : "<p>Twelve governments"#))
    }

    @Test("content survives the cache")
    func cache() async throws {
        let folder = try TestSupport.temporaryFolder()
        let store = try SQLiteStore.open(at: folder.appendingPathComponent("cache.sqlite"), logger: TestSupport.recordingLogger().0)
        let article = Article(id: "https://example.com/a", sourceID: "s", title: "A", url: "https://example.com/a", content: "<p>Full &amp; text</p>")
        try await store.recordSuccess(of: "s", content: SourceContent(format: .rss2, articles: [article]), at: TestSupport.date("2026-11-21T12:00:00Z"))
        #expect(try await store.articles(of: "s").first?.content == "<p>Full &amp; text</p>")
    }
}
