import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenStore
import NewsgenTestSupport

/// The cache opened on a thread of its own while a build's first stages run: the same cache
/// once open, and the same error when it cannot be.
@Suite("A cache opening on a thread of its own")
struct OpeningStoreTests {
    static let first = Date(timeIntervalSince1970: 1_795_000_000)

    @Test("every call is answered by the cache once open; closed, it is left as a closed cache is (trusted when next opened)")
    func opens() async throws {
        let file = try TestSupport.temporaryFolder().appendingPathComponent("cache.sqlite")
        let logger = TestSupport.recordingLogger().0
        let store = OpeningStore { () throws(StoreError) in try SQLiteStore.open(at: file, logger: logger, now: Self.first) }
        try await store.ready()
        let stories = (0..<3).map { Article(id: "s\($0)", sourceID: "world", title: "story \($0)", guid: "s\($0)") }
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: stories, etag: "\"e\""), at: Self.first)
        #expect(try await store.lists(of: ["world"])["world"]?.map(\.id) == ["s0", "s1", "s2"])
        #expect(try await store.states(of: ["world"])["world"]?.etag == "\"e\"")
        #expect(try await store.archive(of: ["world"]).count == 3)
        #expect(try await store.statistics().articles == 3)
        store.settle()
        store.close()

        let reopened = try SQLiteStore.open(at: file, logger: logger, now: Self.first)
        defer { reopened.close() }
        #expect(!reopened.checkedWhenOpened, "closed as usual: trusted without a check")
        #expect(try await reopened.lists(of: ["world"])["world"]?.map(\.id) == ["s0", "s1", "s2"])
    }

    @Test("a cache that cannot be opened: waiting for it throws why, as does every call; settling and closing do nothing")
    func cannotOpen() async throws {
        // A folder where the cache file would be: SQLite cannot open it.
        let file = try TestSupport.temporaryFolder().appendingPathComponent("cache.sqlite")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        let store = OpeningStore { () throws(StoreError) in try SQLiteStore.open(at: file, logger: TestSupport.recordingLogger().0) }
        do {
            try await store.ready()
            Issue.record("a folder opened as a cache")
        } catch {
            guard case .cannotOpen(let failed, _) = error else {
                Issue.record("expected cannotOpen, got \(error)")
                return
            }
            #expect(failed == file)
        }
        await #expect(throws: StoreError.self) { try await store.states(of: ["world"]) }
        await #expect(throws: StoreError.self) { try await store.archive(of: ["world"]) }
        store.settle()
        store.close()
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) && isFolder.boolValue, "left as it was")
    }
}
