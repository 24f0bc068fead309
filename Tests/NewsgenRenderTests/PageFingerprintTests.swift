import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenRender
import NewsgenTestSupport

/// An article's page is fingerprinted from the article and the site (`PageFingerprints`), not
/// from its template values. Each value the page shows must change the fingerprint, and a change
/// the page does not show must leave it (and so the carried file) as it was.
@Suite("Article page fingerprints")
struct PageFingerprintTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    /// What an article's page is made of, one value of each kind it shows.
    struct Inputs {
        var config: SiteConfig
        var article = Article(
            id: "https://example.com/world/1", sourceID: "world", title: "Harbour reopens", summary: "The port is open again.",
            author: "A. Writer", url: "https://example.com/world/1", imageURL: "https://example.com/images/1.jpg",
            published: PageFingerprintTests.now, categories: ["Ports", "Trade"], guid: "world-1", content: "<p>The full story.</p>"
        )
        var other = Article(id: "https://example.com/science/1", sourceID: "science", title: "Comet seen at dawn",
                            url: "https://example.com/science/1", published: PageFingerprintTests.now.addingTimeInterval(-3600))
        var sourceName = "World Desk"
        var favorite = false
        var readLater = false
        /// When the article was saved, on the lists it is saved to.
        var savedAt = PageFingerprintTests.now
        /// The site's `static` folder holds images/1.jpg.
        var staticImage = false

        init() throws {
            let json = """
                {"title": "Fingerprints", "description": "Every story", "language": "en", "baseURL": "https://news.example.org/",
                 "sources": [{"id": "world", "feed": "world.xml", "category": "World"}, {"id": "science", "feed": "science.xml"}]}
                """
            config = try SiteConfig.decode(Data(json.utf8), file: URL(fileURLWithPath: "/nonexistent/site.json"))
        }

        var content: SiteContent {
            let sources = [
                SourceReport(config: config.sources[0], status: .fetched, name: sourceName, articles: [article]),
                SourceReport(config: config.sources[1], status: .fetched, name: "Science Desk", articles: [other]),
            ]
            let saved = SavedArticle(entry: SavedEntry(url: article.url, savedAt: savedAt), article: article, matched: true)
            return SiteContent(config: config, sources: sources, favorites: favorite ? [saved] : [], readLater: readLater ? [saved] : [],
                               generated: PageFingerprintTests.now,
                               staticFiles: staticImage ? [StaticFile(path: "images/1.jpg", data: Data("jpeg".utf8))] : [])
        }

        /// These inputs with one named change (the page and feed fingerprint tests share them);
        /// `nil` for a name there is no change for.
        func changed(_ change: String) throws -> Inputs? {
            var after = self
            let now = PageFingerprintTests.now
            switch change {
            case "title": after.article.title = "Harbour reopens to ships"
            case "summary": after.article.summary = "The port is open again, at last."
            case "author": after.article.author = "B. Writer"
            case "no author": after.article.author = nil
            case "url": after.article.url = "https://example.com/world/1-corrected"
            case "no url": after.article.url = nil
            case "image": after.article.imageURL = "https://example.com/images/2.jpg"
            case "published": after.article.published = now.addingTimeInterval(60)
            case "less than a second later": after.article.published = now.addingTimeInterval(0.4)
            case "no date": after.article.published = nil
            case "categories": after.article.categories = ["Ports"]
            case "content": after.article.content = "<p>The full story, corrected.</p>"
            case "no content": after.article.content = nil
            case "outlet": after.article.outlet = "Harbour Gazette"
            case "guid": after.article.guid = "world-1-b"
            case "source name": after.sourceName = "World News Desk"
            case "source gone": after.article.sourceID = "elsewhere"
            case "favorite": after.favorite = true
            case "read later": after.readLater = true
            case "saved a day later": after.savedAt = savedAt.addingTimeInterval(86_400)
            case "site title": after.config.title = "Fingerprints Daily"
            case "site description": after.config.description = "Every story, every day"
            case "site language": after.config.language = "en-GB"
            case "base URL": after.config.baseURL = try #require(URL(string: "https://news.example.com/"))
            // A tag needs two stories for a page: the other story taking "Ports" gives the article's tag a link.
            case "a tag gains a page": after.other.categories = ["Ports"]
            // The same image URL, now naming a file of the static folder, is linked relatively.
            case "the image becomes a static file", "an image in the text becomes a static file": after.staticImage = true
            case "another story": after.other.title = "Comet seen at dusk"
            default: return nil
            }
            return after
        }
    }

    /// The article's page (path and bytes) with its fingerprint, rendered with nothing carried.
    struct Rendered {
        var path: String
        var bytes: Data
        var fingerprints: [String: Fingerprint]
        var fingerprint: Fingerprint? { fingerprints[path] }
    }

    /// Every file of the site made from `inputs`, with nothing carried or carrying the files
    /// whose published fingerprints are given (the page, list and feed tests share it).
    static func site(_ inputs: Inputs, carrying: [String: Fingerprint]? = nil) async throws -> RenderedSite {
        let templates = try await TemplateSet.load(folder: TestSupport.repository.appendingPathComponent("Templates"), builtInIfMissing: false)
        return try await SiteRenderer(templates: templates, content: inputs.content).render(carrying: carrying.map { CarryIndex(fingerprints: $0) })
    }

    static func render(_ inputs: Inputs, carrying: [String: Fingerprint]? = nil) async throws -> (page: Rendered, carried: Bool) {
        let content = inputs.content
        let site = try await Self.site(inputs, carrying: carrying)
        let path = SitePaths.file(forPage: try #require(SiteModelBuilder(content: content).articlePath(inputs.article)))
        let carried = site.carried.contains(path)
        let bytes = carried ? Data() : try #require(site.files.first { $0.path == path }?.data)
        return (Rendered(path: path, bytes: bytes, fingerprints: site.fingerprints), carried)
    }

    /// Each value the page shows, changed alone: the page's bytes change, and so does its fingerprint
    /// (an incremental build renders it instead of carrying the published one). The article's
    /// categories and the site's description are given to the template and fed to the hasher too,
    /// but the built-in theme does not show them on an article's page, so they are not listed here.
    @Test("each value an article's page shows changes its fingerprint", arguments: [
        "title", "summary", "author", "no author", "url", "no url", "image", "published", "no date", "content", "no content",
        "source name", "source gone", "favorite", "read later", "site title", "site language", "base URL",
        "a tag gains a page", "the image becomes a static file", "an image in the text becomes a static file",
    ])
    func shown(_ change: String) async throws {
        var before = try Inputs()
        if change == "the image becomes a static file" { before.article.imageURL = "https://news.example.org/images/1.jpg" }
        if change == "an image in the text becomes a static file" {
            before.article.content = #"<p>The full story.</p><p><img src="https://news.example.org/images/1.jpg" alt="The port"/></p>"#
        }
        let after = try #require(try before.changed(change), "no such change: \(change)")
        let old = try await Self.render(before).page
        let new = try await Self.render(after).page
        #expect(new.bytes != old.bytes, "the change is shown on the page, so the test means something")
        let incremental = try await Self.render(after, carrying: old.fingerprints)
        #expect(!incremental.carried, "a page that shows \(change) differently is rendered again")
        #expect(incremental.page.bytes == new.bytes)
        #expect(new.fingerprint != old.fingerprint)
    }

    /// Changes the page does not show: its fingerprint stays, so the published page is carried,
    /// and it is byte for byte what rendering it would give.
    @Test("a change the page does not show leaves its fingerprint, and the carried page is what rendering gives", arguments: [
        "guid", "less than a second later", "another story",
    ])
    func notShown(_ change: String) async throws {
        let before = try Inputs()
        let after = try #require(try before.changed(change), "no such change: \(change)")
        let old = try await Self.render(before).page
        let new = try await Self.render(after).page
        #expect(new.bytes == old.bytes, "the page does not show it")
        let incremental = try await Self.render(after, carrying: old.fingerprints)
        #expect(incremental.carried, "an unchanged page is carried")
        #expect(new.fingerprint == old.fingerprint)
    }
}
