public import Foundation

/// The rules of a robots.txt file (RFC 9309) that apply to one crawler: the groups naming its product token, else the
/// `*` groups. A path is allowed unless its longest matching rule is a `Disallow` (an `Allow` of the same length wins);
/// `*` matches any run of characters and a final `$` the end of the path.
public struct RobotsRules: Sendable, Hashable {
    struct Rule: Sendable, Hashable {
        var allows: Bool
        var pattern: String
    }

    var rules: [Rule]

    /// Everything allowed: no robots.txt (a 4xx), or one without rules for this crawler.
    public static let allowAll = RobotsRules(rules: [])
    /// Nothing allowed: a robots.txt that could not be had (5xx, unreachable), which RFC 9309 reads as "disallow all".
    public static let disallowAll = RobotsRules(rules: [Rule(allows: false, pattern: "/")])

    init(rules: [Rule]) {
        self.rules = rules
    }

    /// The rules of `text` for the crawler whose product token is `agent` (matched case-insensitively).
    public init(parsing text: String, agent: String) {
        let agent = agent.lowercased()
        var own: [Rule] = []
        var anyone: [Rule] = []
        var naming: (own: Bool, anyone: Bool) = (false, false)
        var ownGroup = false
        // A group is a run of user-agent lines, then its rules; a user-agent line after rules starts the next group.
        var inRules = false
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard let colon = line.firstIndex(of: ":") else { continue }
            let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch field {
            case "user-agent":
                if inRules {
                    naming = (false, false)
                    inRules = false
                }
                let named = value.lowercased()
                if named == "*" {
                    naming.anyone = true
                } else if named == agent {
                    naming.own = true
                    ownGroup = true
                }
            case "allow", "disallow":
                inRules = true
                // An empty Disallow allows everything: no rule.
                guard !value.isEmpty else { continue }
                let rule = Rule(allows: field == "allow", pattern: value)
                if naming.own { own.append(rule) }
                if naming.anyone { anyone.append(rule) }
            default:
                // Sitemap, Crawl-delay and unknown lines belong to no group and end none.
                continue
            }
        }
        rules = ownGroup ? own : anyone
    }

    /// Whether the crawler may fetch `url`.
    public func allows(_ url: URL) -> Bool {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.fragment = nil
        let path = (components?.percentEncodedPath).flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        let target = components?.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
        return allows(path: target)
    }

    /// Whether the crawler may fetch `path` (with its query, percent-encoded as sent).
    func allows(path: String) -> Bool {
        var best: Rule?
        for rule in rules where Self.matches(rule.pattern, path) {
            if let current = best {
                if rule.pattern.count > current.pattern.count || (rule.pattern.count == current.pattern.count && rule.allows) {
                    best = rule
                }
            } else {
                best = rule
            }
        }
        return best?.allows ?? true
    }

    /// Whether `pattern` matches the start of `path` (the whole of it with a final `$`).
    static func matches(_ pattern: String, _ path: String) -> Bool {
        var pattern = Substring(pattern)
        let anchored = pattern.hasSuffix("$")
        if anchored { pattern = pattern.dropLast() }
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
        var rest = Substring(path)
        for (index, piece) in pieces.enumerated() {
            if index == 0 {
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
            } else if index == pieces.count - 1 && anchored {
                return rest.hasSuffix(piece)
            } else if !piece.isEmpty {
                guard let found = rest.range(of: piece) else { return false }
                rest = rest[found.upperBound...]
            }
        }
        return !anchored || rest.isEmpty
    }
}
