import Foundation
import Testing
import Hummingbird
@testable import NewsgenBuild
import NewsgenTestSupport

/// The search page's script, run by a real browser: the sample site is built, served on
/// 127.0.0.1, and a harness page beside it types into the search page's box (in an iframe of
/// the same origin) character by character, as a reader would, and writes what the page shows
/// into its own DOM, which headless Chromium prints.
@Suite("Search page in a browser")
struct SearchPageTests {
    /// What the harness saw for one query typed into the box.
    struct Seen: Decodable {
        var query: String
        var titles: [String]
        var hrefs: [String]
        var status: String
        var url: String
        var focusable: Bool
    }

    struct Report: Decodable {
        var error: String?
        var typed: [Seen]?
        /// The page opened with ?q= in its URL.
        var fromURL: Seen?
        /// Where Enter in the box led.
        var afterEnter: String?
        var label: String?
    }

    @Test("typing lists the matching stories as links, folds case and diacritics, says when nothing matches, reads ?q= and opens the first on Enter")
    func typing() async throws {
        let browser = try Self.chromium()
        let (output, _) = try await SampleSiteValidationTests.buildSample()
        try Data(Self.harness.utf8).write(to: output.appendingPathComponent("search-harness.html"))

        let dom = try await withTestServer({ router in
            router.add(middleware: FileMiddleware(output.path, searchForIndexHtml: true))
        }) { url in
            try await Self.dumpDOM(browser, url: url.appendingPathComponent("search-harness.html"))
        }
        let report = try Self.report(in: dom)
        #expect(report.error == nil, "the harness failed: \(report.error ?? "")")
        let typed = try #require(report.typed)
        try #require(typed.count == 3)

        let harbour = typed[0]
        #expect(harbour.titles.contains("Harbour strike ends as dockworkers & port authority agree wage deal"), "\(harbour.titles)")
        #expect(harbour.titles.contains("Late header sends unbeaten Harbourside into the cup quarter-finals"), "\(harbour.titles)")
        #expect(!harbour.titles.contains { $0.hasPrefix("Marathon record falls") })
        #expect(harbour.status == "\(harbour.titles.count) stories match \u{201C}harbour\u{201D}.")
        #expect(harbour.hrefs.allSatisfy { $0.contains("/articles/") }, "results link to the stories' pages: \(harbour.hrefs)")
        #expect(harbour.focusable, "every result is a link Tab reaches")
        #expect(harbour.url == "?q=harbour", "the query is kept in the URL")

        let folded = typed[1]
        #expect(folded.titles == ["Theatre company stages Chekhov in a working launderette — and it works"], "\(folded.titles)")
        #expect(folded.status == "1 story matches \u{201C}THÉÂTRE chekhov\u{201D}.")

        let nonsense = typed[2]
        #expect(nonsense.titles.isEmpty)
        #expect(nonsense.status == "No stories match \u{201C}qzxvw\u{201D}.")

        let fromURL = try #require(report.fromURL)
        #expect(fromURL.titles.first == "Harbour strike ends as dockworkers & port authority agree wage deal", "\(fromURL.titles)")
        #expect(report.afterEnter?.hasPrefix("/articles/harbour-strike-ends") == true, "Enter opens the first result: \(report.afterEnter ?? "nothing")")
        #expect(report.label == "Words to look for in titles, sources, summaries and tags", "the box is labelled")
    }

