import Foundation
import NewsgenModel
import Testing
@testable import NewsgenRender

/// search.json's writer against `JSONEncoder`, the writer it replaced.
@Suite("JSON written as bytes")
struct JSONBytesTests {
    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func written(_ write: (inout JSONBytes) -> Void) -> String {
        var json = JSONBytes(capacity: 8)
        write(&json)
        return String(decoding: json.data(), as: UTF8.self)
    }

    @Test("every ASCII character, and text in any script, is written as JSONEncoder writes it")
    func strings() throws {
        var texts = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["é 日本 👩‍👩‍👧", "\u{2028}\u{2029}", "e\u{301}", "", "a\"b\\c/d\u{0}e", String(repeating: "long ", count: 100)]
        for text in texts {
            #expect(Self.written { $0.string(text) } == (try Self.encoded(text)), "\(Array(text.unicodeScalars.map(\.value)))")
        }
        #expect(Self.written { $0.string("2026-11-21T08:00:00Z".prefix(10)) } == #""2026-11-21""#, "a substring")
    }

    @Test("random texts of every length, with what needs escaping anywhere in them, as JSONEncoder writes them")
    func randomStrings() throws {
        let pieces = ["a", "Z", " ", "/", "\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "日", "👩‍👧", "\u{2028}", "~", "0"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            #expect(Self.written { $0.string(text) } == (try Self.encoded(text)), "\(Array(text.unicodeScalars.map(\.value)))")
        }
    }

    @Test("objects and arrays: members with commas between them, strings and integers in lists")
    func structure() throws {
        struct Value: Encodable { var a: Int; var b: [String]; var c: String }
        let written = Self.written { json in
            var members = JSONBytes.Members()
            json.append("{")
            json.key("a", in: &members)
            json.integer(-42)
            json.key("b", in: &members)
            json.strings(["x", "y\n"])
            json.key("c", in: &members)
            json.string("")
            json.append("}")
        }
        #expect(written == (try Self.encoded(Value(a: -42, b: ["x", "y\n"], c: ""))))
        #expect(Self.written { $0.strings([]) } == "[]")
    }
}

/// The JSON Feed writer against `JSONEncoder`, the writer it replaced: the same bytes.
@Suite("JSON Feed written as bytes")
struct JSONFeedWriterTests {
    /// What JSONFeedWriter encoded before it wrote bytes itself.
    private struct Feed: Encodable {
        var version = "https://jsonfeed.org/version/1.1"
        var title: String
        var home_page_url: String
        var feed_url: String
        var description: String?
        var language: String
        var items: [Item]
    }

    private struct Item: Encodable {
        var id: String
        var url: String
        var title: String
        var content_text: String
        var content_html: String?
        var summary: String?
        var image: String?
        var date_published: String?
        var authors: [Name]?
        var tags: [String]?
        var _outlet: Name?
    }

    private struct Name: Encodable {
        var name: String
    }

    private static func encoded(_ list: FeedList, context: FeedContext) throws -> String {
        let feed = Feed(
            title: list.title, home_page_url: context.absolute(list.pagePath), feed_url: context.absolute(list.feedPath + ".json"),
            description: list.description.isEmpty ? nil : list.description, language: context.language,
            items: list.entries.map { entry in
                let article = entry.article
                return Item(
                    id: context.entryID(article), url: article.url ?? entry.fallbackLink, title: article.title,
                    content_text: article.summary.isEmpty ? article.title : article.summary, content_html: article.content,
                    summary: article.summary.isEmpty ? nil : article.summary, image: article.imageURL,
                    date_published: article.published.map(Dates.rfc3339), authors: article.author.map { [Name(name: $0)] },
                    tags: article.categories.isEmpty ? nil : article.categories, _outlet: article.outlet.map { Name(name: $0) }
                )
            }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(feed), as: UTF8.self) + "\n"
    }

    @Test("random lists, empty ones and every optional field present or not, give JSONEncoder's bytes")
    func sameBytes() throws {
        let texts = ["", "Plain title", "Quotes \" and \\ and / slashes", "Lines\nand\ttabs\r\u{0}\u{1F}", "é 日本 👩‍👩‍👧 \u{2028}",
                     "<p>Markup &amp; more</p>", String(repeating: "long ", count: 50)]
        var generator = SystemRandomNumberGenerator()
        func text() -> String { texts.randomElement(using: &generator) ?? "" }
        func maybe(_ value: @autoclosure () -> String) -> String? { Bool.random(using: &generator) ? value() : nil }
        let context = FeedContext(baseURL: try #require(URL(string: "https://site.example/")), language: "en-GB", siteTitle: "Site")
        for round in 0..<300 {
            let entries = (0..<(round % 7 == 0 ? 0 : Int.random(in: 1...4, using: &generator))).map { number in
                FeedList.Entry(
                    article: Article(
                        id: "id-\(round)-\(number)", sourceID: "s", title: text(), summary: text(), author: maybe(text()),
                        url: maybe("https://news.example/\(round)/\(number)"), imageURL: maybe("https://img.example/\(number).png"),
                        published: maybe("").map { _ in Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &generator))) },
                        categories: Bool.random(using: &generator) ? [] : (0..<Int.random(in: 1...3, using: &generator)).map { _ in text() },
                        content: maybe(text()), outlet: maybe(text())
                    ),
                    fallbackLink: "https://site.example/sources/s/"
                )
            }
            let list = FeedList(title: text(), description: text(), pagePath: "sources/s/", feedPath: "feeds/sources/s",
                                entries: entries, updated: nil)
            let written = JSONFeedWriter.write(list, context: context)
            let expected = try Self.encoded(list, context: context)
            #expect(written == expected)
            if written != expected { break }
        }
    }
}
