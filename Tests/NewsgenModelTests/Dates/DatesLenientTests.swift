import Foundation
import Testing
@testable import NewsgenModel

/// 2026-11-20T08:00:00Z, a Friday.
private let friday: TimeInterval = 1_795_161_600
/// 2026-11-20T00:00:00Z.
private let fridayMidnight: TimeInterval = 1_795_132_800

private func epoch(_ text: String) -> TimeInterval? {
    Dates.parse(text)?.timeIntervalSince1970
}

@Suite("Dates: lenient parsing")
struct DatesLenientTests {

    // MARK: RFC 822 family (RSS)

    @Test("RFC 822 variants", arguments: [
        ("Fri, 20 Nov 2026 08:00:00 GMT", friday),
        ("Fri, 20 Nov 2026 08:00:00 +0000", friday),
        ("Fri 20 Nov 2026 08:00:00 GMT", friday),  // no comma
        ("Friday, 20 Nov 2026 08:00:00 GMT", friday),  // full weekday
        ("FRI, 20 NOV 2026 08:00:00 GMT", friday),  // upper case
        ("fri, 20 nov 2026 08:00:00 gmt", friday),  // lower case
        ("Thurs, 20 Nov 2026 08:00:00 GMT", friday),  // weekday is not checked against the date
        ("20 Nov 2026 08:00:00 GMT", friday),  // no weekday
        ("Fri, 20 November 2026 08:00:00 GMT", friday),  // full month
        ("Fri, 20 Nov 2026 08:00 GMT", friday),  // no seconds
        ("Fri, 20 Nov 2026 8:00:00 GMT", friday),  // one-digit hour
        ("Fri, 20 Nov 2026 08:00:00", friday),  // no zone: UTC
        ("Fri, 20 Nov 2026 08:00:00 +0000 (Coordinated Universal Time)", friday),  // RFC 2822 comment
        ("Friday, 20-Nov-26 08:00:00 GMT", friday),  // RFC 850
        ("Fri, 20 Nov 2026 08:00:00 GMT+01:00", friday - 3_600),
        ("Fri, 20 Nov 2026", fridayMidnight),  // date only
        ("Sun, 1 Nov 2026 00:00:00 GMT", 1_793_491_200),  // one-digit day
        ("Sat, 01 Jan 2010 19:48:21 GMT", 1_262_375_301),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ("Wed, 31 Dec 1969 23:59:59 GMT", -1),
    ])
    func rfc822Variants(text: String, expected: TimeInterval) {
        #expect(epoch(text) == expected)
    }

    @Test("RFC 822 month names", arguments: zip(
        ["Jan", "feb", "MAR", "April", "may", "June", "Jul", "Aug", "Sept", "October", "Nov", "DECEMBER"],
        [1_767_225_600, 1_769_904_000, 1_772_323_200, 1_775_001_600, 1_777_593_600, 1_780_272_000,
         1_782_864_000, 1_785_542_400, 1_788_220_800, 1_790_812_800, 1_793_491_200, 1_796_083_200] as [TimeInterval]
    ))
    func monthNames(month: String, firstOfMonth: TimeInterval) {
        #expect(epoch("01 \(month) 2026 00:00:00 GMT") == firstOfMonth)
    }

    @Test("Named zones", arguments: [
        ("GMT", 0), ("UT", 0), ("UTC", 0), ("Z", 0),
        ("EST", -5), ("EDT", -4), ("CST", -6), ("CDT", -5),
        ("MST", -7), ("MDT", -6), ("PST", -8), ("PDT", -7),
    ] as [(String, Double)])
    func namedZones(zone: String, hoursEastOfUTC: Double) {
        #expect(epoch("Fri, 20 Nov 2026 08:00:00 \(zone)") == friday - hoursEastOfUTC * 3_600)
    }

    @Test("Numeric zones", arguments: [
        ("+0000", 0), ("-0000", 0), ("+0100", 3_600), ("-0500", -18_000),
        ("+0530", 19_800), ("-0930", -34_200), ("+01:00", 3_600), ("+1400", 50_400),
    ] as [(String, Double)])
    func numericZones(zone: String, secondsEastOfUTC: Double) {
        #expect(epoch("Fri, 20 Nov 2026 08:00:00 \(zone)") == friday - secondsEastOfUTC)
        #expect(epoch("2026-11-20T08:00:00\(zone)") == friday - secondsEastOfUTC)
    }

