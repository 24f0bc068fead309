import Foundation

/// Slugs for paths in the output (`categories/<slug>/`, `articles/<slug>/`).
enum Slug {
    /// Lowercase ASCII letters and digits joined by single hyphens; at most `limit` characters.
    /// Letters with diacritics lose them; anything else becomes a separator.
    static func make(_ text: String, limit: Int = 60) -> String {
        let folded = text.applyingTransform(.stripDiacritics, reverse: false) ?? text
        var slug = ""
        var pendingHyphen = false
        for scalar in folded.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if pendingHyphen && !slug.isEmpty { slug += "-" }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
                if slug.count >= limit { break }
            } else {
                pendingHyphen = true
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }

    /// A short, stable hexadecimal digest of a string (FNV-1a, 64 bits), to keep slugs unique.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
