import Foundation
import NewsgenModel
import NewsgenXML

/// How pages show images (`SiteImages`): a story's thumbnail and lead image, and the images inside its full text.
extension SiteModelBuilder {
    /// `sizes` of a row's thumbnail: a grid cell, the whole width on a phone.
    static let thumbnailSizes = "(min-width: 64rem) 24rem, (min-width: 48rem) 50vw, 100vw"
    /// `sizes` of an image in a story page's text or at its head: the text column.
    static let storySizes = "(min-width: 48rem) 46rem, 100vw"

    /// How a page at `root` shows the image the feed gave as `url`: its `src`, and the rest when the site serves it;
    /// `nil` when the page shows none (`none`, or under `local` an image the site does not have).
    func shownImage(_ url: String?, root: String, sizes: String = thumbnailSizes) -> (src: String, set: ImageSetModel?)? {
        guard let url else { return nil }
        let linked = siteLink(url, root: root)
        switch content.images.mode {
        case .none:
            return nil
        case .remote:
            return (linked, nil)
        case .local:
            // The site's own images (a static file, or any URL under baseURL) are shown as they are.
            if linked != url || url.hasPrefix(content.config.baseURL.absoluteString) { return (linked, nil) }
            guard let made = content.images.made[url], let fallback = made.fallback else { return nil }
            let srcset = made.variants.map { "\(root)\(made.path($0)) \($0.width)w" }.joined(separator: ", ")
            return (root + made.path(fallback), ImageSetModel(srcset: srcset, sizes: sizes, width: fallback.width, height: fallback.height))
        }
    }

    /// The absolute URL of the image a share card shows: the widest the site serves under `local`, none under `none`.
    func cardImage(_ url: String?) -> String? {
        guard let url else { return nil }
        switch content.images.mode {
        case .none: return nil
        case .remote: return url
        case .local:
            if url.hasPrefix(content.config.baseURL.absoluteString) { return url }
            guard let made = content.images.made[url], let widest = made.variants.last else { return nil }
            return content.config.baseURL.absoluteString + made.path(widest)
        }
    }

    /// A story's text with its images as the page shows them: under `local` each image the site serves points to it
    /// (with `srcset`, `sizes`, `width`, `height`, lazy), the site's own static images stay, any other is left out;
    /// under `none` every image is left out. The text is the sanitizer's, so each image is one `<img …/>` element.
    func shownImages(in html: String, root: String) -> String {
        guard content.images.mode != .remote, html.contains("<img ") else { return html }
        var result = ""
        var rest = Substring(html)
        while let start = rest.range(of: "<img ") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.lowerBound...].range(of: "/>") else {
                rest = rest[start.lowerBound...]
                break
            }
            let element = rest[start.lowerBound..<end.upperBound]
            rest = rest[end.upperBound...]
            if let shown = shownImageElement(element, root: root) { result += shown }
        }
        return result + rest
    }

    private func shownImageElement(_ element: Substring, root: String) -> String? {
        guard content.images.mode == .local, let source = StoryImages.attribute("src", of: element) else { return nil }
        let url = StoryImages.unescaped(source)
        guard let shown = shownImage(url, root: root, sizes: Self.storySizes) else { return nil }
        guard let set = shown.set else { return String(element) }
        let alt = StoryImages.attribute("alt", of: element) ?? ""
        return "<img src=\"\(XMLWriter.escape(shown.src, quotes: true))\" srcset=\"\(XMLWriter.escape(set.srcset, quotes: true))\" "
            + "sizes=\"\(set.sizes)\" width=\"\(set.width)\" height=\"\(set.height)\" alt=\"\(alt)\" loading=\"lazy\"/>"
    }
}

/// The images of a story's text as the sanitizer writes them: each one `<img …/>` element, its attributes escaped.
package enum StoryImages {
    /// The `src` of every image, unescaped, in order.
    package static func sources(in html: String) -> [String] {
        guard html.contains("<img ") else { return [] }
        var sources: [String] = []
        var rest = Substring(html)
        while let start = rest.range(of: "<img ") {
            rest = rest[start.lowerBound...]
            guard let end = rest.range(of: "/>") else { break }
            if let source = attribute("src", of: rest[..<end.upperBound]) { sources.append(unescaped(source)) }
            rest = rest[end.upperBound...]
        }
        return sources
    }

    /// An attribute's value as written (still escaped) in a well-formed element.
    static func attribute(_ name: String, of element: Substring) -> Substring? {
        guard let start = element.range(of: " \(name)=\"") else { return nil }
        let value = element[start.upperBound...]
        guard let end = value.firstIndex(of: "\"") else { return nil }
        return value[..<end]
    }

    /// The text of an attribute value the sanitizer escaped.
    static func unescaped(_ value: Substring) -> String {
        guard value.contains("&") else { return String(value) }
        return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
