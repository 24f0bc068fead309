import Foundation
import NewsgenModel

/// Stories about the same event (`SiteContent.groups`) as pages show them. The front page and a category's page show a
/// group once: its lead, the earliest of its stories on that page (equal times: the smaller id), in the lead's place, with
/// "Also covered by" and the other outlets. A story's page lists the others. Every other list, and every feed, shows
/// every story.
extension SiteModelBuilder {
    /// `stories` with each group's stories but its lead left out, in the same order.
    static func collapsed(_ stories: [Article], groups: StoryGroups) -> [Article] {
        guard !groups.isEmpty else { return stories }
        var leads: [String: Article] = [:]
        for story in stories {
            guard let group = groups.group(of: story.id) else { continue }
            if let lead = leads[group], !isEarlier(story, than: lead) { continue }
            leads[group] = story
        }
        return stories.filter { story in
            guard let group = groups.group(of: story.id) else { return true }
            return leads[group]?.id == story.id
        }
    }

    /// Whether `story` leads its group before `other`: dated before undated, earlier first, then by id.
    static func isEarlier(_ story: Article, than other: Article) -> Bool {
        switch (story.published, other.published) {
        case let (left?, right?) where left != right: left < right
        case (_?, nil): true
        case (nil, _?): false
        default: story.id < other.id
        }
    }

    /// The other stories of `article`'s group that the site holds, earliest first, linked from a page at `root`.
    func coverage(of article: Article, root: String) -> [CoverageLink] {
        let others = content.groups.others(of: article.id).compactMap { id in places[id].map { articlesWithPages[Int($0)] } }
        let linked = others.sorted(by: Self.isEarlier).compactMap { story in
            (articlePath(story).map { root + $0 } ?? story.url).map { (story, href: $0) }
        }
        return linked.enumerated().map { number, link in
            let (story, href) = link
            return CoverageLink(outlet: story.outlet ?? sourcesByID[story.sourceID]?.name ?? story.sourceID, title: story.title,
                                href: href, time: story.published.map(time), first: number == 0)
        }
    }

    /// Feeds everything `coverage(of:root:)` shows but the root.
    func feedCoverage(of article: Article, into hasher: inout Fingerprint.Hasher) {
        let links = coverage(of: article, root: "")
        hasher.add("coverage")
        hasher.add(links.count)
        for link in links {
            hasher.add(link.outlet)
            hasher.add(link.title)
            hasher.add(link.href)
            hasher.add(link.time?.datetime)
        }
    }
}
