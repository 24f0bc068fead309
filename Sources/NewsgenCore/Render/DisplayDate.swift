import Foundation

/// Dates as pages show them: "Sat 21 Nov 2026, 08:15 UTC".
enum DisplayDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func readable(_ date: Date) -> String {
        let (year, month, day, hour, minute, weekday) = components(date)
        return "\(weekdays[weekday]) \(day) \(months[month - 1]) \(year), \(pad(hour)):\(pad(minute)) UTC"
    }

    /// "21 Nov 2026"
    static func day(_ date: Date) -> String {
        let (year, month, day, _, _, _) = components(date)
        return "\(day) \(months[month - 1]) \(year)"
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// Civil date in UTC (Howard Hinnant's days-to-civil), weekday index with 0 = Thursday 1970-01-01.
    private static func components(_ date: Date) -> (Int, Int, Int, Int, Int, Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = ((days % 7) + 7) % 7
        return (year, month, day, secondOfDay / 3600, (secondOfDay % 3600) / 60, weekday)
    }
}
