import Foundation

/// Small text utilities shared by the readers and writers.
package enum Text {
    /// Collapses each run of Unicode White_Space (non-breaking spaces included) to one space and trims the ends.
    package static func collapsingWhitespace(_ text: String) -> String {
        var text = text
        let collapsed: String? = text.withUTF8 { bytes in
            isCollapsed(bytes) ? nil : collapse(bytes)
        }
        return collapsed ?? text
    }

    private static func isCollapsed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        var afterSpace = true  // a space first is one at an end
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte == 0x20 {
                    if afterSpace { return false }
                    afterSpace = true
                } else if (0x09...0x0D).contains(byte) {
                    return false
                } else {
                    afterSpace = false
                }
                index += 1
            } else {
                let end = min(index + scalarLength(leadByte: byte), bytes.count)
                if isWhitespace(bytes, from: index, length: end - index) { return false }
                afterSpace = false
                index = end
            }
        }
        return !afterSpace || bytes.isEmpty
    }

    private static func collapse(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var pendingSpace = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let end = byte < 0x80 ? index + 1 : min(index + scalarLength(leadByte: byte), bytes.count)
            if isWhitespace(bytes, from: index, length: end - index) {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(0x20) }
                pendingSpace = false
                if end == index + 1 {
                    result.append(byte)
                } else {
                    result.append(contentsOf: bytes[index..<end])
                }
            }
            index = end
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func scalarLength(leadByte: UInt8) -> Int {
        switch leadByte {
        case ..<0xC0: 1
        case ..<0xE0: 2
        case ..<0xF0: 3
        default: 4
        }
    }

    /// Whether the scalar at `start` is White_Space (a fixed list: Unicode does not change assigned characters'
    /// property).
    private static func isWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, length: Int) -> Bool {
        let first = bytes[start]
        switch length {
        case 1:
            return first == 0x20 || (0x09...0x0D).contains(first)
        case 2:
            return first == 0xC2 && (bytes[start + 1] == 0x85 || bytes[start + 1] == 0xA0)
        case 3:
            let (second, third) = (bytes[start + 1], bytes[start + 2])
            switch (first, second) {
            case (0xE1, 0x9A): return third == 0x80
            case (0xE2, 0x80): return (0x80...0x8A).contains(third) || third == 0xA8 || third == 0xA9 || third == 0xAF
            case (0xE2, 0x81): return third == 0x9F
            case (0xE3, 0x80): return third == 0x80
            default: return false
            }
        default:
            return false
        }
    }

    /// Removes the characters XML 1.0 forbids (C0 controls but tab, LF and CR; U+FFFE, U+FFFF).
    package static func removingForbiddenCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !isAllowedInXML($0) }) else { return text }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: text.unicodeScalars.filter(isAllowedInXML))
        return String(result)
    }

    package static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Whether a text holds a space, tab, line feed, form feed or carriage return (which a URL never does).
    package static func containsASCIIWhitespace(_ text: String) -> Bool {
        text.utf8.contains(where: isASCIIWhitespace)
    }

    /// Whether `bytes` are well-formed UTF-8 as `String(validating:as:)` judges, without making a string.
    package static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // Continuation bytes needed, and the first one's range (narrower after E0, ED, F0, F4: no overlong form,
            // surrogate or scalar past U+10FFFF).
            let length: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 1
            case 0xE0: length = 2; second = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 2
            case 0xED: length = 2; second = 0x80...0x9F
            case 0xF0: length = 3; second = 0x90...0xBF
            case 0xF1...0xF3: length = 3
            case 0xF4: length = 3; second = 0x80...0x8F
            default: return false
            }
            guard index + length < count, second.contains(bytes[index + 1]) else { return false }
            for offset in stride(from: 2, through: length, by: 1) where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length + 1
        }
        return true
    }

    /// Where the run of bytes from `start` a JSON string holds verbatim ends (first `"`, `\` or control character,
    /// or the end), and whether it is all ASCII. Tests eight bytes at a time.
    package static func plainJSONRun(in bytes: UnsafeRawBufferPointer, from start: Int) -> (end: Int, isASCII: Bool) {
        guard let base = bytes.baseAddress else { return (start, true) }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        var bits: UInt64 = 0
        while index + 8 <= bytes.count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let quotes = word ^ (0x22 &* ones), backslashes = word ^ (0x5C &* ones)
            // A byte below 0x20, or a zero byte of `quotes` or `backslashes`, sets its high bit.
            let found = ((word &- 0x20 &* ones) & ~word) | ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
            if found & highs != 0 { break }
            bits |= word
            index += 8
        }
        var tail: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { break }
            tail |= byte
            index += 1
        }
        return (index, bits & highs == 0 && tail < 0x80)
    }

    package static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26
    }

    package static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Space, tab, LF, FF or CR: WHATWG's "ASCII whitespace".
    package static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// A server's error text fit for a log line and a page: one line, no XML-forbidden character, at most `limit`.
    package static func serverMessage(_ text: String, limit: Int = 200) -> String {
        excerpt(collapsingWhitespace(removingForbiddenCharacters(text)), limit: limit)
    }

    /// A plain-text excerpt of at most `limit` characters, cut at a word boundary with an ellipsis.
    package static func excerpt(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        let prefix = text.prefix(limit)
        let cut = prefix.lastIndex(of: " ").map { prefix[..<$0] } ?? prefix
        return cut.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters)) + "…"
    }
}

extension StringProtocol {
    /// Trimmed like `trimmingCharacters(in: .whitespacesAndNewlines)`, without bridging to NSString.
    package var trimmedWhitespace: String {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, Text.isWhitespaceOrNewline(scalars[start]) { start = scalars.index(after: start) }
        while end > start, Text.isWhitespaceOrNewline(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        if start == scalars.startIndex && end == scalars.endIndex { return String(self) }
        return String(self[start..<end])
    }
}

extension Text {
    /// Membership in `CharacterSet.whitespacesAndNewlines`: White_Space plus U+200B, as Foundation has it.
    package static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}
