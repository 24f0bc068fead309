import Testing
@testable import NewsgenModel

@Suite("A site's files and folders")
struct SiteLayoutTests {
    @Test("the folders of a site's paths are every folder above a file, with the site's own, each once")
    func folders() {
        let paths = ["index.html", "a/b/c.html", "a/b/d.html", "a/e.html", "f/g/h/i.html", ".newsgen-site"]
        let expected: Set = ["", "a", "a/b", "f", "f/g", "f/g/h"]
        #expect(SitePathFolders.folders(holding: paths, includingRoot: true) == expected)
        #expect(SitePathFolders.folders(holding: paths) == expected.subtracting([""]))
        let layout = SiteLayout(files: paths)
        #expect(layout.files == Set(paths))
        #expect(layout.folders == expected)
    }

    @Test("folders named in any script, deepest first or last, and a path given twice")
    func foldersInAnyOrder() {
        let paths = ["tags/caf\u{E9}/page/2/index.html", "tags/\u{65E5}\u{672C}/index.html", "tags/caf\u{E9}/index.html",
                     "tags/\u{65E5}\u{672C}/index.html", "x/y/z/", "tags.html"]
        let expected: Set = ["tags", "tags/caf\u{E9}", "tags/caf\u{E9}/page", "tags/caf\u{E9}/page/2", "tags/\u{65E5}\u{672C}",
                             "x", "x/y", "x/y/z"]
        #expect(SitePathFolders.folders(holding: paths) == expected)
        #expect(SitePathFolders.folders(holding: paths.reversed(), includingRoot: true) == expected.union([""]))
        #expect(SitePathFolders.folders(holding: [String]()).isEmpty)
    }
}
