import Foundation
import GRDB
import Testing
@testable import NewsgenModel
@testable import NewsgenStore
import NewsgenTestSupport

/// What the store throws when the cache cannot be used: the case, the file, and the cause,
/// and the one line the user reads.
@Suite("Store errors")
struct StoreErrorTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    let folder: URL
    let file: URL

    init() throws {
        folder = try TestSupport.temporaryFolder()
        file = folder.appendingPathComponent("cache.sqlite")
    }

    func open(_ file: URL) throws(StoreError) -> SQLiteStore {
        try SQLiteStore.open(at: file, logger: TestSupport.recordingLogger().0)
    }

    /// Runs `body` on the cache file directly, as `sqlite3` would.
    func raw(_ body: (Database) throws -> Void) throws {
        let database = try DatabaseQueue(path: file.path)
        try database.write(body)
        try database.close()
    }

    /// Makes `folder` refuse new and renamed entries: the immutable attribute for root (which
    /// file modes do not stop), a read-only mode for a user.
    static func pin(_ folder: URL, _ on: Bool) -> Bool {
        if getuid() != 0 {
            return chmod(folder.path, on ? 0o500 : 0o700) == 0
        }
        let chattr = Process()
        chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        chattr.arguments = [on ? "+i" : "-i", folder.path]
        chattr.standardError = FileHandle.nullDevice
        guard (try? chattr.run()) != nil else { return false }
        chattr.waitUntilExit()
        return chattr.terminationStatus == 0
    }

    /// Whether this machine lets the test make a folder in which no file can be created.
    static let canPin: Bool = {
        guard let folder = try? TestSupport.temporaryFolder(), pin(folder, true) else { return false }
        defer { _ = pin(folder, false) }
        return !FileManager.default.createFile(atPath: folder.appendingPathComponent("probe").path, contents: Data())
    }()

    @Test("a cache folder that cannot be created names the folder and why")
    func cannotCreateFolder() throws {
        let blocker = folder.appendingPathComponent("a-file")
        try Data("not a folder".utf8).write(to: blocker)
        let file = blocker.appendingPathComponent("cache").appendingPathComponent("cache.sqlite")
        do {
            _ = try open(file)
            Issue.record("opened a cache below a regular file")
        } catch {
            guard case .cannotCreateFolder(let failed, let cause) = error else {
                Issue.record("expected cannotCreateFolder, got \(error)")
                return
            }
            #expect(failed == file.deletingLastPathComponent())
            #expect(error.description == "\(failed.path): cannot create the cache folder (\(FileProblem.describe(cause)))")
        }
    }

    @Test("a cache file that cannot be created in its folder is an error naming it, with SQLite's reason", .enabled(if: canPin))
    func cannotOpen() throws {
        #expect(Self.pin(folder, true))
        defer { _ = Self.pin(folder, false) }
        do {
            _ = try open(file)
            Issue.record("opened a cache in a folder that refuses new files")
        } catch {
            guard case .cannotOpen(let failed, let cause) = error else {
                Issue.record("expected cannotOpen, got \(error)")
                return
            }
            #expect(failed == file)
            #expect((cause as? DatabaseError)?.resultCode == .SQLITE_CANTOPEN, "\(cause)")
            #expect(error.description == "cache: \(file.path): cannot be opened (\(cause))")
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("an unusable cache that cannot be moved aside is an error naming the file, and it is left as it was", .enabled(if: canPin))
    func cannotMoveAside() throws {
        let garbage = Data(repeating: 0x42, count: 8192)
        try garbage.write(to: file)
        #expect(Self.pin(folder, true))
        defer { _ = Self.pin(folder, false) }
        do {
            _ = try open(file)
            Issue.record("opened a cache that is not SQLite")
        } catch {
            guard case .cannotMoveAside(let failed, let cause) = error else {
                Issue.record("expected cannotMoveAside, got \(error)")
                return
            }
            #expect(failed == file)
            #expect(error.description == "cache: cannot move \(file.path) aside (\(FileProblem.describe(cause)))")
            #expect(FileProblem.describe(cause) == "permission denied")
        }
        #expect(try Data(contentsOf: file) == garbage)
    }

    @Test("a read that SQLite refuses names the cache file, with the DatabaseError as its cause")
    func readFailed() async throws {
        let store = try open(file)
        try raw { db in try db.execute(sql: "DROP TABLE sourceState") }
        do {
            let state = try await store.state(of: "world")
            Issue.record("read \(String(describing: state)) from a missing table")
        } catch {
            guard case .failed(let operation, let failed, let cause) = error else {
                Issue.record("expected failed(.read), got \(error)")
                return
            }
            #expect(operation == .read)
            #expect(failed == file)
            #expect((cause as? DatabaseError)?.message == "no such table: sourceState", "\(cause)")
            #expect(error.description == "cannot read cache.sqlite (\(cause))")
        }
    }

    @Test("a write that SQLite refuses names the cache file, with the DatabaseError as its cause, and changes nothing")
    func writeFailed() async throws {
        let store = try open(file)
        try await store.recordFailure(of: "world", error: SourceError("HTTP 503", status: 503), at: Self.now)
        try raw { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE UPDATE ON sourceState BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
        }
        do {
            try await store.recordFailure(of: "world", error: SourceError("HTTP 500", status: 500), at: Self.now + 60)
            Issue.record("wrote past a trigger that refuses every update")
        } catch {
            guard case .failed(let operation, let failed, let cause) = error else {
                Issue.record("expected failed(.write), got \(error)")
                return
            }
            #expect(operation == .write)
            #expect(failed == file)
            #expect((cause as? DatabaseError)?.message == "refused by the test", "\(cause)")
            #expect(error.description == "cannot write cache.sqlite (\(cause))")
        }
        #expect(try await store.state(of: "world")?.lastError == "HTTP 503")
    }

    @Test("an article row whose categories are not JSON is an error naming it on every read, not an article without them")
    func corruptCategories() async throws {
        let store = try open(file)
        let article = Article(id: "a1", sourceID: "world", title: "Tagged", url: "https://example.com/a1", categories: ["Science"])
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [article]), at: Self.now)
        try await store.keepSaved([SavedSnapshot(entryKey: "favorites:a1", article: article)], at: Self.now)
        #expect(try await store.articles(of: "world").first?.categories == ["Science"])
        try raw { db in try db.execute(sql: "UPDATE article SET categories = 'Science' WHERE key = 'a1'") }

        let reads: [(String, @Sendable () async throws(StoreError) -> Void)] = [
            ("articles", { () async throws(StoreError) in _ = try await store.articles(of: "world") }),
            ("archive", { () async throws(StoreError) in _ = try await store.archive(of: ["world"]) }),
            ("savedArticles", { () async throws(StoreError) in _ = try await store.savedArticles(ids: ["favorites:a1"]) }),
        ]
        for (name, read) in reads {
            do {
                try await read()
                Issue.record("\(name) read a corrupt row")
            } catch {
                guard case .corruptRow(let failed, let articleKey, let column) = error else {
                    Issue.record("\(name): expected corruptRow, got \(error)")
                    continue
                }
                #expect(failed == file)
                #expect(articleKey == "a1")
                #expect(column == "categories")
                #expect(error.description == "cannot read cache.sqlite (article a1: its categories in the cache are not a JSON array of strings)")
            }
        }
    }

    @Test("the cache's size counts the database and its write-ahead log, and a cache file gone from under the store is an error, not 0 bytes")
    func statisticsSize() async throws {
        let store = try open(file)
        let article = Article(id: "a1", sourceID: "world", title: "Tagged", url: "https://example.com/a1")
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [article]), at: Self.now)
        let sizes = try ["", "-wal"].map { suffix in
            try FileManager.default.attributesOfItem(atPath: file.path + suffix)[.size] as? NSNumber
        }
        let expected = sizes.reduce(0) { $0 + ($1?.intValue ?? 0) }
        #expect(expected > 0)
        #expect(try await store.statistics().bytes == expected)

        try FileManager.default.removeItem(at: file)
        do {
            let statistics = try await store.statistics()
            Issue.record("measured a missing cache as \(statistics)")
        } catch {
            guard case .failed(.read, let failed, let cause) = error else {
                Issue.record("expected failed(.read), got \(error)")
                return
            }
            #expect(failed == file)
            #expect(FileProblem.describe(cause) == "no such file or directory", "\(cause)")
        }
    }

    @Test("a feed format this newsgen does not know reads as none, and the rest of the source's state still reads")
    func unknownFormat() async throws {
        let store = try open(file)
        let content = SourceContent(format: .rss2, articles: [], etag: "\"e\"")
        try await store.recordSuccess(of: "world", content: content, at: Self.now)
        try raw { db in try db.execute(sql: "UPDATE sourceState SET format = 'RSS 9.0' WHERE sourceID = 'world'") }
        let state = try #require(try await store.state(of: "world"))
        #expect(state.format == nil)
        #expect(state.etag == "\"e\"")
        #expect(state.lastSuccess == Self.now)
    }
}
