/// The two date formats feeds must use, checked strictly: `parse(_:)` is the lenient reader
/// for other people's feeds; this is the judge of newsgen's own. Each check returns why a text
/// is not a date of its format, or `nil` when it is one.
extension Dates {
    static let rfc822Example = "Fri, 20 Nov 2026 08:00:00 +0000"
    static let rfc3339Example = "2026-11-20T08:00:00Z"

    /// RFC 822 as RSS 2.0 uses it, with the four-digit year of RFC 1123:
    /// `[Fri, ]20 Nov 2026 08:00[:00] (+0000|GMT|UT|EST|…|Z)`.
    package static func rfc822Problem(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { rfc822Problem(utf8: $0) }
    }

    /// RFC 3339 `date-time`: `2026-11-20T08:00:00[.fraction](Z|+hh:mm|-hh:mm)`. Atom requires an
    /// uppercase `T` and `Z` (RFC 4287 §3.3); JSON Feed takes RFC 3339 as written, lowercase too.
    package static func rfc3339Problem(_ text: String, uppercaseOnly: Bool) -> String? {
        var text = text
        return text.withUTF8 { rfc3339Problem(utf8: $0, uppercaseOnly: uppercaseOnly) }
    }

    private static func rfc822Problem(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var s = Scanner(bytes)
        let generic = "is not an RFC 822 date like \"\(rfc822Example)\""
        var weekday: Int?
        if let first = s.current, Text.isASCIILetter(first) {
            guard let word = s.foldedWord(), let index = Names.foldedWeekdays.firstIndex(where: word.isThreeLetterAbbreviation),
                  s.consume(comma), s.consume(space) else { return generic }
            weekday = index
        }
        guard let day = s.number(digits: 1...2)?.value, s.consume(space),
              let monthWord = s.foldedWord(), let month = Names.foldedMonths.firstIndex(where: monthWord.isThreeLetterAbbreviation),
              s.consume(space), s.digitRunLength > 0 else { return generic }
        let yearDigits = s.digitRunLength
        guard let year = s.number(digits: 4...4)?.value else {
            return yearDigits == 2 ? "has a two-digit year; RSS dates need four digits, as in \"\(rfc822Example)\"" : generic
        }
        guard s.consume(space), let hour = s.number(digits: 2...2)?.value, s.consume(colon),
              let minute = s.number(digits: 2...2)?.value else { return generic }
        var second = 0
        if s.consume(colon) {
            guard let value = s.number(digits: 2...2)?.value else { return generic }
            second = value
        }
        guard s.consume(space), !s.isAtEnd, s.skipRFC822Zone(), s.isAtEnd else {
            return "\(generic) (the time zone must be +hhmm, -hhmm, GMT, UT or a US zone)"
        }
        guard Civil.isValidDay(year: year, month: month + 1, day: day), hour < 24, minute < 60, second < 60 else {
            return "names a date or time that does not exist"
        }
        if let weekday {
            let actual = Civil.weekday(daysSince1970: Civil.daysSince1970(year: year, month: month + 1, day: day))
            if weekday != actual {
                return "names a \(Names.weekdays[weekday]), but \(day) \(Names.monthAbbreviations[month]) \(year) is a \(Names.weekdays[actual])"
            }
        }
        return nil
    }

    private static func rfc3339Problem(utf8 bytes: UnsafeBufferPointer<UInt8>, uppercaseOnly: Bool) -> String? {
        var s = Scanner(bytes)
        let generic = "is not an RFC 3339 date-time like \"\(rfc3339Example)\""
        guard let year = s.number(digits: 4...4)?.value, s.consume(dash), let month = s.number(digits: 2...2)?.value,
              s.consume(dash), let day = s.number(digits: 2...2)?.value else { return generic }
        guard s.consume(UInt8(ascii: "T")) || (!uppercaseOnly && s.consume(UInt8(ascii: "t"))) else {
            return s.isAtEnd ? "has no time; a date-time like \"\(rfc3339Example)\" is needed" : generic
        }
        guard let hour = s.number(digits: 2...2)?.value, s.consume(colon), let minute = s.number(digits: 2...2)?.value,
              s.consume(colon), let second = s.number(digits: 2...2)?.value else { return generic }
        if s.consume(UInt8(ascii: ".")) {
            guard s.fraction() != nil else { return generic }
        }
        if s.isAtEnd { return "has no time zone; add Z or an offset such as +01:00" }
        if s.consume(UInt8(ascii: "Z")) || (!uppercaseOnly && s.consume(UInt8(ascii: "z"))) {
            // UTC
        } else if s.consume(UInt8(ascii: "+")) || s.consume(dash) {
            guard let offsetHour = s.number(digits: 2...2)?.value, s.consume(colon),
                  let offsetMinute = s.number(digits: 2...2)?.value,
                  offsetHour < 24, offsetMinute < 60 else { return generic }
        } else {
            return generic
        }
        guard s.isAtEnd else { return generic }
        guard Civil.isValidDay(year: year, month: month, day: day), hour < 24, minute < 60, second <= 60 else {
            return "names a date or time that does not exist"
        }
        return nil
    }

    private static let space = UInt8(ascii: " ")
    private static let comma = UInt8(ascii: ",")
    private static let colon = UInt8(ascii: ":")
    private static let dash = UInt8(ascii: "-")
}

extension Dates.Scanner {

    /// Skips an RFC 822 §5.1 zone: `+hhmm`, `-hhmm`, or `UT`, `GMT`, `Z` or a US zone in any case.
    fileprivate mutating func skipRFC822Zone() -> Bool {
        if let first = current, Text.isASCIILetter(first) {
            guard let word = foldedWord() else { return false }
            return Dates.Names.foldedZones.contains { $0.zone.isRFC822 && $0.name == word }
        }
        guard consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-")), let offset = number(digits: 4...4)?.value else { return false }
        return offset % 100 < 60
    }
}
