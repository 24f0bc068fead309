import Foundation
import Testing
@testable import NewsgenRender

/// newsgen's Mustache engine: each feature a theme uses, and the whitespace rules the default
/// theme's bytes depend on (Fixtures/EngineParity).
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

    @Test("variables are HTML-escaped byte by byte (& < > \" '); triple and & are not")
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
        // 0 and "" are values like any other.
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
        // A list's later items start where the previous one's line ended, unindented: the
        // indentation goes before each line of the partial's own text.
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

    /// The one line a template's load fails with, or nil when it parses.
    func failure(_ text: String) -> String? {
        do {
            _ = try TemplateSource(name: "t", location: "t.mustache", text: text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("a tag the engine does not support or cannot read fails with its line and column (in Unicode scalars)")
    func parseErrors() {
        #expect(failure("a\nb {{reversed(rows)}}") == "t.mustache:2:3: {{reversed(rows)}} is a transform; templates support no transforms or lambdas")
        #expect(failure("ä {{#reversed( rows )}}x{{/reversed}}") == "t.mustache:1:3: {{#reversed( rows )}} is a transform; templates support no transforms or lambdas")
        #expect(failure("{{>*name}}") == "t.mustache:1:1: {{>*name}} is a dynamic partial name, which templates do not support; name the partial")
        #expect(failure("ä {{name with spaces}}") == "t.mustache:1:3: {{name with spaces}} is not a tag: a name is letters, digits, '.', '-' and '_'")
        #expect(failure("a\r\nb {{c\nd") == "t.mustache:2:3: {{c is never finished with }}")
        #expect(failure("{{{c}}\n") == "t.mustache:1:1: {{{c is never finished with }}}")
        #expect(failure("x{{") == "t.mustache:1:2: {{ is never finished with }}")
        #expect(failure("{{! a comment\nthat never ends") == "t.mustache:1:1: {{! a comment is never finished with }}")
        #expect(failure("<a href=\"{{url}\">{{title}}</a>") == "t.mustache:1:10: {{url is never finished with }}")
        #expect(failure("{{= <% =}}") == "t.mustache:1:1: {{= <% =}} is not a set-delimiter tag: it names two delimiters, as {{=<% %>=}} does")
        #expect(failure("{{%PRAGMA}}") == "t.mustache:1:1: {{%PRAGMA}} is not a configuration newsgen knows; it knows {{%CONTENT_TYPE:HTML}}")
        #expect(failure("{{%CONTENT_TYPE:HTML}}") == nil)
    }

    @Test("sections, blocks and parents: never closed, closed by another name, or closing nothing, named where they are")
    func sectionErrors() {
        #expect(failure("{{#a}}x") == "t.mustache:1:1: {{#a}} is never closed; expected {{/a}} before the end of the file")
        #expect(failure("é\n  {{#a}}\n{{#b}}\n{{/b}}") == "t.mustache:2:3: {{#a}} is never closed; expected {{/a}} before the end of the file")
        #expect(failure("{{#a}}\n{{#b}}\n{{/a}}") == "t.mustache:3:1: {{/a}} closes {{#b}} opened at line 2; expected {{/b}}")
        #expect(failure("{{^a}}{{/ b }}") == "t.mustache:1:7: {{/ b }} closes {{^a}} opened at line 1; expected {{/a}}")
        #expect(failure("x\n{{/a}}") == "t.mustache:2:1: {{/a}} closes no section")
        #expect(failure("{{$a}}\n{{/b}}") == "t.mustache:2:1: {{/b}} closes {{$a}} opened at line 1; expected {{/a}}")
        #expect(failure("{{<layout}}\n{{$a}}x{{/a}}") == "t.mustache:1:1: {{<layout}} is never closed; expected {{/layout}} before the end of the file")
        #expect(failure("{{<layout}}\n{{$a}}x{{/a}}\n{{#s}}{{/s}}\n{{/layout}}") == "t.mustache:3:1: {{#s}} is inside {{<layout}}, which holds only blocks ({{$name}}…{{/name}})")
        #expect(failure("{{<layout}}{{! a comment }}\ntext\n{{/layout}}") == nil)
    }

    @Test("after a set-delimiter tag, errors show the tags as written and the close tag to write")
    func delimiterErrors() {
        #expect(failure("{{=<% %>=}}\n<%#a%>\n<%/b%>") == "t.mustache:3:1: <%/b%> closes <%#a%> opened at line 2; expected <%/a%>")
        #expect(failure("{{#a}}{{=| |=}}|x|") == "t.mustache:1:1: {{#a}} is never closed; expected |/a| before the end of the file")
        #expect(failure("ü{{=<% %>=}} <%x") == "t.mustache:1:14: <%x is never finished with %>")
    }

    @Test("every node's span is where it was read: a text's own bytes, a tag as written")
    func spans() throws {
        var checked = 0
        let texts = DefaultTheme.templates.values + MustacheSpecTests.all.flatMap { [$0.template] + $0.partials.values }
        for text in texts {
            let source = try TemplateSource(name: "t", location: "t", text: text)
            source.nodes.walk { node in
                checked += 1
                let written = source.text(node.span)
                if case .text(let bytes) = node.kind {
                    #expect(Array(written.utf8) == bytes, "\(text.debugDescription)")
                } else {
                    #expect(!written.isEmpty, "\(text.debugDescription)")
                }
            }
        }
        #expect(checked > 1000)
        let source = try TemplateSource(name: "t", location: "t", text: "a\n  {{#s}}\n  {{{x}}}{{=<% %>=}} <%>p%>\n<%/s%>")
        var tags: [String] = []
        source.nodes.walk { node in
            if case .text = node.kind { return }
            tags.append("\(source.position(of: node.span.lowerBound)) \(source.text(node.span))")
        }
        #expect(tags == ["(line: 2, column: 3) {{#s}}", "(line: 3, column: 3) {{{x}}}", "(line: 3, column: 22) <%>p%>"])
    }

    @Test("a theme with a transform fails to load, naming file, line and column as fields")
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
            #expect(error.position?.line == 5 && error.position?.column == 49)
            #expect(error.message == "{{uppercased(title)}} is a transform; templates support no transforms or lambdas")
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
