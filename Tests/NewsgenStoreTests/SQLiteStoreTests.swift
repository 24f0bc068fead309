import Foundation
import GRDB
import Synchronization
import Testing
@testable import NewsgenModel
@testable import NewsgenStore
import NewsgenTestSupport

/// The cache's on-disk format: what earlier versions wrote reads the same, and what this one
/// writes is what they read.
@Suite("SQLite cache format")
struct SQLiteStoreTests {
    static let first = Date(timeIntervalSince1970: 1_795_000_000.25)
    static let later = first + 3600.5
    static let published = Date(timeIntervalSince1970: 1_794_990_000.125)

    let file: URL

    init() throws {
        file = try TestSupport.temporaryFolder().appendingPathComponent("cache.sqlite")
    }

    func open() throws -> SQLiteStore {
        try SQLiteStore.open(at: file, logger: TestSupport.recordingLogger().0)
    }

    /// Runs `sql` on the cache file directly, as `sqlite3` or an earlier newsgen would.
    func raw<T>(_ body: (Database) throws -> T) throws -> T {
        let database = try DatabaseQueue(path: file.path)
        defer { try? database.close() }
        try SQLiteStore.migrator.migrate(database)
        return try database.write(body)
    }

    @Test("a cache that kept each list as one value (v6) keeps none after migrating, and its lists read from their rows")
    func listValuesDropped() async throws {
        // The cache as v6 left it: a list's value, and its triggers.
        let database = try DatabaseQueue(path: file.path)
        try SQLiteStore.migrator.migrate(database, upTo: "v6-listBlob")
        try await database.write { db in
            try db.execute(sql: "INSERT INTO listBlob (sourceID, stories) VALUES ('world', x'00')")
        }
        try database.close()

        let store = try open()
        let story = Article(id: "https://example.com/a1", sourceID: "world", title: "From its row", url: "https://example.com/a1")
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [story]), at: Self.first)
        #expect(try await store.lists(of: ["world"])["world"]?.map(\.title) == ["From its row"])
        let left = try raw { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'listBlob%'")
        }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("a cache written by the hand-written SQL of earlier versions reads back the same")
    func readsEarlierCache() async throws {
        try raw { db in
            // The statements and arguments the store used before it had records.
            let article = """
                INSERT INTO article (key, sourceID, title, summary, author, url, imageURL, published, categories, guid, firstSeen, lastSeen)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
            try db.execute(sql: article, arguments: [
                "https://example.com/a1", "world", "Full", "Everything set", "Ann", "https://example.com/a1",
                "https://img.example.com/a1.jpg", Self.published.timeIntervalSince1970,
                String(decoding: try JSONEncoder().encode(["Science", "Tech/AI"]), as: UTF8.self), "guid-1",
                Self.first.timeIntervalSince1970, Self.later.timeIntervalSince1970,
            ])
            try db.execute(sql: article, arguments: [
                "world:g2", "world", "Bare", "", nil, nil, nil, nil, "[]", "g2",
                Self.first.timeIntervalSince1970, Self.first.timeIntervalSince1970,
            ])
            for (position, key) in ["https://example.com/a1", "world:g2"].enumerated() {
                try db.execute(sql: "INSERT OR REPLACE INTO sourceList (sourceID, position, articleKey) VALUES (?, ?, ?)",
                               arguments: ["world", position, key])
            }
            try db.execute(sql: """
                INSERT INTO sourceState (sourceID, lastAttempt, lastSuccess, httpStatus, lastError, failingSince, etag, lastModified, title, homepage, format)
                VALUES (?, ?, ?, NULL, NULL, NULL, ?, ?, ?, ?, ?)
                """, arguments: ["world", Self.later.timeIntervalSince1970, Self.first.timeIntervalSince1970, "\"v1\"",
                                 "Sat, 21 Nov 2026 12:00:00 GMT", "World News", "https://example.com/", "Atom 1.0"])
            try db.execute(sql: "INSERT INTO sourceState (sourceID, lastAttempt, httpStatus, lastError, failingSince) VALUES (?, ?, ?, ?, ?)",
                           arguments: ["down", Self.later.timeIntervalSince1970, 503, "HTTP 503", Self.first.timeIntervalSince1970])
            try db.execute(sql: "INSERT OR REPLACE INTO saved (entryKey, articleKey) VALUES (?, ?)",
                           arguments: ["favorites:https://example.com/a1", "https://example.com/a1"])
        }

        let full = Article(
            id: "https://example.com/a1", sourceID: "world", title: "Full", summary: "Everything set", author: "Ann",
            url: "https://example.com/a1", imageURL: "https://img.example.com/a1.jpg", published: Self.published,
            categories: ["Science", "Tech/AI"], guid: "guid-1"
        )
        let bare = Article(id: "world:g2", sourceID: "world", title: "Bare", guid: "g2")
        var world = SourceState()
        world.lastAttempt = Self.later
        world.lastSuccess = Self.first
        world.etag = "\"v1\""
        world.lastModified = "Sat, 21 Nov 2026 12:00:00 GMT"
        world.title = "World News"
        world.homepage = "https://example.com/"
        world.format = .atom
        var down = SourceState()
        down.lastAttempt = Self.later
        down.httpStatus = 503
        down.lastError = "HTTP 503"
        down.failingSince = Self.first

        let store = try open()
        #expect(try await store.state(of: "world") == world)
        #expect(try await store.state(of: "down") == down)
        #expect(try await store.state(of: "unknown") == nil)
        #expect(try await store.states(of: ["world", "down", "unknown"]) == ["world": world, "down": down], "read at once")
        #expect(try await store.articles(of: "world") == [full, bare])
        #expect(try await store.archive(of: ["world", "down"]) == [full, bare], "dated first, newest first")
        #expect(try await store.savedArticles(ids: ["favorites:https://example.com/a1", "readLater:x"])
            == ["favorites:https://example.com/a1": full])
        let statistics = try await store.statistics()
        #expect([statistics.articles, statistics.sources, statistics.saved] as [Int] == [2, 2, 1])
    }

    @Test("tags of any characters are written as JSONEncoder writes them and read back as they were")
    func tagsRoundTrip() async throws {
        let tags = ["World", "", "Économie", "科技", "Space 🚀", "a/b", "say \"hi\"", "back\\slash", "line\nbreak", "tab\t",
                    "\u{0}", "\u{1F}", "del\u{7F}", "\u{2028}sep", "\u{FEFF}bom", "[\"x\",\"y\"]", ",", "]"]
        let lists = [[]] + tags.map { [$0] } + [tags]
        let articles = lists.enumerated().map { index, list in
            Article(id: "https://example.com/\(index)", sourceID: "world", title: "Story \(index)", url: "https://example.com/\(index)",
                    categories: list)
        }
        let store = try open()
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: articles), at: Self.first)
        #expect(try await store.articles(of: "world").map(\.categories) == lists)
        let texts = try raw { db in try String.fetchAll(db, sql: "SELECT categories FROM article ORDER BY rowid") }
        #expect(texts == lists.map { String(decoding: try! JSONEncoder().encode($0), as: UTF8.self) })
    }

    @Test("what the store writes is what earlier versions read: seconds since 1970 and JSON text")
    func writesEarlierFormat() async throws {
        let store = try open()
        let article = Article(id: "https://example.com/a1", sourceID: "world", title: "Tagged", url: "https://example.com/a1",
                              published: Self.published, categories: ["Science"])
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [article], etag: "\"e\""), at: Self.first)
        try await store.recordFailure(of: "down", error: SourceError("HTTP 503", status: 503), at: Self.later)

        let (articleRow, worldRow, downRow) = try raw { db in
            (
                try Row.fetchOne(db, sql: """
                    SELECT typeof(published) AS publishedType, published, typeof(firstSeen) AS firstSeenType, firstSeen, lastSeen,
                        typeof(categories) AS categoriesType, categories, author FROM article
                    """),
                try Row.fetchOne(db, sql: "SELECT typeof(lastAttempt) AS lastAttemptType, * FROM sourceState WHERE sourceID = 'world'"),
                try Row.fetchOne(db, sql: "SELECT * FROM sourceState WHERE sourceID = 'down'")
            )
        }
        let stored = try #require(articleRow)
        #expect((stored["publishedType"] as String?) == "real")
        #expect((stored["published"] as Double?) == Self.published.timeIntervalSince1970)
        #expect((stored["firstSeenType"] as String?) == "real")
        #expect((stored["firstSeen"] as Double?) == Self.first.timeIntervalSince1970)
        #expect((stored["lastSeen"] as Double?) == Self.first.timeIntervalSince1970)
        #expect((stored["categoriesType"] as String?) == "text")
        #expect((stored["categories"] as String?) == #"["Science"]"#)
        #expect((stored["author"] as String?) == nil)
        let world = try #require(worldRow)
        #expect((world["lastAttemptType"] as String?) == "real")
        #expect((world["lastSuccess"] as Double?) == Self.first.timeIntervalSince1970)
        #expect((world["format"] as String?) == "RSS 2.0")
        #expect((world["etag"] as String?) == "\"e\"")
        #expect((world["httpStatus"] as Int?) == nil)
        let failed = try #require(downRow)
        #expect((failed["failingSince"] as Double?) == Self.later.timeIntervalSince1970)
        #expect((failed["httpStatus"] as Int?) == 503)
        #expect((failed["lastError"] as String?) == "HTTP 503")
        #expect((failed["format"] as String?) == nil)
    }

    @Test("an upsert keeps firstSeen, and moves lastSeen only for a fetch, not for keeping a saved article")
    func upsertKeepsFirstSeen() async throws {
        let store = try open()
        func seen() throws -> (first: Double, last: Double, title: String)? {
            try raw { db in
                try Row.fetchOne(db, sql: "SELECT firstSeen, lastSeen, title FROM article WHERE key = 'a1'")
                    .map { row in (first: row["firstSeen"] as Double, last: row["lastSeen"] as Double, title: row["title"] as String) }
            }
        }
        var article = Article(id: "a1", sourceID: "world", title: "First title", url: "https://example.com/a1")
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [article]), at: Self.first)
        #expect(try seen()?.first == Self.first.timeIntervalSince1970)
        #expect(try seen()?.last == Self.first.timeIntervalSince1970)

        article.title = "Second title"
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [article]), at: Self.later)
        #expect(try seen()?.first == Self.first.timeIntervalSince1970, "a new fetch does not make an article new")
        #expect(try seen()?.last == Self.later.timeIntervalSince1970)
        #expect(try seen()?.title == "Second title")

        article.title = "Saved title"
        try await store.keepSaved([SavedSnapshot(entryKey: "favorites:a1", article: article)], at: Self.later + 86_400)
        #expect(try seen()?.first == Self.first.timeIntervalSince1970)
        #expect(try seen()?.last == Self.later.timeIntervalSince1970, "keeping a saved article is not seeing it")
        #expect(try seen()?.title == "Saved title")

        // A 304 sees the listed articles again: that time is theirs once the list no longer has them.
        // 304s are recorded at once; a source the cache has no state of gets none.
        // A failure first: the 304 after it clears it, as `SourceState.recordNotModified` does.
        try await store.recordFailure(of: "world", error: SourceError("HTTP 503", status: 503), at: Self.later + 86_400)
        var expected = try #require(try await store.state(of: "world"))
        #expect(expected.failingSince != nil && expected.lastError != nil)
        expected.recordNotModified(at: Self.later + 2 * 86_400)
        try await store.recordNotModified(of: ["world", "never-fetched"], at: Self.later + 2 * 86_400)
        #expect(try await store.state(of: "world") == expected, "every field as the state's own recordNotModified leaves it")
        #expect(expected.httpStatus == 304 && expected.lastError == nil && expected.failingSince == nil)
        #expect(try await store.state(of: "world")?.lastSuccess == Self.later + 2 * 86_400)
        #expect(try await store.state(of: "never-fetched") == nil)
        #expect(try seen()?.first == Self.first.timeIntervalSince1970)
        let other = Article(id: "c1", sourceID: "world", title: "Another", url: "https://example.com/c1")
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [other]), at: Self.later + 3 * 86_400)
        #expect(try seen()?.last == (Self.later + 2 * 86_400).timeIntervalSince1970, "last seen at the 304, not at the fetch that dropped it")
        // Retention counts from then (once nobody saves it): a cutoff before that time keeps it, one after removes it.
        try await store.keepSaved([], at: Self.later + 3 * 86_400)
        #expect(try await store.prune(notSeenSince: Self.later + 2 * 86_400 - 1) == 0)
        #expect(try await store.prune(notSeenSince: Self.later + 2 * 86_400 + 1) == 1)
        #expect(try seen() == nil)

        let unlisted = Article(id: "b1", sourceID: "world", title: "Only saved")
        try await store.keepSaved([SavedSnapshot(entryKey: "favorites:b1", article: unlisted)], at: Self.later)
        let inserted = try raw { db in try Row.fetchOne(db, sql: "SELECT firstSeen, lastSeen FROM article WHERE key = 'b1'") }
        #expect((inserted?["firstSeen"] as Double?) == Self.later.timeIntervalSince1970, "a new article is first and last seen when stored")
        #expect((inserted?["lastSeen"] as Double?) == Self.later.timeIntervalSince1970)
    }

    @Test("stories with the same times come out of the archive in the order of their keys, whatever order they were stored in")
    func archiveTies() async throws {
        let keys = ["m:3", "a:1", "z:9", "c:2"]
        let stories = keys.map { Article(id: $0, sourceID: "world", title: $0, published: Self.published, guid: $0) }
        let store = try open()
        // Stored one by one, last key first: the same published time and the same first-seen time.
        for story in stories.reversed() {
            try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [story]), at: Self.first)
        }
        #expect(try await store.archive(of: ["world"]).map(\.id) == keys.sorted())
    }

    @Test("the archive comes out in the order SQLite's ORDER BY gives: published newest first, undated last, then latest seen, then key by bytes")
    func archiveOrderIsSQLites() async throws {
        let store = try open()
        // Keys whose byte order differs from String's ("f" against an e with a combining accent,
        // which String compares as é; é itself), a capital, digits; times tied and not, some
        // stories without a date, two sources; each batch stored at its own time, so first-seen
        // times differ between batches.
        let keys = ["x", "\u{e9}", "Zed", "zed", "10", "9", "f", "a", "b", "e\u{301}"]
        let dates: [Date?] = [Self.published, Self.published, nil, Self.published + 60, nil, Self.published, Self.published,
                              Self.published + 60, nil, Self.published]
        for (batch, range) in [0..<3, 3..<6, 6..<10].enumerated() {
            let source = batch == 1 ? "local" : "world"
            let stories = range.map { Article(id: keys[$0], sourceID: source, title: keys[$0], published: dates[$0]) }
            try await store.recordSuccess(of: source, content: SourceContent(format: .rss2, articles: stories),
                                          at: Self.first + Double(batch % 2) * 3600)
        }
        // A source not asked for.
        let elsewhere = Article(id: "0-elsewhere", sourceID: "elsewhere", title: "Not asked for", published: Self.published)
        try await store.recordSuccess(of: "elsewhere", content: SourceContent(format: .rss2, articles: [elsewhere]), at: Self.later)
        let sqlite = try raw { db in
            try String.fetchAll(db, sql: """
                SELECT key FROM article WHERE sourceID IN ('world', 'local')
                ORDER BY published IS NULL, published DESC, firstSeen DESC, key
                """)
        }
        #expect(sqlite.count == keys.count)
        #expect(try await store.archive(of: ["world", "local"]).map(\.id) == sqlite)
    }

    @Test("the lists of many sources are read at once, each in its order, each story as the source that wrote it last stored it")
    func lists() async throws {
        let store = try open()
        func story(_ id: String, by source: String) -> Article {
            Article(id: id, sourceID: source, title: "\(id) as \(source) has it", published: Self.published, guid: id)
        }
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [story("b", by: "world"), story("a", by: "world")]), at: Self.first)
        try await store.recordSuccess(of: "tech", content: SourceContent(format: .rss2, articles: [story("c", by: "tech")]), at: Self.first)
        try await store.recordSuccess(of: "arts", content: SourceContent(format: .rss2, articles: [story("e", by: "arts"), story("d", by: "arts")]), at: Self.first)
        var lists = try await store.lists(of: ["world", "tech", "none", "arts"])
        #expect(lists["world"]?.map(\.title) == ["b as world has it", "a as world has it"], "in the list's order")
        #expect(lists["tech"]?.map(\.id) == ["c"])
        #expect(lists["arts"]?.map(\.id) == ["e", "d"], "on either connection")
        #expect(lists["none"] == nil, "a source with no list has none")
        #expect(try await store.lists(of: ["arts"]).keys.sorted() == ["arts"], "only the sources asked for")
        #expect(try await store.lists(of: []).isEmpty)

        // "tech" now lists "a" too, and wrote it last: "world"'s list holds tech's copy of it.
        try await store.recordSuccess(of: "tech", content: SourceContent(format: .rss2, articles: [story("c", by: "tech"), story("a", by: "tech")]), at: Self.later)
        lists = try await store.lists(of: ["world", "tech"])
        #expect(lists["world"]?.map(\.sourceID) == ["world", "tech"])
        #expect(lists["world"]?.last?.title == "a as tech has it")
        #expect(lists["tech"]?.map(\.id) == ["c", "a"])
        #expect(try await store.articles(of: "world").map(\.id) == ["b", "a"], "the list itself is unchanged")
    }

    @Test("the archive read after the lists takes the stories they were read with, and makes again those written since")
    func archiveAfterLists() async throws {
        let store = try open()
        func story(_ id: String, by source: String, _ title: String, at hours: Double) -> Article {
            Article(id: id, sourceID: source, title: title, published: Self.published + hours * 3600, guid: id)
        }
        let world = (0..<40).map { story("w\($0)", by: "world", "world \($0)", at: Double($0)) }
        let tech = (0..<40).map { story("t\($0)", by: "tech", "tech \($0)", at: Double($0) + 0.5) }
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: world), at: Self.first)
        try await store.recordSuccess(of: "tech", content: SourceContent(format: .rss2, articles: tech), at: Self.first)
        // Stories no list holds any more: in the archive, not among the lists' stories.
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: Array(world[10...])), at: Self.later)
        let fresh = try await store.archive(of: ["world", "tech"])
        #expect(fresh.count == 80)

        let lists = try await store.lists(of: ["world", "tech"])
        let listed = Dictionary(uniqueKeysWithValues: lists.values.joined().map { ($0.id, $0.storageIdentity) })
        #expect(listed.count == 70)
        // "tech" writes two of its stories anew (one with another title) after the lists were read.
        var edited = tech[3]
        edited.title = "tech 3, edited"
        try await store.recordSuccess(of: "tech", content: SourceContent(format: .rss2, articles: [edited, tech[7]] + tech[20...]), at: Self.later)

        let archive = try await store.archive(of: ["world", "tech"])
        #expect(archive == fresh.map { $0.id == "t3" ? edited : $0 }, "the same stories in the same order as a read from the rows gives")
        let written = Set(["t3", "t7"] + tech[20...].map(\.id))
        for story in archive {
            let taken = listed[story.id] == story.storageIdentity
            #expect(taken == (listed[story.id] != nil && !written.contains(story.id)), "\(story.id)")
        }
        // The next archive read makes every story from its row: nothing is kept after one.
        let again = try await store.archive(of: ["world", "tech"])
        #expect(again == archive)
        #expect(!again.contains { listed[$0.id] == $0.storageIdentity })
    }

    @Test("a story kept as saved after the lists were read comes out of the archive as kept")
    func archiveAfterKeepingSaved() async throws {
        let store = try open()
        let stories = (0..<4).map { Article(id: "s\($0)", sourceID: "world", title: "story \($0)", published: Self.published, guid: "s\($0)") }
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: stories), at: Self.first)
        _ = try await store.lists(of: ["world"])
        var saved = stories[2]
        saved.summary = "as the saved list holds it"
        try await store.keepSaved([SavedSnapshot(entryKey: "favorites:s2", article: saved)], at: Self.later)
        let archive = try await store.archive(of: ["world"])
        #expect(archive.first { $0.id == "s2" }?.summary == "as the saved list holds it")
        #expect(archive.count == 4)
    }

    /// A digester that counts the stories it digests: its digests are functions of every field.
    final class CountingDigester: Sendable {
        let made = Mutex(0)
        func digester(version: UInt8) -> ArticleDigester {
            ArticleDigester(version: version) { [self] article in
                made.withLock { $0 += 1 }
                var hasher = Hasher()
                article.hash(into: &hasher)
                let hash = UInt64(bitPattern: Int64(hasher.finalize()))
                return ArticleDigests(fields: SIMD4(hash, UInt64(article.title.utf8.count), UInt64(version), ~hash),
                                      shown: SIMD4(~hash, UInt64(article.summary.utf8.count), hash, 1))
            }
        }
    }

    @Test("each story is stored with its digests and read back knowing them; those of another version, or none, are made again")
    func storedDigests() async throws {
        let counter = CountingDigester()
        let digester = counter.digester(version: 7)
        let stories = (0..<3).map {
            Article(id: "s\($0)", sourceID: "world", title: "story \($0)", summary: "summary \($0)", published: Self.published, guid: "s\($0)")
        }
        // Digested once each, as they are written; read back knowing it, without digesting them again.
        var store: SQLiteStore? = try SQLiteStore.open(at: file, logger: TestSupport.recordingLogger().0, digester: digester)
        try await store?.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: stories), at: Self.first)
        #expect(counter.made.withLock { $0 } == 3)
        let expected = stories.map(digester.make)
        #expect(try await store?.lists(of: ["world"])["world"]?.map(\.knownDigests) == expected)
        store = nil
        store = try SQLiteStore.open(at: file, logger: TestSupport.recordingLogger().0, digester: digester)
        let archive = try #require(try await store?.archive(of: ["world"]))
        #expect(archive.map(\.knownDigests) == expected, "read from the rows, not taken from a list read before")
        counter.made.withLock { $0 = 0 }
        #expect(archive.map(digester.digests(of:)) == expected)
        #expect(counter.made.withLock { $0 } == 0, "the digests taken are the ones used")

        // A story written again with another field keeps the digest of what it holds now; a
        // saved copy too.
        var edited = stories[1]
        edited.title = "story 1, edited"
        var saved = stories[2]
        saved.summary = "as saved"
        try await store?.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [stories[0], edited]), at: Self.later)
        try await store?.keepSaved([SavedSnapshot(entryKey: "favorites:s2", article: saved)], at: Self.later)
        let changed = try #require(try await store?.lists(of: ["world"])["world"])
        #expect(changed.map(\.knownDigests) == [expected[0], digester.make(edited)])
        #expect(try await store?.savedArticles(ids: ["favorites:s2"])["favorites:s2"]?.knownDigests == digester.make(saved))
        let column = try raw { db in try Data.fetchOne(db, sql: "SELECT digest FROM article WHERE key = 's1'") }
        #expect(column?.count == 65)
        #expect(column?.first == 7, "the digester's version, then the digests")

        // Another version's digests, or none, are not taken.
        store = try SQLiteStore.open(at: file, logger: TestSupport.recordingLogger().0, digester: counter.digester(version: 8))
        #expect(try await store?.archive(of: ["world"]).allSatisfy { $0.knownDigests == nil } == true)
        store = try SQLiteStore.open(at: file, logger: TestSupport.recordingLogger().0)
        #expect(try await store?.archive(of: ["world"]).allSatisfy { $0.knownDigests == nil } == true)
        try await store?.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: [stories[0]]), at: Self.later + 60)
        let cleared = try raw { db in try Row.fetchOne(db, sql: "SELECT digest IS NULL AS cleared FROM article WHERE key = 's0'") }
        #expect((cleared?["cleared"] as Bool?) == true, "a story written without a digester keeps none, not a stale one")
    }

    @Test("retention removes the stories not seen since the cutoff, unless listed or saved, found through the index on lastSeen")
    func retention() async throws {
        let store = try open()
        let stories = (0..<4).map { Article(id: "s\($0)", sourceID: "world", title: "story \($0)", guid: "s\($0)") }
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: stories), at: Self.first)
        try await store.keepSaved([SavedSnapshot(entryKey: "favorites:s1", article: stories[1])], at: Self.first)
        // s0 and s1 leave the list at `later`; s0 is not saved, s1 is.
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: Array(stories[2...])), at: Self.later)
        #expect(try await store.prune(notSeenSince: Self.first) == 0, "none older than the cutoff")
        #expect(try await store.prune(notSeenSince: Self.first + 1) == 1)
        #expect(try await store.archive(of: ["world"]).map(\.id).sorted() == ["s1", "s2", "s3"])
        let plan = try raw { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + SQLiteStore.pruning, arguments: [0]).map { $0["detail"] as String? ?? "" }
        }
        #expect(plan.contains { $0.contains("USING INDEX articleLastSeen") }, "\(plan)")
        #expect(!plan.contains("SCAN article"), "\(plan)")
    }

    @Test("a store told to settle puts its log into its file before anything asked of it after, stays usable, and closes as it would have")
    func settle() async throws {
        let logger = TestSupport.recordingLogger().0
        let stories = (0..<40).map { Article(id: "s\($0)", sourceID: "world", title: "story \($0)", summary: String(repeating: "text ", count: 200), guid: "s\($0)") }
        let store = try SQLiteStore.open(at: file, logger: logger, now: Self.first)
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: stories), at: Self.first)
        func logBytes() throws -> Int {
            try FileManager.default.attributesOfItem(atPath: file.path + "-wal")[.size] as? Int ?? -1
        }
        #expect(try logBytes() > 0, "the test means something only when the log holds the writes")
        store.settle()
        // A write waits for the settling on the connection that writes: after it, the log is empty.
        try await store.recordNotModified(of: ["none"], at: Self.later)
        #expect(try logBytes() == 0)
        #expect(try await store.archive(of: ["world"]).count == 40)
        store.close()
        let reopened = try SQLiteStore.open(at: file, logger: logger, now: Self.later)
        defer { reopened.close() }
        #expect(!reopened.checkedWhenOpened, "closed as usual: trusted without a check")
        #expect(try await reopened.archive(of: ["world"]).count == 40)
    }

    @Test("a cache its store closed opens without the integrity check, until anything else touches it, for a day at most")
    func integrityStamp() async throws {
        let logger = TestSupport.recordingLogger().0
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let stories = (0..<3).map { Article(id: "s\($0)", sourceID: "world", title: "story \($0)", guid: "s\($0)") }
        func reopen(at date: Date = now) throws -> Bool {
            let store = try SQLiteStore.open(at: file, logger: logger, now: date)
            defer { store.close() }
            return store.checkedWhenOpened
        }

        let store = try SQLiteStore.open(at: file, logger: logger, now: now)
        #expect(store.checkedWhenOpened, "a new cache, with no stamp")
        try await store.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: stories), at: Self.first)
        store.close()
        #expect(try !reopen(), "closed by its store: trusted")
        #expect(try !reopen(at: now + 23 * 3600), "and again, within the day its check is trusted for")
        #expect(try reopen(at: now + 24 * 3600), "a day after the check, checked again")
        #expect(try !reopen(at: now + 25 * 3600), "and that check trusted in turn")

        // Written by another program through SQLite: checked.
        try raw { db in try db.execute(sql: "UPDATE article SET title = 'edited' WHERE key = 's1'") }
        #expect(try reopen(at: now + 25 * 3600))
        // Only its times changed: checked.
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0)
        #expect(try reopen(at: now + 25 * 3600))

        // A build that never closed its store (it crashed after writing): checked.
        var crashed: SQLiteStore? = try SQLiteStore.open(at: file, logger: logger, now: now + 25 * 3600)
        #expect(crashed?.checkedWhenOpened == false)
        try await crashed?.recordSuccess(of: "world", content: SourceContent(format: .rss2, articles: Array(stories.prefix(1))), at: Self.later)
        crashed = nil
        #expect(try reopen(at: now + 25 * 3600))

        // Bytes damaged in place: the check finds them, and the cache is moved aside.
        #expect(try !reopen(at: now + 25 * 3600))
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: UInt64(size - 4096))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()
        let (damagedLogger, log) = TestSupport.recordingLogger()
        let reopened = try SQLiteStore.open(at: file, logger: damagedLogger, now: now + 25 * 3600)
        defer { reopened.close() }
        #expect(log.warnings.contains { $0.contains("moved it to cache.sqlite.unusable-") }, "\(log.warnings)")
        #expect(try await reopened.statistics().articles == 0, "a new cache")
    }

    @Test("the archive's rowids and the lists' sources are read in parts that cover each once, in order")
    func readParts() {
        for (first, last, count) in [(Int64(1), Int64(10_000), 6), (1, 5, 6), (7, 7, 6), (-3, 3, 4), (1, 12, 6), (1, 13, 6), (5, Int64.max, 6),
                                     (Int64.min, Int64.max, 6), (Int64.min + 1, -1, 3)] {
            let parts = SQLiteStore.parts(from: first, through: last, count: count)
            #expect(parts.first?.lowerBound == first && parts.last?.upperBound == last, "\(first)...\(last)")
            #expect(zip(parts, parts.dropFirst()).allSatisfy { $0.upperBound + 1 == $1.lowerBound }, "\(first)...\(last): \(parts)")
            #expect(parts.count <= count)
            if parts.count > 1 {
                let sizes = parts.map { $0.upperBound - $0.lowerBound }
                #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "\(first)...\(last): \(parts)")
            }
        }
        #expect(SQLiteStore.parts(from: 1, through: 10_000, count: 6).count == 6)
        #expect(SQLiteStore.parts(from: 2, through: 1, count: 6).isEmpty)

        let sources = (0..<99).map { "src-\($0)" }
        let lists = SQLiteStore.parts(of: sources, count: 6)
        #expect(lists.count == 6 && Array(lists.joined()) == sources)
        #expect(Set(lists.map(\.count)).isSubset(of: [16, 17]))
        #expect(SQLiteStore.parts(of: ["one", "two"], count: 6) == [["one"], ["two"]])
        #expect(SQLiteStore.parts(of: [String](), count: 6).isEmpty)
    }
}
