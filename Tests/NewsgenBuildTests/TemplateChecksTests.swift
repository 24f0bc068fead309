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
         "Templates/layout.mustache:47:1: </body> closes <main> opened at line 39; expected </main>"),
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
        let source = try TemplateSource(name: "t", location: "t.mustache", text: text)
        #expect(throws: Never.self) { try TemplateMarkup.check(source) }
    }

    @Test("markup errors count columns in Unicode scalars, across sections, blocks and changed delimiters")
    func markupPositions() throws {
        func failure(_ text: String) throws -> String? {
            let source = try TemplateSource(name: "t", location: "t.mustache", text: text)
            do {
                try TemplateMarkup.check(source)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(try failure("<p>é {{#a}}<b>{{/a}}ü</i>") == "t.mustache:1:22: </i> closes <b> opened at line 1; expected </b>")
        #expect(try failure("{{=<% %>=}}<p><%x%>\n<%#a%>\n  </div><%/a%>") == "t.mustache:3:3: </div> closes <p> opened at line 1; expected </p>")
        #expect(try failure("<div>\n{{<frame}}{{$main}}\n<em>{{/main}}{{/frame}}</div>") == "t.mustache:3:24: </div> closes <em> opened at line 3; expected </em>")
        #expect(try failure("<h{{level}} class=\"x\">{{{t}}}</h2>") == "t.mustache:1:30: </h2> closes <h{{level}}> opened at line 1; expected </h{{level}}>")
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

    @Test("a tag the engine does not support or cannot read fails at load, naming file, line and column", arguments: [
        ("row.mustache", "{{title}}</a>", "{{uppercased(title)}}</a>",
         "Templates/row.mustache:5:49: {{uppercased(title)}} is a transform; templates support no transforms or lambdas"),
        ("list.mustache", "{{>row}}", "{{>*row}}",
         "Templates/list.mustache:5:14: {{>*row}} is a dynamic partial name, which templates do not support; name the partial"),
        ("list.mustache", "{{>row}}", "{{>rows}}",
         "Templates/list.mustache:5: names the partial \"rows\", but there is no rows.mustache"),
        ("row.mustache", "{{title}}</a>", "{{title}</a>",
         "Templates/row.mustache:5:49: {{title is never finished with }}"),
        ("row.mustache", "{{title}}</a>", "{{the title}}</a>",
         "Templates/row.mustache:5:49: {{the title}} is not a tag: a name is letters, digits, '.', '-' and '_'"),
        ("row.mustache", "</li>", "</li>{{/author}}",
         "Templates/row.mustache:19:6: {{/author}} closes no section"),
        ("headlines.mustache", "{{$main}}", "{{$main}}{{/main}}{{title}}{{$main}}",
         "Templates/headlines.mustache:2:19: {{title}} is inside {{<layout}}, which holds only blocks ({{$name}}…{{/name}})"),
        ("layout.mustache", "<!DOCTYPE html>", "{{%CONTENT_TYPE:TEXT}}<!DOCTYPE html>",
         "Templates/layout.mustache:1:1: {{%CONTENT_TYPE:TEXT}} is not a configuration newsgen knows; it knows {{%CONTENT_TYPE:HTML}}"),
        ("row.mustache", "<article>", "{{=<% =}}<article>",
         "Templates/row.mustache:2:1: {{=<% =}} is not a set-delimiter tag: it names two delimiters, as {{=<% %>=}} does"),
    ])
    func unsupported(file: String, old: String, new: String, expected: String) async throws {
        let reported = try await loadError(file, replacing: old, with: new)
        #expect(reported == expected)
    }

    @Test("after a set-delimiter tag, errors name the tags as written, at their own columns", arguments: [
        ("row.mustache", "{{#note}}<p class=\"note\">{{note}}</p>{{/note}}", "{{=<% %>=}}<%#note%><p class=\"note\"><% nte %></p><%/note%>",
         "Templates/row.mustache:16:37: <% nte %> is not a value any page provides (did you mean note?)"),
        ("row.mustache", "{{#note}}<p class=\"note\">{{note}}</p>{{/note}}", "{{=<% %>=}}<%#note%><p class=\"note\"><%note%></p><%/nate%>",
         "Templates/row.mustache:16:49: <%/nate%> closes <%#note%> opened at line 16; expected <%/note%>"),
        ("row.mustache", "{{#note}}<p class=\"note\">{{note}}</p>{{/note}}", "{{=<% %>=}}<%#note%><p class=\"note\"><%note%></b><%/note%>",
         "Templates/row.mustache:16:45: </b> closes <p> opened at line 16; expected </p>"),
    ])
    func delimiters(file: String, old: String, new: String, expected: String) async throws {
        let reported = try await loadError(file, replacing: old, with: new)
        #expect(reported == expected)
    }

    @Test("a name no page model provides is an error naming template, line and name", arguments: [
        ("row.mustache", "{{title}}</a></h{{level}}>", "{{headline}}</a></h{{level}}>",
         "Templates/row.mustache:5:49: {{headline}} is not a value any page provides (did you mean heading?)"),
        ("row.mustache", "{{#author}}<span class=\"author\">{{author}}</span>{{/author}}", "{{#autor}}<span class=\"author\">{{author}}</span>{{/autor}}",
         "Templates/row.mustache:9:1: {{#autor}} is not a value any page provides (did you mean author?)"),
        ("layout.mustache", "{{site.title}}", "{{site.titel}}",
         "Templates/layout.mustache:17:40: {{site.titel}} is not a value any page provides (did you mean title?)"),
        ("layout.mustache", "<title>{{title}}</title>", "<title>{{titel}}</title>",
         "Templates/layout.mustache:8:8: {{titel}} is not a value any page provides (did you mean title?)"),
        ("layout.mustache", "<title>{{title}}</title>", "<title>{{titl}}</title>",
         "Templates/layout.mustache:8:8: {{titl}} is not a value any page provides (did you mean title?)"),
        ("layout.mustache", "<title>{{title}}</title>", "<title>{{severity}}</title>",
         "Templates/layout.mustache:8:8: {{severity}} is not a value the page provides here"),
        ("row.mustache", "{{#note}}", "{{^severity}}{{/severity}}{{#note}}",
         "Templates/row.mustache:16:1: {{^severity}} is not a value the page provides here"),
        ("archive.mustache", "{{countText}}</span></li>", "{{{countTxt}}}</span></li>",
         "Templates/archive.mustache:8:95: {{{countTxt}}} is not a value any page provides (did you mean countText?)"),
        ("row.mustache", "{{sourceName}}</a>", "{{sourceNam}}</a>",
         "Templates/row.mustache:8:71: {{sourceNam}} is not a value any page provides (did you mean sourceName?)"),
        ("row.mustache", "{{#time}}<time datetime=\"{{datetime}}\">", "{{#time}}<time datetime=\"{{severity}}\">",
         "Templates/row.mustache:10:26: {{severity}} is not a value the page provides here"),
        ("layout.mustache", "{{#section}} class=\"in-section\"{{/section}}", "{{#section}} class=\"{{site.titel}}\"{{/section}}",
         "Templates/layout.mustache:34:99: {{site.titel}} is not a value any page provides (did you mean title?)"),
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
