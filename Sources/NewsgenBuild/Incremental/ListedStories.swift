package import NewsgenModel

/// The stories the sources list now, by id, for finding an archived story's listed copy: the
/// archive shares its text with it (`Build.sharingText`), and the input fingerprint feeds the
/// archive without the stories it lists (`InputFingerprint`). A story two sources list has two
/// copies, equal or not.
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

    /// A listed copy equal to `article` in every field, if a source lists one. By id, then
    /// equality: archived copies of listed stories share their storage with the sources' once
    /// `Build.sharingText` made them, so most comparisons are then one pointer's.
    package func copy(of article: Article) -> Article? {
        if let copy = first[article.id], copy == article { return copy }
        return again[article.id]?.first { $0 == article }
    }
}
