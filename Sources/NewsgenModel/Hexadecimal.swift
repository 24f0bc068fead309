/// Lowercase hexadecimal digits written in place, without a String for each number.
package enum Hexadecimal {
    /// Writes `word`'s sixteen digits, most significant first, into `digits` from `place`.
    package static func write(_ word: UInt64, into digits: UnsafeMutableBufferPointer<UInt8>, at place: Int) {
        for index in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * index)) & 0x0f
            digits[place + index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
    }

    /// The value of a hexadecimal digit in either case (`0`–`9`, `a`–`f`, `A`–`F`); `nil` for
    /// any other byte. What JSON's `\u` escapes and a URI's `%` escapes are written with.
    package static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
