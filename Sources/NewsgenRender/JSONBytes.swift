import Foundation
import NewsgenModel

/// Compact JSON written straight into bytes, as `JSONEncoder` writes it with
/// `.withoutEscapingSlashes`: `"` and `\` escaped, control characters as `\n`, `\t`… or
/// `\u00XX`, everything else (including `/` and non-ASCII) as its UTF-8.
struct JSONBytes: ~Copyable {
    private var buffer: OutputBuffer

    init(capacity: Int) {
        buffer = OutputBuffer(capacity: capacity)
    }

    /// Whether an object has had a member yet, for the comma before the next.
    struct Members {
        fileprivate var any = false
    }

    mutating func append(_ text: StaticString) {
        buffer.append(text)
    }

    /// `"name":`, after a comma unless it is the object's first member.
    mutating func key(_ name: StaticString, in members: inout Members) {
        if members.any { buffer.append(",") }
        members.any = true
        buffer.append("\"")
        buffer.append(name)
        buffer.append("\":")
    }

    mutating func integer(_ value: Int) {
        buffer.append(String(value))
    }

    mutating func string(_ text: some StringProtocol) {
        var text = String(text)
        text.withUTF8 { string(utf8: $0) }
    }

    /// A string of UTF-8 `bytes`, with "…" after them when `ellipsis`.
    mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>, ellipsis: Bool = false) {
        buffer.append("\"")
        var runStart = 0
        while let offset = Self.firstToEscape(in: bytes, from: runStart) {
            buffer.append(UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
            runStart = offset + 1
            switch bytes[offset] {
            case 0x22: buffer.append("\\\"")
            case 0x5C: buffer.append("\\\\")
            case 0x0A: buffer.append("\\n")
            case 0x0D: buffer.append("\\r")
            case 0x09: buffer.append("\\t")
            case 0x08: buffer.append("\\b")
            case 0x0C: buffer.append("\\f")
            default: buffer.append(Self.unicodeEscape(bytes[offset]))
            }
        }
        buffer.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
        if ellipsis { buffer.append("…") }
        buffer.append("\"")
    }

    /// The offset of the first byte from `start` on that JSON escapes: a control character, `"`
    /// or `\` (`Text.plainJSONRun`).
    private static func firstToEscape(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let end = Text.plainJSONRun(in: UnsafeRawBufferPointer(bytes), from: start).end
        return end < bytes.count ? end : nil
    }

    /// `["a","b"]`.
    mutating func strings(_ values: [String]) {
        buffer.append("[")
        for (position, value) in values.enumerated() {
            if position > 0 { buffer.append(",") }
            string(value)
        }
        buffer.append("]")
    }

    consuming func data() -> Data {
        buffer.data()
    }

    /// `\u00XX` for a control character, hexadecimal in lower case.
    private static func unicodeEscape(_ byte: UInt8) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return Array("\\u00".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
    }
}
