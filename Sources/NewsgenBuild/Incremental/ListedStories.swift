package import NewsgenModel

/// The stories the sources list now, by id, for finding an archived story's listed copy. A
/// story two sources list has two copies, equal or not.
package struct ListedStories: Sendable {
    private var first: [String: Article] = [:]
    private var again: [String: [Article]] = [:]

    package init(_ sources: [SourceReport]) {
        first.reserveCapacity(sources.reduce(0) { $0 + $1.articles.count })
        for source in sources {
            for article in source.articles {
                if first[article.id] == nil { first[article.id] = article } else { again[article.id, default: []].append(article) }
            }
        }
    }

    /// A listed copy equal to `article` in every field, if a source lists one.
    package func copy(of article: Article) -> Article? {
        if let copy = first[article.id], copy == article { return copy }
        return again[article.id]?.first { $0 == article }
    }

    /// The archive with each story a source lists as it is (equal in every field) replaced by
    /// the source's copy: the two then share their text in memory instead of holding it twice
    /// (at 100,000 stories, most of them listed, the archive's own copies are a large part of
    /// a build's peak memory).
    package func sharingText(of archive: [Article]) -> [Article] {
        archive.map { copy(of: $0) ?? $0 }
    }

    /// The archived stories no source lists as they are, in the archive's order.
    package func unlisted(in archive: [Article]) -> [Article] {
        archive.filter { copy(of: $0) == nil }
    }
}
