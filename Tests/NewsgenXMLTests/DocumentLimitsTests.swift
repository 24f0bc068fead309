import Foundation
import Testing
@testable import NewsgenXML

/// Every document libxml2 reads for newsgen is held to `DocumentLimits`: start tags and
/// attributes counted before parsing, entity text and time while its tree is copied.
@Suite("Reading a document within its limits")
struct DocumentLimitsTests {
    static func parse(_ text: String, recover: Bool = false, limits: DocumentLimits = .standard) throws(DocumentLimitError) -> XMLElement? {
        try LibXML.parseXML(Array(text.utf8), url: "test.xml", recover: recover, limits: limits).root
    }

    static func checkMarkup(_ text: String, _ limits: DocumentLimits) throws(DocumentLimitError) {
        try limits.checkMarkup(Array(text.utf8))
    }

    /// A document whose DTD declares an entity of `size` bytes, referenced `count` times in an
    /// element's text or in an attribute.
    static func blowup(size: Int, count: Int, inAttribute: Bool = false) -> String {
        let references = String(repeating: "&e;", count: count)
        let body = inAttribute ? "<a title=\"\(references)\"/>" : "<a>\(references)</a>"
        return "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY e \"\(String(repeating: "x", count: size))\">]><r>\(body)</r>"
    }

    @Test("Start tags and attributes are counted as libxml2 would meet them, quotes and `<` in them included")
    func markupCounts() throws {
        let small = DocumentLimits(elements: 3, attributesPerElement: 2)
        try Self.checkMarkup("<a><b/><c x='1' y=\"2\"/></a>", small)
        #expect(throws: DocumentLimitError.tooManyElements(limit: 3)) { try Self.checkMarkup("<a><b/><c/><d/></a>", small) }
        #expect(throws: DocumentLimitError.tooManyAttributes(limit: 2)) { try Self.checkMarkup("<a x='1' y='2' z='3'/>", small) }
        // HTML's unquoted values and attributes without a value count too.
        #expect(throws: DocumentLimitError.tooManyAttributes(limit: 2)) { try Self.checkMarkup("<p a=1 b c>", small) }
        // What a quoted value holds is not an attribute, and `=` or `>` in it ends nothing...
        try Self.checkMarkup("<a x='b c d e = f > g'/>", small)
        // ...but a `<` in it starts a tag, as libxml2's recovery reads it.
        #expect(throws: DocumentLimitError.tooManyElements(limit: 3)) { try Self.checkMarkup("<a x=\"<b/><c/><d/>\"/>", small) }
        // A quote that follows no `=` opens no value that could hide tags from the count.
        #expect(throws: DocumentLimitError.tooManyElements(limit: 3)) { try Self.checkMarkup("<a ' <b/><c/><d/> '/>", small) }
        // Text, end tags and `<` before a non-name are not tags.
        try Self.checkMarkup("<a>1 < 2 and 3 <= 4</a><b></b></a>", small)
    }

    @Test("100,000 attributes in one tag are refused before libxml2 compares them pairwise")
    func manyAttributes() throws {
        let tag = (0..<100_000).map { "a\($0)=\"1\"" }.joined(separator: " ")
        #expect(throws: DocumentLimitError.tooManyAttributes(limit: 1_000)) { try Self.parse("<r><i \(tag)/></r>") }
        #expect(LibXML.parseHTMLFragment("<p \(tag)>text</p>") == nil)
        // At the limit, it is read.
        let allowed = (0..<1_000).map { "a\($0)=\"1\"" }.joined(separator: " ")
        #expect(try Self.parse("<r><i \(allowed)/></r>")?.children.first?.attributes.count == 1_000)
    }

    @Test("An entity's text is expanded, within the budget, in text and in attribute values alike")
    func expansionWithinBudget() throws {
        // 40 references to 20 KB: 800 KB, under the 1 MB floor.
        let text = try #require(try Self.parse(Self.blowup(size: 20_000, count: 40)))
        #expect(text.text == String(repeating: "x", count: 800_000))
        #expect(text.children.first?.nodes.count == 1, "adjacent entity text makes one text node")
        let attribute = try #require(try Self.parse(Self.blowup(size: 20_000, count: 40, inAttribute: true)))
        #expect(attribute.children.first?.attribute("title") == String(repeating: "x", count: 800_000))
    }

    @Test("The quadratic blowup (a 50 KB entity referenced thousands of times) is refused, in text and in attributes",
          arguments: [false, true])
    func quadraticBlowup(inAttribute: Bool) throws {
        let document = Self.blowup(size: 50_000, count: 20_000, inAttribute: inAttribute)
        for recover in [false, true] {
            #expect(throws: DocumentLimitError.entityExpansion(limit: 1 << 20)) { try Self.parse(document, recover: recover) }
        }
        #expect(DocumentLimitError.entityExpansion(limit: 1 << 20).description.hasPrefix("entity expansion beyond 1 MB"))
    }

    @Test("The expansion allowed grows with the document, between the floor and the ceiling")
    func expansionScale() {
        let limits = DocumentLimits.standard
        #expect(limits.expansion(forDocumentOf: 100) == 1 << 20)
        #expect(limits.expansion(forDocumentOf: 3 << 20) == 3 << 20)
        #expect(limits.expansion(forDocumentOf: 100 << 20) == 16 << 20)
    }

    @Test("Billion laughs: nested entities are not expanded at all")
    func billionLaughs() throws {
        var declarations = "<!ENTITY l0 \"lol\">"
        for level in 1...9 { declarations += "<!ENTITY l\(level) \"\(String(repeating: "&l\(level - 1);", count: 10))\">" }
        let document = "<?xml version=\"1.0\"?><!DOCTYPE r [\(declarations)]><r><t>&l9;</t><t a=\"&l9;\">&l0;</t></r>"
        for recover in [false, true] {
            let root = try Self.parse(document, recover: recover)
            #expect((root?.text.count ?? 0) < 100, "nothing like 3,000,000,000 characters")
        }
    }

    @Test("A deadline that has passed, or a cancelled task, stops the reading")
    func time() async throws {
        let past = DocumentLimits(deadline: ContinuousClock.now, seconds: 2)
        #expect(throws: DocumentLimitError.timedOut(seconds: 2)) { try Self.parse("<r/>", limits: past) }
        #expect(DocumentLimitError.timedOut(seconds: 2).description == "reading it took longer than 2 s, the source's timeout")
        let task = Task { () -> DocumentLimitError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(DocumentLimitError) { _ = try Self.parse("<r/>") } catch { return error }
            return nil
        }
        #expect(await task.value == DocumentLimitError.stopped)
    }

    @Test("The copy of a long run of text nodes and references takes linear time")
    func longTextRuns() throws {
        // 100,000 references to a one-character entity and 100,000 character references between
        // them: 200,000 nodes in one run, which appending string to string would copy 10^10 bytes for.
        let references = String(repeating: "&e;&#65;", count: 100_000)
        let root = try #require(try Self.parse("<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY e \"x\">]><r>\(references)</r>"))
        #expect(root.text == String(repeating: "xA", count: 100_000))
    }
}
