import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenFetch
import NewsgenTestSupport

/// What `--verbose` shows of a feed that had to be repaired.
@Suite("Repair log")
struct RepairLogTests {
    @Test("each repair of a source's feed is one debug line naming the source")
    func repairsAreLogged() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appendingPathComponent("bare.xml")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Tom & Jerry</title><link>https://example.com/</link>
            <item><title>One &nbsp;two</title><link>https://example.com/1</link></item></channel></rss>
            """.utf8).write(to: file)
        let (logger, log) = TestSupport.recordingLogger()
        let provider = FeedProvider(http: nil, articlesPerSource: 10, retry: .none, logger: logger)
        let outcome = try await provider.fetch(FetchRequest(source: SourceConfig(id: "cartoons", kind: .feed(.file(file)))))
        #expect(outcome.content?.title == "Tom & Jerry")
        let lines = log.all.filter { $0.hasPrefix("source \"cartoons\": ") }
        #expect(lines.contains { $0.contains("bare &") }, "\(log.all)")
        #expect(lines.contains { $0.contains("nbsp") }, "\(log.all)")
    }
}
