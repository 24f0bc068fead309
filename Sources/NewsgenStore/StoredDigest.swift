import Foundation
import NewsgenModel

/// A story's digest as the cache keeps it in its row (the `digest` column, since v4-digest):
/// the digester's version, then the digest's four words, little-endian; 33 bytes.
///
/// Written with every field of the story, in the same statement, so it is always the digest of
/// the fields beside it as they were stored. A build reads ten thousand stories and needs each
/// one's digest (`ArticleDigester`): made from their fields again, they were about a twentieth
/// of a cron run's work. A digest of another version, another size, or none (a row from before
/// v4, or written without a digester) is not taken: the story is digested when asked.
enum StoredDigest {
    static let size = 1 + 32

    /// The column's value for `article`: its digest by `digester`, known or made now.
    static func column(of article: Article, by digester: ArticleDigester) -> Data {
        let words = digester.digest(of: article)
        var bytes = Data(count: size)
        bytes.withUnsafeMutableBytes { buffer in
            buffer[0] = digester.version
            for word in 0..<4 {
                buffer.storeBytes(of: words[word].littleEndian, toByteOffset: 1 + word * 8, as: UInt64.self)
            }
        }
        return bytes
    }

    /// The digest the column holds, when `digester` made it.
    static func digest(in column: Data?, by digester: ArticleDigester) -> SIMD4<UInt64>? {
        guard let column, column.count == size, column.first == digester.version else { return nil }
        return column.withUnsafeBytes { buffer in
            var words = SIMD4<UInt64>()
            for word in 0..<4 {
                words[word] = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: 1 + word * 8, as: UInt64.self))
            }
            return words
        }
    }
}
