import Foundation
import Testing
@testable import NewsgenRender

/// search.json's writer against `JSONEncoder`, the writer it replaced.
@Suite("JSON written as bytes")
struct JSONBytesTests {
    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func written(_ write: (inout JSONBytes) -> Void) -> String {
        var json = JSONBytes(capacity: 8)
        write(&json)
        return String(decoding: json.data(), as: UTF8.self)
    }

    @Test("every ASCII character, and text in any script, is written as JSONEncoder writes it")
    func strings() throws {
        var texts = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["é 日本 👩‍👩‍👧", "\u{2028}\u{2029}", "e\u{301}", "", "a\"b\\c/d\u{0}e", String(repeating: "long ", count: 100)]
        for text in texts {
            #expect(Self.written { $0.string(text) } == (try Self.encoded(text)), "\(Array(text.unicodeScalars.map(\.value)))")
        }
        #expect(Self.written { $0.string("2026-11-21T08:00:00Z".prefix(10)) } == #""2026-11-21""#, "a substring")
    }

    @Test("objects and arrays: members with commas between them, strings and integers in lists")
    func structure() throws {
        struct Value: Encodable { var a: Int; var b: [String]; var c: String }
        let written = Self.written { json in
            var members = JSONBytes.Members()
            json.append("{")
            json.key("a", in: &members)
            json.integer(-42)
            json.key("b", in: &members)
            json.strings(["x", "y\n"])
            json.key("c", in: &members)
            json.string("")
            json.append("}")
        }
        #expect(written == (try Self.encoded(Value(a: -42, b: ["x", "y\n"], c: ""))))
        #expect(Self.written { $0.strings([]) } == "[]")
    }
}
