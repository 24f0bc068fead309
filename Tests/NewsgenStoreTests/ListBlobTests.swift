import Foundation
import GRDB
import Testing
@testable import NewsgenModel
@testable import NewsgenStore
import NewsgenTestSupport

/// Each source's list kept in one value beside its rows (`ListBlob`): read in place of the rows,
/// and always what the rows give, whoever wrote them.
@Suite("Lists kept as one value")
struct ListBlobTests {
    static let first = Date(timeIntervalSince1970: 1_795_000_000.25)
    let folder: URL
    let file: URL
    let digester = SQLiteStoreTests.CountingDigester().digester(version: 3)

    init() throws {
        folder = try TestSupport.temporaryFolder()
        file = folder.appendingPathComponent("cache.sqlite")
    }

    func open(_ file: URL? = nil) throws -> SQLiteStore {
        try SQLiteStore.open(at: file ?? self.file, logger: TestSupport.recordingLogger().0, digester: digester)
    }

    /// Runs `body` on the cache file (by default the test's) directly, as `sqlite3`, another
    /// process or an earlier newsgen would.
    func raw<T>(on file: URL? = nil, _ body: (Database) throws -> T) throws -> T {
        let database = try DatabaseQueue(path: (file ?? self.file).path)
        defer { try? database.close() }
        return try database.write(body)
    }

    /// The sources whose lists the cache keeps as one value.
    func kept(in file: URL? = nil) throws -> Set<String> {
        Set(try raw(on: file) { db in try String.fetchAll(db, sql: "SELECT sourceID FROM listBlob") })
    }

    /// Every list's value, and the rows it stands for, column by column as the table holds them.
    func valuesAndRows(in file: URL? = nil) throws -> [(sourceID: String, value: [ListBlob.Story]?, rows: [ListBlob.Story])] {
        try raw(on: file) { db in
            try Row.fetchAll(db, sql: "SELECT sourceID, stories FROM listBlob ORDER BY sourceID").map { blob in
                let sourceID: String = blob["sourceID"]
                let rows = try Row.fetchAll(db, sql: """
                    SELECT article.rowid, key, article.sourceID, title, summary, author, url, imageURL, published, categories, guid, firstSeen,
                           content, outlet, digest
                    FROM sourceList JOIN article ON article.key = sourceList.articleKey WHERE sourceList.sourceID = ? ORDER BY position
                    """, arguments: [sourceID]).map { row in
                    ListBlob.Story(rowid: row[0], key: row[1], sourceID: row[2], title: row[3], summary: row[4], author: row[5], url: row[6],
                                   imageURL: row[7], published: row[8], categories: row[9], guid: row[10], firstSeen: row[11], content: row[12],
                                   outlet: row[13], digest: row[14])
                }
                return (sourceID, ListBlob.decode(blob["stories"]), rows)
            }
        }
    }

    /// A copy of the cache at `file` without the lists' values: what the rows alone give.
    func copyWithoutValues(of file: URL) throws -> URL {
        let copy = folder.appendingPathComponent("rows-\(UUID().uuidString).sqlite")
        let source = try DatabaseQueue(path: file.path)
        let target = try DatabaseQueue(path: copy.path)
        try source.backup(to: target)
        try target.write { db in try db.execute(sql: "DELETE FROM listBlob") }
        try source.close()
        try target.close()
        return copy
    }

    /// The lists and the archive (read after them) as the rows alone give them.
    func fromRows(_ sourceIDs: [String], of file: URL? = nil) async throws -> (lists: [String: [Article]], archive: [Article]) {
        let store = try open(try copyWithoutValues(of: file ?? self.file))
        defer { store.close() }
        let lists = try await store.lists(of: sourceIDs)
        return (lists, try await store.archive(of: Set(sourceIDs)))
    }

    func story(_ id: String, by source: String, _ title: String, published: Double? = 1_794_990_000.125) -> Article {
        Article(id: id, sourceID: source, title: title, summary: "About \(id)", url: "https://example.com/\(id)",
                published: published.map(Date.init(timeIntervalSince1970:)), categories: ["Tag \(id.count)"], guid: id)
    }

