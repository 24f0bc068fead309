import Foundation
import NewsgenModel

/// The files of the folder being validated, for resolving page links as check-site and a static web server do.
struct SiteFiles: Sendable {
    /// Paths relative to the root, with "/" between components.
    let files: Set<String>
    let directories: Set<String>

    init(files: [String]) {
        self.init(SiteLayout(files: files))
    }

    init(_ layout: SiteLayout) {
        files = layout.files
        directories = layout.folders
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

    /// Resolves a reference on the page at `page`. Query and fragment are ignored, percent-escapes decoded, and a folder
    /// means its index.html.
    func resolve(_ reference: String, from page: String) -> Target {
        var reference = reference
        if let first = reference.utf8.first, let last = reference.utf8.last, Self.mayBeWhitespace(first) || Self.mayBeWhitespace(last) {
            reference = reference.trimmedWhitespace
        }
        return reference.withUTF8 { resolve(utf8: $0, from: page) }
    }

    func resolve(_ reference: UnsafeBufferPointer<UInt8>, from page: String) -> Target {
        if let first = reference.first, let last = reference.last, Self.mayBeWhitespace(first) || Self.mayBeWhitespace(last) {
            return resolve(String(decoding: reference, as: UTF8.self), from: page)
        }
        return resolve(utf8: reference, from: page)
    }

    /// Whether a byte may begin or end white space: ASCII white space or any byte of a multi-byte character.
    private static func mayBeWhitespace(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
    }

    private static let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")

    private func resolve(utf8 reference: UnsafeBufferPointer<UInt8>, from page: String) -> Target {
        let hash = UInt8(ascii: "#"), question = UInt8(ascii: "?")
        guard let first = reference.first, first != hash, first != question else { return .none }
        if reference.count > 1 && first == Self.slash && reference[1] == Self.slash { return .none }
        if let scheme = Self.scheme(of: reference) { return .external(scheme: scheme) }
        let end = reference.firstIndex { $0 == question || $0 == hash } ?? reference.endIndex
        let path = UnsafeBufferPointer(rebasing: reference[..<end])
        if path.isEmpty { return .none }
        guard path.contains(UInt8(ascii: "%")) else { return resolve(path: path, from: page) }
        let rawPath = String(decoding: path, as: UTF8.self)
        guard var decoded = rawPath.removingPercentEncoding else { return .missing(rawPath) }
        return decoded.withUTF8 { resolve(path: $0, from: page) }
    }

    /// Resolves a path without query, fragment or percent-escapes.
    private func resolve(path: UnsafeBufferPointer<UInt8>, from page: String) -> Target {
        var page = page
        return page.withUTF8 { resolve(path: path, fromPage: $0) }
    }

    private func resolve(path: UnsafeBufferPointer<UInt8>, fromPage page: UnsafeBufferPointer<UInt8>) -> Target {
        let slash = Self.slash, dot = Self.dot
        var target: [UInt8] = []
        target.reserveCapacity(page.count + path.count + 1)
        if path.first != slash, let end = page.lastIndex(of: slash) {
            target.append(contentsOf: UnsafeBufferPointer(rebasing: page[..<end]))
        }
        var start = 0
        while start < path.count {
            var end = start
            while end < path.count && path[end] != slash { end += 1 }
            switch end - start {
            case 0:
                break
            case 1 where path[start] == dot:
                break
            case 2 where path[start] == dot && path[start + 1] == dot:
                if target.isEmpty { return .outside }
                var last = target.count - 1
                while last > 0 && target[last] != slash { last -= 1 }
                target.removeLast(target.count - last)
            default:
                if !target.isEmpty { target.append(slash) }
                target.append(contentsOf: UnsafeBufferPointer(rebasing: path[start..<end]))
            }
            start = end + 1
        }
        var resolved = String(decoding: target, as: UTF8.self)
        // A path names a file or a folder, never both; try the file first.
        let namesFolder = Self.namesFolder(path)
        if !namesFolder && files.contains(resolved) { return .file(resolved) }
        if namesFolder || directories.contains(resolved) {
            resolved = resolved.isEmpty ? "index.html" : resolved + "/index.html"
        }
        return files.contains(resolved) ? .file(resolved) : .missing(resolved)
    }

    /// Whether a path names a folder by its form: it ends in "/", "/." or "/..", or is "." or "..".
    private static func namesFolder(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        var dots = 0
        for byte in path.reversed() {
            if byte == slash { return true }
            guard byte == dot, dots < 2 else { return false }
            dots += 1
        }
        return dots > 0
    }

    /// The scheme of an absolute URL (`[A-Za-z][A-Za-z0-9+.-]*:`), lowercased.
    static func scheme(of reference: String) -> String? {
        var reference = reference
        return reference.withUTF8 { scheme(of: $0) }
    }

    private static func scheme(of reference: UnsafeBufferPointer<UInt8>) -> String? {
        var length = 0
        for byte in reference {
            if byte == UInt8(ascii: ":") { break }
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isOther = (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            guard isLetter || (length > 0 && isOther) else { return nil }
            length += 1
        }
        guard length > 0, length < reference.count else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: reference[..<length]), as: UTF8.self).lowercased()
    }
}
