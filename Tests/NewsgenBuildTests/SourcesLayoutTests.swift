import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// The Sources tab laid out by headless Chromium (`TabBarLayoutTests.measure`): the sample site with NewsAPI sources
/// against a loopback NewsAPI (so "Available from NewsAPI" is shown too) and a feed that fails (so a status sentence is).
@Suite("Sources page layout")
struct SourcesLayoutTests {
    /// What the harness reads of the framed Sources page.
    struct Measure: Decodable {
        var viewport: Double
        var scrollWidth: Double
        var tables: Int
        /// Each table's `display`, and each of its body rows'.
        var tableDisplays: [String]
        var rowDisplays: [String]
        /// Elements of a table (the table itself included) that reach past either edge of the screen.
        var outside: [String]
        /// Scroll boxes whose content is wider than they are.
        var scrolling: Int
    }

    static let script = """
        var view = doc.documentElement.clientWidth, outside = [], scrolling = 0;
        var tables = doc.querySelectorAll('table.sources');
        Array.prototype.forEach.call(tables, function (table) {
          [table].concat(Array.prototype.slice.call(table.querySelectorAll('*'))).forEach(function (element) {
            var box = element.getBoundingClientRect();
            if (box.width > 0 && (box.left < -0.5 || box.right > view + 0.5)) {
              outside.push(element.tagName.toLowerCase() + '.' + element.className + ' ' + Math.round(box.left) + '-' + Math.round(box.right));
            }
          });
        });
        Array.prototype.forEach.call(doc.querySelectorAll('.table-scroll'), function (box) {
          if (box.scrollWidth > box.clientWidth) scrolling += 1;
        });
        return {viewport: view, scrollWidth: doc.documentElement.scrollWidth, tables: tables.length,
          tableDisplays: Array.prototype.map.call(tables, function (t) { return getComputedStyle(t).display; }),
          rowDisplays: Array.prototype.map.call(doc.querySelectorAll('table.sources tbody tr'), function (r) { return getComputedStyle(r).display; }),
          outside: outside, scrolling: scrolling};
        """

    /// Builds the site and measures its Sources page in a frame `width` px wide.
    static func measure(width: Int, chromium: URL) async throws -> Measure {
        let kit = NewsAPIBuildTests()
        return try await kit.withNewsAPI(log: RequestLog()) { server in
            let (site, folder) = try kit.site(server: server)
            var edited = site
            edited.sources.append(SourceConfig(id: "gone", name: "The Gone Gazette", category: "World",
                                               kind: .feed(.remote(server.appendingPathComponent("gone.xml")))))
            let config = edited
            let (report, _) = try await withHTTPFetcher(followRedirects: false) { fetcher in
                try await kit.build(config, environment: NewsAPITestSupport.environment, fetcher: fetcher)
            }
            let goneUnavailable = if case .unavailable? = report.sources.first(where: { $0.id == "gone" })?.status { true } else { false }
            #expect(goneUnavailable, "the feed that answers 404 is shown as unavailable")
            let page = try String(contentsOf: config.output.appendingPathComponent("sources/index.html"), encoding: .utf8)
            #expect(page.contains("Available from NewsAPI") && page.contains("Couldn’t be reached since"), "both tables, and a status sentence")
            let json = try await TabBarLayoutTests.measure(folder: folder, page: "public/sources/index.html", width: width,
                                                           script: script, chromium: chromium)
            return try JSONDecoder().decode(Measure.self, from: Data(json.utf8))
        }
    }

    @Test("at 390 px the Sources page does not overflow: every source is a card inside the screen, nothing scrolls sideways",
          .enabled(if: TabBarLayoutTests.chromium() != nil, TabBarLayoutTests.chromiumMissing))
    func phoneWidth() async throws {
        let layout = try await Self.measure(width: 390, chromium: try #require(TabBarLayoutTests.chromium()))
        #expect(layout.viewport == 390, "the frame is a 390 px screen")
        #expect(layout.scrollWidth <= layout.viewport, "the page is \(layout.scrollWidth) px wide")
        #expect(layout.tables == 2, "the followed sources and NewsAPI's")
        #expect(layout.outside == [], "every cell inside the screen")
        #expect(layout.scrolling == 0, "no table scrolls inside its box")
        #expect(layout.rowDisplays.count == 16 && layout.rowDisplays.allSatisfy { $0 == "grid" },
                "12 followed sources and 4 of NewsAPI's, each a card: \(layout.rowDisplays)")
    }

    @Test("at 1280 px the Sources page keeps its tables", .enabled(if: TabBarLayoutTests.chromium() != nil, TabBarLayoutTests.chromiumMissing))
    func desktopWidth() async throws {
        let layout = try await Self.measure(width: 1280, chromium: try #require(TabBarLayoutTests.chromium()))
        #expect(layout.tableDisplays == ["table", "table"])
        #expect(layout.rowDisplays.allSatisfy { $0 == "table-row" }, "\(layout.rowDisplays)")
        #expect(layout.scrollWidth <= layout.viewport)
    }
}
