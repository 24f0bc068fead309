package import Foundation

/// Normalizes article URLs so that the same story reached through different spellings
/// matches: lowercase scheme and host, no default port, no fragment, no `utm_*`
/// parameters, no trailing slash.
package enum URLNormalizer {
    /// The normalized form of an absolute http(s) URL, or `nil` if `string` is not one.
    public static func normalize(_ string: String) -> String? {
        let trimmed = string.trimmedWhitespace
        guard var components = URLComponents(string: trimmed),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty else { return nil }
        components.scheme = scheme
        components.host = host.lowercased()
        components.fragment = nil
        if (scheme == "http" && components.port == 80) || (scheme == "https" && components.port == 443) {
            components.port = nil
        }
        if let items = components.queryItems {
            let kept = items.filter { !$0.name.lowercased().hasPrefix("utm_") }
            components.queryItems = kept.isEmpty ? nil : kept
        }
        while components.path.count > 1 && components.path.hasSuffix("/") {
            components.path.removeLast()
        }
        guard var result = components.string else { return nil }
        if components.path == "/" && components.query == nil {
            result.removeLast()
        }
        return result
    }

    /// `normalize`, remembering each URL's result.
    package struct Memo {
        private var results: [String: String?] = [:]

        package init() {}

        package mutating func normalize(_ string: String) -> String? {
            if let known = results[string] { return known }
            let result = URLNormalizer.normalize(string)
            results[string] = result
            return result
        }
    }

    /// Resolves a link found in a feed against the feed's base, keeping only http(s) results.
    /// Anything else (`javascript:`, `data:`, `file:`, garbage) is dropped.
    public static func absoluteHTTP(_ string: String?, base: URL?) -> String? {
        guard let raw = string?.trimmedWhitespace, !raw.isEmpty else { return nil }
        let resolved: URL?
        if let url = URL(string: raw), url.scheme != nil {
            resolved = url
        } else if let base, base.scheme == "http" || base.scheme == "https" {
            resolved = URL(string: raw, relativeTo: base)?.absoluteURL
        } else {
            resolved = nil
        }
        guard let url = resolved, let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else { return nil }
        return url.absoluteString
    }
}
