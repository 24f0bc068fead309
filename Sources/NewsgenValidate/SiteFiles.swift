import Foundation

/// The files of the folder being validated, to resolve the links of its pages against, the
/// way ../shared/tools/check-site and a static web server do.
struct SiteFiles: Sendable {
    /// Paths relative to the root, with "/" between components.
    let files: Set<String>
    let directories: Set<String>

    init(files: [String]) {
        self.files = Set(files)
        var directories: Set<String> = [""]
        for file in files {
            var components = file.split(separator: "/").dropLast()
            while !components.isEmpty {
                directories.insert(components.joined(separator: "/"))
                components = components.dropLast()
            }
        }
        self.directories = directories
    }

    /// Where an `href` or `src` leads.
    enum Target: Equatable {
        /// Nothing to resolve: empty, only a fragment or a query, or a protocol-relative URL.
        case none
        /// An absolute URL with this scheme (lowercased), such as "https".
        case external(scheme: String)
        /// A file of the site (the path relative to the root).
        case file(String)
        /// A local path that names no file of the site.
        case missing(String)
        /// A local path that climbs above the root.
        case outside
    }

    /// Resolves a reference found on the page at `page` (a path relative to the root).
    /// Query and fragment are ignored, percent-escapes decoded, and a folder means its index.html.
    func resolve(_ reference: String, from page: String) -> Target {
        // Pages hold thousands of links; most are absolute, so the cheap tests come first.
        var reference = reference
        if reference.first?.isWhitespace == true || reference.last?.isWhitespace == true {
            reference = reference.trimmedWhitespace
        }
        if reference.isEmpty || reference.hasPrefix("#") || reference.hasPrefix("?") { return .none }
        if reference.hasPrefix("//") { return .none }
        if let scheme = Self.scheme(of: reference) { return .external(scheme: scheme) }
        let rawPath = String(reference.prefix { $0 != "?" && $0 != "#" })
        if rawPath.isEmpty { return .none }
        guard let path = rawPath.contains("%") ? rawPath.removingPercentEncoding : rawPath else { return .missing(rawPath) }
        // The target is built in one byte buffer: pages hold thousands of relative links, and a
        // String per path component made this the largest part of validating a page.
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var target: [UInt8] = []
        target.reserveCapacity(page.utf8.count + path.utf8.count)
        if path.utf8.first != slash, let end = page.utf8.lastIndex(of: slash) {
            target.append(contentsOf: page.utf8[..<end])
        }
        for component in path.utf8.split(separator: slash, omittingEmptySubsequences: true) {
            if component.count == 1 && component.first == dot { continue }
            if component.count == 2 && component.allSatisfy({ $0 == dot }) {
                if target.isEmpty { return .outside }
                target.removeSubrange((target.lastIndex(of: slash) ?? 0)...)
                continue
            }
            if !target.isEmpty { target.append(slash) }
            target.append(contentsOf: component)
        }
        var resolved = String(decoding: target, as: UTF8.self)
        let namesFolder = path.hasSuffix("/") || path.hasSuffix("/.") || path.hasSuffix("/..") || path == "." || path == ".."
        if namesFolder || directories.contains(resolved) {
            resolved = resolved.isEmpty ? "index.html" : resolved + "/index.html"
        }
        return files.contains(resolved) ? .file(resolved) : .missing(resolved)
    }

    /// The scheme of an absolute URL (`[A-Za-z][A-Za-z0-9+.-]*:`), lowercased.
    static func scheme(of reference: String) -> String? {
        var length = 0
        for byte in reference.utf8 {
            if byte == UInt8(ascii: ":") { break }
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isOther = (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            guard isLetter || (length > 0 && isOther) else { return nil }
            length += 1
        }
        guard length > 0, length < reference.utf8.count else { return nil }
        return String(reference.utf8.prefix(length))?.lowercased()
    }
}
