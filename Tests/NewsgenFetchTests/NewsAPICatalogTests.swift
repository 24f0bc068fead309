import Foundation
import Hummingbird
import Testing
@testable import NewsgenModel
@testable import NewsgenFetch
import NewsgenTestSupport

/// The NewsAPI sources list that `newsgen sources` shows, and its cache file.
@Suite("NewsAPI catalog")
struct NewsAPICatalogTests {
    typealias Kit = NewsAPITestSupport

    /// `newsgen sources` against a loopback NewsAPI, its cache file at `file`.
    func sources(file: URL) async throws -> (NewsAPISourceList, LogRecorder) {
        let answer = try Kit.fixture("sources.json")
        return try await withTestServer({ router in
            router.get("v2/top-headlines/sources") { _, _ in Response.body(answer, headers: [.contentType: "application/json"]) }
        }) { server in
            let config = try Kit.config(server: server, sources: [SourceConfig(id: "wire", kind: .newsapi(.source("meridian-wire")))])
            let (logger, recorder) = TestSupport.recordingLogger()
            return try await withHTTPFetcher(followRedirects: false) { fetcher in
                let catalog = NewsAPICatalog(config: config, http: fetcher, environment: Kit.environment, retry: .none, file: file, logger: logger)
                return (try await catalog.sources(now: TestSupport.date("2026-11-21T12:00:00Z")), recorder)
            }
        }
    }

    @Test("the list is cached beside the site's cache, without a word")
    func cached() async throws {
        let file = try TestSupport.temporaryFolder().appendingPathComponent(".newsgen/newsapi-sources.json")
        let (list, log) = try await sources(file: file)
        #expect(!list.sources.isEmpty)
        #expect(log.warnings.isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test("a cache file that cannot be written is a warning; the list is still shown")
    func unwritableCache() async throws {
        // Tests run as root, so permissions would not stop the write: a file stands where the folder should be.
        let folder = try TestSupport.temporaryFolder()
        let blocker = folder.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let file = blocker.appendingPathComponent("newsapi-sources.json")
        let (list, log) = try await sources(file: file)
        #expect(!list.sources.isEmpty)
        #expect(log.warnings.count == 1)
        #expect(log.warnings.first?.hasPrefix("NewsAPI sources list: cannot write \(file.path) (") == true, "\(log.warnings)")
    }
}
