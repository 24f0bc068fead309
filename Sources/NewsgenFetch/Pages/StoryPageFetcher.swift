public import Foundation
public import NewsgenModel

/// A story's own page, fetched to extract its full text.
public struct StoryPage: Sendable {
    public var bytes: [UInt8]
    /// Where the page came from, after redirects.
    public var url: URL
    /// The charset the Content-Type names, if any.
    public var charset: String?
}

/// Why a story's page was not had. `isLasting` problems stay the same on the next try (the page is never asked for
/// again while the story's link stays the same); the others may pass.
public enum StoryPageProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// robots.txt disallows the page for newsgen's user agent.
    case disallowedByRobots
    /// The host's robots.txt could not be had (a 5xx or no answer), which forbids fetching from it for now.
    case robotsUnavailable(String)
    /// The page is not HTML (a PDF, an image, a feed).
    case notHTML(contentType: String)
    case status(Int)
    case transport(HTTPFetchError)

    public var isLasting: Bool {
        switch self {
        case .disallowedByRobots, .notHTML: true
        case .robotsUnavailable: false
        case .status(let status): (400...499).contains(status) && status != 408 && status != 429
        case .transport(let failure):
            switch failure {
            case .tooLarge, .tooManyRedirects, .badEncoding: true
            case .timedOut, .connection: false
            }
        }
    }

    public var description: String {
        switch self {
        case .disallowedByRobots: "the site's robots.txt disallows it for newsgen"
        case .robotsUnavailable(let reason): "the site's robots.txt could not be read (\(reason)), so nothing is fetched from it"
        case .notHTML(let type): "it is not an HTML page (\(type.isEmpty ? "no Content-Type" : type))"
        case .status(let status): "HTTP \(status)"
        case .transport(let failure): failure.description
        }
    }
}

/// Fetches stories' own pages politely: robots.txt honoured for newsgen's user agent (read once per site and build), HTML
/// only (other types are refused before their body is read), the body capped by the fetcher's `maximumBytes`, no retry.
/// Connections per host are limited by the fetcher's client; the caller bounds how many pages it asks for at once.
public struct StoryPageFetcher: Sendable {
    public var http: HTTPFetcher
    private let robots = RobotsFiles()

    /// The product token robots.txt groups name (`User-agent: newsgen`).
    public static let robotsAgent = "newsgen"
    /// The most bytes of a story page read.
    public static let maximumPageBytes = 5 * 1_048_576

    public init(http: HTTPFetcher) {
        self.http = http
    }

    /// A fetcher with its own HTTP client, capped at `maximumPageBytes`; `shutdown()` releases it.
    public init() {
        self.init(http: HTTPFetcher(maximumBytes: Self.maximumPageBytes))
    }

    public func shutdown() async throws {
        try await http.shutdown()
    }

    public func page(at url: URL, timeout: Duration) async throws(StoryPageProblem) -> StoryPage {
        let rules = try await robots.rules(for: url, timeout: timeout, http: http)
        guard rules.allows(url) else { throw .disallowedByRobots }
        let response: HTTPResponse
        do {
            response = try await http.get(url, headers: [("Accept", "text/html,application/xhtml+xml;q=0.9")], timeout: timeout) { status, headers in
                (200...299).contains(status) && Self.isHTML(Self.contentType(in: headers))
            }
        } catch {
            throw .transport(error)
        }
        guard (200...299).contains(response.status) else { throw .status(response.status) }
        let type = Self.contentType(in: response.headers)
        guard Self.isHTML(type) else { throw .notHTML(contentType: type) }
        // A redirect may lead elsewhere: the page finally fetched must be allowed too.
        let finalURL = response.url ?? url
        if finalURL.host != url.host {
            guard try await robots.rules(for: finalURL, timeout: timeout, http: http).allows(finalURL) else { throw .disallowedByRobots }
        }
        return StoryPage(bytes: [UInt8](response.body), url: finalURL, charset: Self.charset(of: type))
    }

    static func contentType(in headers: [(name: String, value: String)]) -> String {
        headers.first { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value ?? ""
    }

    /// HTML, XHTML, or no type at all (left to the extractor to judge).
    static func isHTML(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return media.isEmpty || media == "text/html" || media == "application/xhtml+xml"
    }

    /// The `charset` parameter of a Content-Type, unquoted.
    static func charset(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\"'")))
            return value.isEmpty ? nil : value
        }
        return nil
    }
}

/// Each site's robots.txt, fetched once per fetcher (one build) however many of its pages are asked for at once.
private actor RobotsFiles {
    private var rules: [String: Task<Result<RobotsRules, StoryPageProblem>, Never>] = [:]

    /// The most bytes of robots.txt read (RFC 9309 asks crawlers to read at least 500 KiB).
    static let maximumBytes = 512 * 1024

    func rules(for url: URL, timeout: Duration, http: HTTPFetcher) async throws(StoryPageProblem) -> RobotsRules {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return .allowAll }
        let origin = "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")"
        let task = rules[origin] ?? Task { await Self.fetch(origin: origin, timeout: timeout, http: http) }
        rules[origin] = task
        return try await task.value.get()
    }

    /// RFC 9309: a 4xx means no rules; a 5xx or no answer means nothing may be fetched.
    private static func fetch(origin: String, timeout: Duration, http: HTTPFetcher) async -> Result<RobotsRules, StoryPageProblem> {
        guard let url = URL(string: origin + "/robots.txt") else { return .success(.allowAll) }
        do {
            let response = try await http.get(url, timeout: timeout) { status, _ in (200...299).contains(status) }
            switch response.status {
            case 200...299:
                let bytes = response.body.prefix(maximumBytes)
                let text = String(decoding: bytes, as: UTF8.self)
                return .success(RobotsRules(parsing: text, agent: StoryPageFetcher.robotsAgent))
            case 400...499:
                return .success(.allowAll)
            default:
                return .failure(.robotsUnavailable("HTTP \(response.status)"))
            }
        } catch .tooLarge {
            // More rules than anyone needs: read as none rather than guessed at.
            return .failure(.robotsUnavailable("larger than the fetcher's limit"))
        } catch {
            return .failure(.robotsUnavailable(error.description))
        }
    }
}
