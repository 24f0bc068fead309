import Foundation
import Testing
@testable import NewsgenModel

/// 2026-11-20T08:00:00Z, a Friday.
private let friday: TimeInterval = 1_795_161_600

@Suite("Dates: formats")
struct DatesFormatsTests {

    /// An instant and how each formatter must write it.
    struct FormattingCase: Sendable, CustomTestStringConvertible {
        var seconds: TimeInterval
        var rfc3339: String
        var rfc822: String

        var testDescription: String { rfc3339 }

        init(_ seconds: TimeInterval, _ rfc3339: String, _ rfc822: String) {
            self.seconds = seconds
            self.rfc3339 = rfc3339
            self.rfc822 = rfc822
        }
    }

    @Test("Formats in UTC with whole seconds", arguments: [
        FormattingCase(friday, "2026-11-20T08:00:00Z", "Fri, 20 Nov 2026 08:00:00 +0000"),
        FormattingCase(friday + 0.999, "2026-11-20T08:00:00Z", "Fri, 20 Nov 2026 08:00:00 +0000"),
        FormattingCase(0, "1970-01-01T00:00:00Z", "Thu, 01 Jan 1970 00:00:00 +0000"),
        FormattingCase(-1, "1969-12-31T23:59:59Z", "Wed, 31 Dec 1969 23:59:59 +0000"),
        FormattingCase(-0.5, "1969-12-31T23:59:59Z", "Wed, 31 Dec 1969 23:59:59 +0000"),
        FormattingCase(951_825_600, "2000-02-29T12:00:00Z", "Tue, 29 Feb 2000 12:00:00 +0000"),
        FormattingCase(1_793_491_200, "2026-11-01T00:00:00Z", "Sun, 01 Nov 2026 00:00:00 +0000"),
        FormattingCase(-14_182_940, "1969-07-20T20:17:40Z", "Sun, 20 Jul 1969 20:17:40 +0000"),
        FormattingCase(-62_135_596_800, "0001-01-01T00:00:00Z", "Mon, 01 Jan 0001 00:00:00 +0000"),
        FormattingCase(253_402_300_799, "9999-12-31T23:59:59Z", "Fri, 31 Dec 9999 23:59:59 +0000"),
    ])
    func formatting(expected: FormattingCase) {
        let date = Date(timeIntervalSince1970: expected.seconds)
        #expect(Dates.rfc3339(date) == expected.rfc3339)
        #expect(Dates.rfc822(date) == expected.rfc822)
        #expect(Dates.rfc3339Day(date) == String(expected.rfc3339.prefix(10)))
    }

    @Test("Formatting clamps extreme dates to years 0001…9999 without crashing")
    func extremeFormatting() {
        let extremes: [(Date, String)] = [
            (.distantPast, "0001-01-01T00:00:00Z"),
            (Date(timeIntervalSince1970: -.infinity), "0001-01-01T00:00:00Z"),
            (Date(timeIntervalSince1970: -1e300), "0001-01-01T00:00:00Z"),
            (Date(timeIntervalSince1970: .infinity), "9999-12-31T23:59:59Z"),
            (Date(timeIntervalSince1970: 1e300), "9999-12-31T23:59:59Z"),
            (Date(timeIntervalSince1970: .nan), "1970-01-01T00:00:00Z"),
        ]
        for (date, rfc3339) in extremes {
            #expect(Dates.rfc3339(date) == rfc3339)
            #expect(Dates.rfc3339Day(date) == String(rfc3339.prefix(10)))
            #expect(Dates.rfc822(date).utf8.count == 31)
        }
        #expect(Dates.rfc3339(.distantFuture) == "4001-01-01T00:00:00Z")
    }

    @Test("Every weekday and month name is formatted", arguments: 0..<14)
    func weekdayAndMonthNames(step: Int) {
        // Steps of 31 days + 1 hour walk through every weekday and month.
        let date = Date(timeIntervalSince1970: friday + Double(step) * (31 * 86_400 + 3_600))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        #expect(Dates.rfc822(date) == formatter.string(from: date))
    }

    @Test("Both formats round-trip through parse")
    func roundTrip() {
        // About 2,000 instants spread over 1900…2100 at odd offsets so that every
        // month, weekday, leap year and time of day gets exercised.
        var seconds: TimeInterval = -2_208_988_800  // 1900-01-01
        while seconds < 4_102_444_800 {  // 2100-01-01
            let date = Date(timeIntervalSince1970: seconds)
            #expect(Dates.parse(Dates.rfc3339(date)) == date, "\(Dates.rfc3339(date))")
            #expect(Dates.parse(Dates.rfc822(date)) == date, "\(Dates.rfc822(date))")
            seconds += 3_155_760 + 3_607
        }
    }
}
