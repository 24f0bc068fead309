import Foundation
import NewsgenModel
import NewsgenXML

/// The rules of RSS and Atom feeds that a schema cannot express: dates, unique ids,
/// permalinks and the self link.
struct FeedRules {

    /// The feed's path relative to the site root.
    let path: String
    /// Where the site is served, when known.
    let baseURL: URL?

    // MARK: - RSS

    func checkRSS(_ root: XMLElement, into problems: inout FileProblems) {
        guard root.name == "rss", root.namespace == nil, let channel = root.child("channel", in: nil) else { return }
        for name in ["pubDate", "lastBuildDate"] {
            for date in channel.children(name).filter({ $0.namespace == nil }) { checkRFC822(date, into: &problems) }
        }
        let selfLinks = channel.children("link", in: Namespace.atom).filter { $0.attribute("rel") == "self" }
        checkSelfLink(selfLinks, owner: channel, element: "atom:link rel=\"self\"", into: &problems)

        var guids: [String: Int] = [:]
        for item in channel.children("item").filter({ $0.namespace == nil }) {
            for date in item.children("pubDate").filter({ $0.namespace == nil }) { checkRFC822(date, into: &problems) }
            guard let guid = item.children("guid").first(where: { $0.namespace == nil }) else { continue }
            let id = guid.text.trimmedWhitespace
            if guid.attribute("isPermaLink") != "false" && !Self.isAbsoluteHTTP(id) {
                problems.add(.rssGuidPermalink, "guid \"\(id)\" is not an http(s) URL, so it needs isPermaLink=\"false\" (readers would link to it)", at: guid)
            }
            if let first = guids[id] {
                problems.add(.rssGuidUnique, "guid \"\(id)\" is already used by the item on line \(first); readers would drop one of them", at: guid)
            } else {
                guids[id] = guid.line
            }
        }
    }

    private func checkRFC822(_ date: XMLElement, into problems: inout FileProblems) {
        let text = date.text.trimmedWhitespace
        if let problem = Dates.rfc822Problem(text) {
            problems.add(.rssDate, "\(date.name) \"\(text)\" \(problem)", at: date)
        }
    }

    // MARK: - Atom

    func checkAtom(_ root: XMLElement, into problems: inout FileProblems) {
        guard root.namespace == Namespace.atom else { return }
        if root.name == "entry" {
            checkAtomDates(root, into: &problems)
            return
        }
        guard root.name == "feed" else { return }
        checkAtomDates(root, into: &problems)
        let selfLinks = root.children("link", in: Namespace.atom).filter { $0.attribute("rel") == "self" }
        checkSelfLink(selfLinks, owner: root, element: "link rel=\"self\"", into: &problems)

        var ids: [String: Int] = [:]
        for entry in root.children("entry", in: Namespace.atom) {
            checkAtomDates(entry, into: &problems)
            if let source = entry.child("source", in: Namespace.atom) { checkAtomDates(source, into: &problems) }
            guard let idElement = entry.child("id", in: Namespace.atom) else { continue }
            let id = idElement.text.trimmedWhitespace
            if let first = ids[id] {
                problems.add(.atomIDUnique, "entry id \"\(id)\" is already used by the entry on line \(first); ids must be unique within a feed", at: idElement)
            } else {
                ids[id] = idElement.line
            }
        }
    }

    private func checkAtomDates(_ element: XMLElement, into problems: inout FileProblems) {
        for date in element.children where date.namespace == Namespace.atom && (date.name == "updated" || date.name == "published") {
            let text = date.text.trimmedWhitespace
            if let problem = Dates.rfc3339Problem(text, uppercaseOnly: true) {
                problems.add(.atomDate, "\(date.name) \"\(text)\" \(problem)", at: date)
            }
        }
    }

    // MARK: - Self link

    private func checkSelfLink(_ links: [XMLElement], owner: XMLElement, element: String, into problems: inout FileProblems) {
        guard let link = links.first else {
            problems.add(.feedSelfLink, "no \(element); a feed names the URL it is served from", at: owner)
            return
        }
        if links.count > 1 {
            problems.add(.feedSelfLink, "more than one \(element)", at: links[1])
        }
        if let problem = selfURLProblem(link.attribute("href") ?? "") {
            problems.add(.feedSelfLink, "\(element) href \(problem)", at: link)
        }
    }

    /// Why `url` is not where this feed is served, or `nil` when it is: the site's baseURL plus
    /// the feed's path; without a baseURL, an absolute http(s) URL ending with the feed's path.
    func selfURLProblem(_ url: String) -> String? {
        if let baseURL {
            let expected = baseURL.absoluteString + path
            return url == expected ? nil : "\"\(url)\" is not where the feed is served: \(expected)"
        }
        guard Self.isAbsoluteHTTP(url), let parsed = URL(string: url) else {
            return "\"\(url)\" is not an absolute http(s) URL"
        }
        let servedPath = parsed.path.removingPercentEncoding ?? parsed.path
        guard servedPath == "/" + path || servedPath.hasSuffix("/" + path) else {
            return "\"\(url)\" does not end with the feed's own path, \(path)"
        }
        return nil
    }

    static func isAbsoluteHTTP(_ text: String) -> Bool {
        if URLNormalizer.isNormalized(text) { return true }
        let scheme = SiteFiles.scheme(of: text)
        guard scheme == "http" || scheme == "https", !Text.containsASCIIWhitespace(text),
              let url = URL(string: text), let host = url.host, !host.isEmpty else { return false }
        return true
    }
}
