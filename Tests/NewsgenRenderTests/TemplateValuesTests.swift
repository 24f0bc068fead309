import Foundation
import Testing
@testable import NewsgenRender

@Suite("Template values")
struct TemplateValuesTests {
    /// The names Mirror sees on a value whose optionals are all set.
    func labels(_ value: Any) -> Set<String> {
        Set(Mirror(reflecting: value).children.compactMap(\.label))
    }

    @Test("hand-written dictionaries carry every stored property, so templates see the same names")
    func handWrittenMatchReflection() {
        let time = TimeModel(datetime: "2026-11-21T08:00:00Z", text: "Sat 21 Nov 2026, 08:00 UTC")
        let row = ArticleRow(
            title: "t", href: "h", page: "p", summary: "s", author: "a", sourceName: "n", sourceHref: "sh", outlet: "o",
            time: time, image: "i", favorite: true, readLater: false, lead: true, level: 3, savedAt: time, note: "no"
        )
        let values: [any TemplateDictionary] = [
            time, row, NavItem(title: "t", href: "h", current: true, section: false), FeedLinkModel(label: "l", title: "t", href: "h", type: "ty"),
        ]
        for value in values {
            #expect(Set(value.templateDictionary.keys) == labels(value), "\(type(of: value))")
        }
        let converted = TemplateValues.convert(row) as? [String: Any]
        #expect((converted?["time"] as? [String: Any])?["text"] as? String == "Sat 21 Nov 2026, 08:00 UTC")
        #expect(converted?["favorite"] as? Bool == true)
    }

    @Test("nil values are left out, so a lookup goes on up the context stack")
    func nilsLeftOut() {
        let row = ArticleRow(
            title: "t", href: "h", page: nil, summary: nil, author: nil, sourceName: nil, sourceHref: nil,
            time: nil, image: nil, favorite: false, readLater: false, lead: false, level: 2, savedAt: nil, note: nil
        )
        let converted = TemplateValues.convert(row) as? [String: Any]
        #expect(converted?["author"] == nil)
        #expect(converted?["time"] == nil)
        let page = TemplateValues.convert(EmptyState(title: "x", message: "y")) as? [String: Any]
        #expect(page?["title"] as? String == "x")
    }
}
