import Foundation
import NewsgenModel

/// A story's digests in its row's `digest` column: the digester's version, then the four words of each digest
/// (fields, then shown), little-endian; 65 bytes. Written in the same statement as the fields, so it always matches
/// them. Digests of another version or size, or none, are not taken: the story is digested when asked.
enum StoredDigest {
    static let size = 1 + 64

    /// The column's value for `article`: its digests by `digester`, known or made now.
    static func column(of article: Article, by digester: ArticleDigester) -> Data {
        let digests = digester.digests(of: article)
        var bytes = Data(count: size)
        bytes.withUnsafeMutableBytes { buffer in
            buffer[0] = digester.version
            for word in 0..<4 {
                buffer.storeBytes(of: digests.fields[word].littleEndian, toByteOffset: 1 + word * 8, as: UInt64.self)
                buffer.storeBytes(of: digests.shown[word].littleEndian, toByteOffset: 33 + word * 8, as: UInt64.self)
            }
        }
        return bytes
    }

    /// The digests the column holds, when `digester` made them.
    static func digests(in column: Data?, by digester: ArticleDigester) -> ArticleDigests? {
        guard let column, column.count == size, column.first == digester.version else { return nil }
        return column.withUnsafeBytes { buffer in
            var (fields, shown) = (SIMD4<UInt64>(), SIMD4<UInt64>())
            for word in 0..<4 {
                fields[word] = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: 1 + word * 8, as: UInt64.self))
                shown[word] = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: 33 + word * 8, as: UInt64.self))
            }
            return ArticleDigests(fields: fields, shown: shown)
        }
    }
}
