package import Foundation
import NewsgenModel

/// newsgen's one JSON tree. Each value keeps its byte offset (for line:column in messages), objects keep member
/// order and numbers keep their text, so a file newsgen edits for the user keeps its layout and numbers.
package struct JSONNode: Sendable {
    package enum Value: Sendable {
        case object([Member])
        case array([JSONNode])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    package struct Member: Sendable {
        package var key: String
        package var value: JSONNode
        /// Where the member's name (its opening quote) starts in the document it was read from (0 for a member
        /// newsgen made).
        package var keyOffset: Int

        package init(key: String, value: JSONNode, keyOffset: Int = 0) {
            self.key = key
            self.value = value
            self.keyOffset = keyOffset
        }
    }

    package var value: Value
    /// Where the value starts in the document it was read from (0 for a value newsgen made).
    package var offset: Int
    /// A number's text as written in the document.
    package var numberText: String?

    package init(value: Value, offset: Int = 0, numberText: String? = nil) {
        self.value = value
        self.offset = offset
        self.numberText = numberText
    }

    /// The value of the first member named `key`, when this is an object that has one.
    package subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    package var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    package var array: [JSONNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// The members, when this is an object.
    package var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }

    package var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// A string, or a number as written (ids are often numbers).
    package var scalarText: String? {
        switch value {
        case .string(let text): return text
        case .number(let number):
            if let numberText { return numberText }
            if let integer = Int(exactly: number) { return String(integer) }
            return String(number)
        default: return nil
        }
    }

    /// What a reader would call this kind of value, for messages.
    package var kindName: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }
}

/// Where and why a text is not JSON: `3:17: expected ',' or '}' after an object member, found '"'`.
package struct JSONSyntaxProblem: Error, CustomStringConvertible {
    /// The byte offset of the problem.
    package var offset: Int
    /// The 1-based line and column (in characters) of `offset`.
    package var line: Int
    package var column: Int
    /// What was expected and what was found instead.
    package var message: String
    /// The document holds more values than the parse was allowed (`JSONDocument.parse`).
    package var tooManyValues = false

    package var description: String { "\(line):\(column): \(message)" }
}

