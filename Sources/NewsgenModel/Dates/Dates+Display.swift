package import Foundation

/// Dates as pages and log lines show them to people, in UTC.
extension Dates {

    /// "Sat 21 Nov 2026, 08:15 UTC"
    package static func readable(_ date: Date) -> String {
        let time = UTCFields(date)
        return "\(Names.weekdayAbbreviations[time.weekday]) \(readableDay(time)), \(pad(time.hour)):\(pad(time.minute)) UTC"
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
