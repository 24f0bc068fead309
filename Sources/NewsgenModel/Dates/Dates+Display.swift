package import Foundation

/// Dates as pages and log lines show them to people, in UTC.
extension Dates {

    /// "Sat 21 Nov 2026, 08:15 UTC"
    package static func readable(_ date: Date) -> String {
        let time = UTCFields(date)
        return "\(Names.weekdayAbbreviations[time.weekday]) \(readableDay(time)), \(pad(time.hour)):\(pad(time.minute)) UTC"
    }

    /// `readable(date)`, shortened to "08:15 UTC" when `date` falls on the same UTC day as `day`.
    package static func readable(_ date: Date, sameDayAs day: Date) -> String {
        let time = UTCFields(date), other = UTCFields(day)
        guard (time.year, time.month, time.day) == (other.year, other.month, other.day) else { return readable(date) }
        return "\(pad(time.hour)):\(pad(time.minute)) UTC"
    }

    /// "21 Nov 2026"
    package static func readableDay(_ date: Date) -> String {
        readableDay(UTCFields(date))
    }

    private static func readableDay(_ time: UTCFields) -> String {
        "\(time.day) \(Names.monthAbbreviations[time.month - 1]) \(time.year)"
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
