package import Logging
package import NewsgenModel
package import NewsgenStore

/// Groups the stories the sources list and the cache holds by the event they tell (`StoryGrouping`), so pages show an
/// event once with the other outlets' stories beside it. Each story's group is kept in the cache: only stories not grouped
/// before are grouped, so a build adds stories to groups and never regroups the others. Off with `"groupStories": false`.
/// A cache that cannot be read or written never sinks the build: without the groups it has, pages show every story alone.
package struct GroupStories: BuildStep {
    package static let stage = BuildStage.group

    /// `false` groups nothing (`"groupStories": false`).
    package var enabled: Bool
    package var store: any ArticleStore
    package var grouping = StoryGrouping()
    package var logger: Logger

    package init(enabled: Bool, store: any ArticleStore, logger: Logger) {
        self.enabled = enabled
        self.store = store
        self.logger = logger
    }

    package struct Output: Sendable {
        package var groups: StoryGroups
        package var summary: String
    }

    package func run(_ input: ExtractFullText.Stories) async -> Output {
        guard enabled else { return Output(groups: .none, summary: "off") }
        var seen = Set<String>()
        let stories = (input.sources.flatMap(\.articles) + input.archive).filter { seen.insert($0.id).inserted }.map { article in
            StoryGrouping.Story(id: article.id, sourceID: article.sourceID, published: article.published, title: article.title,
                                summary: article.summary, html: article.content)
        }
        let known: [String: String]
        do {
            known = try await store.storyGroups(of: stories.map(\.id))
        } catch {
            logger.warning("cache: \(error) (the groups of \(stories.count) stories); every story shows alone")
            return Output(groups: .none, summary: "cache unavailable")
        }
        let assigned = grouping.assign(stories, known: known)
        do {
            try await store.recordStoryGroups(assigned)
        } catch {
            logger.warning("cache: \(error) (the groups of \(assigned.count) new stories); the next build groups them again")
        }
        let groups = StoryGroups(known.merging(assigned) { kept, _ in kept })
        return Output(groups: groups, summary: "\(stories.count) stories, \(assigned.count) new; \(groups.count) groups of \(groups.storyCount)")
    }

    package func summary(of output: Output) -> String { output.summary }
}
