import Foundation
import Testing
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenRender
@testable import NewsgenBuild
import NewsgenTestSupport

/// A theme's mistakes are found when it loads, before any page renders, each once with file:line:column.
@Suite("Template checks")
struct TemplateChecksTests {
    /// A copy of the repository's Templates/ with one file edited.
    func theme(_ file: String, replacing old: String, with new: String) throws -> URL {
        let folder = try TestSupport.temporaryFolder().appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent("Templates"), to: folder)
        let url = folder.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(old), "the fixture still has \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
        return folder
    }

    func loadError(_ file: String, replacing old: String, with new: String) async throws -> String {
        let folder = try theme(file, replacing: old, with: new)
        do {
            _ = try await TemplateSet(folder: folder)
            return "loaded"
        } catch {
            return error.description.replacingOccurrences(of: folder.path + "/", with: "Templates/")
        }
    }

    @Test("the repository's theme and the built-in theme pass every check")
    func themesPass() async throws {
        _ = try await TemplateSet(folder: TestSupport.repository.appendingPathComponent("Templates"))
        _ = try TemplateSet.builtIn(checking: true)
    }

    @Test("markup that is not well-formed names the template's line and the element", arguments: [
        ("row.mustache", "{{title}}</a></h{{level}}>", "{{title}}</a></h2>",
         "Templates/row.mustache:5:62: </h2> closes <h{{level}}> opened at line 5; expected </h{{level}}>"),
        ("layout.mustache", "</main>\n", "",
         "Templates/layout.mustache:37:1: </body> closes <main> opened at line 29; expected </main>"),
        ("empty.mustache", "</section>", "",
         "Templates/empty.mustache:1:1: <section> is never closed"),
        ("row.mustache", "</article>\n</li>", "</article>\n</li>\n</div>",
         "Templates/row.mustache:20:1: </div> closes no element"),
        ("row.mustache", "<p class=\"meta\">", "<p class=\"meta\"><br>",
         "Templates/row.mustache:7:17: <br> must close itself as <br/>: pages are well-formed XML"),
    ])
    func markup(file: String, old: String, new: String, expected: String) async throws {
        let reported = try await loadError(file, replacing: old, with: new)
        #expect(reported == expected)
    }

    @Test("a template error carries its file, line and column as fields")
    func errorFields() async throws {
        let folder = try theme("row.mustache", replacing: "{{title}}</a></h{{level}}>", with: "{{title}}</a></h2>")
        do {
            _ = try await TemplateSet(folder: folder)
            Issue.record("loaded")
        } catch {
            #expect(error.file == folder.appendingPathComponent("row.mustache").path)
            #expect(error.position?.line == 5 && error.position?.column == 62)
            #expect(error.message == "</h2> closes <h{{level}}> opened at line 5; expected </h{{level}}>")
        }
    }

    @Test("comments, the doctype, self-closing tags and markup split by sections are fine")
    func markupAccepted() throws {
        let text = """
            <!DOCTYPE html>
            <!-- <div> in a comment -->
            <p{{#lead}} class="lead"{{/lead}}>{{#a}}<b>{{/a}}x{{#a}}</b>{{/a}}<img src="{{src}}"/><span/></p>
            <script>if (a < b && c > d) { x = "</p>" }</script>
            """
        let source = try #require(try TemplateSource(name: "t", location: "t.mustache", text: text))
        #expect(throws: Never.self) { try TemplateMarkup.check(source) }
    }

    @Test("a section that is never closed, or closed by another name, is named", arguments: [
        ("row.mustache", "{{/note}}", "",
         "Templates/row.mustache:16:1: {{#note}} is never closed; expected {{/note}} before the end of the file"),
        ("row.mustache", "{{author}}</span>{{/author}}", "{{author}}</span>{{/autor}}",
         "Templates/row.mustache:9:50: {{/autor}} closes {{#author}} opened at line 9; expected {{/author}}"),
        ("headlines.mustache", "{{/sections}}", "{{/sections}}{{/content}}",
         "Templates/headlines.mustache:18:1: {{/content}} closes {{$main}} opened at line 2; expected {{/main}}"),
    ])
    func sections(file: String, old: String, new: String, expected: String) async throws {
        let reported = try await loadError(file, replacing: old, with: new)
        #expect(reported == expected)
    }

    @Test("a name no page model provides is an error naming template, line and name", arguments: [
        ("row.mustache", "{{title}}</a></h{{level}}>", "{{headline}}</a></h{{level}}>",
         "Templates/row.mustache:5:49: {{headline}} is not a value any page provides (did you mean heading?)"),
        ("row.mustache", "{{#author}}<span class=\"author\">{{author}}</span>{{/author}}", "{{#autor}}<span class=\"author\">{{author}}</span>{{/autor}}",
         "Templates/row.mustache:9:1: {{#autor}} is not a value any page provides (did you mean author?)"),
        ("layout.mustache", "{{site.title}}", "{{site.titel}}",
         "Templates/layout.mustache:20:42: {{site.titel}} is not a value any page provides (did you mean title?)"),
        ("row.mustache", "{{#note}}", "{{^severity}}{{/severity}}{{#note}}",
         "Templates/row.mustache:16:1: {{^severity}} is not a value the page provides here"),
        ("archive.mustache", "{{countText}}</span></li>", "{{{countTxt}}}</span></li>",
         "Templates/archive.mustache:8:95: {{{countTxt}}} is not a value any page provides (did you mean countText?)"),
    ])
    func unknownNames(file: String, old: String, new: String, expected: String) async throws {
        let reported = try await loadError(file, replacing: old, with: new)
        #expect(reported == expected)
    }

    @Test("a template that cannot be read as text is an error naming it, not a template skipped by the checks")
    func unreadable() async throws {
        let folder = try theme("empty.mustache", replacing: "</section>", with: "</section>")
        try Data([0x3C, 0x70, 0x3E, 0xFF, 0xFE, 0x3C, 0x2F, 0x70, 0x3E]).write(to: folder.appendingPathComponent("row.mustache"))
        do {
            _ = try await TemplateSet(folder: folder)
            Issue.record("loaded a template that is not text")
        } catch {
            #expect(error.description == folder.appendingPathComponent("row.mustache").path + ": is not UTF-8 text; save the template as UTF-8")
        }
    }

    @Test("names come from the page models' types, optional and empty fields included")
    func shapes() {
        guard case .object(let page) = TemplateShape.of(Page<HeadlinesContent>.self),
              case .object(let content)? = page["content"],
              case .object(let empty)? = content["empty"],
              case .list(.object(let notice))? = content["notices"] else {
            Issue.record("no shape")
            return
        }
        #expect(page["heading"] != nil && page["site"] != nil)
        #expect(empty["title"] != nil, "an optional struct field")
        #expect(notice["severity"] != nil, "an array's element")
    }

    @Test("a broken template stops the build once, before anything renders or is published")
    func buildStops() async throws {
        let templates = try theme("row.mustache", replacing: "{{title}}</a></h{{level}}>", with: "{{title}}</a></h2>")
        let folder = templates.deletingLastPathComponent()
        try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent("Samples"), to: folder.appendingPathComponent("Samples"))
        let siteJSON = #"{"sources": [{"id": "world", "feed": "Samples/feeds/world.xml"}]}"#
        let config = try SiteConfig.decode(Data(siteJSON.utf8), file: folder.appendingPathComponent("site.json"))
        let (logger, log) = TestSupport.recordingLogger()
        let build = Build(config: config, providers: [FeedProvider(http: nil, articlesPerSource: 10)], store: MemoryStore(), logger: logger)
        do {
            _ = try await build.run()
            Issue.record("built")
        } catch {
            #expect(error.description == templates.path + "/row.mustache:5:62: </h2> closes <h{{level}}> opened at line 5; expected </h{{level}}>")
            #expect(!error.description.contains("\n"), "one line")
        }
        #expect(!log.all.contains { $0.contains("fetch") }, "nothing ran after the templates: \(log.all)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("public").path))
    }
}
