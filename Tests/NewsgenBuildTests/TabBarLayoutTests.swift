import Foundation
import Testing
import NewsgenTestSupport

/// The default theme's tab bar, laid out by a real browser: headless Chromium loads the sample
/// site's front page in a frame as wide as a phone or a desktop, and a harness page measures where
/// each tab landed.
@Suite("Tab bar layout")
struct TabBarLayoutTests {
    /// What the harness reads from the framed page.
    struct Measure: Decodable {
        var viewport: Double
        var tops: [Double]
        var lefts: [Double]
        var rights: [Double]
        var scrollWidth: Double
        var clientWidth: Double
    }

    /// Chromium: `$CHROMIUM`, else the first of its usual names on the PATH.
    static func chromium() -> URL? {
        if let path = ProcessInfo.processInfo.environment["CHROMIUM"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return URL(fileURLWithPath: "\(folder)/\(name)")
            }
        }
        return nil
    }

    /// Why a layout test is skipped on a machine without Chromium.
    static let chromiumMissing: Comment = "Chromium is missing: this test lays pages out with headless Chromium. Run Scripts/install-deps (Debian: apt-get install chromium), or set CHROMIUM to its path."

    /// Loads `page` (relative to `folder`) in a frame `width` px wide, runs `script` (the body of a function of the framed
    /// page's `doc` that returns a value for JSON) once it has loaded, and returns that JSON.
    static func measure(folder: URL, page: String, width: Int, script: String, chromium: URL) async throws -> String {
        let harness = """
            <!DOCTYPE html><html><head><script>
            function read(doc) {
            \(script)
            }
            function measure() {
              var out = document.getElementById('result');
              var doc = document.getElementById('frame').contentDocument;
              if (!doc) { out.textContent = 'the framed page cannot be read'; return; }
              out.textContent = JSON.stringify(read(doc));
            }
            </script></head><body style="margin:0">
            <iframe id="frame" src="\(page)" width="\(width)" height="844" style="border:0" onload="measure()"></iframe>
            <pre id="result">not measured</pre></body></html>
            """
        let file = folder.appendingPathComponent("layout-harness-\(UUID().uuidString).html")
        try Data(harness.utf8).write(to: file)
        let profile = try TestSupport.temporaryFolder()
        let arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files", "--hide-scrollbars",
                         "--user-data-dir=\(profile.path)", "--virtual-time-budget=10000", "--dump-dom", file.absoluteString]
        let dom = try await TestSupport.onOwnThread {
            let process = Process()
            process.executableURL = chromium
            process.arguments = arguments
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // A browser that hangs must not hang the suite.
            let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
            let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            watchdog.cancel()
            return dom
        }
        guard let json = dom.firstMatch(of: /<pre id="result">([^<]*)<\/pre>/)?.1 else {
            throw TestSupportError("Chromium printed no page:\n\(dom.prefix(500))")
        }
        // The report is text in a <pre>, so only &, < and > come escaped.
        return String(json).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static let tabsScript = """
        var list = doc.querySelector('.tabs ul');
        var boxes = Array.prototype.map.call(doc.querySelectorAll('.tabs li'), function (li) { return li.getBoundingClientRect(); });
        return {viewport: doc.documentElement.clientWidth, tops: boxes.map(function (b) { return b.top; }),
          lefts: boxes.map(function (b) { return b.left; }), rights: boxes.map(function (b) { return b.right; }),
          scrollWidth: list ? list.scrollWidth : -1, clientWidth: list ? list.clientWidth : -1};
        """

    static func tabs(width: Int, chromium: URL) async throws -> Measure {
        let (output, _) = try await SampleSiteValidationTests.buildSample()
        let json = try await measure(folder: output.deletingLastPathComponent(), page: "public/index.html", width: width,
                                     script: tabsScript, chromium: chromium)
        return try JSONDecoder().decode(Measure.self, from: Data(json.utf8))
    }

    static let tabNames = "Headlines, Sources, Favorites, Read Later, Archive, Tags"

    @Test("at 390 px every tab is in sight, on at most two centred lines, without scrolling the tab list",
          .enabled(if: TabBarLayoutTests.chromium() != nil, TabBarLayoutTests.chromiumMissing))
    func phoneWidth() async throws {
        let chromium = try #require(Self.chromium())
        let layout = try await Self.tabs(width: 390, chromium: chromium)
        #expect(layout.viewport == 390, "the frame is a 390 px screen")
        #expect(layout.tops.count == 6, "\(Self.tabNames): \(layout.tops)")
        #expect(Set(layout.tops).count <= 2, "at most two lines of tabs; their tops: \(layout.tops)")
        #expect(layout.lefts.allSatisfy { $0 >= 0 } && layout.rights.allSatisfy { $0 <= layout.viewport },
                "every tab inside the screen: \(zip(layout.lefts, layout.rights).map { "\($0)–\($1)" })")
        #expect(layout.scrollWidth <= layout.clientWidth, "the tabs fit: \(layout.scrollWidth) px of tabs in \(layout.clientWidth) px")
    }

    @Test("at 1280 px the tabs are one line", .enabled(if: TabBarLayoutTests.chromium() != nil, TabBarLayoutTests.chromiumMissing))
    func desktopWidth() async throws {
        let chromium = try #require(Self.chromium())
        let layout = try await Self.tabs(width: 1280, chromium: chromium)
        #expect(layout.tops.count == 6, "\(Self.tabNames): \(layout.tops)")
        #expect(Set(layout.tops).count == 1, "every tab on one line; their tops: \(layout.tops)")
    }
}
