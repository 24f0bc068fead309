import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenXML
@testable import NewsgenValidate
@testable import NewsgenRender
import NewsgenTestSupport

/// What a screen reader, a keyboard or a phone meets on the sample site built with the default
/// theme (axe-core's own run is ../shared/tools/check-a11y, in .ci/run).
@Suite("Accessibility of the default theme")
struct AccessibilityTests {
    /// One page of the built site, parsed.
    struct Page {
        /// Relative to the output folder, such as "sources/touchline/index.html".
        var path: String
        var root: XMLElement

        /// The folder the page is served as, with a trailing slash ("sources/touchline/"; "" for the home page).
        var folder: String { String(path.dropLast("index.html".count)) }

        func all(_ predicate: (XMLElement) -> Bool) -> [XMLElement] {
            var found: [XMLElement] = []
            func visit(_ element: XMLElement) {
                if predicate(element) { found.append(element) }
                element.children.forEach(visit)
            }
            visit(root)
            return found
        }

        func all(_ name: String) -> [XMLElement] { all { $0.name == name } }

        var ids: Set<String> { Set(all { $0.attribute("id") != nil }.compactMap { $0.attribute("id") }) }
    }

    static func pages() async throws -> [Page] {
        let (output, _) = try await SampleSiteValidationTests.buildSample()
        let paths = SiteValidator.regularFiles(below: output).map(\.path).filter { $0.hasSuffix(".html") }
        return try paths.map { path in
            let data = try Data(contentsOf: output.appendingPathComponent(path))
            let parsed = try LibXML.parseXML(Array(data), url: path, recover: false)
            let root = try #require(parsed.root, "\(path) is not well-formed: \(parsed.diagnostics.map(\.description))")
            return Page(path: path, root: root)
        }
    }

