import Foundation
import Testing
@testable import NewsgenValidate
import NewsgenTestSupport

/// The last line of `newsgen validate`: what was checked, by kind, what was not, and what was found.
@Suite("Validation summary")
struct ValidationSummaryTests {
    @Test("validate's summary says how many files of each kind were checked, which get no checks, and what was found")
    func checkSummary() async throws {
        let folder = try TestSupport.temporaryFolder()
        let files = ["assets/style.css": "p {}", "assets/app.js": "", "assets/print.css": "", "CNAME": "news.example.org",
                     "data.json": "{}", "bad.json": "{", "ok.xml": "<a/>", "logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"]
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let report = await SiteValidator.validate(directory: folder)
        #expect(report.filesChecked == 8)
        #expect(report.checkSummary == "checked 4 of 8 files (2 JSON files, 1 XML file, 1 SVG image); 4 have no checks (2 .css, 1 .js, 1 without an extension): 1 problem in 1 file")

        try FileManager.default.removeItem(at: folder.appendingPathComponent("assets"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("CNAME"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("bad.json"))
        let clean = await SiteValidator.validate(directory: folder)
        #expect(clean.checkSummary == "checked 3 files (1 JSON file, 1 XML file, 1 SVG image): 0 problems")
    }

    @Test("the fixture site's summary names every kind it holds")
    func fixtureSummary() async throws {
        let site = try RuleTests.fixtureSite()
        let report = await SiteValidator.validate(directory: site)
        let kinds = try FileManager.default.subpathsOfDirectory(atPath: site.path).filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: site.appendingPathComponent($0).path, isDirectory: &isFolder) && !isFolder.boolValue
        }.map { SummaryKind(path: $0) }
        #expect(kinds.count == report.filesChecked)
        let named = SummaryKind.allCases.compactMap { kind -> String? in
            let count = kinds.count { $0 == kind }
            return count == 0 ? nil : kind.counted(count)
        }
        let others = kinds.count { $0 == nil }
        let head = others == 0 ? "checked \(kinds.count) files" : "checked \(kinds.count - others) of \(kinds.count) files"
        #expect(report.checkSummary.hasPrefix(head + " (" + named.joined(separator: ", ") + ")"), "\(report.checkSummary)")
        #expect(report.checkSummary.hasSuffix(": 0 problems"))
    }
}
