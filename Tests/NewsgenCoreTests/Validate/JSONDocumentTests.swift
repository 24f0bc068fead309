import Foundation
import Testing
@testable import NewsgenCore

@Suite("JSON with positions")
struct JSONDocumentTests {
    func parse(_ text: String) throws(JSONSyntaxProblem) -> JSONNode {
        try JSONDocument.parse(Data(text.utf8))
    }

    @Test("values, nesting, escapes and numbers read as JSON defines them")
    func values() throws {
        let root = try parse(#" {"a": [1, -2.5e3, 0, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "o": {}} "#)
        guard case .array(let numbers)? = root["a"]?.value else { Issue.record("no array"); return }
        #expect(numbers.count == 6)
        if case .number(let value) = numbers[1].value { #expect(value == -2500) } else { Issue.record("not a number") }
        #expect(root["s"]?.string == "x\"\\/\u{08}\u{0C}\n\r\t\u{E9}\u{1F600}")
        #expect(root["o"]?.kindName == "an object")
        #expect(root["missing"] == nil)
    }

    @Test("every value knows its byte offset")
    func offsets() throws {
        let text = "{\n  \"items\": [\n    {\"id\": \"é\"}, 7\n  ]\n}"
        let root = try parse(text)
        guard case .array(let items)? = root["items"]?.value else { Issue.record("no array"); return }
        let source = SourceText(Data(text.utf8))
        #expect(source.position(ofOffset: root.offset) == (1, 1))
        #expect(source.position(ofOffset: items[0].offset) == (3, 5))
        #expect(source.position(ofOffset: items[1].offset) == (3, 18), "columns count characters, not bytes")
    }

    @Test("what is not JSON is refused with where and why", arguments: [
        ("{\"a\": 1,}", 8, "a member name in double quotes was expected"),
        ("[1, 2", 5, "\",\" or \"]\" was expected"),
        ("{\"a\" 1}", 5, "\":\" was expected"),
        ("[01]", 2, "\",\" or \"]\" was expected"),
        ("[1.]", 3, "a digit was expected after the decimal point"),
        ("\"tab\there\"", 4, "control character 0x9 inside a string"),
        ("\"\\x\"", 1, "unknown escape"),
        ("\"\\ud800\"", 1, "unpaired surrogate"),
        ("[tru]", 1, "true was expected"),
        ("{} {}", 3, "unexpected text after the JSON value"),
        ("", 0, "unexpected end of the file"),
        ("\"open", 0, "the string is never closed"),
    ])
    func refused(_ text: String, _ offset: Int, _ message: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.offset == offset, "\(text): \(error)")
            #expect(error.message.contains(message), "\(text): \(error.message)")
        }
    }

    @Test("bytes that are not UTF-8 are refused")
    func notUTF8() {
        #expect(throws: JSONSyntaxProblem.self) { try JSONDocument.parse(Data([0x22, 0xFF, 0x22])) }
    }

    @Test("nesting is bounded")
    func depth() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONSyntaxProblem.self) { try parse(deep) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: Never.self) { try parse(fine) }
    }
}
