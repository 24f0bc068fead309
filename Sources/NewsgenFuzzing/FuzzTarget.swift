public import Foundation
import NewsgenConfig
import NewsgenFetch
import NewsgenModel
import NewsgenXML

/// The readers of untrusted bytes that the fuzz targets in Fuzz/ drive. Each entry runs one input through the code a build
/// runs on it and checks what must hold for every input; a crash, hang or failed check is a bug. The regression tests run
/// the kept inputs (Fuzz/Regressions/<target>/) through the same entries.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// RSS 2.0, RSS 1.0, Atom 1.0 and JSON Feed, read as a local feed source is, then the articles a page shows.
    case feed
    /// The `news` / NewsAPI JSON payload, read as a local `json` source is.
    case newsJSON = "news-json"
    /// The lenient feed date parser and the strict RFC 822 / RFC 3339 checks.
    case date
    /// HTML found in feeds: HTML-to-text, the first image, and the sanitizer.
    case html
    /// site.json.
    case siteConfig = "site-config"
    /// saved.json.
    case savedLists = "saved-lists"

    /// Runs one input; returns a sentence when a check failed.
    public func run(_ data: Data) async -> String? {
        switch self {
        case .feed: await source(data, kind: { .feed(.file($0)) }, provider: FeedProvider(http: nil, articlesPerSource: 50))
        case .newsJSON: await source(data, kind: { .json(.file($0)) }, provider: JSONNewsProvider(http: nil, articlesPerSource: 50))
        case .date: Self.date(data)
        case .html: Self.html(data)
        case .siteConfig: Self.siteConfig(data)
        case .savedLists: Self.savedLists(data)
        }
    }

    /// A scratch folder of this process's own for the inputs that are read as files.
    private static let scratch: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("newsgen-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// Runs one input on this thread, for libFuzzer's synchronous entry point; never call it from a task (it blocks its
    /// thread until the work, run on Swift's pool, is done).
    public func runBlocking(_ data: Data) -> String? {
        let done = DispatchSemaphore(value: 0)
        let box = Box()
        Task {
            box.problem = await run(data)
            done.signal()
        }
        done.wait()
        return box.problem
    }

    private final class Box: @unchecked Sendable {
        var problem: String?
    }

    private func source(_ data: Data, kind: (URL) -> SourceConfig.Kind, provider: some SourceProvider) async -> String? {
        let file = Self.scratch.appendingPathComponent(rawValue)
        do {
            try data.write(to: file)
        } catch {
            return nil  // the machine, not the input
        }
        let request = FetchRequest(source: SourceConfig(id: "fuzz", kind: kind(file)))
        let outcome = try? await provider.fetch(request)
        guard case .fetched(let content)? = outcome else { return nil }
        if content.articles.count > 50 {
            return "\(content.articles.count) articles from one source, more than articlesPerSource (50)"
        }
        for article in content.articles {
            for (name, text) in [("title", article.title), ("summary", article.summary)] {
                if text.unicodeScalars.contains(where: { !Text.isAllowedInXML($0) }) {
                    return "an article's \(name) holds a character XML forbids: \(text.debugDescription)"
                }
            }
        }
        return nil
    }

    private static func date(_ data: Data) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        _ = Dates.rfc822Problem(text)
        _ = Dates.rfc3339Problem(text, uppercaseOnly: false)
        guard let date = Dates.parse(text) else { return nil }
        guard date.timeIntervalSinceReferenceDate.isFinite else { return "\(text.debugDescription) parsed to a date that is not finite" }
        _ = Dates.readable(date)
        _ = Dates.readableDay(date)
        return nil
    }

    private static func html(_ data: Data) -> String? {
        let html = String(decoding: data, as: UTF8.self)
        let text = HTMLText.plainText(fromHTML: html)
        if Text.collapsingWhitespace(text) != text {
            return "HTMLText's text of \(html.debugDescription) is not collapsed: \(text.debugDescription)"
        }
        _ = HTMLText.firstImageSource(inHTML: html)
        // The sanitizer, as article pages use it on full text: what it keeps never scripts.
        if let clean = HTMLSanitizer.sanitize(html: html, base: "https://example.com/feed/") {
            // Well-formed XML with no element that runs or embeds anything, no event handler, no non-http(s) URL.
            // (Text may say `href="javascript:`: it is escaped text, not an attribute.)
            let wrapped = Data("<div>\(clean)</div>".utf8)
            // Held to no cap: the output of an input within the caps is what is checked.
            let unlimited = DocumentLimits(elements: .max, attributesPerElement: .max, expansionFloor: .max, expansionCeiling: .max)
            guard let (root, diagnostics) = try? LibXML.parseXML(Array(wrapped), url: "sanitized.html", recover: false, limits: unlimited) else {
                return "the sanitizer's output of \(html.debugDescription) could not be read: \(clean.debugDescription)"
            }
            guard let root else {
                return "the sanitizer's output of \(html.debugDescription) is not well-formed (\(diagnostics.first?.message ?? "")): \(clean.debugDescription)"
            }
            if let problem = unsafe(root) {
                return "the sanitizer kept \(problem) of \(html.debugDescription): \(clean.debugDescription)"
            }
        }
        return nil
    }

    /// The first thing in `element` or below that could run script or load a non-http(s) URL.
    private static func unsafe(_ element: XMLElement) -> String? {
        let name = element.name.lowercased()
        if ["script", "iframe", "object", "embed", "form", "style", "svg", "math", "frame", "frameset", "applet", "base", "meta", "link"].contains(name) {
            return "<\(name)>"
        }
        for attribute in element.attributes {
            let key = attribute.name.lowercased()
            if key.hasPrefix("on") || key == "style" || key == "srcdoc" { return "\(key)=" }
            let value = String(attribute.value.unicodeScalars.filter { $0.value > 0x20 }).lowercased()
            if ["href", "src", "cite", "action", "formaction", "background", "poster", "longdesc", "usemap", "data"].contains(key),
               !(value.hasPrefix("http://") || value.hasPrefix("https://")) {
                return "\(key)=\(attribute.value.debugDescription)"
            }
        }
        for child in element.children {
            if let problem = unsafe(child) { return problem }
        }
        return nil
    }

    private static func siteConfig(_ data: Data) -> String? {
        let file = scratch.appendingPathComponent("site.json")
        _ = try? SiteConfig.decode(data, file: file)
        return nil
    }

    private static func savedLists(_ data: Data) -> String? {
        _ = try? SavedFile.reading(data, file: "saved.json")
        return nil
    }
}
