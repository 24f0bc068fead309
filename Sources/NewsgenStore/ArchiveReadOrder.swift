/// The order the cache hands over the archive in (which the input fingerprint reads): SQLite's
/// `ORDER BY published IS NULL, published DESC, firstSeen DESC, key`, made in Swift from each row's sort columns.
/// Keys compare byte by byte as SQLite's text does, so ties come in the same order every build. The site lists
/// the archive in its own order (`Array.archiveOrder()`).
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