    /// The harness: loads the search page in an iframe, types each query one character at a
    /// time (an `input` event after each, as typing sends), waits for the live region, and
    /// writes a JSON report into `<pre id="report">`.
    static let harness = #"""
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"/><title>search harness</title></head>
        <body>
        <iframe id="typed" src="search/" width="900" height="700"></iframe>
        <iframe id="linked" src="search/?q=harbour%20strike" width="900" height="700"></iframe>
        <pre id="report">pending</pre>
        <script>
        const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        async function ready(frame) {
          for (let i = 0; i < 400; i++) {
            const form = frame.contentDocument && frame.contentDocument.querySelector("form.search-form[data-state]");
            if (form) {
              if (form.getAttribute("data-state") !== "ready") {
                throw new Error("the index did not load: " + frame.contentDocument.getElementById("search-status").textContent);
              }
              return frame.contentDocument;
            }
            await sleep(25);
          }
          throw new Error("the search page never read its index");
        }
        function seen(frame, query) {
          const doc = frame.contentDocument;
          const links = [...doc.querySelectorAll("#search-results a")];
          return {
            query: query, titles: links.map((a) => a.textContent), hrefs: links.map((a) => new URL(a.href).pathname),
            status: doc.getElementById("search-status").textContent, url: frame.contentWindow.location.search,
            focusable: links.every((a) => a.tabIndex === 0 && a.hasAttribute("href")),
          };
        }
        async function type(frame, query) {
          const doc = frame.contentDocument, win = frame.contentWindow;
          const box = doc.getElementById("search-q");
          box.focus();
          box.value = "";
          box.dispatchEvent(new win.InputEvent("input", { bubbles: true, inputType: "deleteContentBackward" }));
          for (const character of query) {
            box.value += character;
            box.dispatchEvent(new win.InputEvent("input", { bubbles: true, data: character, inputType: "insertText" }));
            await sleep(20);
          }
          await sleep(600);
          return seen(frame, query);
        }
        async function run() {
          const typedFrame = document.getElementById("typed"), linkedFrame = document.getElementById("linked");
          const doc = await ready(typedFrame);
          const report = { typed: [] };
          report.label = doc.querySelector("label[for=search-q]").textContent;
          for (const query of ["harbour", "THÉÂTRE chekhov", "qzxvw"]) report.typed.push(await type(typedFrame, query));
          await ready(linkedFrame);
          await sleep(600);
          report.fromURL = seen(linkedFrame, "harbour strike");
          await type(typedFrame, "harbour strike");
          const before = typedFrame.contentWindow.location.pathname;
          typedFrame.contentDocument.querySelector("form.search-form").requestSubmit();
          for (let i = 0; i < 400 && typedFrame.contentWindow.location.pathname === before; i++) await sleep(25);
          report.afterEnter = typedFrame.contentWindow.location.pathname;
          return report;
        }
        window.addEventListener("load", () => {
          run().then(
            (report) => { document.getElementById("report").textContent = JSON.stringify(report); },
            (error) => { document.getElementById("report").textContent = JSON.stringify({ error: String(error) }); });
        });
        </script>
        </body></html>
        """#

    /// Chromium, from PATH (Debian's `chromium`, else `chromium-browser` or `google-chrome`).
    static func chromium() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in path.split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        throw TestSupportError("""
            Chromium is not installed, and the search page's test runs the search script in headless Chromium. \
            Run Scripts/install-deps (it installs Debian's chromium), or put chromium on PATH.
            """)
    }

    /// Loads `url` in headless Chromium and returns the DOM once the page's timers have run
    /// (virtual time: the harness's waits take no real time). Ends Chromium after 60 s at most.
    static func dumpDOM(_ browser: URL, url: URL) async throws -> String {
        let folder = try TestSupport.temporaryFolder()
        let out = folder.appendingPathComponent("dom.html"), log = folder.appendingPathComponent("chromium.log")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let status = try await TestSupport.onOwnThread { () throws -> Int32 in
            let process = Process()
            process.executableURL = browser
            process.arguments = [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
                "--virtual-time-budget=20000", "--dump-dom", url.absoluteString,
            ]
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
                return -1
            }
            return process.terminationStatus
        }
        let dom = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        if status != 0 || dom.isEmpty {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw TestSupportError("\(browser.path) \(status == -1 ? "ran past 60 s" : "exited with status \(status)") and printed no page; its log:\n\(text.suffix(2000))")
        }
        return dom
    }

    /// The harness's report, from the `<pre>` Chromium printed (text, so only &, < and > are escaped).
    static func report(in dom: String) throws -> Report {
        guard let start = dom.range(of: "<pre id=\"report\">"), let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex) else {
            throw TestSupportError("the harness page has no report: \(dom.prefix(500))")
        }
        let text = dom[start.upperBound..<end.lowerBound]
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        guard text != "pending" else { throw TestSupportError("the harness did not finish within Chromium's virtual time budget") }
        return try JSONDecoder().decode(Report.self, from: Data(text.utf8))
    }
}
