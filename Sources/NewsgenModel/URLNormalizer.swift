package import Foundation

/// Normalizes article URLs so spellings of one story match: lowercase scheme and host, no default port, fragment,
/// `utm_*` parameters or trailing slash.
package enum URLNormalizer {
    /// The normalized form of an absolute http(s) URL, or `nil` if `string` is not one.
    public static func normalize(_ string: String) -> String? {
        if isNormalized(string) { return string }
        return normalizeByComponents(string)
    }

    /// Whether `string` is certainly its own normalized form (and Foundation's URL would agree): "http://" or
    /// "https://", a lowercase host of letters, digits, dots and hyphens, and a path of unreserved characters with no
    /// "." segment or trailing "/"; no port, user, query, fragment or escape. Anything else goes to URLComponents (a
    /// test checks both agree). Lets readers and checks skip parsing most links.
    package static func isNormalized(_ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable(isNormalized) ?? Array(string.utf8).withUnsafeBufferPointer(isNormalized)
    }

    private static func isNormalized(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start: Int
        if bytes.starts(with: "https://".utf8) {
            start = 8
        } else if bytes.starts(with: "http://".utf8) {
            start = 7
        } else {
            return false
        }
        var slash = start
        while slash < bytes.count, bytes[slash] != UInt8(ascii: "/") { slash += 1 }
        // A host, and a path of more than "/" that does not end in "/".
        guard slash > start, slash + 1 < bytes.count, bytes[bytes.count - 1] != UInt8(ascii: "/") else { return false }
        for index in start..<slash {
            switch bytes[index] {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): continue
            default: return false
            }
        }
        var previous: UInt8 = 0
        for index in slash..<bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                break
            case UInt8(ascii: "."):
                if previous == UInt8(ascii: "/") { return false }
            default:
                return false
            }
            previous = byte
        }
        return true
    }

    /// `normalize` through URLComponents, for any string.
    static func normalizeByComponents(_ string: String) -> String? {
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

    /// Resolves a feed link against its base, keeping only http(s) results (no `javascript:`, `data:`, `file:`, garbage).
    public static func absoluteHTTP(_ string: String?, base: URL?) -> String? {
        guard let raw = string?.trimmedWhitespace, !raw.isEmpty else { return nil }
        return isNormalized(raw) ? raw : absoluteHTTPByURL(raw, base: base)
    }

    /// `absoluteHTTP` through Foundation's URL, for any trimmed, non-empty string.
    static func absoluteHTTPByURL(_ raw: String, base: URL?) -> String? {
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

    /// The host of an absolute URL, as Foundation's URL gives it.
    package static func host(of string: String) -> String? {
        guard isNormalized(string) else { return URL(string: string)?.host }
        let afterScheme = string.utf8.dropFirst(string.utf8.starts(with: "https://".utf8) ? 8 : 7)
        return String(afterScheme.prefix { $0 != UInt8(ascii: "/") })
    }
}
