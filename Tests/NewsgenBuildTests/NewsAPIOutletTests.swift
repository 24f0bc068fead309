import Foundation
import GRDB
import Hummingbird
import Logging
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenValidate
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// A NewsAPI story keeps the name of the outlet that published it (`source.name`): fetched,
/// stored in the cache (a cache from before the column included), and shown in rows and feeds.
extension NewsAPIBuildTests {
    /// One source of each kind NewsAPI offers, with the outlets the loopback NewsAPI gives them.
    static let outletSources: [(source: SourceConfig, outlets: [String])] = [
        (SourceConfig(id: "wire", kind: .newsapi(.source("meridian-wire"))), ["Outlet meridian-wire"]),
        (SourceConfig(id: "ledger", name: "Ledger", kind: .newsapi(.source("northern-ledger"))), ["Outlet northern-ledger"]),
        (SourceConfig(id: "uk", name: "UK headlines", kind: .newsapi(.topHeadlines(["country": "gb"]))), ["Meridian Wire", "Valley Courier", "Northern Ledger"]),
        (SourceConfig(id: "business", name: "Business", kind: .newsapi(.topHeadlines(["category": "business"]))), ["Meridian Wire", "Valley Courier", "Northern Ledger"]),
        (SourceConfig(id: "harbour", name: "Harbour news", kind: .newsapi(.everything(["q": "harbour"]))), ["Meridian Wire", "Valley Courier", "Northern Ledger"]),
    ]

    func outletBuild(_ config: SiteConfig, fetcher: HTTPFetcher?, store: any ArticleStore, offline: Bool) async throws -> BuildReport {
        let (logger, recorder) = TestSupport.recordingLogger()
        let build = Build(
            config: config, options: .init(offline: offline),
            providers: [NewsAPIProvider(config: config, http: fetcher, environment: Kit.environment, retry: .fast(), logger: logger)],
            catalog: NewsAPICatalog(config: config, http: fetcher, environment: Kit.environment, retry: .fast(), logger: logger),
            store: store, now: { Self.now }, logger: logger
        )
        let report = try await build.run()
        #expect(recorder.warnings.isEmpty, "\(recorder.warnings)")
        return report
    }

    /// A cache file as newsgen wrote it before outlets (schema v2-content), with one article.
    func versionTwoCache(at path: URL) throws {
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path.path)
        try SQLiteStore.migrator.migrate(queue, upTo: "v2-content")
        try queue.write { db in
            let columns = try db.columns(in: "article").map(\.name)
            #expect(!columns.contains("outlet"), "the old schema has no outlet column")
            try db.execute(sql: """
                INSERT INTO article (key, sourceID, title, summary, categories, firstSeen, lastSeen, content)
                VALUES ('https://old.example/story', 'old', 'An old story', '', '[]', 1, 1, NULL)
                """)
        }
        try queue.close()
    }

    @Test("NewsAPI outlets: fetched for every kind of source, kept by a cache migrated from v2, shown in rows and feeds")
    func outlets() async throws {
        let log = RequestLog()
        try await withNewsAPI(log: log) { server in
            var (config, folder) = try site(server: server)
            config.sources = Self.outletSources.map(\.source)
            try versionTwoCache(at: config.cache)

            let store = try SQLiteStore.open(at: config.cache, logger: .silent)
            #expect(try await store.archive(of: ["old"]).map(\.outlet) == [nil], "a row from before the column has no outlet")
            let online = try await withHTTPFetcher(followRedirects: false) { fetcher in
                try await outletBuild(config, fetcher: fetcher, store: store, offline: false)
            }
            #expect(online.exitStatus == 0)

            // Reopened: the outlets come from the file; an offline build from it shows them.
            let reopened = try SQLiteStore.open(at: config.cache, logger: .silent)
            for (source, outlets) in Self.outletSources {
                let stored = try await reopened.articles(of: source.id)
                #expect(!stored.isEmpty, "\(source.id)")
                #expect(Set(stored.compactMap(\.outlet)) == Set(outlets), "\(source.id): \(stored.map(\.outlet))")
                #expect(stored.allSatisfy { $0.outlet != nil }, "\(source.id)")
            }
            config.output = folder.appendingPathComponent("offline")
            let offline = try await outletBuild(config, fetcher: nil, store: reopened, offline: true)
            #expect(offline.exitStatus == 0)

            for (source, outlets) in Self.outletSources {
                let page = try read(config.output, "sources/\(source.id)/index.html")
                let rss = try read(config.output, "feeds/sources/\(source.id).rss")
                let atom = try read(config.output, "feeds/sources/\(source.id).atom")
                let json = try read(config.output, "feeds/sources/\(source.id).json")
                for outlet in outlets {
                    // The source "wire" has no name of its own: it is named after its outlet,
                    // which its rows do not repeat.
                    let shown = source.id != "wire"
                    #expect(page.contains("<span class=\"outlet\">via \(outlet)</span>") == shown, "\(source.id): \(outlet)")
                    #expect(rss.contains("<dc:publisher>\(outlet)</dc:publisher>"), "\(source.id): \(outlet)")
                    #expect(atom.contains("<dc:publisher>\(outlet)</dc:publisher>"), "\(source.id): \(outlet)\n\(atom)")
                }
                let items = try #require((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
                let named = items.compactMap { ($0["_outlet"] as? [String: Any])?["name"] as? String }
                #expect(named.count == items.count && Set(named) == Set(outlets), "\(source.id): \(json)")
            }
            #expect(await SiteValidator.validate(directory: config.output).isValid)
            // An outlet is known by its name alone: no atom:source, whose id and time RFC 4287
            // asks for, stands for it.
            let atoms = try FileManager.default.subpathsOfDirectory(atPath: config.output.path).filter { $0.hasSuffix(".atom") }
            #expect(!atoms.isEmpty)
            for path in atoms {
                let atom = try read(config.output, path)
                #expect(!atom.contains("<source"), "\(path)")
                #expect(atom.contains("<dc:publisher>") == atom.contains(#"xmlns:dc="http://purl.org/dc/elements/1.1/""#), "\(path)")
            }
        }
    }
}