    @Test("Military letters other than Z count as UTC", arguments: ["Z", "A", "M", "N", "Y"])
    func militaryZones(letter: String) {
        #expect(epoch("Fri, 20 Nov 2026 08:00:00 \(letter)") == friday)
    }

    @Test("Unknown upper-case zone abbreviations count as UTC")
    func unknownZoneAbbreviation() {
        #expect(epoch("Fri, 20 Nov 2026 08:00:00 XYZ") == friday)
    }

    @Test("Two-digit years: below 50 is 20xx, otherwise 19xx", arguments: [
        ("26", friday),
        ("00", 974_707_200),  // 2000
        ("49", 2_521_008_000),  // 2049
        ("50", -603_216_000),  // 1950
        ("96", 848_476_800),  // 1996
        ("99", 943_084_800),  // 1999
    ])
    func twoDigitYears(year: String, expected: TimeInterval) {
        #expect(epoch("20 Nov \(year) 08:00:00 GMT") == expected)
    }

    // MARK: RFC 3339 / ISO 8601 family (Atom, JSON Feed)

    @Test("RFC 3339 and ISO 8601 variants", arguments: [
        ("2026-11-20T08:00:00Z", friday),
        ("2026-11-20t08:00:00z", friday),  // lower case
        ("2026-11-20 08:00:00Z", friday),  // space for T
        ("2026-11-20T08:00:00", friday),  // no zone: UTC
        ("2026-11-20 08:00:00", friday),
        ("2026-11-20T08:00Z", friday),  // no seconds
        ("2026-11-20T09:00:00+01:00", friday),
        ("2026-11-20T09:00:00+0100", friday),
        ("2026-11-20T09:00:00+01", friday),
        ("2026-11-20T03:00:00-05:00", friday),
        ("2026-11-20T13:30:00+05:30", friday),
        ("2026-11-21T00:00:00+16:00", friday),  // crosses midnight
        ("2026-11-20T08:00:00 +00:00", friday),  // space before the offset
        ("20261120T080000Z", friday),  // basic format
        ("20261120T0800Z", friday),
        ("20261120T090000+0100", friday),
        ("20261120", fridayMidnight),
        ("2026-11-20", fridayMidnight),  // date only
        ("2026-11", 1_793_491_200),  // year and month
        ("1970-01-01T00:00:00Z", 0),
        ("1969-07-20T20:17:40Z", -14_182_940),
        ("2003-12-31T10:14:55Z", 1_072_865_695),
        ("0001-01-01T00:00:00Z", -62_135_596_800),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
    ])
    func iso8601Variants(text: String, expected: TimeInterval) {
        #expect(epoch(text) == expected)
    }

    @Test("Fractional seconds of any length", arguments: [
        ("2026-11-20T08:00:00.5Z", 0.5),
        ("2026-11-20T08:00:00,5Z", 0.5),
        ("2026-11-20T08:00:00.25+00:00", 0.25),
        ("2026-11-20T08:00:00.123Z", 0.123),
        ("2026-11-20T08:00:00.123456Z", 0.123_456),
        ("2026-11-20T08:00:00.123456789Z", 0.123_456_789),
        ("2026-11-20T08:00:00.99999999999999999999999999999Z", 0.999_999_999),
        ("2026-11-20T08:00:00.000Z", 0),
        ("20261120T080000.5Z", 0.5),
    ])
    func fractionalSeconds(text: String, fraction: Double) throws {
        let parsed = try #require(epoch(text))
        #expect(abs(parsed - (friday + fraction)) < 1e-6)
    }

    // MARK: Calendar rules

    @Test("Leap days exist only in leap years", arguments: [
        ("2024-02-29", true), ("2000-02-29", true), ("1996-02-29", true),
        ("2023-02-29", false), ("1900-02-29", false), ("2100-02-29", false),
    ])
    func leapDays(text: String, isValid: Bool) {
        #expect((Dates.parse(text) != nil) == isValid)
    }

