/// The digests a build takes a story by (`ArticleDigester`).
package struct ArticleDigests: Sendable, Equatable {
    /// Of every field: what the build's input and the feeds' lists take the story by.
    package var fields: SIMD4<UInt64>
    /// Of the fields pages show, as shown (time in whole seconds): what page fingerprints use, so a change no page
    /// shows (a guid, a fraction of a second) renders nothing again.
    package var shown: SIMD4<UInt64>

    package init(fields: SIMD4<UInt64>, shown: SIMD4<UInt64>) {
        self.fields = fields
        self.shown = shown
    }
}

/// How a build digests a story (`Article.digests(making:)`), versioned so that digests the cache kept are taken
/// only when this function made them. A story keeps whichever digester's digests came first, unlabelled: a build
/// uses one (`Fingerprint.articleDigester`), and a test with its own digester gives it fresh stories.
package struct ArticleDigester: Sendable {
    /// Changes whenever `make` would give other digests for some story, so kept ones are made again.
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
