import Foundation
import Testing
import NewsgenTestSupport

/// The default theme's tab bar, laid out by a real browser: headless Chromium loads the sample
/// site's front page in a 390 px frame and a harness page measures where each tab landed.
@Suite("Tab bar layout")
struct TabBarLayoutTests {
    /// What the harness reads from the framed page.
    struct Measure: Decodable {
        var viewport: Double
        var tops: [Double]
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

    /// Loads `page` (relative to `folder`) in a frame `width` px wide and returns the harness's measurement.
    static func measure(folder: URL, page: String, width: Int, chromium: URL) async throws -> String {
        let harness = """
            <!DOCTYPE html><html><head><script>
            function measure() {
              var out = document.getElementById('result');
              var doc = document.getElementById('frame').contentDocument;
              if (!doc) { out.textContent = 'the framed page cannot be read'; return; }
              var list = doc.querySelector('.tabs ul');
              var tops = Array.prototype.map.call(doc.querySelectorAll('.tabs li'), function (li) { return li.getBoundingClientRect().top; });
              out.textContent = JSON.stringify({viewport: doc.documentElement.clientWidth, tops: tops,
                scrollWidth: list ? list.scrollWidth : -1, clientWidth: list ? list.clientWidth : -1});
            }
            </script></head><body style="margin:0">
            <iframe id="frame" src="\(page)" width="\(width)" height="844" style="border:0" onload="measure()"></iframe>
            <pre id="result">not measured</pre></body></html>
            """
        let file = folder.appendingPathComponent("tab-bar-harness-\(width).html")
        try Data(harness.utf8).write(to: file)
        let profile = try TestSupport.temporaryFolder()
        let arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files", "--hide-scrollbars",
                         "--user-data-dir=\(profile.path)", "--virtual-time-budget=10000", "--dump-dom", file.absoluteString]
        return try await TestSupport.onOwnThread {
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
    }

    @Test("at 390 px every tab fits on one line, without scrolling the tab list")
    func phoneWidth() async throws {
        guard let chromium = Self.chromium() else {
            Issue.record("Chromium is missing: this test lays the front page out with headless Chromium. Run Scripts/install-deps (Debian: apt-get install chromium), or set CHROMIUM to its path.")
            return
        }
        let (output, _) = try await SampleSiteValidationTests.buildSample()
        let dom = try await Self.measure(folder: output.deletingLastPathComponent(), page: "public/index.html", width: 390, chromium: chromium)
        let json = try #require(dom.firstMatch(of: /<pre id="result">([^<]*)<\/pre>/)?.1, "Chromium printed no page:\n\(dom.prefix(500))")
        let layout = try JSONDecoder().decode(Measure.self, from: Data(String(json).utf8))
        #expect(layout.viewport == 390, "the frame is a 390 px screen")
        #expect(layout.tops.count == 4, "Headlines, Sources, Favorites, Read Later: \(layout.tops)")
        #expect(Set(layout.tops).count == 1, "every tab on one line; their tops: \(layout.tops)")
        #expect(layout.scrollWidth <= layout.clientWidth, "the tabs fit: \(layout.scrollWidth) px of tabs in \(layout.clientWidth) px")
    }
}
