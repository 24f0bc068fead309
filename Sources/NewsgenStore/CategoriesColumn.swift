import Foundation

/// The `categories` column of the cache: a story's tags as a JSON array of strings, written as
/// `JSONEncoder` writes it.
///
/// A cron run reads every cached story (the archive, and the lists of the sources it shows from
/// the cache), and a `JSONDecoder` for each took about 1.8 µs a story: at ten thousand tagged
/// stories, 18 ms a read. So the arrays `JSONEncoder` writes for plain tags (no character it
/// escapes) are read and written byte by byte here, and anything else goes through
/// `JSONDecoder` and `JSONEncoder`, which decide what a string needs and what is not JSON.
enum CategoriesColumn {
    /// The column's text for `categories`, byte for byte what `JSONEncoder` writes.
    static func text(of categories: [String]) throws -> String {
        if categories.isEmpty { return "[]" }
        guard categories.allSatisfy(isPlain) else { return String(decoding: try JSONEncoder().encode(categories), as: UTF8.self) }
        return "[\"" + categories.joined(separator: "\",\"") + "\"]"
    }

    /// The tags in the column's `text`; throws when it is not a JSON array of strings.
    static func categories(in text: String) throws -> [String] {
        if text == "[]" { return [] }
        if let plain = plainArray(text) { return plain }
        return try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }

    /// Whether `JSONEncoder` writes `tag` as it is, between quotes: printable ASCII but for the
    /// quote, the backslash and the slash (which it escapes), and anything past ASCII.
    private static func isPlain(_ tag: String) -> Bool {
        tag.utf8.allSatisfy(isPlain)
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "/")
    }

    /// The strings of `text` when it is `["…","…"]` with plain strings (without escapes or
    /// control characters) and no spaces; `nil` for anything else.
    private static func plainArray(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            guard bytes.count >= 4, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
            var tags: [String] = []
            var index = 1
            while true {
                guard bytes[index] == UInt8(ascii: "\"") else { return nil }
                let start = index + 1
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    let byte = bytes[end]
                    guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
                    end += 1
                }
                guard end + 1 < bytes.count else { return nil }
                // Cut at quotes, from a String's bytes: valid UTF-8.
                tags.append(String(decoding: bytes[start..<end], as: UTF8.self))
                switch bytes[end + 1] {
                case UInt8(ascii: "]") where end + 2 == bytes.count:
                    return tags
                case UInt8(ascii: ","):
                    index = end + 2
                    guard index < bytes.count else { return nil }
                default:
                    return nil
                }
            }
        }
    }
}