    @Test("Last day of each month", arguments: zip(1...12, [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]))
    func monthLengths(month: Int, days: Int) {
        let prefix = "2026-" + (month < 10 ? "0" : "") + "\(month)-"
        #expect(Dates.parse(prefix + "\(days)") != nil)
        #expect(Dates.parse(prefix + "\(days + 1)") == nil)
    }

    // MARK: Rejection

    @Test("Out-of-range fields are rejected", arguments: [
        "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-11-32T00:00:00Z", "2026-11-00T00:00:00Z",
        "2026-11-20T24:00:00Z", "2026-11-20T25:00:00Z", "2026-11-20T08:60:00Z", "2026-11-20T08:00:61Z",
        "2026-02-30", "2026-11-20T08:00:00+24:00", "2026-11-20T08:00:00+01:60",
        "Fri, 32 Nov 2026 08:00:00 GMT", "Fri, 0 Nov 2026 08:00:00 GMT", "Fri, 20 Nov 2026 25:00:00 GMT",
        "Fri, 20 Nov 2026 08:61:00 GMT", "Fri, 20 Nov 2026 08:00:00 +2500", "Fri, 31 Apr 2026 08:00:00 GMT",
    ])
    func outOfRange(text: String) {
        #expect(Dates.parse(text) == nil)
    }

    @Test("Garbage is rejected", arguments: [
        "", " ", "\n\t", "garbage", "now", "yesterday", "Fri", "Fri,", "20", "2026-", "2026-11-",
        "2026-11-20T", "2026-11-20T08", "2026-11-20T8:00:00Z", "2026-11-20T08:00:00.Z", "2026-11-20T08:00:00Zjunk",
        "2026-11-20T08:00:00 +0100 trailing", "2026/11/20", "11/20/2026", "20.11.2026", "202611",
        "20261", "2026112", "202611201", "Fri, 20 Foo 2026 08:00:00 GMT", "Fri, 20 No 2026 08:00:00 GMT",
        "Fri, 20 Nov 226 08:00:00 GMT", "Fri, 20 Nov 02026 08:00:00 GMT", "Fri, 20 Nov 2026 08:00:00 +010",
        "Fri, 20 Nov 2026 08:00:00 GMT (unclosed", "Fri, 20 Nov 2026 08:00:00 gibberish", "Funday, 20 Nov 2026",
        "日本語", "2026-11-20T08:00:00Z🙂", "Frí, 20 Nov 2026 08:00:00 GMT", "-2026-11-20", "+2026-11-20",
    ])
    func garbage(text: String) {
        #expect(Dates.parse(text) == nil)
    }

    @Test("Hostile input returns nil without crashing")
    func hostileInput() {
        // Not parameterized: the arguments would flood the test log.
        let nines = String(repeating: "9", count: 40)
        let inputs = [
            nines,
            nines + "-11-20",
            "2026-11-20T08:00:00+" + nines,
            "2026-11-20T08:00:00." + String(repeating: "9", count: 100_000) + "Zx",
            "Fri, " + nines + " Nov 2026 08:00:00 GMT",
            "20 Nov 2026 " + nines + ":00:00 GMT",
            "20 Nov " + nines + " 08:00:00 GMT",
            String(repeating: "Fri, 20 Nov 2026 ", count: 10_000),
            String(repeating: " ", count: 10_000) + "x",
            String(repeating: "a", count: 10_000),
            "\u{0}", "\u{FFFD}", "\u{C2}", "\u{A0}",
        ]
        for text in inputs {
            #expect(Dates.parse(text) == nil, "\(text.prefix(40))")
        }
    }

    @Test("Leading and trailing whitespace is ignored", arguments: [
        "  2026-11-20T08:00:00Z  ", "\n\t2026-11-20T08:00:00Z\r\n",
        "\u{A0}Fri, 20 Nov 2026 08:00:00 GMT\u{A0}", "\n  Fri, 20 Nov 2026 08:00:00 GMT\n  ",
    ])
    func surroundingWhitespace(text: String) {
        #expect(epoch(text) == friday)
    }
}
