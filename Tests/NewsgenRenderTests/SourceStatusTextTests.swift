import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenRender
import NewsgenTestSupport

/// What readers are told of a source's state: one sentence in words, with the times of its state, never the error.
@Suite("Source status text")
struct SourceStatusTextTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")
    static let error = "DNS error: SocketAddressError.UnknownHost: Name or service not known (error -2) for host newsapi.org, port 443"

    @Test("each state reads as one sentence; a failure says since when and what is shown, not why", arguments: [
        (SourceReport.Status.fetched, "ok", "Updated"),
        (.notModified, "ok", "Unchanged since the last fetch"),
        (.recent(lastSuccess: TestSupport.date("2026-11-21T11:50:00Z")), "ok", "Updated Sat 21 Nov 2026, 11:50 UTC"),
        (.offline(lastSuccess: TestSupport.date("2026-11-20T09:00:00Z")), "ok", "Updated Fri 20 Nov 2026, 09:00 UTC"),
        (.stale(lastSuccess: TestSupport.date("2026-11-21T06:05:00Z"), error: error, since: TestSupport.date("2026-11-21T08:10:00Z")), "stale",
         "Couldn’t be reached since Sat 21 Nov 2026, 08:10 UTC; showing stories from 06:05 UTC."),
        (.stale(lastSuccess: TestSupport.date("2026-11-19T23:00:00Z"), error: error, since: TestSupport.date("2026-11-20T00:10:00Z")), "stale",
         "Couldn’t be reached since Fri 20 Nov 2026, 00:10 UTC; showing stories from Thu 19 Nov 2026, 23:00 UTC."),
        (.stale(lastSuccess: TestSupport.date("2026-11-21T06:05:00Z"), error: error, since: nil), "stale",
         "Couldn’t be reached; showing stories from Sat 21 Nov 2026, 06:05 UTC."),
        (.unavailable(since: TestSupport.date("2026-11-13T08:00:00Z"), error: error), "failed",
         "Couldn’t be reached since Fri 13 Nov 2026, 08:00 UTC; no recent stories to show."),
        (.unavailable(since: nil, error: error), "failed", "Couldn’t be reached; no recent stories to show."),
    ] as [(SourceReport.Status, String, String)])
    func sentence(status: SourceReport.Status, state: String, text: String) {
        let shown = SourceStatusText(status)
        #expect(shown.state == state)
        #expect(shown.text == text)
    }

    /// A site of one failing NewsAPI source, rendered: the page of the source, the Sources tab and the front page.
    static func render(_ status: SourceReport.Status, articles: [Article] = []) async throws -> RenderedSite {
        let folder = try TestSupport.temporaryFolder()
        let json = #"{"baseURL": "https://news.example.org/", "sources": [{"id": "bbc", "name": "BBC News", "newsapi": "bbc-news"}]}"#
        let config = try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
        let report = SourceReport(config: config.sources[0], status: status, name: "BBC News", articles: articles)
        let content = SiteContent(config: config, sources: [report], favorites: [], readLater: [], generated: now)
        let templates = try await TemplateSet.load(folder: TestSupport.repository.appendingPathComponent("Templates"), builtInIfMissing: false)
        return try await SiteRenderer(templates: templates, content: content).render(carrying: nil)
    }

    @Test("every page and feed shows a failed source's sentence at most once, and its error nowhere")
    func oncePerPage() async throws {
        let story = Article(id: "https://bbc.example/1", sourceID: "bbc", title: "Cached story", summary: "",
                            url: "https://bbc.example/1", published: TestSupport.date("2026-11-21T09:00:00Z"))
        for (status, articles, sentence) in [
            (SourceReport.Status.unavailable(since: Self.now, error: Self.error), [Article](),
             "Couldn’t be reached since Sat 21 Nov 2026, 12:00 UTC; no recent stories to show."),
            (.stale(lastSuccess: TestSupport.date("2026-11-21T10:00:00Z"), error: Self.error, since: Self.now), [story],
             "Couldn’t be reached since Sat 21 Nov 2026, 12:00 UTC; showing stories from 10:00 UTC."),
        ] {
            let site = try await Self.render(status, articles: articles)
            for file in site.files {
                let text = String(decoding: file.data, as: UTF8.self)
                #expect(!text.contains("SocketAddressError") && !text.contains("newsapi.org"), "\(file.path) shows the error")
                #expect(text.components(separatedBy: sentence).count - 1 <= 1, "\(file.path) says it more than once")
            }
            let pages = ["sources/bbc/index.html", "sources/index.html", "index.html"]
            let shown = pages.map { path in site.files.first { $0.path == path }.map { String(decoding: $0.data, as: UTF8.self).contains(sentence) } }
            #expect(shown == [true, true, true], "the source's page, the Sources tab and the front page's notice: \(pages)")
        }
    }
}
