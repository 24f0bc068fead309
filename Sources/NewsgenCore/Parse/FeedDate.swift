import Foundation

/// Parsing and formatting of the timestamps found in news feeds.
///
/// `parse(_:)` understands the RFC 822 family used by RSS
/// (`Thu, 20 Nov 2026 08:00:00 GMT`) and the RFC 3339 / ISO 8601 family used
/// by Atom, JSON Feed, `dc:date` and most JSON APIs (`2026-11-20T08:00:00Z`).
/// It scans the UTF-8 bytes directly: no formatter, calendar or time zone
/// object is involved, so it is cheap enough to run on every article.
public enum FeedDate {

    /// Parses a feed timestamp.
    ///
    /// Leading and trailing whitespace is ignored. A timestamp without a zone,
    /// or with a zone abbreviation this parser does not know, is read as UTC.
    ///
    /// - Returns: the instant, or `nil` when `text` is not a timestamp in a
    ///   supported format or names an impossible date or time.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// Formats `date` as RFC 3339 in UTC with whole seconds,
    /// e.g. `2026-11-20T08:00:00Z`.
    public static func rfc3339(_ date: Date) -> String {
        let time = BrokenDownTime(date)
        var out = ASCIIWriter(capacity: 20)
        out.number(time.year, width: 4)
        out.byte(UInt8(ascii: "-"))
        out.number(time.month, width: 2)
        out.byte(UInt8(ascii: "-"))
        out.number(time.day, width: 2)
        out.byte(UInt8(ascii: "T"))
        out.clock(time)
        out.byte(UInt8(ascii: "Z"))
        return out.string
    }

    /// Formats `date` as RFC 822 (RFC 1123 profile) in UTC, as RSS expects,
    /// e.g. `Fri, 20 Nov 2026 08:00:00 +0000`.
    public static func rfc822(_ date: Date) -> String {
        let time = BrokenDownTime(date)
        var out = ASCIIWriter(capacity: 31)
        out.text(Names.weekdayAbbreviations[time.weekday])
        out.byte(UInt8(ascii: ","))
        out.byte(UInt8(ascii: " "))
        out.number(time.day, width: 2)
        out.byte(UInt8(ascii: " "))
        out.text(Names.monthAbbreviations[time.month - 1])
        out.byte(UInt8(ascii: " "))
        out.number(time.year, width: 4)
        out.byte(UInt8(ascii: " "))
        out.clock(time)
        out.byte(UInt8(ascii: " "))
        out.byte(UInt8(ascii: "+"))
        out.number(0, width: 4)
        return out.string
    }

    /// Parses a timestamp given as UTF-8 bytes; see `parse(_:)`.
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = Scanner(trimming: bytes)
        guard let first = scanner.current else { return nil }
        let fields: Fields?
        if Scanner.isDigit(first), scanner.digitRunLength >= 4 {
            fields = ISO8601Grammar.parse(&scanner)
        } else {
            fields = RFC822Grammar.parse(&scanner)
        }
        return fields?.date
    }
}

// MARK: - Grammars

extension FeedDate {

    /// `[Thu[rsday][,]] 20 Nov[ember] [20]26 [08:00[:00]] [zone] [(comment)]`,
    /// also with `-` between day, month and year as in RFC 850.
    private enum RFC822Grammar {
        static func parse(_ s: inout Scanner) -> Fields? {
            if let first = s.current, Scanner.isLetter(first) {
                guard let weekday = s.foldedWord(), Names.weekdays.contains(where: weekday.abbreviates) else { return nil }
                _ = s.consume(UInt8(ascii: ",")) || s.consume(UInt8(ascii: "."))
                s.skipWhitespace()
            }
            guard let day = s.number(digits: 1...2), s.skipDateSeparator() else { return nil }
            guard let month = s.foldedWord(),
                  let monthIndex = Names.months.firstIndex(where: month.abbreviates),
                  s.skipDateSeparator(),
                  let year = s.yearOfTwoOrFourDigits()
            else { return nil }

            var fields = Fields(year: year, month: monthIndex + 1, day: day.value)
            s.skipWhitespace()
            if let first = s.current, Scanner.isDigit(first) {
                guard s.clock(into: &fields, iso: false) else { return nil }
                s.skipWhitespace()
            }
            if let first = s.current, first != UInt8(ascii: "(") {
                guard let offset = ZoneGrammar.parse(&s) else { return nil }
                fields.utcOffset = offset
                s.skipWhitespace()
            }
            guard s.skipComment(), s.isAtEnd else { return nil }
            return fields
        }
    }