    /// The text a screen reader reads for an element: `aria-label`, else its text without the
    /// parts marked `aria-hidden`, with white space collapsed.
    static func accessibleName(_ element: XMLElement) -> String {
        if let label = element.attribute("aria-label") { return label }
        func text(_ element: XMLElement) -> String {
            if element.attribute("aria-hidden") == "true" { return "" }
            return element.nodes.map { node in
                switch node {
                case .text(let text): text
                case .element(let child): text(child)
                }
            }.joined()
        }
        return text(element).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func hasClass(_ element: XMLElement, _ name: String) -> Bool {
        (element.attribute("class") ?? "").split(separator: " ").contains { $0 == name }
    }

    @Test("every page starts with a skip link to its main content, whose target exists")
    func skipLink() async throws {
        let pages = try await Self.pages()
        #expect(pages.count > 50)
        for page in pages {
            let body = try #require(page.root.child("body"), "\(page.path)")
            let first = try #require(body.children.first, "\(page.path)")
            #expect(first.name == "a" && Self.accessibleName(first) == "Skip to content", "\(page.path): the first thing in <body> is the skip link")
            let target = try #require(first.attribute("href"), "\(page.path)")
            #expect(target.hasPrefix("#") && page.ids.contains(String(target.dropFirst())), "\(page.path): \(target) names no element")
            #expect(page.all("main").first?.attribute("id") == String(target.dropFirst()), "\(page.path): it skips to <main>")
        }
    }

    @Test("aria-current=page marks only the tab that links to the page itself")
    func currentTab() async throws {
        let tabPages: [String: String] = [
            "index.html": "Headlines", "sources/index.html": "Sources",
            "favorites/index.html": "Favorites", "read-later/index.html": "Read Later",
            "archive/index.html": "Archive", "tags/index.html": "Tags",
        ]
        for page in try await Self.pages() {
            let marked = page.all { $0.attribute("aria-current") != nil }
            if let tab = tabPages[page.path] {
                #expect(marked.map(Self.accessibleName) == [tab], "\(page.path)")
                #expect(marked.first?.attribute("aria-current") == "page")
                let href = try #require(marked.first?.attribute("href"))
                let resolved = URL(string: href, relativeTo: URL(string: "https://site.test/" + page.folder))?.absoluteString
                #expect(resolved == "https://site.test/" + page.folder, "\(page.path): the current tab links to \(href)")
            } else {
                #expect(marked.isEmpty, "\(page.path) is no tab's page, yet marks \(marked.map(Self.accessibleName))")
            }
        }
    }

    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    @Test("headings go down one level at a time, from the one <h1>")
    func headingLevels() async throws {
        for page in try await Self.pages() {
            let levels = page.all { Self.headings.contains($0.name) }.compactMap { Int($0.name.dropFirst()) }
            #expect(levels.first == 1, "\(page.path) starts with h\(levels.first ?? 0)")
            #expect(levels.filter { $0 == 1 }.count == 1, "\(page.path)")
            for (previous, next) in zip(levels, levels.dropFirst()) where next > previous + 1 {
                Issue.record("\(page.path): h\(previous) is followed by h\(next)")
            }
        }
    }

    @Test("story images are decorative: the headline beside them is not read twice")
    func decorativeImages() async throws {
        var rowImages = 0
        for page in try await Self.pages() {
            for row in page.all({ $0.name == "li" && Self.hasClass($0, "story") }) {
                let headline = try #require(row.firstDescendant { Self.hasClass($0, "headline") }, "\(page.path): a row without a headline")
                for image in Page(path: page.path, root: row).all("img") {
                    rowImages += 1
                    #expect(image.attribute("alt") == "", "\(page.path): the image of \"\(Self.accessibleName(headline))\" has alt=\"\(image.attribute("alt") ?? "(none)")\"")
                }
            }
            for hero in page.all({ $0.name == "img" && Self.hasClass($0, "hero") }) {
                #expect(hero.attribute("alt") == "", "\(page.path): the hero repeats the <h1>")
            }
        }
        #expect(rowImages > 20, "the sample rows have images")
    }

    @Test("every link says where it goes: no bare \"Details\", no bare \"↗\", none empty")
    func linkNames() async throws {
        var details = 0
        var homepages = 0
        for page in try await Self.pages() {
            for link in page.all("a") {
                let name = Self.accessibleName(link)
                #expect(!["", "Details", "↗"].contains(name), "\(page.path): a link named \"\(name)\" to \(link.attribute("href") ?? "")")
                if Self.hasClass(link, "details") {
                    details += 1
                    #expect(name.hasPrefix("Details: ") && name.count > "Details: ".count + 3, "\(page.path): \(name)")
                }
                if Self.hasClass(link, "homepage") {
                    homepages += 1
                    #expect(name.hasPrefix("Website of "), "\(page.path): \(name)")
                }
            }
        }
        #expect(details > 100, "the rows still link their article's page")
        #expect(homepages > 0, "the Sources table still links the sources' websites")
    }

    @Test("saved dates are <time datetime> elements")
    func savedDates() async throws {
        var count = 0
        for page in try await Self.pages() where ["favorites/index.html", "read-later/index.html"].contains(page.path) {
            for saved in page.all({ Self.hasClass($0, "saved-at") }) {
                count += 1
                let time = try #require(saved.child("time"), "\(page.path): \(saved.text)")
                #expect(saved.text.hasPrefix("Saved "))
                #expect(time.attribute("datetime").flatMap(Dates.parse) != nil, "\(page.path): datetime=\(time.attribute("datetime") ?? "(none)")")
            }
        }
        #expect(count >= 4, "Samples/saved.json has four entries with savedAt")
    }

    @Test("the Sources tables scroll in a labelled, focusable region instead of widening the page")
    func sourcesTable() async throws {
        let pages = try await Self.pages()
        let sources = try #require(pages.first { $0.path == "sources/index.html" })
        let tables = sources.all("table")
        #expect(!tables.isEmpty)
        let regions = sources.all { $0.attribute("role") == "region" }
        #expect(regions.count == tables.count)
        for region in regions {
            #expect(region.children.map(\.name) == ["table"], "one table per scrolling region")
            #expect(region.attribute("tabindex") == "0", "keyboard users can scroll it")
            let label = try #require(region.attribute("aria-labelledby"))
            #expect(sources.ids.contains(label), "aria-labelledby=\(label) names no element")
        }
        let css = try String(contentsOf: TestSupport.repository.appendingPathComponent("Templates/assets/style.css"), encoding: .utf8)
        #expect(css.contains(".table-scroll { overflow-x: auto;"))
    }

    @Test("pages declare both colour schemes, so browser controls follow dark mode")
    func colorScheme() async throws {
        for page in try await Self.pages() {
            let meta = page.root.child("head")?.children("meta").first { $0.attribute("name") == "color-scheme" }
            #expect(meta?.attribute("content") == "light dark", "\(page.path)")
        }
        let css = try String(contentsOf: TestSupport.repository.appendingPathComponent("Templates/assets/style.css"), encoding: .utf8)
        #expect(css.contains("color-scheme: light dark;"))
    }

    /// WCAG 2 contrast ratio of two "#rrggbb" colours.
    static func contrast(_ first: String, _ second: String) -> Double? {
        func luminance(_ hex: String) -> Double? {
            guard hex.count == 7, hex.hasPrefix("#"), let value = Int(hex.dropFirst(), radix: 16) else { return nil }
            let channels: [Double] = [value >> 16, value >> 8, value].map { byte in
                let channel = Double(byte & 0xFF) / 255
                return channel <= 0.03928 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
        }
        guard let a = luminance(first), let b = luminance(second) else { return nil }
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// The custom properties set in a block of CSS (`--ok: #2f6b3a;`).
    static func properties(_ css: Substring) -> [String: String] {
        var values: [String: String] = [:]
        for declaration in css.split(whereSeparator: { $0 == ";" || $0 == "{" || $0 == "\n" }) {
            let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].hasPrefix("--") { values[parts[0]] = parts[1] }
        }
        return values
    }

    @Test("the state colours (--ok, --warn, --bad) and --muted read at 4.5:1 on the paper, light and dark")
    func stateColours() throws {
        let css = try String(contentsOf: TestSupport.repository.appendingPathComponent("Templates/assets/style.css"), encoding: .utf8)
        let lightStart = try #require(css.range(of: ":root {"))
        let lightEnd = try #require(css[lightStart.upperBound...].firstIndex(of: "}"))
        let light = Self.properties(css[lightStart.upperBound..<lightEnd])
        let darkMedia = try #require(css.range(of: "@media (prefers-color-scheme: dark)"))
        let darkStart = try #require(css[darkMedia.upperBound...].range(of: ":root {"))
        let darkEnd = try #require(css[darkStart.upperBound...].firstIndex(of: "}"))
        let dark = light.merging(Self.properties(css[darkStart.upperBound..<darkEnd])) { $1 }
        for (scheme, values) in [("light", light), ("dark", dark)] {
            let paper = try #require(values["--paper"])
            for name in ["--ok", "--warn", "--bad", "--muted", "--accent"] {
                let colour = try #require(values[name], "\(name) in \(scheme)")
                let ratio = try #require(Self.contrast(colour, paper), "\(name): \(colour) is not #rrggbb")
                #expect(ratio >= 4.5, "\(scheme): \(name) \(colour) on \(paper) is \(ratio):1")
            }
        }
        #expect(dark["--ok"] != light["--ok"] && dark["--warn"] != light["--warn"] && dark["--bad"] != light["--bad"],
                "dark mode redefines the state colours")
    }
}
