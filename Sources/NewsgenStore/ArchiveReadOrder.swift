/// The order the archive is read in: newest first by publication, stories without a date last,
/// then the latest seen first, then by key — what SQLite's
/// `ORDER BY published IS NULL, published DESC, firstSeen DESC, key` gives, made in Swift from
/// each row's sort columns alone.
///
/// The key last, compared byte by byte as SQLite compares text: stories with the same times
/// come in the same order every build, so no page's bytes depend on the order the table
/// happened to hold them in.
///
/// This is the order the cache hands the archive over in (which the input's fingerprint
/// reads), not the order the site lists it in: the site's model sorts the archive with the
/// stories listed now by its own rules (`Array.archiveOrder()`).
package struct ArchiveReadOrder: Sendable {
    private var keys: [String] = []
    private var published: [Double?] = []
    private var firstSeen: [Double] = []

    package init() {}

    /// Adds the next row's sort columns (seconds since 1970, as the table holds them).
    package mutating func append(key: String, published: Double?, firstSeen: Double) {
        keys.append(key)
        self.published.append(published)
        self.firstSeen.append(firstSeen)
    }

    /// Adds the rows of `other` after these: their places follow.
    package mutating func append(contentsOf other: ArchiveReadOrder) {
        keys += other.keys
        published += other.published
        firstSeen += other.firstSeen
    }

    /// The places of the rows added, in the archive's order.
    package func places() -> [Int] {
        keys.indices.sorted(by: precedes)
    }

    private func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
        switch (published[lhs], published[rhs]) {
        case let (left?, right?) where left != right: return left > right
        case (nil, _?): return false
        case (_?, nil): return true
        default: break
        }
        if firstSeen[lhs] != firstSeen[rhs] { return firstSeen[lhs] > firstSeen[rhs] }
        return keys[lhs].utf8.lexicographicallyPrecedes(keys[rhs].utf8)
    }
}
