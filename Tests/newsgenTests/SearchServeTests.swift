import Foundation
import Testing
import NewsgenTestSupport

extension CLITests {
    @Test("serve: the search page finds stories in a browser, and every index file it reads is JSON")
    func serveSearch() async throws {
        let browser = try SearchBrowser.chromium()
        let site = try sampleSite()
        let port = try TestSupport.serverPort()
        try await withServe(site, port: port) { _ in
            for path in ["/search/manifest.json", "/search/delta.json", "/search/terms/0.json", "/search/records/0.json"] {
                let answer = try await raw("GET", path, port: port)
                #expect(answer.status == 200, "\(path)")
                #expect(answer.headers["content-type"] == "application/json; charset=utf-8", "\(path)")
            }
            #expect(try await raw("GET", "/search.json", port: port).status == 404, "the index of version 2 is no longer written")
            let harness = SearchBrowser.harness(typed: ["harbour strike"], linked: ["?q=chekhov"], folding: [], ranking: [])
            try Data(harness.utf8).write(to: site.appendingPathComponent("public/search-harness.html"))
            let dom = try await SearchBrowser.dumpDOM(browser, url: URL(string: "http://127.0.0.1:\(port)/search-harness.html")!)
            let report = try SearchBrowser.report(in: dom)
            #expect(report.error == nil, "the harness failed: \(report.error ?? "")")
            #expect(report.typed?.first?.titles.first == "Harbour strike ends as dockworkers & port authority agree wage deal")
            #expect(report.linked?.first?.titles == ["Theatre company stages Chekhov in a working launderette — and it works"])
            #expect(report.afterEnter?.hasPrefix("/articles/harbour-strike-ends") == true)
        }
    }
}
