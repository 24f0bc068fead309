import Foundation
import Testing
@testable import NewsgenStore

/// The cache's `categories` column is read and written byte by byte when it can be: the text
/// must be what `JSONEncoder` writes, and what is read what `JSONDecoder` reads.
@Suite("The categories column")
struct CategoriesColumnTests {
    static let tags = ["World", "", "Économie", "科技", "Space 🚀", "a/b", "say \"hi\"", "back\\slash", "line\nbreak", "tab\t",
                       "\u{0}", "\u{1F}", "del\u{7F}", "\u{2028}sep", "\u{FEFF}bom", "[\"x\",\"y\"]", ",", "]"]

    @Test("every list of tags is written as JSONEncoder writes it and read back as it was")
    func roundTrips() throws {
        var lists: [[String]] = [[]] + Self.tags.map { [$0] }
        for first in Self.tags { for second in Self.tags.prefix(8) { lists.append([first, second, "Plain"]) } }
        for list in lists {
            let text = try CategoriesColumn.text(of: list)
            #expect(text == (list.isEmpty ? "[]" : String(decoding: try JSONEncoder().encode(list), as: UTF8.self)), "\(list)")
            #expect(try CategoriesColumn.categories(in: text) == list, "\(list)")
        }
    }

    @Test("any text is read as JSONDecoder reads it: the same tags, or an error for what is not an array of strings")
    func readsAsJSONDecoder() {
        let texts = [#"[]"#, #"[""]"#, #"["a","b"]"#, #"[ "a" , "b" ]"#, #"["a",]"#, #"["a""b"]"#, #"["a"] "#, #"["a"]x"#, #"["a\/b"]"#,
                     #"["\u00e9"]"#, #"["a"#, #"[""#, #"["]"#, #"[","]"#, #"["a",1]"#, #"{"a":"b"}"#, #""a""#, "", "[", "[\"\u{1}\"]",
                     "[\"a\u{7F}\"]", "[\"\u{E9}\"]", #"["a","b","c","d"]"#, #"[ ]"#, #"[null]"#]
        for text in texts {
            let expected = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
            #expect((try? CategoriesColumn.categories(in: text)) == expected, "\(text.debugDescription)")
        }
    }
}
