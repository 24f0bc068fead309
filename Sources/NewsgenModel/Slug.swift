import Foundation

/// Slugs for paths in the output (`categories/<slug>/`, `articles/<slug>/`).
package enum Slug {
    /// Lowercase ASCII letters and digits joined by single hyphens; at most `limit` characters,
    /// cut at a word boundary. Letters with diacritics lose them; anything else is a separator.
    package static func make(_ text: String, limit: Int = 60) -> String {
        // An ASCII text has nothing for ICU's transform to strip: made on its bytes.
        if let slug = text.utf8.withContiguousStorageIfAvailable({ bytes in
            bytes.allSatisfy { $0 < 0x80 } ? makeASCII(bytes, limit: limit) : nil
        }), let slug {
            return slug
        }
        return makeFolding(text, limit: limit)
    }

    /// `make` of any text: diacritics stripped, lowercased, scalar by scalar.
    static func makeFolding(_ text: String, limit: Int) -> String {
        let folded = text.utf8.allSatisfy { $0 < 0x80 } ? text : text.applyingTransform(.stripDiacritics, reverse: false) ?? text
        var slug = ""
        var pendingHyphen = false
        // After lowercasing, the ASCII letters are a–z. The slug is ASCII, so its UTF-8 count is its length.
        for scalar in folded.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                if pendingHyphen && !slug.isEmpty {
                    if slug.utf8.count >= limit { break }
                    slug += "-"
                }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingHyphen = true
            }
        }
        if slug.utf8.count > limit {
            // One long word, or a cut in the middle of one: end at the last whole word that fits.
            let prefix = slug.prefix(limit)
            slug = prefix.lastIndex(of: "-").map { String(prefix[..<$0]) } ?? String(prefix)
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }

    /// `make` of an ASCII text, on its bytes: lowercasing ASCII maps A–Z to a–z and nothing
    /// else, and each byte is a character.
    static func makeASCII(_ text: UnsafeBufferPointer<UInt8>, limit: Int) -> String {
        var slug: [UInt8] = []
        slug.reserveCapacity(min(text.count, limit + 1))
        var pendingHyphen = false
        for byte in text {
            let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(lower) {
                if pendingHyphen && !slug.isEmpty {
                    if slug.count >= limit { break }
                    slug.append(UInt8(ascii: "-"))
                }
                pendingHyphen = false
                slug.append(lower)
            } else {
                pendingHyphen = true
            }
        }
        if slug.count > limit {
            // One long word, or a cut in the middle of one: end at the last whole word that fits.
            let prefix = slug.prefix(max(limit, 0))
            slug = Array(prefix.lastIndex(of: UInt8(ascii: "-")).map { prefix[..<$0] } ?? prefix)
        }
        while slug.last == UInt8(ascii: "-") { slug.removeLast() }
        return String(decoding: slug, as: UTF8.self)
    }

    /// A short, stable hexadecimal digest of a string (`hash`), to keep slugs unique: sixteen lowercase digits.
    package static func digest(_ text: String) -> String {
        let hash = hash(text)
        return String(unsafeUninitializedCapacity: 16) { digits in
            Hexadecimal.write(hash, into: digits, at: 0)
            return 16
        }
    }

    /// FNV-1a (64 bits) over `text`'s UTF-8: the same in every build and on every machine, unlike `Hasher`.
    package static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }
}
