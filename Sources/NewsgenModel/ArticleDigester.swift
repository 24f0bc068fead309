/// How a build digests every field of a story (`Article.digest(making:)`), named by a version so
/// that a digest kept from before (the cache keeps each story's beside its row) is taken only
/// when this function made it.
package struct ArticleDigester: Sendable {
    /// Changes whenever `make` gives another digest for some story: a digest kept under
    /// another version is made again.
    package let version: UInt8
    package let make: @Sendable (Article) -> SIMD4<UInt64>

    package init(version: UInt8, make: @escaping @Sendable (Article) -> SIMD4<UInt64>) {
        self.version = version
        self.make = make
    }

    /// The story's digest: the one it knows, or made (and kept with it).
    package func digest(of article: Article) -> SIMD4<UInt64> {
        article.digest(making: make)
    }
}
