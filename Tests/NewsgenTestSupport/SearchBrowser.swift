import Foundation

/// The search page's script run by a real browser: a harness page, put into a built site beside `search/`, loads the
/// search page in iframes of the same origin, types into its box character by character as a reader would, calls the
/// script's own functions (`window.newsgenSearch`) on fixed cases, and writes what it saw as JSON into its own DOM,
/// which headless Chromium prints. It waits on the page's own signals (the form's `data-state`, `data-query` and
/// `data-busy`, the live region), never on a fixed time.
package enum SearchBrowser {
    /// What the harness saw for one query.
    package struct Seen: Decodable, Sendable {
        package var query: String
        package var titles: [String]
        package var hrefs: [String]
        package var status: String
        package var url: String
        package var focusable: Bool
        /// The text of every `<mark>` in the first result.
        package var marks: [String]
    }

    package struct Report: Decodable, Sendable {
        package var error: String?
        package var typed: [Seen]?
        /// Pages opened with a query (and filters) in their URL, in the order `linked` names them.
        package var linked: [Seen]?
        /// Where Enter in the box led.
        package var afterEnter: String?
        package var label: String?
        /// `newsgenSearch.words` of each folding case.
        package var words: [[String]]?
        /// `newsgenSearch.chunkOf` of each word of the folding cases, of 64 chunks.
        package var chunks: [Int]?
        /// `newsgenSearch.rank` of each ranking case: the story numbers in order.
        package var ranked: [[Int]]?
        /// The same ranking cases with a limit of one: the first story of each order.
        package var rankedFirst: [[Int]]?
        /// How long, in the page's clock, the last query of `typed` took from its last key to its results.
        package var lastMilliseconds: Double?
    }

    /// A ranking case: terms as `[story, weight]` pairs, the number of stories, and the order expected.
    package struct RankCase: Sendable {
        package var terms: [[[Int]]]
        package var stories: Int
        package init(terms: [[[Int]]], stories: Int) {
            self.terms = terms
            self.stories = stories
        }
    }

    /// The harness page: types each of `typed` into the box, opens `search/` with each query string of `linked`, and
    /// calls the script's functions on `folding` and `ranking`.
    package static func harness(typed: [String], linked: [String], folding: [String], ranking: [RankCase]) -> String {
        func json(_ value: Any) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("null".utf8)
            return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
        }
        let cases = json(["typed": typed, "linked": linked, "folding": folding,
                          "ranking": ranking.map { ["terms": $0.terms, "stories": $0.stories] as [String: Any] }])
        return #"""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"/><title>search harness</title></head>
            <body>
            <iframe id="typed" src="search/" width="900" height="700"></iframe>
            <pre id="report">pending</pre>
            <script>
            const cases = \#(cases);
            const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
            async function until(test, what) {
              for (let i = 0; i < 2000; i++) {
                const value = test();
                if (value) return value;
                await sleep(10);
              }
              throw new Error("waited in vain for " + what);
            }
            async function ready(frame) {
              const form = await until(() => frame.contentDocument && frame.contentDocument.querySelector("form.search-form[data-state]"), "the index");
              if (form.getAttribute("data-state") !== "ready") {
                throw new Error("the index did not load: " + frame.contentDocument.getElementById("search-status").textContent);
              }
              return frame.contentDocument;
            }
            // The page has shown what `value` finds: its form says so, and the live region has spoken.
            async function settled(frame, value) {
              const doc = frame.contentDocument, form = doc.querySelector("form.search-form");
              await until(() => form.getAttribute("data-query") === value && !form.hasAttribute("data-busy"), "results for " + value);
              await until(() => doc.getElementById("search-status").textContent.indexOf("\u201c" + value.trim() + "\u201d") !== -1, "the status of " + value);
            }
            function seen(frame, query) {
              const doc = frame.contentDocument;
              const links = [...doc.querySelectorAll("#search-results a")];
              const first = doc.querySelector("#search-results li");
              return {
                query: query, titles: links.map((a) => a.textContent), hrefs: links.map((a) => new URL(a.href).pathname),
                status: doc.getElementById("search-status").textContent, url: frame.contentWindow.location.search,
                focusable: links.every((a) => a.tabIndex === 0 && a.hasAttribute("href")),
                marks: first ? [...first.querySelectorAll("mark")].map((m) => m.textContent) : [],
              };
            }
            let lastMilliseconds = null;
            async function type(frame, query) {
              const doc = frame.contentDocument, win = frame.contentWindow;
              const box = doc.getElementById("search-q");
              box.focus();
              box.value = "";
              box.dispatchEvent(new win.InputEvent("input", { bubbles: true, inputType: "deleteContentBackward" }));
              let typedAt = 0;
              for (const character of query) {
                box.value += character;
                typedAt = performance.now();
                box.dispatchEvent(new win.InputEvent("input", { bubbles: true, data: character, inputType: "insertText" }));
                await sleep(15);
              }
              const form = doc.querySelector("form.search-form");
              await until(() => form.getAttribute("data-query") === query && !form.hasAttribute("data-busy"), "results for " + query);
              lastMilliseconds = performance.now() - typedAt;
              await settled(frame, query);
              return seen(frame, query);
            }
            async function open(search) {
              const frame = document.createElement("iframe");
              frame.width = 900; frame.height = 700;
              const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
              frame.src = "search/" + search;
              document.body.appendChild(frame);
              await loaded;
              await ready(frame);
              const form = frame.contentDocument.querySelector("form.search-form");
              await until(() => form.hasAttribute("data-query") && !form.hasAttribute("data-busy"), "results for " + search);
              const status = frame.contentDocument.getElementById("search-status");
              await until(() => status.textContent !== "" && status.textContent.indexOf("Loading") !== 0, "the status of " + search);
              return seen(frame, search);
            }
            async function run() {
              const typedFrame = document.getElementById("typed");
              const doc = await ready(typedFrame);
              const api = typedFrame.contentWindow.newsgenSearch;
              const report = { typed: [], linked: [] };
              report.label = doc.querySelector("label[for=search-q]").textContent;
              report.words = cases.folding.map((text) => api.words(text));
              report.chunks = cases.folding.flatMap((text) => api.words(text)).map((word) => api.chunkOf(word, 64));
              const postings = (pairs, stories) => {
                const list = api.postingList(stories);
                for (const [story, weight] of pairs) { list.size += list.weights[story] === 0 ? 1 : 0; list.weights[story] = weight; }
                return list;
              };
              report.ranked = cases.ranking.map((c) => api.rank(c.terms.map((pairs) => postings(pairs, c.stories)), c.stories, null).map((hit) => hit.story));
              report.rankedFirst = cases.ranking.map((c) => api.rank(c.terms.map((pairs) => postings(pairs, c.stories)), c.stories, null, 1).map((hit) => hit.story));
              for (const query of cases.typed) report.typed.push(await type(typedFrame, query));
              report.lastMilliseconds = lastMilliseconds;
              for (const search of cases.linked) report.linked.push(await open(search));
              const before = typedFrame.contentWindow.location.pathname;
              typedFrame.contentDocument.querySelector("form.search-form").requestSubmit();
              await until(() => typedFrame.contentWindow.location.pathname !== before, "Enter to open a story");
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
    }

    /// Chromium, from PATH (Debian's `chromium`, else `chromium-browser` or `google-chrome`).
    package static func chromium() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in path.split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        throw TestSupportError("""
            Chromium is not installed, and the search page's tests run the search script in headless Chromium. \
            Run Scripts/install-deps (it installs Debian's chromium), or put chromium on PATH.
            """)
    }

    /// Loads `url` in headless Chromium and returns the DOM once the page's timers have run (virtual time: the
    /// harness's waits take no real time). Ends Chromium after 120 s at most.
    package static func dumpDOM(_ browser: URL, url: URL) async throws -> String {
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
                "--virtual-time-budget=60000", "--dump-dom", url.absoluteString,
            ]
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            let deadline = Date().addingTimeInterval(120)
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
            throw TestSupportError("\(browser.path) \(status == -1 ? "ran past 120 s" : "exited with status \(status)") and printed no page; its log:\n\(text.suffix(2000))")
        }
        return dom
    }

    /// The harness's report, from the `<pre>` Chromium printed (text, so only &, < and > are escaped).
    package static func report(in dom: String) throws -> Report {
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
