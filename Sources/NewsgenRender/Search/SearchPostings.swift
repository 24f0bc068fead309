/// A term's postings as the index writes them: a string of the 64 characters `0-9 A-Z a-z - _` (each a digit 0–63),
/// which JSON keeps as they are and gzip packs well. Each story is its gap from the one before (from the list's
/// origin minus one for the first), in base-32 digits most significant first, every digit but the last plus 32; then
/// the term's weight in the story, one digit from 1 to 63.
enum SearchPostings {
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_".utf8)

    /// A story's number and its weight (clamped to 1–63) in one word, `number << 6 | weight`, as the writer collects
    /// postings: a quarter of the memory of the pair.
    static func packed(_ number: Int, _ weight: Int) -> UInt32 {
        UInt32(number) << 6 | UInt32(min(63, max(1, weight)))
    }

    /// Appends `postings` (`packed`, in rising story order) counted from `origin`.
    static func encode(_ postings: [UInt32], origin: Int, into bytes: inout [UInt8]) {
        var previous = origin - 1
        var groups: [UInt8] = []
        for posting in postings {
            let number = Int(posting >> 6)
            var gap = number - previous
            previous = number
            groups.removeAll(keepingCapacity: true)
            repeat {
                groups.append(UInt8(gap & 31))
                gap >>= 5
            } while gap > 0
            for (position, group) in groups.reversed().enumerated() {
                bytes.append(digits[Int(group) + (position < groups.count - 1 ? 32 : 0)])
            }
            bytes.append(digits[Int(posting & 63)])
        }
    }

    /// The postings of a string `encode` wrote (for tests; the browser decodes its own).
    static func decode(_ text: String, origin: Int) -> [(number: Int, weight: Int)] {
        var values: [Int] = []
        for byte in text.utf8 {
            guard let value = digits.firstIndex(of: byte) else { return [] }
            values.append(value)
        }
        var stories: [(number: Int, weight: Int)] = []
        var previous = origin - 1
        var position = 0
        while position < values.count {
            var gap = 0
            while position < values.count {
                let digit = values[position]
                position += 1
                gap = gap * 32 + (digit & 31)
                if digit < 32 { break }
            }
            guard position < values.count else { break }
            previous += gap
            stories.append((previous, values[position]))
            position += 1
        }
        return stories
    }
}
