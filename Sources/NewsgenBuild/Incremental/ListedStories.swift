package import NewsgenModel

/// The stories the sources list now, by id, for finding an archived story's listed copy (two sources may list two copies).
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

    /// The archive with each story a source lists unchanged replaced by the source's copy, so the two share their text in
    /// memory instead of holding it twice.
    package func sharingText(of archive: [Article]) -> [Article] {
        archive.map { copy(of: $0) ?? $0 }
    }

    /// The archived stories no source lists as they are, in the archive's order.
    package func unlisted(in archive: [Article]) -> [Article] {
        archive.filter { copy(of: $0) == nil }
    }
}