    @Test("a list is read from its value, written with its rows: one value a source, none for an empty list")
    func readFromValue() async throws {
        let store = try open()
        let world = [story("w1", by: "world", "World one"), story("w2", by: "world", "World two", published: nil)]
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: world), at: Self.first)
        try await store.recordSuccess(of: "empty", content: SourceContent(format: .rss2, articles: []), at: Self.first)
        #expect(try kept() == ["world"])
        #expect(try await store.lists(of: ["world", "empty"]) == ["world": world], "a source that lists nothing has no list, as before")

        // A value doctored behind the store's back is what the lists show: they are read from it.
        try raw { db in
            let blob = try #require(try Data.fetchOne(db, sql: "SELECT stories FROM listBlob WHERE sourceID = 'world'"))
            var stories = try #require(ListBlob.decode(blob))
            stories[0].title = "Read from the value"
            try db.execute(sql: "UPDATE listBlob SET stories = ? WHERE sourceID = 'world'", arguments: [ListBlob.encode(stories)])
        }
        #expect(try await store.lists(of: ["world"])["world"]?.map(\.title) == ["Read from the value", "World two"])
        // Without it, from the rows.
        try raw { db in try db.execute(sql: "DELETE FROM listBlob") }
        #expect(try await store.lists(of: ["world"]) == ["world": world])
        #expect(try await store.lists(of: ["world"])["world"]?.map(\.knownDigests) == world.map(digester.make))
    }

    @Test("a value holds what the columns hold, even where binding changes a value: a text up to a NUL, a NaN time as none")
    func valuesAsStored() async throws {
        let store = try open()
        var odd = story("odd", by: "world", "Up to\u{0}here")
        odd.summary = "\u{0}"
        odd.content = "<p>a</p>\u{0}<p>b</p>"
        odd.published = Date(timeIntervalSince1970: .nan)
        let plain = story("plain", by: "world", "Plain")
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [odd, plain]), at: Self.first)
        #expect(try kept() == ["world"])
        let values = try valuesAndRows()
        #expect(values.count == 1)
        #expect(values.first?.value == values.first?.rows)
        #expect(values.first?.rows.first?.title == "Up to")
        #expect(values.first?.rows.first?.published == nil)
        let (rows, archive) = try await fromRows(["world"])
        #expect(try await store.lists(of: ["world"]) == rows)
        #expect(try await store.archive(of: ["world"]) == archive)
    }

    @Test("a value that is not a list this newsgen wrote is left, and the list read from its rows")
    func unreadableValue() async throws {
        let store = try open()
        let world = (0..<3).map { story("w\($0)", by: "world", "World \($0)") }
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: world), at: Self.first)
        let blob = try raw { db in try #require(try Data.fetchOne(db, sql: "SELECT stories FROM listBlob")) }
        let unreadable: [Data] = [Data(), Data([0]), Data([ListBlob.version + 1]) + blob.dropFirst(), blob.dropLast(), blob + Data([0]),
                                  Data([ListBlob.version, 0xFF, 0xFF, 0xFF, 0x7F])]
        for value in unreadable {
            #expect(ListBlob.decode(value) == nil)
            try raw { db in try db.execute(sql: "UPDATE listBlob SET stories = ?", arguments: [value]) }
            #expect(try await store.lists(of: ["world"]) == ["world": world], "\(Array(value.prefix(8)))")
        }
    }

    @Test("any change to a row a value holds drops the value, whoever makes it; a change to nothing it holds does not")
    func triggers() async throws {
        let store = try open()
        let shared = story("shared", by: "world", "Shared")
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [story("w1", by: "world", "W"), shared]), at: Self.first)
        try await store.recordSuccess(of: "tech", content: SourceContent(format: .rss2, articles: [story("t1", by: "tech", "T")]), at: Self.first)
        try await store.recordSuccess(of: "arts", content: SourceContent(format: .rss2, articles: [story("a1", by: "arts", "A")]), at: Self.first)
        #expect(try kept() == ["world", "tech", "arts"])

        // Nothing a value holds: lastSeen, an upsert that changes nothing, a saved copy as it is.
        try raw { db in try db.execute(sql: "UPDATE article SET lastSeen = lastSeen + 1") }
        try await store.keepSaved([SavedSnapshot(entryKey: "favorites:t1", article: story("t1", by: "tech", "T"))], at: Self.first + 60)
        #expect(try kept() == ["world", "tech", "arts"])

        // "tech" now lists the shared story too, and writes it as its own: "world"'s value goes.
        try await store.recordSuccess(of: "tech", content: SourceContent(format: .rss2, articles: [story("t1", by: "tech", "T"), story("shared", by: "tech", "Shared")]),
                                      at: Self.first + 120)
        #expect(try kept() == ["tech", "arts"])
        let lists = try await store.lists(of: ["world", "tech"])
        #expect(lists["world"]?.last?.sourceID == "tech", "as the rows give it")
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [story("w1", by: "world", "W")]), at: Self.first + 180)
        #expect(try kept() == ["world", "tech", "arts"])

        let changes: [(String, String, Set<String>)] = [
            ("a column of a listed row", "UPDATE article SET title = 'Changed' WHERE key = 'a1'", ["world", "tech"]),
            ("a saved copy kept with another summary", "", ["world", "arts"]),
            ("a listed row deleted", "DELETE FROM article WHERE key = 'w1'", ["tech", "arts"]),
            ("a row of a list added", "INSERT INTO sourceList (sourceID, position, articleKey) VALUES ('arts', 9, 't1')", ["world", "tech"]),
            ("a row of a list moved", "UPDATE sourceList SET position = 5 WHERE sourceID = 'tech' AND position = 0", ["world", "arts"]),
            ("a row of a list removed", "DELETE FROM sourceList WHERE sourceID = 'world'", ["tech", "arts"]),
            ("a listed row's digest", "UPDATE article SET digest = NULL WHERE key = 'a1'", ["world", "tech"]),
        ]
        for (change, sql, left) in changes {
            try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [story("w1", by: "world", "W")]), at: Self.first + 240)
            try await store.recordSuccess(of: "tech", content: SourceContent(format: .rss2, articles: [story("t1", by: "tech", "T"), story("shared", by: "tech", "Shared")]),
                                          at: Self.first + 240)
            try await store.recordSuccess(of: "arts", content: SourceContent(format: .rss2, articles: [story("a1", by: "arts", "A")]), at: Self.first + 240)
            #expect(try kept() == ["world", "tech", "arts"])
            if sql.isEmpty {
                var saved = story("t1", by: "tech", "T")
                saved.summary = "As saved"
                try await store.keepSaved([SavedSnapshot(entryKey: "favorites:t1", article: saved)], at: Self.first + 240)
            } else {
                try raw { db in try db.execute(sql: sql) }
            }
            #expect(try kept() == left, "\(change)")
            let ids = ["world", "tech", "arts"]
            let (lists, archive) = try await fromRows(ids)
            #expect(try await store.lists(of: ids) == lists, "\(change)")
            #expect(try await store.archive(of: Set(ids)) == archive, "\(change)")
        }
    }

    @Test("over random histories of fetches, saved copies, retention and other writers, the lists and the archive are what the rows give")
    func randomHistories() async throws {
        var generator = SeededGenerator(state: 0x11_57B1_0B)
        let sources = ["world", "tech", "arts", "sport"]
        let pool = (0..<40).map { "s\($0)" }
        func variant(_ id: String, by source: String, using generator: inout SeededGenerator) -> Article {
            let version = Int.random(in: 0..<3, using: &generator)
            var article = Article(id: id, sourceID: source, title: "\(id) v\(version)", summary: version == 2 ? "" : "About \(id), \(version)",
                                  url: version == 1 ? nil : "https://example.com/\(id)",
                                  published: version == 2 ? nil : Date(timeIntervalSince1970: 1_794_990_000 + Double.random(in: 0..<900_000, using: &generator)),
                                  categories: version == 0 ? [] : ["Tag \(version)", "Ünïcode \(id)"], guid: version == 1 ? nil : "g-\(id)")
            if version == 1 {
                article.content = "<p>Full text of \(id)</p>"
                article.author = "Ann"
                article.imageURL = "https://img.example.com/\(id).jpg"
                article.outlet = "Wire"
            }
            return article
        }
        var checked = 0, fromValues = 0
        for history in 0..<4 {
            let file = folder.appendingPathComponent("history-\(history).sqlite")
            let store = try open(file)
            var now = Self.first
            for _ in 0..<25 {
                now += 3600
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<6:
                    let source = sources.randomElement(using: &generator) ?? "world"
                    let ids = pool.shuffled(using: &generator).prefix(Int.random(in: 0...12, using: &generator))
                    let list = ids.map { variant($0, by: source, using: &generator) }
                    try await store.recordSuccess(of: source, content: SourceContent(format: .rss2, articles: list), at: now)
                case 6:
                    let saved = pool.shuffled(using: &generator).prefix(3).map { variant($0, by: "world", using: &generator) }
                    try await store.keepSaved(saved.map { SavedSnapshot(entryKey: "favorites:\($0.id)", article: $0) }, at: now)
                case 7:
                    _ = try await store.prune(notSeenSince: now - Double.random(in: 0..<40_000, using: &generator))
                default:
                    let id = pool.randomElement(using: &generator) ?? "s0"
                    let statements = [
                        "UPDATE article SET title = title || ' (edited)' WHERE key = '\(id)'",
                        "UPDATE article SET lastSeen = lastSeen + 1 WHERE key = '\(id)'",
                        "DELETE FROM sourceList WHERE articleKey = '\(id)'",
                        "UPDATE article SET published = published + 0.5 WHERE key = '\(id)'",
                    ]
                    let statement = statements.randomElement(using: &generator) ?? statements[0]
                    try raw(on: file) { db in try db.execute(sql: statement) }
                }
                for (sourceID, value, rows) in try valuesAndRows(in: file) {
                    #expect(value == rows, "the value of \(sourceID) is its rows, column by column")
                    fromValues += 1
                }
                let (expected, expectedArchive) = try await fromRows(sources, of: file)
                let lists = try await store.lists(of: sources)
                #expect(lists == expected)
                #expect(lists.mapValues { $0.map(\.knownDigests) } == expected.mapValues { $0.map(\.knownDigests) })
                #expect(try await store.archive(of: Set(sources)) == expectedArchive)
                checked += 1
            }
            store.close()
        }
        #expect(checked == 100)
        #expect(fromValues > 100, "most lists were read from their values (\(fromValues) of \(checked * sources.count))")
    }
}
