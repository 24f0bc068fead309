import Foundation
import NewsgenXML

/// The problems found in one file, with positions turned into line:column as they are added.
struct FileProblems {
    let path: String
    let source: SourceText
    private(set) var problems: [ValidationProblem] = []

    init(path: String, source: SourceText) {
        self.path = path
        self.source = source
    }

    mutating func add(_ rule: ValidationRule, _ message: String, line: Int, column: Int) {
        problems.append(ValidationProblem(path: path, line: line, column: column, rule: rule, message: message))
    }

    /// A problem with an element; `occurrence` counts the elements of the same name that start
    /// earlier on the same line (libxml2 keeps lines, not columns, so the column is looked up).
    mutating func add(_ rule: ValidationRule, _ message: String, at element: XMLElement, occurrence: Int = 0) {
        let (line, column) = source.startTag(of: element.name, line: element.line, occurrence: occurrence)
        add(rule, message, line: line, column: column)
    }

    /// libxml2's well-formedness errors: a character XML forbids gets its own rule.
    mutating func add(syntax diagnostics: [XMLDiagnostic]) {
        for diagnostic in diagnostics {
            add(diagnostic.isForbiddenCharacter ? .xmlForbiddenChar : .xmlWellFormed, diagnostic.message,
                line: diagnostic.line, column: diagnostic.column)
        }
    }

    /// `text` as a message quotes it: at most 60 characters.
    static func shortened(_ text: String) -> String {
        text.count > 60 ? text.prefix(57) + "…" : text
    }

    /// A problem at a byte offset (JSON).
    mutating func add(_ rule: ValidationRule, _ message: String, offset: Int) {
        let (line, column) = source.position(ofOffset: offset)
        add(rule, message, line: line, column: column)
    }
}

/// A checked file's bytes, to turn byte offsets and element lines into line:column.
/// The line index is built the first time a problem needs it: valid files never pay for it.
final class SourceText {
    let data: Data
    private var lineStarts: [Int]?

    init(_ data: Data) {
        self.data = data
    }

    /// The 1-based line and column (in characters) of a byte offset.
    func position(ofOffset offset: Int) -> (line: Int, column: Int) {
        let starts = lines()
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, characters(from: starts[low], to: offset) + 1)
    }

    /// Where the start tag `<name` (or `<prefix:name`) of an element that libxml2 places on `line`
    /// begins. libxml2 gives the line where the start tag ends, so a tag that spans lines is
    /// found on an earlier one; when none is found the column is 0.
    func startTag(of name: String, line: Int, occurrence: Int) -> (line: Int, column: Int) {
        let starts = lines()
        guard line >= 1, line <= starts.count else { return (line, 0) }
        var current = line
        var skip = occurrence
        while current >= max(1, line - 50) {
            let tags = startTags(of: name, onLine: current, starts: starts)
            if current == line, tags.count > skip { return (current, tags[skip]) }
            if current != line, let last = tags.last { return (current, last) }
            skip = 0
            current -= 1
        }
        return (line, 0)
    }

    /// The first start tag of an element anywhere in the file, for messages that carry no line.
    func firstStartTag(of name: String) -> (line: Int, column: Int) {
        let starts = lines()
        for line in 1...starts.count {
            if let column = startTags(of: name, onLine: line, starts: starts).first { return (line, column) }
        }
        return (0, 0)
    }

    private func startTags(of name: String, onLine line: Int, starts: [Int]) -> [Int] {
        let start = starts[line - 1]
        let end = line < starts.count ? starts[line] : data.count
        let target = Array(name.utf8)
        var columns: [Int] = []
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var index = start
            while index < end {
                defer { index += 1 }
                guard bytes[index] == UInt8(ascii: "<") else { continue }
                var nameEnd = index + 1
                var localStart = nameEnd
                while nameEnd < end, !Self.endsName(bytes[nameEnd]) {
                    if bytes[nameEnd] == UInt8(ascii: ":") { localStart = nameEnd + 1 }
                    nameEnd += 1
                }
                if nameEnd - localStart == target.count,
                   zip(bytes[localStart..<nameEnd], target).allSatisfy({ $0 == $1 }) {
                    columns.append(characters(from: start, to: index) + 1)
                }
            }
        }
        return columns
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
    }

    /// Characters (not UTF-8 continuation bytes) in `start..<end`.
    private func characters(from start: Int, to end: Int) -> Int {
        data.withUnsafeBytes { bytes in
            var count = 0
            for index in start..<min(end, bytes.count) where bytes[index] & 0xC0 != 0x80 { count += 1 }
            return count
        }
    }

    private func lines() -> [Int] {
        if let lineStarts { return lineStarts }
        var starts = [0]
        data.withUnsafeBytes { bytes in
            for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") { starts.append(index + 1) }
        }
        lineStarts = starts
        return starts
    }
}
