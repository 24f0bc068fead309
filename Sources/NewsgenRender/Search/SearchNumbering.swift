import NewsgenModel

/// Each story's number in the search index (`SearchIndex`), kept from build to build in the record of what was
/// published: a story keeps its number while it stays in the archive, a story that arrives takes the next one, and a
/// story that leaves leaves a hole. So a cron run that adds or drops a few stories rewrites the index files that hold
/// them, not every file after them.
///
/// The first numbering, and every renumbering, counts the archive oldest first. The stories are renumbered (the one
/// build in many that rewrites the whole index) once holes outnumber them, or once the manifest's list of days would
/// hold more than `extraRunLimit` runs beyond one per day (holes, and stories that arrive after newer ones, split runs).
package struct SearchNumbering: Sendable, Equatable {
    /// Each story's number by its key (`key(of:)`).
    package private(set) var numbers: [UInt64: Int]

    package static let none = SearchNumbering(numbers: [:])
    static let extraRunLimit = 128

    package init(numbers: [UInt64: Int]) {
        self.numbers = numbers
    }

    /// A story's key: its id's hash (`Slug.hash`, which its page's slug spells too), so the record holds eight bytes a
    /// story, not its URL.
    package static func key(of id: String) -> UInt64 {
        Slug.hash(id)
    }

    /// One archived story as numbering sees it: its key and its UTC day (days since 1970; `nil` without a date).
    struct Story {
        var key: UInt64
        var day: Int?
    }

    /// The numbering of `archive` (oldest first) that continues this one, and each story's number in `archive`'s order.
    func continued(for stories: [Story]) -> (numbering: SearchNumbering, numbers: [Int]) {
        // A second story with one id (one id archived twice) is told apart by a key of its own, the same every build.
        var seen = Set<UInt64>()
        var archive = stories
        for place in archive.indices {
            while !seen.insert(archive[place].key).inserted { archive[place].key = archive[place].key &* 31 &+ 1 }
        }
        var next = archive.compactMap { numbers[$0.key] }.max().map { $0 + 1 } ?? 0
        // A number is one story's (a record read back may say otherwise: then the later story is numbered anew).
        var taken = Set<Int>()
        let assigned = archive.map { story -> Int in
            if let number = numbers[story.key], taken.insert(number).inserted { return number }
            defer { next += 1 }
            return next
        }
        let numbering = needsRenumbering(archive, assigned, end: next) ? Array(archive.indices) : assigned
        return (Self(numbers: Dictionary(uniqueKeysWithValues: zip(archive.map(\.key), numbering))), numbering)
    }

    /// Whether numbers `0..<end`, `assigned` to `archive`, leave more holes than stories, or split the days into more than
    /// `extraRunLimit` runs beyond one per day (a hole counts as a story without a date, as the manifest lists it).
    private func needsRenumbering(_ archive: [Story], _ assigned: [Int], end: Int) -> Bool {
        if end - archive.count > archive.count { return true }
        var dayOf = [Int?](repeating: nil, count: end)
        for (story, number) in zip(archive, assigned) { dayOf[number] = story.day }
        var runs = 0
        var days = Set<Int?>()
        for number in 0..<end where number == 0 || dayOf[number] != dayOf[number - 1] {
            runs += 1
            days.insert(dayOf[number])
        }
        return runs - days.count > Self.extraRunLimit
    }
}
