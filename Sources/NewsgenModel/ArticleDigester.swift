/// The digests a build takes a story by (`ArticleDigester`).
package struct ArticleDigests: Sendable, Equatable {
    /// Of every field: what the build's input and the feeds' lists take the story by.
    package var fields: SIMD4<UInt64>
    /// Of the fields a row or the story's page shows, as they show them (the time in whole
    /// seconds): what the pages' fingerprints take it by, so that a change no page shows (a
    /// guid, a fraction of a second) renders nothing again.
    package var shown: SIMD4<UInt64>

    package init(fields: SIMD4<UInt64>, shown: SIMD4<UInt64>) {
        self.fields = fields
        self.shown = shown
    }
}

/// How a build digests a story (`Article.digests(making:)`), named by a version so that
/// digests kept from before (the cache keeps each story's beside its row) are taken only when
/// this function made them.
///
/// A story keeps the digests of whichever digester made them first, without saying which: a
/// build uses one (`Fingerprint.articleDigester`, which the fetch stage uses and the cache is
/// given), and a test with a digester of its own gives it fresh stories.
package struct ArticleDigester: Sendable {
    /// Changes whenever `make` gives other digests for some story: digests kept under another
    /// version are made again.
    package let version: UInt8
    package let make: @Sendable (Article) -> ArticleDigests

    package init(version: UInt8, make: @escaping @Sendable (Article) -> ArticleDigests) {
        self.version = version
        self.make = make
    }

    /// The story's digests: the ones it knows, or made (and kept with it).
    package func digests(of article: Article) -> ArticleDigests {
        article.digests(making: make)
    }
}
