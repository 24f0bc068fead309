import Foundation
import Testing
@testable import NewsgenRender

@Suite("Template values")
struct TemplateValuesTests {
    /// The names Mirror sees on a value whose optionals are all set, in declaration order.
    func labels(_ value: Any) -> [String] {
        Mirror(reflecting: value).children.compactMap(\.label)
    }

    @Test("hand-written dictionaries carry every stored property, so templates see the same names")
    func handWrittenMatchReflection() {
        let time = TimeModel(datetime: "2026-11-21T08:00:00Z", text: "Sat 21 Nov 2026, 08:00 UTC")
        let row = ArticleRow(
            title: "t", href: "h", page: "p", summary: "s", author: "a", sourceName: "n", sourceHref: "sh", outlet: "o",
            time: time, image: "i", imageSet: ImageSetModel(srcset: "s", sizes: "z", width: 1, height: 2), favorite: true, readLater: false, lead: true, level: 3, savedAt: time, note: "no"
        )
        let tag = TagLink(name: "n", href: "h", linked: true)
        let content = ArticleContent(article: row, categories: ["c"], tags: [tag], hasTags: true, url: "u", domain: "d", body: "<p>b</p>")
        let site = SiteModel(title: "t", description: "d", language: "en", version: "v", imageSources: "'self'")
        let card = ShareCard(page: "t", description: "d", url: "u")
        let page = Page(site: site, title: "t", heading: "h", intro: "i", root: "../", canonical: "c", card: card,
                        nav: [NavItem(title: "t", href: "h", current: true, section: false)],
                        feeds: [FeedLinkModel(label: "l", title: "t", href: "h", type: "ty")], updated: time, content: content)
        let values: [any TemplateConvertible] = [
            time, row, NavItem(title: "t", href: "h", current: true, section: false), FeedLinkModel(label: "l", title: "t", href: "h", type: "ty"),
            tag, content, site, card, page, ImageSetModel(srcset: "s", sizes: "z", width: 1, height: 2),
            CoverageLink(outlet: "o", title: "t", href: "h", time: time, first: true),
        ]
        for value in values {
            #expect(value.templateObject.names == labels(value), "\(type(of: value))")
        }
        guard case .object(let converted) = TemplateValues.convert(row),
              case .object(let time)? = converted["time"],
              case .string(let text)? = time["text"],
              case .bool(let favorite)? = converted["favorite"] else {
            Issue.record("not converted")
            return
        }
        #expect(text == "Sat 21 Nov 2026, 08:00 UTC")
        #expect(favorite)
    }

    @Test("nil values are left out, so a lookup goes on up the context stack")
    func nilsLeftOut() {
        let row = ArticleRow(
            title: "t", href: "h", page: nil, summary: nil, author: nil, sourceName: nil, sourceHref: nil,
            time: nil, image: nil, favorite: false, readLater: false, lead: false, level: 2, savedAt: nil, note: nil
        )
        guard case .object(let converted) = TemplateValues.convert(row),
              case .object(let page) = TemplateValues.convert(EmptyState(title: "x", message: "y")) else {
            Issue.record("not converted")
            return
        }
        #expect(converted["author"] == nil)
        #expect(converted["time"] == nil)
        guard case .string(let title)? = page["title"] else {
            Issue.record("no title")
            return
        }
        #expect(title == "x")
    }
}
