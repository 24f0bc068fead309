import Foundation
import Hummingbird
import NewsgenTestSupport
import Testing

/// `newsgen extract` as a user runs it, on a file and on pages served on 127.0.0.1.
@Suite("newsgen extract")
struct ExtractCommandTests {
    let cli = CLITests()

    static let paragraphs = [
        "The council voted on Monday to keep the night ferry running through the winter, reversing a decision taken in the spring.",
        "Residents of the islands, who had collected more than four thousand signatures, said the ferry was their only way to reach the hospital after dark.",
        "The operator will receive a grant for two years, after which the service will be reviewed, the council said in a statement.",
        "Crews, who had been told in May that their contracts would end, were informed of the decision at a meeting in the harbour office.",
    ]

    static let page = """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Night ferry saved</title>
        <meta property="og:site_name" content="Island News">
        <meta property="article:published_time" content="2026-02-01T07:00:00Z"></head>
        <body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
        <article><h1>Night ferry saved</h1>
        \(paragraphs.map { "<p>\($0)</p>" }.joined(separator: "\n"))
        <p><img src="img/ferry.jpg" alt="The ferry"></p>
        </article>
        <div class="comments"><p>Great news for everybody on the islands, well done to all who signed the petition!</p></div>
        </body></html>
        """

    func file(_ text: String, named name: String = "page.html") throws -> URL {
        let file = try TestSupport.temporaryFolder().appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test("prints the article's paragraphs separated by blank lines; exit 0")
    func text() async throws {
        let run = try await cli.newsgen(["extract", try file(Self.page).path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == Self.paragraphs.joined(separator: "\n\n") + "\n")
        #expect(run.stderr.isEmpty)
    }

    @Test("--format json prints the metadata with nulls, the sanitized HTML with URLs made absolute by --url, and the text")
    func json() async throws {
        let run = try await cli.newsgen(["extract", try file(Self.page).path, "--format", "json", "--url", "https://islands.example/news/ferry.html"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["title", "byline", "published", "siteName", "image", "language", "html", "text"])
        #expect(object["title"] as? String == "Night ferry saved")
        #expect(object["byline"] is NSNull)
        #expect(object["published"] as? String == "2026-02-01T07:00:00Z")
        #expect(object["siteName"] as? String == "Island News")
        #expect(object["image"] as? String == "https://islands.example/news/img/ferry.jpg")
        #expect(object["language"] as? String == "en")
        #expect((object["html"] as? String)?.contains("src=\"https://islands.example/news/img/ferry.jpg\"") == true)
        #expect(object["text"] as? String == Self.paragraphs.joined(separator: "\n\n"))
    }

    @Test("--format html prints the sanitized article")
    func html() async throws {
        let run = try await cli.newsgen(["extract", try file(Self.page).path, "--format", "html"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("<p>The council voted"))
        #expect(!run.stdout.contains("Home"))
    }

    @Test("a page with no article: exit 1 and the reason on stderr")
    func noArticle() async throws {
        let run = try await cli.newsgen(["extract", try file("<html><body><div class=\"cookie-consent\"><p>We use cookies.</p></div></body></html>").path])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("newsgen: error: the page has no article"), "\(run.stderr)")
    }

    @Test("a missing file, a bad format or a bad --url is a usage error: exit 2")
    func usage() async throws {
        let missing = try await cli.newsgen(["extract", "/nonexistent/page.html"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("newsgen: error: /nonexistent/page.html does not exist"), "\(missing.stderr)")
        let format = try await cli.newsgen(["extract", try file(Self.page).path, "--format", "pdf"])
        #expect(format.status == 2)
        #expect(format.stderr.hasPrefix("newsgen: error: "), "\(format.stderr)")
        let url = try await cli.newsgen(["extract", try file(Self.page).path, "--url", "ftp://x"])
        #expect(url.status == 2)
    }

    @Test("fetches a page over HTTP with the server's charset; refuses a PDF and an HTTP error; exit 1")
    func fetched() async throws {
        let latin = Data(Self.page.replacingOccurrences(of: "<meta charset=\"utf-8\">", with: "")
            .replacingOccurrences(of: "The council voted", with: "Le conseil a vot\u{E9}")
            .unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        try await withTestServer({ router in
            router.get("story.html") { _, _ in Response.body(latin, headers: [.contentType: "text/html; charset=ISO-8859-1"]) }
            router.get("report.pdf") { _, _ in Response.body(Data("%PDF-1.7\n".utf8), headers: [.contentType: "application/pdf"]) }
            router.get("gone.html") { _, _ in Response.body(Data("gone".utf8), status: .notFound, headers: [.contentType: "text/html"]) }
        }) { base in
            let run = try await cli.newsgen(["extract", base.appendingPathComponent("story.html").absoluteString, "--format", "json"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("Le conseil a vot\u{E9} on Monday"), "\(run.stdout)")
            #expect(run.stdout.contains(base.appendingPathComponent("img/ferry.jpg").absoluteString))

            let pdf = try await cli.newsgen(["extract", base.appendingPathComponent("report.pdf").absoluteString])
            #expect(pdf.status == 1)
            #expect(pdf.stderr.contains("is not a web page: its content type is application/pdf"), "\(pdf.stderr)")

            let gone = try await cli.newsgen(["extract", base.appendingPathComponent("gone.html").absoluteString])
            #expect(gone.status == 1)
            #expect(gone.stderr.contains("HTTP 404"), "\(gone.stderr)")
        }
    }
}
