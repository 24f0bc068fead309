/// The two date formats feeds must use, checked strictly (FeedDate.parse is the lenient reader
/// for other people's feeds; this is the judge of our own). Each check returns why a text is
/// not a date of its format, or `nil` when it is one.
enum StrictDate {
    static let rfc822Example = "Fri, 20 Nov 2026 08:00:00 +0000"
    static let rfc3339Example = "2026-11-20T08:00:00Z"

    /// RFC 822 as RSS 2.0 uses it, with the four-digit year of RFC 1123:
    /// `[Fri, ]20 Nov 2026 08:00[:00] (+0000|GMT|UT|EST|…|Z)`.
    static func rfc822Problem(_ text: String) -> String? {
        var scanner = ByteScanner(text)
        let generic = "is not an RFC 822 date like \"\(rfc822Example)\""
        var weekday: Int?
        if let first = scanner.peek, isLetter(first) {
            guard let word = scanner.letters(), let index = weekdays.firstIndex(of: word.lowercased()),
                  scanner.take(","), scanner.take(" ") else { return generic }
            weekday = index
        }
        guard let day = scanner.digits(1...2), scanner.take(" "),
              let monthWord = scanner.letters(), let month = months.firstIndex(of: monthWord.lowercased()),
              scanner.take(" "), let yearDigits = scanner.digitText() else { return generic }
        guard yearDigits.count == 4, let year = Int(yearDigits) else {
            return yearDigits.count == 2 ? "has a two-digit year; RSS dates need four digits, as in \"\(rfc822Example)\"" : generic
        }
        guard scanner.take(" "), let hour = scanner.digits(2...2), scanner.take(":"), let minute = scanner.digits(2...2) else { return generic }
        var second = 0
        if scanner.take(":") {
            guard let value = scanner.digits(2...2) else { return generic }
            second = value
        }
        guard scanner.take(" "), let zone = scanner.rest(), isRFC822Zone(zone) else {
            return "\(generic) (the time zone must be +hhmm, -hhmm, GMT, UT or a US zone)"
        }
        guard (1...12).contains(month + 1), (1...daysIn(month: month + 1, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return "names a date or time that does not exist" }
        if let weekday {
            let actual = weekdayIndex(year: year, month: month + 1, day: day)
            if weekday != actual {
                return "names a \(weekdayNames[weekday]), but \(day) \(monthNames[month]) \(year) is a \(weekdayNames[actual])"
            }
        }
        return nil
    }

    /// RFC 3339 `date-time`: `2026-11-20T08:00:00[.fraction](Z|+hh:mm|-hh:mm)`. Atom requires an
    /// uppercase `T` and `Z` (RFC 4287 §3.3); JSON Feed takes RFC 3339 as written, lowercase too.
    static func rfc3339Problem(_ text: String, uppercaseOnly: Bool) -> String? {
        var scanner = ByteScanner(text)
        let generic = "is not an RFC 3339 date-time like \"\(rfc3339Example)\""
        guard let year = scanner.digits(4...4), scanner.take("-"), let month = scanner.digits(2...2), scanner.take("-"),
              let day = scanner.digits(2...2) else { return generic }
        guard scanner.take("T") || (!uppercaseOnly && scanner.take("t")) else {
            return scanner.atEnd ? "has no time; a date-time like \"\(rfc3339Example)\" is needed" : generic
        }
        guard let hour = scanner.digits(2...2), scanner.take(":"), let minute = scanner.digits(2...2), scanner.take(":"),
              let second = scanner.digits(2...2) else { return generic }
        if scanner.take(".") {
            guard scanner.digitText() != nil else { return generic }
        }
        if scanner.atEnd { return "has no time zone; add Z or an offset such as +01:00" }
        if scanner.take("Z") || (!uppercaseOnly && scanner.take("z")) {
            // UTC
        } else if scanner.take("+") || scanner.take("-") {
            guard let offsetHour = scanner.digits(2...2), scanner.take(":"), let offsetMinute = scanner.digits(2...2),
                  offsetHour < 24, offsetMinute < 60 else { return generic }
        } else {
            return generic
        }
        guard scanner.atEnd else { return generic }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second <= 60 else { return "names a date or time that does not exist" }
        return nil
    }

    // MARK: - Calendar

    private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let zones: Set<String> = ["UT", "GMT", "Z", "EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT"]

    private static func isRFC822Zone(_ zone: String) -> Bool {
        if zones.contains(zone.uppercased()) { return true }
        let bytes = Array(zone.utf8)
        guard bytes.count == 5, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              bytes[1...].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
        return (Int(bytes[3] - UInt8(ascii: "0")) * 10 + Int(bytes[4] - UInt8(ascii: "0"))) < 60
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// 0 = Monday (Howard Hinnant's days-from-civil; 1970-01-01 was a Thursday).
    private static func weekdayIndex(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return ((days % 7) + 7 + 3) % 7
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Reads ASCII fields off the front of a text.
    private struct ByteScanner {
        private let bytes: [UInt8]
        private var index = 0

        init(_ text: String) { bytes = Array(text.utf8) }

        var atEnd: Bool { index == bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard let peek, peek == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func letters() -> String? {
            let start = index
            while let peek, StrictDate.isLetter(peek) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        mutating func digitText() -> String? {
            let start = index
            while let peek, peek >= UInt8(ascii: "0"), peek <= UInt8(ascii: "9") { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        /// A number of `count` digits exactly (the range's bounds).
        mutating func digits(_ count: ClosedRange<Int>) -> Int? {
            let start = index
            guard let text = digitText(), count.contains(text.count), let value = Int(text) else {
                index = start
                return nil
            }
            return value
        }

        mutating func rest() -> String? {
            guard !atEnd else { return nil }
            defer { index = bytes.count }
            return String(decoding: bytes[index...], as: UTF8.self)
        }
    }
}
