import Foundation
import NewsgenModel

/// The labelled stories grouping is measured on (`Fixtures/grouping/labelled.json`): fictional outlets' headlines and
/// summaries, each with the event it tells, written for these tests.
package struct LabelledStories: Sendable {
    package struct Story: Sendable, Decodable {
        package var id: String
        package var source: String
        package var title: String
        package var summary: String
        package var published: Date
        package var event: String
    }

    private struct File: Decodable {
        var stories: [Story]
    }

    package var stories: [Story]

    package init(stories: [Story]) {
        self.stories = stories
    }

    /// The stories of the fixture, in its order.
    package static func load() throws -> LabelledStories {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return LabelledStories(stories: try decoder.decode(File.self, from: TestSupport.fixture("grouping/labelled.json")).stories)
    }

    /// The stories as grouping reads them.
    package var groupable: [StoryGrouping.Story] {
        stories.map { StoryGrouping.Story(id: $0.id, sourceID: $0.source, published: $0.published, title: $0.title, summary: $0.summary) }
    }

    /// The set `copies` times over, each copy `days` later than the one before, with its own ids and events, so no copy's
    /// stories fall within grouping's window of another's.
    package func repeated(_ copies: Int, daysApart days: Double) -> LabelledStories {
        LabelledStories(stories: (0..<copies).flatMap { copy in
            stories.map { story in
                var story = story
                story.id = "\(copy)-\(story.id)"
                story.event = "\(copy)-\(story.event)"
                story.published = story.published.addingTimeInterval(Double(copy) * days * 86_400)
                return story
            }
        })
    }

    /// BCubed precision and recall of `groups` (story id → group) against the labels: for each story, the share of its
    /// group that tells its event, and the share of its event that its group holds, averaged over the stories.
    package func bcubed(_ groups: [String: String]) -> (precision: Double, recall: Double) {
        var byGroup: [String: [String]] = [:]
        var byEvent: [String: [String]] = [:]
        var event: [String: String] = [:]
        for story in stories {
            let group = groups[story.id] ?? "story:" + story.id
            byGroup[group, default: []].append(story.id)
            byEvent[story.event, default: []].append(story.id)
            event[story.id] = story.event
        }
        var precision = 0.0
        var recall = 0.0
        for story in stories {
            let group = byGroup[groups[story.id] ?? "story:" + story.id] ?? []
            let correct = Double(group.filter { event[$0] == story.event }.count)
            precision += correct / Double(group.count)
            recall += correct / Double(byEvent[story.event]?.count ?? 1)
        }
        let count = Double(max(1, stories.count))
        return (precision / count, recall / count)
    }
}
