import Foundation
import Testing
@testable import NewsgenRender

/// newsgen's own Mustache engine: each feature a theme uses, with the whitespace rules of
/// swift-mustache (the engine it replaced), so that pages keep their bytes.
@Suite("Mustache engine")
struct MustacheEngineTests {
    /// `main` rendered with `value`, the other templates available as partials and parents.
    func render(_ main: String, _ value: TemplateValue = .object(TemplateObject(names: [], values: [])), partials: [String: String] = [:]) throws -> String {
        var library = MustacheLibrary()
        try library.register(main, named: "main")
        for (name, text) in partials { try library.register(text, named: name) }
        let bytes = try #require(library.render(value, template: "main"))
        return String(decoding: bytes, as: UTF8.self)
    }

    func object(_ pairs: KeyValuePairs<String, TemplateValue>) -> TemplateObject {
        TemplateObject(names: pairs.map(\.key), values: pairs.map(\.value))
    }

    func values(_ pairs: KeyValuePairs<String, TemplateValue>) -> TemplateValue {
        .object(object(pairs))
    }

    @Test("variables are HTML-escaped byte by byte, as swift-mustache escaped them; triple and & are not")
    func escaping() throws {
        let value = values(["x": .string(#"<a href="u">'&'</a>"#)])
        #expect(try render("{{x}}", value) == "&lt;a href=&quot;u&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(try render("{{{x}}}|{{&x}}|{{ x }}", value) == #"<a href="u">'&'</a>|<a href="u">'&'</a>|&lt;a href=&quot;u&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"#)
    }

    @Test("multi-byte UTF-8 and emoji pass through escaping unchanged, next to escaped bytes")
    func escapingUnicode() throws {
        let text = "Zoë <3 日本 & 👩🏽‍🚀🇳🇿\"é\u{301}'"
        let value = values(["x": .string(text)])
        #expect(try render("{{x}}", value) == "Zoë &lt;3 日本 &amp; 👩🏽‍🚀🇳🇿&quot;é\u{301}&#39;")
        #expect(try render("«{{{x}}}»", value) == "«\(text)»")
    }

    @Test("names: dotted, the current item, numbers and booleans; a missing name renders nothing")
    func names() throws {
        let value = values([
            "site": values(["title": .string("Brief"), "owner": values(["name": .string("Ann")])]),
            "count": .int(42), "flag": .bool(true), "nothing": .null,
            "tags": .list([.string("a"), .string("<b>")]),
        ])
        #expect(try render("{{site.title}} {{site.owner.name}} {{count}} {{flag}}", value) == "Brief Ann 42 true")
        #expect(try render("[{{missing}}{{site.missing}}{{missing.title}}{{nothing}}{{{nothing}}}]", value) == "[]")
        #expect(try render("{{#tags}}({{.}}){{/tags}}", value) == "(a)(&lt;b&gt;)")
        // The rest of a dotted name is looked up only in what its first part found.
        #expect(try render("{{#site}}{{owner.title}}|{{title}}{{/site}}", value) == "|Brief")
    }

    @Test("sections: lists repeat, objects and values become the context, true shows, false, null and empty lists hide")
    func sections() throws {
        let value = values([
            "rows": .list([values(["t": .string("one")]), values(["t": .string("two")])]),
            "empty": .list([]), "yes": .bool(true), "no": .bool(false), "nothing": .null,
            "item": values(["t": .string("inner")]), "t": .string("outer"), "zero": .int(0), "blank": .string(""),
        ])
        #expect(try render("{{#rows}}<{{t}}>{{/rows}}", value) == "<one><two>")
        #expect(try render("{{#empty}}x{{/empty}}{{#no}}x{{/no}}{{#nothing}}x{{/nothing}}{{#missing}}x{{/missing}}", value) == "")
        #expect(try render("{{#yes}}{{t}}{{/yes}} {{#item}}{{t}}{{/item}}", value) == "outer inner")
        // As in swift-mustache, 0 and "" are values like any other.
        #expect(try render("{{#zero}}[{{.}}]{{/zero}}{{#blank}}[{{.}}]{{/blank}}", value) == "[0][]")
        #expect(try render("{{^empty}}a{{/empty}}{{^no}}b{{/no}}{{^nothing}}c{{/nothing}}{{^missing}}d{{/missing}}", value) == "abcd")
        #expect(try render("{{^rows}}a{{/rows}}{{^yes}}b{{/yes}}{{^item}}c{{/item}}{{^zero}}d{{/zero}}", value) == "")
    }

    @Test("a null value lets the lookup go on up the context stack, as a missing one does")
    func nullFallsThrough() throws {
        let value = values(["href": .string("/outer"), "rows": .list([values(["href": .null]), values(["href": .string("/inner")])])])
        #expect(try render("{{#rows}}{{href}} {{/rows}}", value) == "/outer /inner ")
    }

    @Test("a section, comment or set-delimiter tag alone on its line takes the line; one beside text does not")
    func standaloneLines() throws {
        let value = values(["x": .bool(true), "name": .string("N")])
        #expect(try render("a\n{{#x}}\nb\n  {{/x}}  \nc\n", value) == "a\nb\nc\n")
        #expect(try render("a\n  {{! a comment }}\nb\n", value) == "a\nb\n")
        #expect(try render("a\n{{^x}}\nb\n{{/x}}\nc", value) == "a\nc")
        #expect(try render(" {{#x}}b{{/x}} \n", value) == " b \n")
        #expect(try render("<p>{{#x}}\n{{name}}\n{{/x}}</p>\n", value) == "<p>\nN\n</p>\n")
        #expect(try render("a\r\n{{#x}}\r\nb\r\n{{/x}}\r\n", value) == "a\r\nb\r\n")
    }

    @Test("a partial alone on its line is indented as its tag was; one inside a line is not")
    func partialIndentation() throws {
        let value = values(["rows": .list([.string("1"), .string("2")])])
        let partials = ["p": "x\n{{#rows}}\n<{{.}}>\n{{/rows}}\ny\n", "q": "in\nline\n"]
        // As in swift-mustache, a list's later items start where the previous one's line
        // ended, unindented: the indentation goes before each line of the partial's own text.
        #expect(try render("a\n  {{>p}}\nb\n", value, partials: partials) == "a\n  x\n  <1>\n<2>\n  y\nb\n")
        #expect(try render("a {{>q}}b\n", value, partials: partials) == "a in\nline\nb\n")
        #expect(try render("{{>missing}}ok", value, partials: partials) == "ok")
        // Nested partials add their indentation to the one around them.
        #expect(try render("\t{{>outer}}\n", value, partials: ["outer": "o\n  {{>q}}\n", "q": "in\nline\n"]) == "\to\n\t  in\n\t  line\n")
    }

    @Test("set delimiters change the tags until the end of the template or the next change")
    func delimiters() throws {
        let value = values(["x": .string("<X>")])
        #expect(try render("{{=<% %>=}}\n<% x %> {{x}} <%& x %>\n<%={{ }}=%>{{x}}", value) == "&lt;X&gt; {{x}} <X>\n&lt;X&gt;")
    }

    @Test("a parent's blocks override the layout's; blocks it leaves out keep their defaults")
    func inheritance() throws {
        let value = values(["title": .string("T"), "body": .string("B")])
        let layout = "<title>{{$title}}Default{{/title}}</title>\n<main>\n{{$main}}{{/main}}\n</main>\n{{$footer}}Foot{{/footer}}\n"
        let page = "{{<layout}}\n{{$main}}\n<p>{{body}}</p>\n{{/main}}\n{{$footer}}{{title}} foot{{/footer}}\n{{/layout}}\n"
        #expect(try render(page, value, partials: ["layout": layout]) == "<title>Default</title>\n<main>\n<p>B</p>\n\n</main>\nT foot\n")
        // A page's block wins over one of the parent it inherits from in turn.
        let middle = "{{<layout}}{{$main}}middle{{/main}}{{$title}}Middle{{/title}}{{/layout}}"
        #expect(try render("{{<middle}}{{$title}}Page{{/title}}{{/middle}}", value, partials: ["layout": layout, "middle": middle])
            == "<title>Page</title>\n<main>\nmiddle\n</main>\nFoot\n")
    }

    @Test("a tag that cannot be parsed fails with its line and column; transforms fail at load")
    func parseErrors() throws {
        func failure(_ text: String) -> String? {
            guard case .failure(let error) = MustacheParser.parse(text) else { return nil }
            let place = error.location(in: Array(text.utf8))
            return "\(place.line):\(place.column): \(error.description) near \(place.text)"
        }
        #expect(failure("a\nb {{reversed(rows)}}") == "2:5: transforms (such as reversed(x)) are not supported near b {{reversed(rows)}}")
        #expect(failure("ä {{name with spaces}}") == "1:10: a tag is not finished (missing }}) near ä {{name with spaces}}")
        #expect(failure("{{#a}}x") == "1:8: a section is never closed near {{#a}}x")
        #expect(failure("{{= <% =}}") != nil)
        #expect(failure("{{<layout}}{{x}}{{/layout}}") != nil)
    }

    @Test("a theme with a transform fails to load, naming file, line and column")
    func transformInTheme() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mustache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in DefaultTheme.templates {
            let edited = name == "row" ? text.replacingOccurrences(of: "{{title}}</a>", with: "{{uppercased(title)}}</a>") : text
            try edited.write(to: folder.appendingPathComponent(name + ".mustache"), atomically: true, encoding: .utf8)
        }
        do {
            _ = try await TemplateSet(folder: folder)
            Issue.record("loaded a theme with a transform")
        } catch {
            #expect(error.file == folder.appendingPathComponent("row.mustache").path)
            #expect(error.message.hasPrefix("transforms (such as reversed(x)) are not supported near "))
            #expect(error.position?.line == 5)
        }
    }

    /// Fixtures/EngineParity: a snapshot of the default theme and a set of whitespace cases,
    /// values for them (generated at random over the names the templates use), and what
    /// swift-mustache 2.1 rendered from them, byte for byte.
    static let parity = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/EngineParity")

    /// A value from the fixtures' JSON: `["s", text]`, `["b", flag]`, `["i", n]`, `["l", [...]]`,
    /// `["o", [[name, value], ...]]`, `["n"]`.
    static func value(_ json: Any) throws -> TemplateValue {
        guard let pair = json as? [Any], let tag = pair.first as? String else { throw CocoaError(.coderReadCorrupt) }
        let payload = pair.count > 1 ? pair[1] : nil
        switch (tag, payload) {
        case ("s", let text as String): return .string(text)
        case ("b", let flag as Bool): return .bool(flag)
        case ("i", let number as Int): return .int(number)
        case ("l", let items as [Any]): return .list(try items.map(value))
        case ("o", let fields as [[Any]]):
            return .object(TemplateObject(names: fields.compactMap { $0.first as? String }, values: try fields.map { try value($0[1]) }))
        case ("n", _): return .null
        default: throw CocoaError(.coderReadCorrupt)
        }
    }

    @Test("the default theme and the whitespace cases render to the bytes swift-mustache rendered", arguments: ["theme", "whitespace"])
    func parity(folder: String) throws {
        let root = Self.parity.appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
        var library = MustacheLibrary()
        for file in files where file.hasSuffix(".mustache") {
            try library.register(String(contentsOf: root.appendingPathComponent(file), encoding: .utf8), named: String(file.dropLast(".mustache".count)))
        }
        let expected = root.appendingPathComponent("expected")
        let pages = try FileManager.default.contentsOfDirectory(atPath: expected.path).filter { $0.hasSuffix(".html") }.sorted()
        #expect(pages.count >= library.templates.count, "every template has expected output")
        for page in pages {
            let stem = page.dropLast(".html".count)
            guard let dash = stem.lastIndex(of: "-") else { continue }
            let template = String(stem[..<dash]), seed = stem[stem.index(after: dash)...]
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: expected.appendingPathComponent("values-\(seed).json")))
            let rendered = try #require(library.render(try Self.value(json), template: template))
            let bytes = try Data(contentsOf: expected.appendingPathComponent(page))
            #expect(Data(rendered) == bytes, "\(folder)/\(page)")
        }
    }
}
