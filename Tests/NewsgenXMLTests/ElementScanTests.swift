import Foundation
import Testing
@testable import NewsgenXML

/// `LibXML.scanElements` reads pages with libxml2's SAX2 parser, whose attribute values still
/// write `&` as `&#38;`; every page check reads its elements through it. What it visits must be
/// what libxml2's streaming reader (`checkStreaming`, which builds nodes) visits in the same
/// document: names, namespaces, depths, lines and decoded attribute values.
@Suite("Scanning a page's elements")
struct ElementScanTests {
    /// One visited element, as everything a page rule can read of it.
    struct Visit: Equatable, CustomStringConvertible {
        var depth: Int
        var line: Int
        var name: String
        var namespace: String?
        var attributes: [String]
        var href: String?
        var hasAlt: Bool

        init(_ element: ElementView, depth: Int) {
            self.depth = depth
            line = element.line
            name = element.name
            let copy = element.element
            namespace = copy.namespace
            attributes = copy.attributes.map { "\($0.namespace.map { "{\($0)}" } ?? "")\($0.name)=\($0.value)" }
            href = element.attribute("href")
            hasAlt = element.hasAttribute("alt")
        }

        var description: String { "\(depth) \(line) \(name) \(attributes)" }
    }

    static func scanned(_ text: String) -> (visits: [Visit], syntax: [XMLDiagnostic]) {
        var visits: [Visit] = []
        let syntax = Data(text.utf8).withUnsafeBytes { bytes in
            LibXML.scanElements(bytes) { element, depth in visits.append(Visit(element, depth: depth)) }
        }
        return (visits, syntax)
    }

    static func read(_ text: String) -> (visits: [Visit], syntax: [XMLDiagnostic]) {
        var visits: [Visit] = []
        let document = Data(text.utf8).withUnsafeBytes { bytes in
            LibXML.checkStreaming(bytes, url: "page.html", schema: nil, depth: .max) { element, depth in
                visits.append(Visit(element, depth: depth))
            }
        }
        return (visits, document.syntax)
    }

    static let page = """
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en">
        <head><meta charset="utf-8"/><title>Fish &amp; chips</title>
        <link rel="alternate" type="application/rss+xml" href="feeds/a.rss?x=1&amp;y=2"/></head>
        <body>
        <h1 id="top" title="&lt;b&gt; &quot;quoted&quot; &#39;single&#39;">Top</h1>
        <a href="a&amp;b&#x2F;c&#38;d">one</a>
        <a href="&amp;#38;">a reference written out</a>
        <a href="tab\tand
        line">spread</a>
        <a
          href="x"
          data-long="over several lines">tag over lines</a>
        <img src="i.png" alt=""/><img src="j.png"/>
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="#i" href="#j"/></svg>
        <p>caf\u{E9} \u{1F98A} <b>&#x1F98A;</b></p>
        </body>
        </html>
        """

    @Test("a page's elements are visited as libxml2's reader reads them: names, namespaces, depths, lines and attributes, references decoded")
    func sameAsReader() {
        let scan = Self.scanned(Self.page)
        let reader = Self.read(Self.page)
        #expect(scan.syntax.isEmpty && reader.syntax.isEmpty, "\(scan.syntax) \(reader.syntax)")
        #expect(scan.visits.count == 17)
        #expect(scan.visits == reader.visits)
        let hrefs = scan.visits.compactMap(\.href)
        #expect(hrefs == ["feeds/a.rss?x=1&y=2", "a&b/c&d", "&#38;", "tab and line", "x", "#j"])
        #expect(scan.visits.first { $0.name == "h1" }?.attributes == [#"id=top"#, #"title=<b> "quoted" 'single'"#])
        #expect(scan.visits.filter { $0.name == "img" }.map(\.hasAlt) == [true, false])
    }

    @Test("a page that is not well-formed gets the reader's first error, and nothing after it is visited")
    func firstError() {
        let broken = Self.page.replacingOccurrences(of: "<h1 id=\"top\"", with: "<h2 id=\"top\"")
        let scan = Self.scanned(broken)
        let reader = Self.read(broken)
        #expect(scan.syntax.count == 1)
        #expect(scan.syntax.first?.message.hasPrefix("Opening and ending tag mismatch: h2 line 6 and h1") == true, "\(scan.syntax)")
        #expect(scan.syntax.first?.line == reader.syntax.first?.line)
        #expect(scan.syntax.first?.column == reader.syntax.first?.column)
        #expect(scan.visits.last?.name == "h2")

        let entity = Self.scanned(Self.page.replacingOccurrences(of: "Fish &amp; chips", with: "Fish&nbsp;chips"))
        #expect(entity.syntax.count == 1 && entity.syntax.first?.message.hasPrefix("Entity 'nbsp' not defined") == true, "\(entity.syntax)")
        #expect(Self.scanned("").syntax.map(\.message) == ["Document is empty"])
        #expect(Self.scanned("<html><p>unclosed</html>").visits.map(\.name) == ["html", "p"])
    }

    @Test("a page whose <!DOCTYPE> declares an entity is refused there; one that declares none is read as the reader reads it")
    func declaredEntities() {
        let declaring = Self.page.replacingOccurrences(of: "<!DOCTYPE html>", with: "<!DOCTYPE html [\n<!ENTITY top \"a.html\">\n]>")
            .replacingOccurrences(of: "href=\"x\"", with: "href=\"&top;\"")
        let scan = Self.scanned(declaring)
        #expect(scan.syntax.count == 1)
        #expect(scan.syntax.first?.message.hasPrefix("the <!DOCTYPE> declares the entity 'top'") == true, "\(scan.syntax)")
        #expect(scan.syntax.first?.line == 2)
        #expect(scan.visits.isEmpty)
        #expect(Self.read(declaring).visits.first { $0.href == "a.html" } != nil, "the reader decodes it")

        let legacy = Self.page.replacingOccurrences(of: "<!DOCTYPE html>", with: "<!DOCTYPE html SYSTEM \"about:legacy-compat\">")
        #expect(Self.scanned(legacy).syntax.isEmpty)
        #expect(Self.scanned(legacy).visits == Self.read(legacy).visits)
    }

    @Test("a value's references to & are decoded left to right, each once")
    func ampersands() {
        for (written, value) in [("&amp;", "&"), ("&amp;amp;", "&amp;"), ("&amp;#38;", "&#38;"), ("&#38;#38;", "&#38;"),
                                 ("a&amp;&amp;b", "a&&b"), ("&#38;&#x26;&amp;", "&&&"), ("no references", "no references")] {
            let text = "<a xmlns=\"http://www.w3.org/1999/xhtml\" href=\"\(written)\"/>"
            #expect(Self.scanned(text).visits.first?.href == value, "\(written)")
            #expect(Self.scanned(text).visits == Self.read(text).visits, "\(written)")
        }
    }
}
