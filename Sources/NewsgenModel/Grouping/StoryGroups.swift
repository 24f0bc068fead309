/// The groups of stories about the same event that pages show together (`StoryGrouping` makes them): only groups of two
/// stories or more, each story in one group at most.
public struct StoryGroups: Sendable, Hashable {
    /// Each group's stories' ids, in ascending order, by group key.
    private var members: [String: [String]] = [:]
    /// Each grouped story's group key, by story id.
    private var groupOf: [String: String] = [:]

    /// No groups: every story shows on its own.
    public static let none = StoryGroups()

    private init() {}

    /// The groups `assignments` (story id → group key) make, without those of one story.
    public init(_ assignments: [String: String]) {
        var members: [String: [String]] = [:]
        for (story, group) in assignments { members[group, default: []].append(story) }
        for (group, stories) in members where stories.count >= 2 {
            self.members[group] = stories.sorted()
            for story in stories { groupOf[story] = group }
        }
    }

    public var isEmpty: Bool { members.isEmpty }

    /// How many groups there are, and how many stories they hold.
    public var count: Int { members.count }
    public var storyCount: Int { groupOf.count }

    /// The key of the group of the story with `id`, when it is in one.
    public func group(of id: String) -> String? {
        groupOf[id]
    }

    /// The ids of the other stories in the group of the story with `id`, in ascending order; empty when it is in none.
    public func others(of id: String) -> [String] {
        guard let group = groupOf[id] else { return [] }
        return (members[group] ?? []).filter { $0 != id }
    }

    /// Every group's story ids, groups in the order of their first id: the same groups always list the same.
    public var all: [[String]] {
        members.values.sorted { ($0.first ?? "") < ($1.first ?? "") }
    }
}
