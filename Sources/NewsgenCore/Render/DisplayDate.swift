import Foundation

/// Dates as pages show them: "Sat 21 Nov 2026, 08:15 UTC".
enum DisplayDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func readable(_ date: Date) -> String {
        let time = FeedDate.BrokenDownTime(date)
        return "\(weekdays[time.weekday]) \(day(time)), \(pad(time.hour)):\(pad(time.minute)) UTC"
    }

    /// "21 Nov 2026"
    static func day(_ date: Date) -> String {
        day(FeedDate.BrokenDownTime(date))
    }

    private static func day(_ time: FeedDate.BrokenDownTime) -> String {
        "\(time.day) \(months[time.month - 1]) \(time.year)"
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
