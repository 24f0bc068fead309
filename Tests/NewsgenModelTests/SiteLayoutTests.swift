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
}
