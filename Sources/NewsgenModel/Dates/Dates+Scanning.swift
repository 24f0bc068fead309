/// The byte-level reading that the lenient and the strict readers share.
extension Dates {

    /// A cursor over ASCII text in a UTF-8 buffer. Never outlives the buffer.
    struct Scanner {
        private let bytes: UnsafeBufferPointer<UInt8>
        private var index: Int
        private let end: Int

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            self.index = 0
            self.end = bytes.count
        }

        /// Scans `bytes` without leading and trailing whitespace.
        init(trimming bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            var start = 0
            var end = bytes.count
            while start < end, let width = Self.whitespaceWidth(bytes, at: start) { start += width }
            while start < end, let width = Self.whitespaceWidth(bytes, endingAt: end) { end -= width }
            self.index = start
            self.end = end
        }

        var isAtEnd: Bool { index >= end }
        var current: UInt8? { index < end ? bytes[index] : nil }

        /// Number of consecutive digits at the cursor.
        var digitRunLength: Int {
            var i = index
            while i < end, Text.isASCIIDigit(bytes[i]) { i += 1 }
            return i - index
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        /// Skips whitespace; tells whether there was any.
        @discardableResult
        mutating func skipWhitespace() -> Bool {
            let start = index
            while index < end, let width = Self.whitespaceWidth(bytes, at: index) { index += width }
            return index > start
        }

        /// Skips the separator between day, month and year: whitespace and/or one `-`.
        mutating func skipDateSeparator() -> Bool {
            let spaced = skipWhitespace()
            let dashed = consume(UInt8(ascii: "-"))
            if dashed { skipWhitespace() }
            return spaced || dashed
        }

        /// Skips an RFC 2822 comment such as `(Pacific Standard Time)`, if any; fails on an unclosed one.
        mutating func skipComment() -> Bool {
            guard consume(UInt8(ascii: "(")) else { return true }
            while let byte = current {
                index += 1
                if byte == UInt8(ascii: ")") {
                    skipWhitespace()
                    return true
                }
            }
            return false
        }

        /// Reads a whole digit run whose length is in `digits`, or nothing. Longer runs fail before summing (no overflow).
        mutating func number(digits: ClosedRange<Int>) -> (value: Int, count: Int)? {
            let count = digitRunLength
            guard digits.contains(count) else { return nil }
            var value = 0
            for _ in 0..<count {
                value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
            return (value, count)
        }

        /// Reads exactly `count` digits, even if more follow (ISO 8601 basic format).
        mutating func fixed(_ count: Int) -> Int? {
            guard end - index >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                guard let byte = current, Text.isASCIIDigit(byte) else { return nil }
                value = value * 10 + Int(byte &- UInt8(ascii: "0"))
                index += 1
            }
            return value
        }

        /// Reads fraction digits after a decimal mark; those past nanoseconds are checked but ignored.
        mutating func fraction() -> Double? {
            var numerator = 0
            var denominator = 1
            var count = 0
            while let byte = current, Text.isASCIIDigit(byte) {
                if count < 9 {
                    numerator = numerator * 10 + Int(byte &- UInt8(ascii: "0"))
                    denominator *= 10
                }
                count += 1
                index += 1
            }
            return count > 0 ? Double(numerator) / Double(denominator) : nil
        }

        /// Reads a run of ASCII letters; `nil` if it is empty or too long to fold.
        mutating func foldedWord() -> FoldedWord? {
            let start = index
            while let byte = current, Text.isASCIILetter(byte) { index += 1 }
            return start < index ? FoldedWord(bytes[start..<index]) : nil
        }

        /// Width of the ASCII whitespace or no-break space (U+00A0) starting at `i`.
        private static func whitespaceWidth(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
            switch bytes[i] {
            case 0x09...0x0D, 0x20: 1
            case 0xC2 where i + 1 < bytes.count && bytes[i + 1] == 0xA0: 2
            default: nil
            }
        }

        /// Width of the ASCII whitespace or no-break space ending just before `end`.
        private static func whitespaceWidth(_ bytes: UnsafeBufferPointer<UInt8>, endingAt end: Int) -> Int? {
            switch bytes[end - 1] {
            case 0x09...0x0D, 0x20: 1
            case 0xA0 where end >= 2 && bytes[end - 2] == 0xC2: 2
            default: nil
            }
        }
    }

    /// Up to twelve ASCII letters, case-folded and packed five bits each, so names compare as integers.
    struct FoldedWord: Equatable, Sendable {
        private(set) var bits: UInt64 = 0
        private(set) var count = 0
        /// Whether every letter was uppercase, as in `CET`.
        private(set) var isAllUppercase = true

        /// `nil` if `letters` holds a non-letter or more than twelve letters.
        init?(_ letters: some Sequence<UInt8>) {
            for byte in letters {
                let code = (byte | 0x20) &- (UInt8(ascii: "a") - 1)  // a…z → 1…26
                guard count < 12, (1...26).contains(code) else { return nil }
                bits = bits << 5 | UInt64(code)
                count += 1
                isAllUppercase = isAllUppercase && byte & 0x20 == 0
            }
        }

        /// Whether this is `name` or a prefix of it of three letters or more: `Nov`, `NOVEMBER`, `Sept`.
        func abbreviates(_ name: FoldedWord) -> Bool {
            count >= 3 && count <= name.count && name.bits >> (5 * (name.count - count)) == bits
        }

        /// Whether this is `name`'s three-letter abbreviation, in any case: `Nov`, `NOV`.
        func isThreeLetterAbbreviation(of name: FoldedWord) -> Bool {
            count == 3 && abbreviates(name)
        }

        /// One to five uppercase letters: plausibly a zone abbreviation.
        var isUppercaseAbbreviation: Bool { isAllUppercase && (1...5).contains(count) }

        static func == (a: FoldedWord, b: FoldedWord) -> Bool {
            a.bits == b.bits && a.count == b.count
        }
    }
}

extension Dates.Names {
    /// `months`, `weekdays` and `zones` folded for the readers.
    static let foldedMonths = months.compactMap { Dates.FoldedWord($0.utf8) }
    static let foldedWeekdays = weekdays.compactMap { Dates.FoldedWord($0.utf8) }
    static let foldedZones = zones.compactMap { zone in Dates.FoldedWord(zone.name.utf8).map { (name: $0, zone: zone) } }
}
