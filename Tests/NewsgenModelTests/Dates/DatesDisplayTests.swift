import Foundation
import Testing
@testable import NewsgenModel

@Suite("Dates: display")
struct DatesDisplayTests {
    @Test("pages show the weekday, the day unpadded, and hours and minutes in UTC", arguments: [
        (1_795_161_600, "Fri 20 Nov 2026, 08:00 UTC", "20 Nov 2026"),
        (1_793_491_200 + 9 * 3_600 + 5 * 60 + 59, "Sun 1 Nov 2026, 09:05 UTC", "1 Nov 2026"),
        (-1, "Wed 31 Dec 1969, 23:59 UTC", "31 Dec 1969"),
    ] as [(TimeInterval, String, String)])
    func readable(seconds: TimeInterval, readable: String, day: String) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(Dates.readable(date) == readable)
        #expect(Dates.readableDay(date) == day)
    }

    @Test("beside another time of the same UTC day, a time is shown as hours and minutes only")
    func readableSameDay() {
        let morning = Date(timeIntervalSince1970: 1_795_161_600)  // Fri 20 Nov 2026, 08:00 UTC
        #expect(Dates.readable(morning, sameDayAs: morning + 15 * 3_600 + 59 * 60) == "08:00 UTC")
        #expect(Dates.readable(morning, sameDayAs: morning + 16 * 3_600) == "Fri 20 Nov 2026, 08:00 UTC", "midnight starts another day")
        #expect(Dates.readable(morning, sameDayAs: morning - 8 * 3_600 - 1) == "Fri 20 Nov 2026, 08:00 UTC")
    }
}
