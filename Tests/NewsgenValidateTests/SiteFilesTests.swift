import Testing
@testable import NewsgenValidate

/// Local links resolve as ../shared/tools/check-site and a static web server resolve them.
@Suite("Local link resolution")
struct SiteFilesTests {
    let site = SiteFiles(files: ["index.html", "sources/index.html", "sources/bbc/index.html", "assets/style.css", "feeds/a b.rss"])

    @Test("links resolve relative to the page; a folder means its index.html", arguments: [
        ("./", "index.html", SiteFiles.Target.file("index.html")),
        ("", "index.html", .none),
        ("#main", "index.html", .none),
        ("?page=2", "index.html", .none),
        ("sources/", "index.html", .file("sources/index.html")),
        ("sources", "index.html", .file("sources/index.html")),
        ("sources/bbc/?x=1#top", "index.html", .file("sources/bbc/index.html")),
        ("../../assets/style.css", "sources/bbc/index.html", .file("assets/style.css")),
        ("../", "sources/bbc/index.html", .file("sources/index.html")),
        ("/assets/style.css", "sources/bbc/index.html", .file("assets/style.css")),
        ("../feeds/a%20b.rss", "sources/index.html", .file("feeds/a b.rss")),
        ("assets/style.css/", "index.html", .missing("assets/style.css/index.html")),
        ("sources/cnn/", "index.html", .missing("sources/cnn/index.html")),
        ("../", "index.html", .outside),
        ("https://example.com/", "index.html", .external(scheme: "https")),
        ("MAILTO:desk@example.org", "index.html", .external(scheme: "mailto")),
        ("javascript:alert(1)", "index.html", .external(scheme: "javascript")),
        ("//cdn.example.com/x.js", "index.html", .none),
        // White space around a link is not part of it, ASCII or not.
        (" sources/\n", "index.html", .file("sources/index.html")),
        ("\u{2003}../assets/style.css\u{00A0}", "sources/index.html", .file("assets/style.css")),
        // A folder by its form: a last "." or ".." component; three dots name a file.
        ("sources/bbc/..", "index.html", .file("sources/index.html")),
        ("sources/.", "index.html", .file("sources/index.html")),
        (".", "sources/index.html", .file("sources/index.html")),
        ("..", "sources/bbc/index.html", .file("sources/index.html")),
        ("...", "index.html", .missing("...")),
        // An escape that does not decode leaves the path as written; names need not be ASCII.
        ("%zz", "index.html", .missing("%zz")),
        ("sources/caf%C3%A9/", "index.html", .missing("sources/café/index.html")),
        ("sources/café/#x", "index.html", .missing("sources/café/index.html")),
        ("?#", "index.html", .none),
        ("/", "sources/index.html", .file("index.html")),
    ])
    func resolve(_ reference: String, _ page: String, _ target: SiteFiles.Target) {
        #expect(site.resolve(reference, from: page) == target)
    }

    @Test("paths made of random components resolve as a list of components would, from pages at every depth")
    func randomPaths() {
        let pieces = ["", ".", "..", "...", "sources", "bbc", "assets", "style.css", "index.html", "x"]
        let pages = ["index.html", "sources/index.html", "sources/bbc/index.html", "assets/style.css", "a/b/c/d.html"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let count = Int.random(in: 1...6, using: &generator)
            let path = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined(separator: "/")
            // "//host/..." is a protocol-relative URL, not a path.
            guard !path.isEmpty, !path.hasPrefix("//"), let page = pages.randomElement(using: &generator) else { continue }
            #expect(site.resolve(path, from: page) == Self.resolvedByComponents(path, from: page, in: site), "\(path) from \(page)")
        }
    }

    /// Where a path without query, fragment or escapes leads, worked out on a list of components.
    static func resolvedByComponents(_ path: String, from page: String, in site: SiteFiles) -> SiteFiles.Target {
        var components = path.hasPrefix("/") ? [] : Array(page.split(separator: "/").dropLast())
        for component in path.split(separator: "/") where component != "." {
            if component != ".." {
                components.append(component)
            } else if components.popLast() == nil {
                return .outside
            }
        }
        var resolved = components.joined(separator: "/")
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last
        if path.hasSuffix("/") || last == "." || last == ".." || site.directories.contains(resolved) {
            resolved = resolved.isEmpty ? "index.html" : resolved + "/index.html"
        }
        return site.files.contains(resolved) ? .file(resolved) : .missing(resolved)
    }

    @Test("every folder a file stands in is known, with its parents, whichever file names it first")
    func folders() {
        let nested = SiteFiles(files: ["a/b/c/d.html", "a/b/e.html", "a/x/y/z.html", "top.html", "a/b/c/f.html"])
        #expect(nested.directories == ["", "a", "a/b", "a/b/c", "a/x", "a/x/y"])
        #expect(site.directories == ["", "sources", "sources/bbc", "assets", "feeds"])
    }
}