/// A strict RFC 8259 parser that keeps positions. It accepts exactly what JSON allows (a UTF-8
/// byte order mark aside), and rejects unpaired surrogates, which no Swift string can hold.
package struct JSONDocument {
    /// Deeper nesting is refused: recursion must stay bounded.
    package static let maximumDepth = 512

    /// The tree of `data`. Past `maximumValues` values (members' names aside) the parse throws with `tooManyValues`
    /// set, keeping the tree of untrusted input bounded.
    package static func parse(_ data: Data, maximumValues: Int = .max) throws(JSONSyntaxProblem) -> JSONNode {
        let result: Result<JSONNode, JSONSyntaxProblem> = data.withUnsafeBytes { bytes in
            var parser = JSONDocument(bytes: bytes)
            parser.valuesLeft = maximumValues
            do throws(JSONSyntaxProblem) {
                return .success(try parser.document())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Checks `data` by the same rules as `parse(_:)` without keeping a tree (the search index can be huge).
    package static func check(_ data: Data) throws(JSONSyntaxProblem) {
        let problem: JSONSyntaxProblem? = data.withUnsafeBytes { bytes in
            var parser = JSONDocument(bytes: bytes, keepsTree: false)
            do throws(JSONSyntaxProblem) {
                _ = try parser.document()
                return nil
            } catch {
                return error
            }
        }
        if let problem { throw problem }
    }

    private let bytes: UnsafeRawBufferPointer
    /// False when only checking: objects and arrays are read but their contents are dropped.
    private let keepsTree: Bool
    private var index = 0
    private var depth = 0
    private var valuesLeft = Int.max

    private init(bytes: UnsafeRawBufferPointer, keepsTree: Bool = true) {
        self.bytes = bytes
        self.keepsTree = keepsTree
    }

    private mutating func document() throws(JSONSyntaxProblem) -> JSONNode {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        guard current != nil else { throw problem("expected a JSON value, found an empty file") }
        let root = try value()
        skipWhitespace()
        guard index == bytes.count else { throw problem("expected the end of the file after the JSON value, found \(found)") }
        return root
    }

    private func problem(_ message: String, at offset: Int? = nil) -> JSONSyntaxProblem {
        let offset = offset ?? index
        let (line, column) = Self.position(of: offset, in: bytes)
        return JSONSyntaxProblem(offset: offset, line: line, column: column, message: message)
    }

    /// The 1-based line and column (in characters) of a byte offset of `data`, such as a value's or a member name's
    /// offset in the tree `parse` made of it: the same positions syntax problems have.
    package static func position(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        data.withUnsafeBytes { position(of: offset, in: $0) }
    }

    private static func position(of offset: Int, in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        var lineStart = 0
        var line = 1
        for position in 0..<end where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        // Characters, not bytes: UTF-8 continuation bytes do not start a column.
        let column = (lineStart..<end).count(where: { bytes[$0] & 0xC0 != 0x80 }) + 1
        return (line, column)
    }

    /// What stands at the current position, for "found …": a quoted character, a bare word
    /// (`True`, `undefined`), or the end of the file.
    private var found: String {
        guard let byte = current else { return "the end of the file" }
        if Text.isASCIILetter(byte) {
            var end = index
            while end < bytes.count, end - index < 20, Text.isASCIILetter(bytes[end]) || Text.isASCIIDigit(bytes[end]) { end += 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }
        return Self.describe(byte, in: bytes, at: index)
    }

    /// A hint for the mistakes people make when writing JSON by hand.
    private var hint: String {
        switch current {
        case UInt8(ascii: "'"): "; JSON strings use double quotes"
        case UInt8(ascii: "/"), UInt8(ascii: "#"): "; JSON allows no comments"
        default: ""
        }
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func value() throws(JSONSyntaxProblem) -> JSONNode {
        let start = index
        guard let byte = current else { throw problem("expected a value, found the end of the file") }
        valuesLeft -= 1
        if valuesLeft < 0 {
            var tooMany = problem("more values than newsgen reads in one document")
            tooMany.tooManyValues = true
            throw tooMany
        }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(value: try object(), offset: start)
        case UInt8(ascii: "["): return JSONNode(value: try array(), offset: start)
        case UInt8(ascii: "\""):
            return JSONNode(value: .string(try string(collecting: keepsTree)), offset: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(value: .bool(true), offset: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(value: .bool(false), offset: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(value: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let (number, text) = try number()
            return JSONNode(value: .number(number), offset: start, numberText: text)
        default: throw problem("expected a value \(Self.valueKinds), found \(found)\(hint)")
        }
    }

    private mutating func nested<T>(_ body: (inout JSONDocument) throws(JSONSyntaxProblem) -> T) throws(JSONSyntaxProblem) -> T {
        guard depth < Self.maximumDepth else { throw problem("nested more than \(Self.maximumDepth) levels deep") }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func object() throws(JSONSyntaxProblem) -> JSONNode.Value {
        try nested { (parser: inout JSONDocument) throws(JSONSyntaxProblem) -> JSONNode.Value in
            parser.index += 1
            var members: [JSONNode.Member] = []
            var count = 0
            parser.skipWhitespace()
            if parser.current == UInt8(ascii: "}") {
                parser.index += 1
                return .object(members)
            }
            while true {
                parser.skipWhitespace()
                if count > 0, parser.current == UInt8(ascii: "}") {
                    throw parser.problem("expected another member after ','; JSON allows no trailing comma")
                }
                guard parser.current == UInt8(ascii: "\"") else {
                    throw parser.problem("expected a member name in double quotes, found \(parser.found)\(parser.hint)")
                }
                let keyStart = parser.index
                let key = try parser.string(collecting: parser.keepsTree)
                parser.skipWhitespace()
                guard parser.current == UInt8(ascii: ":") else {
                    var reader = JSONDocument(bytes: parser.bytes)
                    reader.index = keyStart
                    let name = parser.keepsTree ? key : (try? reader.string()) ?? key
                    throw parser.problem("expected ':' after the member name \(JSONNode.quoted(name)), found \(parser.found)")
                }
                parser.index += 1
                parser.skipWhitespace()
                let member = JSONNode.Member(key: key, value: try parser.value(), keyOffset: keyStart)
                if parser.keepsTree { members.append(member) }
                count += 1
                parser.skipWhitespace()
                switch parser.current {
                case UInt8(ascii: ","): parser.index += 1
                case UInt8(ascii: "}"): parser.index += 1; return .object(members)
                default: throw parser.problem("expected ',' or '}' after an object member, found \(parser.found)\(parser.hint)")
                }
            }
        }
    }

    private mutating func array() throws(JSONSyntaxProblem) -> JSONNode.Value {
        try nested { (parser: inout JSONDocument) throws(JSONSyntaxProblem) -> JSONNode.Value in
            parser.index += 1
            var elements: [JSONNode] = []
            var count = 0
            parser.skipWhitespace()
            if parser.current == UInt8(ascii: "]") {
                parser.index += 1
                return .array(elements)
            }
            while true {
                parser.skipWhitespace()
                if count > 0, parser.current == UInt8(ascii: "]") {
                    throw parser.problem("expected another element after ','; JSON allows no trailing comma")
                }
                let element = try parser.value()
                if parser.keepsTree { elements.append(element) }
                count += 1
                parser.skipWhitespace()
                switch parser.current {
                case UInt8(ascii: ","): parser.index += 1
                case UInt8(ascii: "]"): parser.index += 1; return .array(elements)
                default: throw parser.problem("expected ',' or ']' after an array element, found \(parser.found)\(parser.hint)")
                }
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxProblem) {
        let start = index
        let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            // `tru` and `nul` are the literal mistyped; `fifteen` is not `false`.
            let written = found
            let close = written.utf8.count <= expected.count + 1 && written.utf8.prefix(2).elementsEqual(expected.prefix(2))
            throw problem(close ? "expected \(word), found \(written)" : "expected a value \(Self.valueKinds), found \(written)", at: start)
        }
        index += expected.count
    }

    private mutating func number() throws(JSONSyntaxProblem) -> (Double, String) {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, Text.isASCIIDigit(first) else { throw problem("expected a digit after '-', found \(found)") }
        index += 1
        if first != UInt8(ascii: "0") {
            while let byte = current, Text.isASCIIDigit(byte) { index += 1 }
        } else if let byte = current, Text.isASCIIDigit(byte) {
            throw problem("a number may not start with 0 followed by more digits", at: start)
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let byte = current, Text.isASCIIDigit(byte) else { throw problem("expected a digit after the decimal point, found \(found)") }
            while let byte = current, Text.isASCIIDigit(byte) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, Text.isASCIIDigit(byte) else { throw problem("expected a digit in the exponent, found \(found)") }
            while let byte = current, Text.isASCIIDigit(byte) { index += 1 }
        }
        // Only checking: every number the grammar allows reads as a Double (or infinity), so none is made.
        guard keepsTree else { return (0, "") }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw problem("\(text) is not a number", at: start) }
        return (value, text)
    }

    /// A string's value; with `collecting` false, the string is only checked (its value is "").
    private mutating func string(collecting: Bool = true) throws(JSONSyntaxProblem) -> String {
        let start = index
        index += 1
        // Strings without escapes become a String as they are; escaped ones are built in a byte buffer.
        var pieces: [UInt8] = []
        var escaped = false
        var runStart = index
        // All the run's bytes or-ed: the high bit says whether it is all ASCII.
        var runBits: UInt8 = 0
        func run(_ parser: JSONDocument, upTo end: Int) throws(JSONSyntaxProblem) -> String {
            guard end > runStart else { return "" }
            let bytes = UnsafeRawBufferPointer(rebasing: parser.bytes[runStart..<end])
            guard runBits < 0x80 || Text.isUTF8(bytes) else {
                throw parser.problem("the string holds bytes that are not UTF-8", at: runStart)
            }
            return collecting ? String(decoding: bytes, as: UTF8.self) : ""
        }
        while true {
            guard let byte = current else {
                throw problem("this string is never closed; expected '\"' before the end of the file", at: start)
            }
            switch byte {
            case UInt8(ascii: "\""):
                let last = try run(self, upTo: index)
                index += 1
                guard escaped else { return last }
                pieces.append(contentsOf: last.utf8)
                return String(decoding: pieces, as: UTF8.self)
            case UInt8(ascii: "\\"):
                pieces.append(contentsOf: try run(self, upTo: index).utf8)
                let scalar = try escape()
                if collecting { pieces.append(contentsOf: String(scalar).utf8) }
                escaped = true
                runStart = index
                runBits = 0
            case 0x0A, 0x0D:
                throw problem("expected '\"' to close the string before the end of the line (a line break inside a string is written \\n)")
            case 0x00..<0x20:
                let escaped = byte == 0x09 ? "\\t" : "\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                let name = byte == 0x09 ? "a tab" : "control character \(Self.describe(byte))"
                throw problem("\(name) inside a string must be escaped as \(escaped)")
            default:
                let plain = Text.plainJSONRun(in: bytes, from: index)
                if !plain.isASCII { runBits |= 0x80 }
                index = plain.end
            }
        }
    }

    /// One escape sequence after a backslash, a surrogate pair as one scalar.
    private mutating func escape() throws(JSONSyntaxProblem) -> Unicode.Scalar {
        let start = index
        index += 1
        guard let byte = current else {
            throw problem("this escape is not finished; expected a character after '\\', found the end of the file", at: start)
        }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit(start: start)
            if (0xD800...0xDBFF).contains(unit) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw problem("unpaired surrogate \\u\(String(unit, radix: 16, uppercase: true))", at: start)
                }
                index += 2
                let low = try hexUnit(start: start)
                guard (0xDC00...0xDFFF).contains(low),
                      let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) else {
                    throw problem("unpaired surrogate \\u\(String(unit, radix: 16, uppercase: true))", at: start)
                }
                return scalar
            }
            guard let scalar = Unicode.Scalar(unit) else {
                throw problem("unpaired surrogate \\u\(String(unit, radix: 16, uppercase: true))", at: start)
            }
            return scalar
        default:
            throw problem("unknown escape '\\\(Character(Unicode.Scalar(byte)))'; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", at: start)
        }
    }

    private mutating func hexUnit(start: Int) throws(JSONSyntaxProblem) -> UInt32 {
        guard bytes.count - index >= 4 else { throw problem("expected four hexadecimal digits after '\\u'", at: start) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Hexadecimal.value(of: bytes[index]) else {
                throw problem("expected four hexadecimal digits after '\\u'", at: start)
            }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    private static let valueKinds = "(an object, array, string, number, true, false or null)"

    /// A byte as a message shows it: `'x'`, `a line break`, `0x0B`.
    private static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x0A, 0x0D: return "a line break"
        case 0x09: return "a tab"
        case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
    }

    /// The character that starts at `offset` (a whole UTF-8 sequence), as a message shows it.
    private static func describe(_ byte: UInt8, in bytes: UnsafeRawBufferPointer, at offset: Int) -> String {
        guard byte >= 0xC0 else { return describe(byte) }
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        guard offset + length <= bytes.count, let text = String(bytes: bytes[offset..<offset + length], encoding: .utf8) else {
            return describe(byte)
        }
        return "'\(text)'"
    }
}
