import Foundation

/// newsgen's one date module: every date read, checked or written goes through here. Lenient `parse(_:)` reads
/// other people's feeds; strict `rfc822Problem`/`rfc3339Problem` judge newsgen's own output; `rfc3339(_:)` and
/// `rfc822(_:)` write dates; `readable(_:)` shows them to people. All use proleptic Gregorian arithmetic in UTC on
/// UTF-8 bytes and integers, creating no formatter or calendar. Foundation's format styles switch to the Julian
/// calendar before 1582-10-15, so the writers use this arithmetic too.
public enum Dates {}

// MARK: - Names

extension Dates {

    enum Names {
        /// January first; a month's number is its index + 1.
        static let months = [
            "January", "February", "March", "April", "May", "June",
            "July", "August", "September", "October", "November", "December",
        ]
        /// Sunday first, as `UTCFields.weekday` counts.
        static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

        /// `Jan` … `Dec`, as RFC 822 and the pages write them.
        static let monthAbbreviations = months.map { String($0.prefix(3)) }
        static let weekdayAbbreviations = weekdays.map { String($0.prefix(3)) }

        struct Zone: Sendable {
            var name: String
            /// Minutes east of UTC.
            var minutes: Int
            /// Whether RFC 822 §5.1 lists it (the only names strict RSS dates may use).
            var isRFC822: Bool
        }

        static let zones: [Zone] = [
            ("Z", 0, true), ("UT", 0, true), ("UTC", 0, false), ("GMT", 0, true),
            ("EST", -300, true), ("EDT", -240, true), ("CST", -360, true), ("CDT", -300, true),
            ("MST", -420, true), ("MDT", -360, true), ("PST", -480, true), ("PDT", -420, true),
            ("AKST", -540, false), ("AKDT", -480, false), ("HST", -600, false),
            ("WET", 0, false), ("WEST", 60, false), ("CET", 60, false), ("CEST", 120, false),
            ("EET", 120, false), ("EEST", 180, false), ("MSK", 180, false),
            ("JST", 540, false), ("AEST", 600, false), ("AEDT", 660, false),
        ].map { Zone(name: $0, minutes: $1, isRFC822: $2) }
    }
}

// MARK: - Calendar arithmetic

extension Dates {

    /// Proleptic Gregorian arithmetic in UTC (Howard Hinnant's days-from-civil algorithms).
    enum Civil {
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

        /// Whether `year`-`month`-`day` is a day of the calendar.
        static func isValidDay(year: Int, month: Int, day: Int) -> Bool {
            (1...12).contains(month) && (1...daysInMonth(month, year: year)).contains(day)
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

        /// 0 = Sunday.
        static func weekday(daysSince1970 days: Int) -> Int {
            floorMod(days + 4, 7)  // 1970-01-01 was a Thursday
        }

        static func floorDiv(_ a: Int, _ b: Int) -> Int {
            a >= 0 ? a / b : (a - b + 1) / b
        }

        static func floorMod(_ a: Int, _ b: Int) -> Int {
            a - floorDiv(a, b) * b
        }
    }

    /// A date's calendar fields in UTC, in whole seconds.
    struct UTCFields {
        var year: Int, month: Int, day: Int
        var hour: Int, minute: Int, second: Int
        /// 0 = Sunday.
        var weekday: Int

        /// Rounds down to whole seconds and clamps to years 0001…9999, so output keeps four
        /// year digits; NaN counts as 1970-01-01T00:00:00Z.
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
            weekday = Civil.weekday(daysSince1970: days)
        }
    }
}
