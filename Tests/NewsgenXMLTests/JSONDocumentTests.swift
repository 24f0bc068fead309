import Foundation
import Testing
@testable import NewsgenXML

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
        #expect(root.offset == 0)
        #expect(items[0].offset == 19)
        #expect(items[1].offset == 33, "offsets count bytes: é is two")
    }

    @Test("what is not JSON is refused with where and why", arguments: [
        ("{\"a\": 1,}", 8, "expected another member after ','; JSON allows no trailing comma"),
        ("[1, 2,]", 6, "expected another element after ','; JSON allows no trailing comma"),
        ("[1, 2", 5, "expected ',' or ']' after an array element, found the end of the file"),
        ("{\"a\": 1 \"b\": 2}", 8, "expected ',' or '}' after an object member, found '\"'"),
        ("{\"a\" 1}", 5, "expected ':' after the member name \"a\", found '1'"),
        ("{a: 1}", 1, "expected a member name in double quotes, found a"),
        ("{'a': 1}", 1, "expected a member name in double quotes, found '''; JSON strings use double quotes"),
        ("[01]", 1, "a number may not start with 0 followed by more digits"),
        ("[1.]", 3, "expected a digit after the decimal point, found ']'"),
        ("[-x]", 2, "expected a digit after '-', found x"),
        ("\"tab\there\"", 4, "a tab inside a string must be escaped as \\t"),
        ("\"a\u{0B}\"", 2, "control character 0x0B inside a string must be escaped as \\u000B"),
        ("{\"a\": \"open\n}", 11, "expected '\"' to close the string before the end of the line (a line break inside a string is written \\n)"),
        ("\"\\x\"", 1, #"unknown escape '\x'; expected one of \" \\ \/ \b \f \n \r \t \uXXXX"#),
        ("\"\\u12\"", 1, "expected four hexadecimal digits after '\\u'"),
        ("\"\\ud800\"", 1, #"unpaired surrogate \uD800"#),
        ("[tru]", 1, "expected true, found tru"),
        ("[nul]", 1, "expected null, found nul"),
        ("[fifteen]", 1, "expected a value (an object, array, string, number, true, false or null), found fifteen"),
        ("[True]", 1, "expected a value (an object, array, string, number, true, false or null), found True"),
        ("[1, // one\n2]", 4, "expected a value (an object, array, string, number, true, false or null), found '/'; JSON allows no comments"),
        ("{} {}", 3, "expected the end of the file after the JSON value, found '{'"),
        ("", 0, "expected a JSON value, found an empty file"),
        ("[", 1, "expected a value, found the end of the file"),
        ("\"open", 0, "this string is never closed; expected '\"' before the end of the file"),
    ])
    func refused(_ text: String, _ offset: Int, _ message: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.offset == offset, "\(text): \(error)")
            #expect(error.message == message, "\(text): \(error.message)")
        }
        // A check without a tree refuses it the same way.
        do {
            try JSONDocument.check(Data(text.utf8))
            Issue.record("check accepted \(text)")
        } catch {
            #expect(error.offset == offset && error.message.hasPrefix(message), "check: \(text): \(error)")
        }
    }

    @Test("a check without a tree accepts what parsing accepts", arguments: [
        #" {"a": [1, -2.5e3, 0, true, false, null], "s": "x\"\\\/\u00e9", "o": {}, "e": []} "#,
        "[[[[]]], {\"a\": {\"b\": [1, {}]}}]",
        "\u{FEFF}\"bom\"",
        "0",
    ])
    func checked(_ text: String) throws {
        _ = try parse(text)
        try JSONDocument.check(Data(text.utf8))
    }

    @Test("bytes that are not UTF-8 in a string are refused at the run that holds them, by a check as by parsing; UTF-8 that is not ASCII is accepted")
    func utf8() throws {
        let quote = UInt8(ascii: "\""), open = UInt8(ascii: "["), close = UInt8(ascii: "]")
        let refused: [[UInt8]] = [
            [open, quote, 0x61, 0xFF, quote, close],
            [open, quote, 0x5C, 0x6E, 0xC3, quote, close],
            [open, quote, 0xED, 0xA0, 0x80, quote, close],
            [UInt8(ascii: "{"), quote, 0xC0, 0xAF, quote, UInt8(ascii: ":"), UInt8(ascii: "1"), UInt8(ascii: "}")],
            // In a run read eight bytes at a time: the bad byte past the first eight, or in the last few.
            [open, quote] + Array("twelve bytes".utf8) + [0xFF] + Array(" and more after it".utf8) + [quote, close],
            [open, quote] + Array("sixteen bytes ok".utf8) + [0x80, quote, close],
        ]
        for bytes in refused {
            var offsets: [Int] = []
            for keepsTree in [false, true] {
                do throws(JSONSyntaxProblem) {
                    if keepsTree { _ = try JSONDocument.parse(Data(bytes)) } else { try JSONDocument.check(Data(bytes)) }
                    Issue.record("accepted \(bytes)")
                } catch {
                    #expect(error.message == "the string holds bytes that are not UTF-8", "\(bytes): \(error)")
                    offsets.append(error.offset)
                }
            }
            #expect(offsets.count == 2 && offsets[0] == offsets[1], "\(bytes): \(offsets)")
        }
        let accepted = Data("[\"é\\n日本\", \"🇳🇴\", 1e400, -0.5E-3, \"a longer run, then déjà vu and 日本語 past eight bytes\"]".utf8)
        try JSONDocument.check(accepted)
        _ = try JSONDocument.parse(accepted)
    }

    @Test("a problem knows its line and column, counting characters")
    func lineAndColumn() {
        let text = "{\n  \"títle\": \"é\" \"x\"\n}"
        do {
            _ = try parse(text)
            Issue.record("accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 16, "\(error)")
            #expect(error.description == "2:16: expected ',' or '}' after an object member, found '\"'")
        }
    }

    @Test("bytes that are not UTF-8 are refused")
    func notUTF8() {
        #expect(throws: JSONSyntaxProblem.self) { try JSONDocument.parse(Data([0x22, 0xFF, 0x22])) }
    }

    @Test("a string of many escapes between multi-byte text reads whole, in order")
    func manyEscapes() throws {
        let expected = (0..<300).map { "é\($0)\n東\"🚀" }.joined()
        let encoded = (0..<300).map { "é\($0)\\n東\\\"\\ud83d\\ude80" }.joined()
        #expect(try parse("{\"s\": \"\(encoded)\"}")["s"]?.string == expected)
        #expect(try parse("{\"s\": \"plain é 東\"}")["s"]?.string == "plain é 東")
    }

    @Test("bytes that are not UTF-8 after an escape are refused where they are")
    func notUTF8AfterEscape() {
        do {
            _ = try JSONDocument.parse(Data([0x5B, 0x22, 0x5C, 0x6E, 0x61, 0xFF, 0x22, 0x5D]) /* ["\\na<FF>"] */)
            Issue.record("accepted")
        } catch {
            #expect(error.message == "the string holds bytes that are not UTF-8")
            #expect(error.offset == 4)
        }
    }

    @Test("nesting is bounded")
    func depth() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONSyntaxProblem.self) { try parse(deep) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: Never.self) { try parse(fine) }
    }
}