    /// `2026`, `2026-11`, `2026-11-20`, `20261120`, each optionally followed by
    /// `T` (or `t` or spaces) and `08:00[:00[.fraction]]` / `0800[00[.fraction]]`
    /// and a zone.
    private enum ISO8601Grammar {
        static func parse(_ s: inout Scanner) -> Fields? {
            var fields: Fields
            if s.digitRunLength == 8 {
                guard let year = s.fixed(4), let month = s.fixed(2), let day = s.fixed(2) else { return nil }
                fields = Fields(year: year, month: month, day: day)
            } else {
                guard let year = s.number(digits: 4...4) else { return nil }
                fields = Fields(year: year.value)
                if s.consume(UInt8(ascii: "-")) {
                    guard let month = s.number(digits: 1...2) else { return nil }
                    fields.month = month.value
                    if s.consume(UInt8(ascii: "-")) {
                        guard let day = s.number(digits: 1...2) else { return nil }
                        fields.day = day.value
                    }
                }
            }
            if s.isAtEnd { return fields }

            let hasT = s.consume(UInt8(ascii: "T")) || s.consume(UInt8(ascii: "t"))
            guard hasT || s.skipWhitespace(), s.clock(into: &fields, iso: true) else { return nil }
            s.skipWhitespace()
            if !s.isAtEnd {
                guard let offset = ZoneGrammar.parse(&s) else { return nil }
                fields.utcOffset = offset
                s.skipWhitespace()
            }
            return s.isAtEnd ? fields : nil
        }
    }

    /// `Z`, `+01:00`, `+0100`, `+01`, `GMT`, `EST`, `GMT+01:00`, …
    /// Produces the offset in seconds east of UTC.
    private enum ZoneGrammar {
        static func parse(_ s: inout Scanner) -> Int? {
            guard let first = s.current else { return nil }
            if Scanner.isLetter(first) {
                guard let word = s.foldedWord(), let minutes = namedOffsetMinutes(word) else { return nil }
                if s.current == UInt8(ascii: "+") || s.current == UInt8(ascii: "-") {
                    // `GMT+01:00`, `UTC-5`
                    guard let extra = numericOffset(&s) else { return nil }
                    return minutes * 60 + extra
                }
                return minutes * 60
            }
            return numericOffset(&s)
        }

        /// `+hh`, `+h`, `+hhmm` or `+hh:mm`, with `+` or `-`.
        private static func numericOffset(_ s: inout Scanner) -> Int? {
            let sign: Int
            if s.consume(UInt8(ascii: "+")) {
                sign = 1
            } else if s.consume(UInt8(ascii: "-")) {
                sign = -1
            } else {
                return nil
            }
            guard let digits = s.number(digits: 1...4) else { return nil }
            var hours = digits.value
            var minutes = 0
            switch digits.count {
            case 4:
                hours = digits.value / 100
                minutes = digits.value % 100
            case 1, 2:
                if s.consume(UInt8(ascii: ":")) {
                    guard let mm = s.number(digits: 2...2) else { return nil }
                    minutes = mm.value
                }
            default:
                return nil
            }
            guard hours <= 23, minutes <= 59 else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }

        /// Offset of a zone name in minutes east of UTC. Unknown abbreviations
        /// (`IST`, military letters other than `Z`) are read as UTC rather than
        /// losing the date; see `FoldedWord.isUppercaseAbbreviation`.
        private static func namedOffsetMinutes(_ word: FoldedWord) -> Int? {
            if let zone = Names.zones.first(where: { $0.name == word }) {
                return zone.minutes
            }
            return word.isUppercaseAbbreviation ? 0 : nil
        }
    }
}

// MARK: - Values

extension FeedDate {

    /// The fields of a parsed timestamp before validation.
    private struct Fields {
        var year: Int
        var month = 1
        var day = 1
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        /// Seconds east of UTC.
        var utcOffset = 0

