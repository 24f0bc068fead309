public import Foundation

/// The dates newsgen writes into feeds, search.json, `datetime` attributes and saved.json:
/// always UTC, whole seconds (rounded down), years clamped to 0001…9999.
extension Dates {

    /// Formats `date` as RFC 3339 in UTC with whole seconds,
    /// e.g. `2026-11-20T08:00:00Z`.
    public static func rfc3339(_ date: Date) -> String {
        let time = UTCFields(date)
        var out = ASCIIWriter(capacity: 20)
        out.day(time)
        out.byte(UInt8(ascii: "T"))
        out.clock(time)
        out.byte(UInt8(ascii: "Z"))
        return out.string
    }

    /// The day of `date` in UTC as `rfc3339` writes it, e.g. `2026-11-20`: its first ten
    /// characters, without the time of day made only to be dropped.
    package static func rfc3339Day(_ date: Date) -> String {
        var out = ASCIIWriter(capacity: 10)
        out.day(UTCFields(date))
        return out.string
    }

    /// Formats `date` as RFC 822 (RFC 1123 profile) in UTC, as RSS expects,
    /// e.g. `Fri, 20 Nov 2026 08:00:00 +0000`.
    public static func rfc822(_ date: Date) -> String {
        let time = UTCFields(date)
        var out = ASCIIWriter(capacity: 31)
        out.text(Names.weekdayAbbreviations[time.weekday])
        out.byte(UInt8(ascii: ","))
        out.byte(UInt8(ascii: " "))
        out.number(time.day, width: 2)
        out.byte(UInt8(ascii: " "))
        out.text(Names.monthAbbreviations[time.month - 1])
        out.byte(UInt8(ascii: " "))
        out.number(time.year, width: 4)
        out.byte(UInt8(ascii: " "))
        out.clock(time)
        out.byte(UInt8(ascii: " "))
        out.byte(UInt8(ascii: "+"))
        out.number(0, width: 4)
        return out.string
    }
}

extension Dates {

    /// Builds a short ASCII string.
    struct ASCIIWriter {
        private var bytes: [UInt8] = []

        init(capacity: Int) {
            bytes.reserveCapacity(capacity)
        }

        var string: String { String(decoding: bytes, as: UTF8.self) }

        mutating func byte(_ byte: UInt8) {
            bytes.append(byte)
        }

        /// Appends a non-negative `value` zero-padded to `width` digits.
        mutating func number(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }

        mutating func text(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        /// Appends `yyyy-mm-dd`.
        mutating func day(_ time: UTCFields) {
            number(time.year, width: 4)
            byte(UInt8(ascii: "-"))
            number(time.month, width: 2)
            byte(UInt8(ascii: "-"))
            number(time.day, width: 2)
        }

        /// Appends `hh:mm:ss`.
        mutating func clock(_ time: UTCFields) {
            number(time.hour, width: 2)
            byte(UInt8(ascii: ":"))
            number(time.minute, width: 2)
            byte(UInt8(ascii: ":"))
            number(time.second, width: 2)
        }
    }
}
