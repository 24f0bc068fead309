package import Foundation
package import NewsgenModel

/// A feed that was fetched and read: what `newsgen add` reports and adds.
package struct DiscoveredFeed: Sendable, Hashable {
    package var url: URL
    package var format: FeedFormat
    /// The feed's own title, when it gives one.
    package var title: String?
    package var itemCount: Int
}

/// Why no one feed could be chosen for a URL.
package enum DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The page (or feed) itself could not be fetched.
    case unreachable(URL, reason: String)
    /// Neither the page nor any address tried is a feed newsgen can read.
    case noFeed(URL, tried: [Attempt])
    /// The page links to more than one readable feed.
    case severalFeeds(URL, [DiscoveredFeed])

    /// An address tried, and why it is not the feed.
    package struct Attempt: Sendable, Equatable {
        package var url: URL
        package var reason: String
    }

    package var description: String {
        switch self {
        case .unreachable(let url, let reason):
            return "cannot fetch \(url.absoluteString): \(reason)"
        case .noFeed(let url, let tried):
            // Addresses that failed alike share their reason: `…/feed, …/rss (HTTP 404)`.
            var groups: [(reason: String, urls: [String])] = []
            for attempt in tried {
                if let index = groups.firstIndex(where: { $0.reason == attempt.reason }) {
                    groups[index].urls.append(attempt.url.absoluteString)
                } else {
                    groups.append((attempt.reason, [attempt.url.absoluteString]))
                }
            }
            let list = groups.map { "\($0.urls.joined(separator: ", ")) (\($0.reason))" }.joined(separator: "; ")
            return "found no feed for \(url.absoluteString); tried \(list)"
        case .severalFeeds(let url, let feeds):
            let list = feeds.map { "\($0.title.map { "\"\($0)\" " } ?? "")\($0.url.absoluteString)" }.joined(separator: ", ")
            return "\(url.absoluteString) links to \(feeds.count) feeds: \(list); run again with the URL of the one to add"
        }
    }
}

/// Finds the feed of a page or feed URL for `newsgen add`: the URL itself if a feed, else the page's
/// `<link rel="alternate">` feeds, else common feed paths on the same origin. Every candidate is fetched with
/// `HTTPFetcher` (deadline, size cap, redirect limit) and must read as a feed.
package struct FeedDiscovery: Sendable {
    /// Where sites commonly serve their feed, tried in this order when a page links to none.
    package static let commonPaths = ["/feed", "/feed/", "/rss", "/rss.xml", "/atom.xml", "/feed.xml", "/index.xml", "/feed.json"]
    /// The most feed links of one page that are fetched.
    static let maximumLinks = 10

    package var http: HTTPFetcher

    package init(http: HTTPFetcher) {
        self.http = http
    }

    package func discover(_ url: URL) async throws(DiscoveryError) -> DiscoveredFeed {
        let page: Data
        switch await fetch(url) {
        case .success(let body): page = body
        case .failure(let reason): throw .unreachable(url, reason: reason.text)
        }
        let direct: String
        switch read(page, from: url) {
        case .success(let feed): return feed
        case .failure(let reason): direct = reason.text
        }
        var tried = [DiscoveryError.Attempt(url: url, reason: direct)]
        let links = FeedLinks.find(inHTML: page, page: url).prefix(Self.maximumLinks)
        if !links.isEmpty {
            var feeds: [DiscoveredFeed] = []
            for link in links {
                switch await candidate(link.url) {
                case .success(var feed):
                    if feed.title == nil { feed.title = link.title }
                    feeds.append(feed)
                case .failure(let reason):
                    tried.append(.init(url: link.url, reason: reason.text))
                }
            }
            if feeds.count == 1 { return feeds[0] }
            if feeds.count > 1 { throw .severalFeeds(url, feeds) }
            throw .noFeed(url, tried: tried)
        }
        for path in Self.commonPaths {
            guard let guess = Self.sameOrigin(url, path: path) else { continue }
            switch await candidate(guess) {
            case .success(let feed): return feed
            case .failure(let reason): tried.append(.init(url: guess, reason: reason.text))
            }
        }
        throw .noFeed(url, tried: tried)
    }

    static func sameOrigin(_ url: URL, path: String) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        components.path = path
        components.query = nil
        components.fragment = nil
        return components.url
    }

    private func candidate(_ url: URL) async -> Result<DiscoveredFeed, Reason> {
        switch await fetch(url) {
        case .success(let body): read(body, from: url)
        case .failure(let reason): .failure(reason)
        }
    }

    /// Why an address is not the feed, as a phrase (`HTTP 404`, `not an RSS, Atom or JSON feed …`).
    private struct Reason: Error, Sendable {
        var text: String
    }

    private func fetch(_ url: URL) async -> Result<Data, Reason> {
        do throws(HTTPFetchError) {
            let response = try await http.get(url)
            guard (200...299).contains(response.status) else { return .failure(Reason(text: "HTTP \(response.status)")) }
            return .success(response.body)
        } catch {
            return .failure(Reason(text: error.description))
        }
    }

    private func read(_ body: Data, from url: URL) -> Result<DiscoveredFeed, Reason> {
        do throws(FeedError) {
            let feed = try FeedParser.parse(body, url: url.absoluteString, limits: .within(seconds: http.timeout.seconds))
            let title = feed.title.map { Text.collapsingWhitespace($0) }.flatMap { $0.isEmpty ? nil : $0 }
            return .success(DiscoveredFeed(url: url, format: feed.format, title: title, itemCount: feed.items.count))
        } catch {
            return .failure(Reason(text: error.description))
        }
    }
}