        /// The instant, or `nil` if any field is out of range.
        var date: Date? {
            guard (1...12).contains(month),
                  (1...Civil.daysInMonth(month, year: year)).contains(day),
                  (0...23).contains(hour),
                  (0...59).contains(minute),
                  (0...60).contains(second)  // 60: leap second, rolls into the next minute
            else { return nil }
            let days = Civil.daysSince1970(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - utcOffset
            return Date(timeIntervalSince1970: Double(seconds) + fraction)
        }
    }

    /// A UTC date broken into calendar fields, for the formatters.
    /// A date's calendar fields in UTC (for formats of other parts of newsgen).
    struct BrokenDownTime {
        var year: Int, month: Int, day: Int
        var hour: Int, minute: Int, second: Int
        /// 0 = Sunday.
        var weekday: Int

        /// Whole seconds, clamped to years 0001…9999 so output keeps four year digits.
        init(_ date: Date) {
            let interval = date.timeIntervalSince1970
            let lowest = -62_135_596_800.0  // 0001-01-01T00:00:00Z
            let highest = 253_402_300_799.0  // 9999-12-31T23:59:59Z
            let clamped = interval.isNaN ? 0 : min(max(interval.rounded(.down), lowest), highest)
            let seconds = Int(clamped)
            let days = Civil.floorDiv(seconds, 86_400)
            let secondOfDay = seconds - days * 86_400
            (year, month, day) = Civil.date(daysSince1970: days)
            hour = secondOfDay / 3_600
            minute = secondOfDay / 60 % 60
            second = secondOfDay % 60
            weekday = Civil.floorMod(days + 4, 7)  // 1970-01-01 was a Thursday
        }
    }

    /// Proleptic Gregorian arithmetic (Howard Hinnant's days-from-civil algorithms).
    private enum Civil {
        static func isLeapYear(_ year: Int) -> Bool {
            year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        }

        /// Days in `month` (1…12) of `year`.
        static func daysInMonth(_ month: Int, year: Int) -> Int {
            switch month {
            case 2: isLeapYear(year) ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }

        static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
            let y = month <= 2 ? year - 1 : year
            let era = floorDiv(y, 400)
            let yearOfEra = y - era * 400
            let shiftedMonth = month > 2 ? month - 3 : month + 9  // March = 0
            let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }

        static func date(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
            let z = days + 719_468
            let era = floorDiv(z, 146_097)
            let dayOfEra = z - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let shiftedMonth = (5 * dayOfYear + 2) / 153
            let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
            let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
            return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
        }

        static func floorDiv(_ a: Int, _ b: Int) -> Int {
            a >= 0 ? a / b : (a - b + 1) / b
        }

        static func floorMod(_ a: Int, _ b: Int) -> Int {
            a - floorDiv(a, b) * b
        }
    }

    /// English names and zone abbreviations.
    private enum Names {
        /// Full names, which the parser also accepts abbreviated to three or more letters.
        static let weekdays = folded(["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"])
        static let months = folded([
            "january", "february", "march", "april", "may", "june",
            "july", "august", "september", "october", "november", "december",
        ])

        static let weekdayAbbreviations: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        static let monthAbbreviations: [StaticString] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ]

        struct Zone: Sendable {
            var name: FoldedWord
            /// Minutes east of UTC.
            var minutes: Int
        }

        static let zones: [Zone] = [
            ("z", 0), ("ut", 0), ("utc", 0), ("gmt", 0),
            ("est", -300), ("edt", -240), ("cst", -360), ("cdt", -300),
            ("mst", -420), ("mdt", -360), ("pst", -480), ("pdt", -420),
            ("akst", -540), ("akdt", -480), ("hst", -600),
            ("wet", 0), ("west", 60), ("cet", 60), ("cest", 120),
            ("eet", 120), ("eest", 180), ("msk", 180),
            ("jst", 540), ("aest", 600), ("aedt", 660),
        ].compactMap { name, minutes in FoldedWord(name.utf8).map { Zone(name: $0, minutes: minutes) } }

        private static func folded(_ names: [String]) -> [FoldedWord] {
            names.compactMap { FoldedWord($0.utf8) }
        }
    }

    /// A word of up to twelve ASCII letters, case-folded and packed five bits
    /// a letter, so that names compare as integers.
    private struct FoldedWord: Equatable, Sendable {
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

