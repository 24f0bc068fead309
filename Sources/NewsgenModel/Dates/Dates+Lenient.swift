public import Foundation

/// Lenient reading of other people's feed and API timestamps: the RFC 822 family (RSS) and the RFC 3339 /
/// ISO 8601 family (Atom, JSON Feed, `dc:date`, most JSON APIs).
extension Dates {

    /// Parses a feed timestamp, ignoring surrounding whitespace. No zone or an unknown abbreviation reads as UTC.
    /// Returns `nil` for an unsupported format or an impossible date or time.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// Parses a timestamp given as UTF-8 bytes; see `parse(_:)`.
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = Scanner(trimming: bytes)
        guard let first = scanner.current else { return nil }
        let fields: Fields?
        if Text.isASCIIDigit(first), scanner.digitRunLength >= 4 {
            fields = ISO8601Grammar.parse(&scanner)
        } else {
            fields = RFC822Grammar.parse(&scanner)
        }
        return fields?.date
    }
}

// MARK: - Grammars

extension Dates {

    /// `[Thu[rsday][,]] 20 Nov[ember] [20]26 [08:00[:00]] [zone] [(comment)]`, also with RFC 850's `-` separators.
    private enum RFC822Grammar {
        static func parse(_ s: inout Scanner) -> Fields? {
            if let first = s.current, Text.isASCIILetter(first) {
                guard let weekday = s.foldedWord(), Names.foldedWeekdays.contains(where: weekday.abbreviates) else { return nil }
                _ = s.consume(UInt8(ascii: ",")) || s.consume(UInt8(ascii: "."))
                s.skipWhitespace()
            }
            guard let day = s.number(digits: 1...2), s.skipDateSeparator() else { return nil }
            guard let month = s.foldedWord(),
                  let monthIndex = Names.foldedMonths.firstIndex(where: month.abbreviates),
                  s.skipDateSeparator(),
                  let year = s.yearOfTwoOrFourDigits()
            else { return nil }

            var fields = Fields(year: year, month: monthIndex + 1, day: day.value)
            s.skipWhitespace()
            if let first = s.current, Text.isASCIIDigit(first) {
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

    /// `2026`, `2026-11`, `2026-11-20`, `20261120`, optionally followed by `T` (or `t` or spaces),
    /// `08:00[:00[.fraction]]` / `0800[00[.fraction]]` and a zone.
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

    /// `Z`, `+01:00`, `+0100`, `+01`, `GMT`, `EST`, `GMT+01:00`, …: the offset in seconds east of UTC.
    private enum ZoneGrammar {
        static func parse(_ s: inout Scanner) -> Int? {
            guard let first = s.current else { return nil }
            if Text.isASCIILetter(first) {
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

        /// A zone name's offset in minutes. Unknown abbreviations (`IST`, military letters but `Z`) read as UTC rather
        /// than losing the date; see `FoldedWord.isUppercaseAbbreviation`.
        private static func namedOffsetMinutes(_ word: FoldedWord) -> Int? {
            if let known = Names.foldedZones.first(where: { $0.name == word }) {
                return known.zone.minutes
            }
            return word.isUppercaseAbbreviation ? 0 : nil
        }
    }
}

// MARK: - Fields

extension Dates {

    fileprivate struct Fields {
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
            guard Civil.isValidDay(year: year, month: month, day: day),
                  (0...23).contains(hour),
                  (0...59).contains(minute),
                  (0...60).contains(second)  // 60: leap second, rolls into the next minute
            else { return nil }
            let days = Civil.daysSince1970(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - utcOffset
            return Date(timeIntervalSince1970: Double(seconds) + fraction)
        }
    }
}

extension Dates.Scanner {

    /// A year of four digits, or two: 00–49 as 2000–2049, 50–99 as 1950–1999.
    fileprivate mutating func yearOfTwoOrFourDigits() -> Int? {
        guard let year = number(digits: 2...4) else { return nil }
        switch year.count {
        case 4: return year.value
        case 2: return year.value < 50 ? 2000 + year.value : 1900 + year.value
        default: return nil
        }
    }

    /// `hh:mm[:ss[.fraction]]`. ISO 8601 (`iso`) needs a two-digit hour and also allows basic `hhmm[ss[.fraction]]`;
    /// RFC 822 allows a one-digit hour.
    fileprivate mutating func clock(into fields: inout Dates.Fields, iso: Bool) -> Bool {
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
            guard let byte = current, Text.isASCIIDigit(byte) else { return true }
            guard let second = fixed(2) else { return false }
            fields.second = second
        }
        if consume(UInt8(ascii: ".")) || consume(UInt8(ascii: ",")) {
            guard let fraction = fraction() else { return false }
            fields.fraction = fraction
        }
        return true
    }
}
