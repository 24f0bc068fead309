import Foundation
import Testing
@testable import NewsgenModel

@Suite("Dates: strict checks")
struct DatesStrictTests {
    @Test("RFC 822 dates as RSS writes them pass", arguments: [
        "Fri, 20 Nov 2026 08:00:00 +0000", "20 Nov 2026 08:00 GMT", "Sun, 1 Mar 2026 23:59:59 -0930",
        "Tue, 29 Feb 2028 00:00:00 EST", "Thu, 19 Nov 2026 17:30 Z", "fri, 20 nov 2026 08:00:00 ut",
    ])
    func rfc822Valid(_ text: String) {
        #expect(Dates.rfc822Problem(text) == nil)
    }

    @Test("RFC 822 problems say what is wrong", arguments: [
        ("Fri, 20 Nov 26 08:00:00 +0000", "has a two-digit year"),
        ("Thu, 20 Nov 2026 08:00:00 +0000", "names a Thursday, but 20 Nov 2026 is a Friday"),
        ("Sun, 29 Feb 2026 00:00:00 +0000", "names a date or time that does not exist"),
        ("Fri, 20 Nov 2026 24:00:00 +0000", "names a date or time that does not exist"),
        ("2026-11-20T08:00:00Z", "is not an RFC 822 date"),
        ("Fri, 20 Nov 2026 08:00:00", "the time zone must be"),
        ("Fri, 20 Nov 2026 08:00:00 +00:00", "the time zone must be"),
        ("Fri 20 Nov 2026 08:00:00 +0000", "is not an RFC 822 date"),
        ("", "is not an RFC 822 date"),
    ])
    func rfc822Invalid(_ text: String, _ reason: String) {
        #expect(Dates.rfc822Problem(text)?.contains(reason) == true, "\(text): \(Dates.rfc822Problem(text) ?? "accepted")")
    }

    @Test("RFC 3339 date-times pass", arguments: [
        "2026-11-20T08:00:00Z", "2026-11-20T08:00:00.123+01:00", "2028-02-29T23:59:60-05:30",
    ])
    func rfc3339Valid(_ text: String) {
        #expect(Dates.rfc3339Problem(text, uppercaseOnly: true) == nil)
    }

    @Test("RFC 3339 problems say what is wrong", arguments: [
        ("2026-11-20", "has no time"),
        ("2026-11-20T08:00:00", "has no time zone"),
        ("2026-11-20 08:00:00Z", "is not an RFC 3339 date-time"),
        ("2026-02-30T08:00:00Z", "names a date or time that does not exist"),
        ("2026-11-20T08:00Z", "is not an RFC 3339 date-time"),
        ("2026-11-20T08:00:00+0100", "is not an RFC 3339 date-time"),
        ("Fri, 20 Nov 2026 08:00:00 +0000", "is not an RFC 3339 date-time"),
    ])
    func rfc3339Invalid(_ text: String, _ reason: String) {
        #expect(Dates.rfc3339Problem(text, uppercaseOnly: false)?.contains(reason) == true, "\(text): \(Dates.rfc3339Problem(text, uppercaseOnly: false) ?? "accepted")")
    }

    @Test("Atom wants an uppercase T and Z; RFC 3339 itself allows lowercase")
    func uppercase() {
        #expect(Dates.rfc3339Problem("2026-11-20t08:00:00z", uppercaseOnly: true) != nil)
        #expect(Dates.rfc3339Problem("2026-11-20t08:00:00z", uppercaseOnly: false) == nil)
    }

    @Test("what newsgen's writers produce passes")
    func writersPass() {
        for seconds in stride(from: -86_400.0 * 400, to: 86_400.0 * 20_000, by: 86_400.0 * 37.3) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(Dates.rfc822Problem(Dates.rfc822(date)) == nil, "\(Dates.rfc822(date))")
            #expect(Dates.rfc3339Problem(Dates.rfc3339(date), uppercaseOnly: true) == nil, "\(Dates.rfc3339(date))")
        }
    }
}