        /// Whether this is `name` or a prefix of it at least three letters
        /// long: `Nov`, `nov`, `NOVEMBER`, `Sept`, `Thurs`.
        func abbreviates(_ name: FoldedWord) -> Bool {
            count >= 3 && count <= name.count && name.bits >> (5 * (name.count - count)) == bits
        }

        /// One to five uppercase letters: plausibly a zone abbreviation.
        var isUppercaseAbbreviation: Bool { isAllUppercase && (1...5).contains(count) }

        static func == (a: FoldedWord, b: FoldedWord) -> Bool {
            a.bits == b.bits && a.count == b.count
        }
    }
}

// MARK: - Byte scanning

extension FeedDate {

    /// A cursor over ASCII text in a UTF-8 buffer. Never outlives the buffer.
    private struct Scanner {
        private let bytes: UnsafeBufferPointer<UInt8>
        private var index: Int
        private let end: Int

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
            while i < end, Self.isDigit(bytes[i]) { i += 1 }
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

        /// Skips an RFC 2822 comment such as `(Pacific Standard Time)`, if any;
        /// fails on an unclosed one.
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

        /// Reads a whole run of digits whose length must lie in `digits`.
        /// The value cannot overflow: longer runs fail before being summed.
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
                guard let byte = current, Self.isDigit(byte) else { return nil }
                value = value * 10 + Int(byte &- UInt8(ascii: "0"))
                index += 1
            }
            return value
        }

        /// A year of four digits, or of two with 00–49 meaning 2000–2049
        /// and 50–99 meaning 1950–1999.
        mutating func yearOfTwoOrFourDigits() -> Int? {
            guard let year = number(digits: 2...4) else { return nil }
            switch year.count {
            case 4: return year.value
            case 2: return year.value < 50 ? 2000 + year.value : 1900 + year.value
            default: return nil
            }
        }

        /// Reads `hh:mm[:ss[.fraction]]`. ISO 8601 (`iso`) needs a two-digit
        /// hour and also allows the basic `hhmm[ss[.fraction]]`; RFC 822
        /// allows a one-digit hour.
        mutating func clock(into fields: inout Fields, iso: Bool) -> Bool {
            guard let hour = iso ? fixed(2) : number(digits: 1...2)?.value else { return false }
            fields.hour = hour
            if consume(UInt8(ascii: ":")) {
                guard let minute = number(digits: 2...2) else { return false }
                fields.minute = minute.value
                guard consume(UInt8(ascii: ":")) else { return true }
                guard let second = number(digits: 2...2) else { return false }
                fields.second = second.value
            } else {
                guard digitRunLength == 2 || digitRunLength == 4, let minute = fixed(2) else { return false }
                fields.minute = minute
                guard let byte = current, Self.isDigit(byte) else { return true }
                guard let second = fixed(2) else { return false }
                fields.second = second
            }
            if consume(UInt8(ascii: ".")) || consume(UInt8(ascii: ",")) {
                guard let fraction = fraction() else { return false }
                fields.fraction = fraction
            }
            return true
        }

        /// Reads the digits after a decimal mark, any number of them, as a
        /// fraction; digits past nanoseconds are checked but ignored.
        private mutating func fraction() -> Double? {
            var numerator = 0
            var denominator = 1
            var count = 0
            while let byte = current, Self.isDigit(byte) {
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
            while let byte = current, Self.isLetter(byte) { index += 1 }
            return start < index ? FoldedWord(bytes[start..<index]) : nil
        }

        static func isDigit(_ byte: UInt8) -> Bool {
            byte &- UInt8(ascii: "0") < 10
        }

        static func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) &- UInt8(ascii: "a") < 26
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

    /// Builds a short ASCII string.
    private struct ASCIIWriter {
        private var bytes: [UInt8] = []

        init(capacity: Int) {
            bytes.reserveCapacity(capacity)
        }

        var string: String { String(decoding: bytes, as: UTF8.self) }

        mutating func byte(_ byte: UInt8) {
            bytes.append(byte)
        }

        /// Appends a non-negative `value` zero-padded to `width` digits.
        mutating func number(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }

        mutating func text(_ text: StaticString) {
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        /// Appends `hh:mm:ss`.
        mutating func clock(_ time: BrokenDownTime) {
            number(time.hour, width: 2)
            byte(UInt8(ascii: ":"))
            number(time.minute, width: 2)
            byte(UInt8(ascii: ":"))
            number(time.second, width: 2)
        }
    }
}
