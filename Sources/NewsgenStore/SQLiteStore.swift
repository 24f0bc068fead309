package import Foundation
import GRDB
import Synchronization
package import Logging
package import NewsgenModel

/// The cache: articles and fetch state in an SQLite file (WAL mode, migrations, one transaction per write).
/// Articles are keyed by normalized URL (else `source:guid`); each source's current list is its own table,
/// so a fetch replaces the list while the articles (and saved ones) keep their data.
package final class SQLiteStore: ArticleStore {
    public let path: URL
    private let database: DatabasePool
    /// The stories the last `lists(of:)` decoded, for the next `archive(of:)` to take.
    private let listedRows = Mutex(ListedRows())
    /// When the file was last checked (seconds since 1970): as it opened, or as its stamp says.
    private let lastCheck: Int64
    /// Whether opening checked the file's integrity, rather than trusting its stamp.
    package let checkedWhenOpened: Bool
    /// How stories are digested; each is stored with its digests and read back knowing them. `nil` stores none.
    private let digester: ArticleDigester?

    /// Opens (or creates) the cache. A corrupt file, a non-database or one from a newer newsgen is moved aside
    /// with a warning and a new cache started. Integrity is checked unless the file is as a store closed it
    /// (`IntegrityStamp`).
    public static func open(at path: URL, logger: Logger, now: Date = Date(), digester: ArticleDigester? = nil) throws(StoreError) -> SQLiteStore {
        do {
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateFolder(folder: path.deletingLastPathComponent(), cause: error)
        }
        do {
            return try SQLiteStore(path: path, now: now, digester: digester)
        } catch let problem as UnusableCache {
            let aside = path.deletingLastPathComponent()
                .appendingPathComponent("\(path.lastPathComponent).unusable-\(Int(Date().timeIntervalSince1970))")
            logger.warning("cache: \(path.path) \(problem.reason); moved it to \(aside.lastPathComponent) and started a new cache")
            try moveAside(path, to: aside)
            do {
                return try SQLiteStore(path: path, now: now, digester: digester)
            } catch {
                throw .cannotCreate(file: path, cause: error)
            }
        } catch {
            throw .cannotOpen(file: path, cause: error)
        }
    }

    private struct UnusableCache: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    private init(path: URL, now: Date, digester: ArticleDigester?) throws {
        self.path = path
        self.digester = digester
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "newsgen.cache"
        // Before the pool opens the file (and a write-ahead log beside it).
        let trusted = IntegrityStamp.lastCheck(of: path, now: now)
        lastCheck = trusted ?? Int64(now.timeIntervalSince1970.rounded(.down))
        checkedWhenOpened = trusted == nil
        do {
            database = try DatabasePool(path: path.path, configuration: configuration)
            if trusted == nil {
                let check = try database.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
                guard check == "ok" else { throw UnusableCache(reason: "failed its integrity check (\(check ?? "no answer"))") }
            }
            let migrator = Self.migrator
            if try database.read({ try migrator.hasBeenSuperseded($0) }) {
                throw UnusableCache(reason: "was written by a newer newsgen (its schema is unknown to this one)")
            }
            try migrator.migrate(database)
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            throw UnusableCache(reason: "is not a usable SQLite database (\(error.message ?? "corrupt"))")
        }
    }

    /// Starts checkpointing the write-ahead log on the writing connection and returns at once, so the log is
    /// flushed while the site is built. A failed checkpoint changes nothing: `close` checkpoints again.
    public func settle() {
        database.asyncWriteWithoutTransaction { db in _ = try? db.checkpoint(.truncate) }
    }

    /// Closes the cache and stamps the file (`IntegrityStamp`) so the next open skips the check. A cache never
    /// closed (a crash) is checked when next opened.
    package func close() {
        do {
            // Checkpoint first: the pool closes its writer before its readers, and the last reader leaves the log.
            try database.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            try database.close()
        } catch {
            unlink(IntegrityStamp.location(of: path).path)
            return
        }
        IntegrityStamp.save(for: path, checked: lastCheck)
    }

    private static func moveAside(_ path: URL, to aside: URL) throws(StoreError) {
        unlink(IntegrityStamp.location(of: path).path)
        for suffix in ["", "-wal", "-shm"] {
            let file = URL(fileURLWithPath: path.path + suffix)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            do {
                try FileManager.default.moveItem(at: file, to: URL(fileURLWithPath: aside.path + suffix))
            } catch {
                throw .cannotMoveAside(file: file, cause: error)
            }
        }
    }

    /// The schema, one migration per change; never edit a migration that has shipped.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE article (
                    key TEXT PRIMARY KEY NOT NULL,
                    sourceID TEXT NOT NULL,
                    title TEXT NOT NULL,
                    summary TEXT NOT NULL,
                    author TEXT,
                    url TEXT,
                    imageURL TEXT,
                    published DOUBLE,
                    categories TEXT NOT NULL,
                    guid TEXT,
                    firstSeen DOUBLE NOT NULL,
                    lastSeen DOUBLE NOT NULL
                );
                CREATE TABLE sourceList (
                    sourceID TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    articleKey TEXT NOT NULL REFERENCES article(key) ON DELETE CASCADE,
                    PRIMARY KEY (sourceID, position)
                );
                CREATE INDEX sourceListArticle ON sourceList(articleKey);
                CREATE TABLE sourceState (
                    sourceID TEXT PRIMARY KEY NOT NULL,
                    lastAttempt DOUBLE,
                    lastSuccess DOUBLE,
                    httpStatus INTEGER,
                    lastError TEXT,
                    failingSince DOUBLE,
                    etag TEXT,
                    lastModified TEXT,
                    title TEXT,
                    homepage TEXT,
                    format TEXT
                );
                CREATE TABLE saved (
                    entryKey TEXT PRIMARY KEY NOT NULL,
                    articleKey TEXT NOT NULL REFERENCES article(key) ON DELETE CASCADE
                );
                """)
        }
        migrator.registerMigration("v2-content") { db in
            try db.execute(sql: "ALTER TABLE article ADD COLUMN content TEXT")
        }
        // An aggregator story's outlet (NewsAPI's source.name).
        migrator.registerMigration("v3-outlet") { db in
            try db.execute(sql: "ALTER TABLE article ADD COLUMN outlet TEXT")
        }
        // Each story's digest (`StoredDigest`).
        migrator.registerMigration("v4-digest") { db in
            try db.execute(sql: "ALTER TABLE article ADD COLUMN digest BLOB")
        }
        // Lets retention (`prune`) find old articles through an index.
        migrator.registerMigration("v5-lastSeen") { db in
            try db.execute(sql: "CREATE INDEX articleLastSeen ON article(lastSeen)")
        }
        // Dropped by v7, kept so that caches of any age migrate the same way.
        migrator.registerMigration("v6-listBlob") { db in
            let held = ["key", "sourceID", "title", "summary", "author", "url", "imageURL", "published", "categories", "guid", "firstSeen",
                        "content", "outlet", "digest"]
            try db.execute(sql: """
                CREATE TABLE listBlob (
                    sourceID TEXT PRIMARY KEY NOT NULL,
                    stories BLOB NOT NULL
                );
                CREATE TRIGGER listBlobArticleChanged AFTER UPDATE OF \(held.joined(separator: ", ")) ON article
                WHEN \(held.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR "))
                BEGIN
                    DELETE FROM listBlob WHERE sourceID IN (SELECT sourceID FROM sourceList WHERE articleKey IN (OLD.key, NEW.key));
                END;
                CREATE TRIGGER listBlobArticleDeleted BEFORE DELETE ON article
                BEGIN
                    DELETE FROM listBlob WHERE sourceID IN (SELECT sourceID FROM sourceList WHERE articleKey = OLD.key);
                END;
                CREATE TRIGGER listBlobListInserted AFTER INSERT ON sourceList
                BEGIN
                    DELETE FROM listBlob WHERE sourceID = NEW.sourceID;
                END;
                CREATE TRIGGER listBlobListDeleted AFTER DELETE ON sourceList
                BEGIN
                    DELETE FROM listBlob WHERE sourceID = OLD.sourceID;
                END;
                CREATE TRIGGER listBlobListUpdated AFTER UPDATE ON sourceList
                BEGIN
                    DELETE FROM listBlob WHERE sourceID IN (OLD.sourceID, NEW.sourceID);
                END;
                """)
        }
        migrator.registerMigration("v7-noListBlob") { db in
            try db.execute(sql: """
                DROP TRIGGER IF EXISTS listBlobArticleChanged;
                DROP TRIGGER IF EXISTS listBlobArticleDeleted;
                DROP TRIGGER IF EXISTS listBlobListInserted;
                DROP TRIGGER IF EXISTS listBlobListDeleted;
                DROP TRIGGER IF EXISTS listBlobListUpdated;
                DROP TABLE IF EXISTS listBlob;
                """)
        }
        // Full texts extracted from stories' own pages (`StoryExtraction`), by the story's link.
        migrator.registerMigration("v8-extraction") { db in
            try db.execute(sql: """
                CREATE TABLE extraction (
                    url TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('article', 'none', 'failed')),
                    value TEXT NOT NULL,
                    attempted DOUBLE NOT NULL,
                    attempts INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        // Images fetched for the site (`StoredImage`), by URL; their files are in the cache's image folder.
        migrator.registerMigration("v9-image") { db in
            try db.execute(sql: """
                CREATE TABLE image (
                    url TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('made', 'none', 'failed')),
                    value TEXT NOT NULL,
                    attempted DOUBLE NOT NULL,
                    attempts INTEGER NOT NULL,
                    etag TEXT,
                    lastModified TEXT,
                    lastShown DOUBLE NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        // Each story's group (`StoryGrouping`), kept so that later builds add stories to groups and never regroup old ones.
        migrator.registerMigration("v10-storyGroup") { db in
            try db.execute(sql: """
                CREATE TABLE storyGroup (
                    articleKey TEXT PRIMARY KEY NOT NULL REFERENCES article(key) ON DELETE CASCADE,
                    groupKey TEXT NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        return migrator
    }

    // MARK: - ArticleStore

    public func states(of sourceIDs: [String]) async throws(StoreError) -> [String: SourceState] {
        try await read { db in
            var states: [String: SourceState] = [:]
            for record in try SourceStateRecord.fetchAll(db, keys: sourceIDs) { states[record.sourceID] = record.state }
            return states
        }
    }

    public func lists(of sourceIDs: [String]) async throws(StoreError) -> [String: [Article]] {
        // Only rows read from here on are kept for the archive.
        listedRows.withLock { $0 = ListedRows(keeping: true) }
        var lists: [String: [Article]] = [:]
        lists.reserveCapacity(sourceIDs.count)
        for part in try await inParts(Self.parts(of: sourceIDs, count: Self.readParts), { part throws(StoreError) in try await self.listed(by: part) }) {
            lists.merge(part) { list, _ in list }
        }
        return lists
    }

    private static let readParts = 6

    /// `read` of each of `parts` on two connections at once; the values in the parts' order.
    private func inParts<Part: Sendable, Value: Sendable>(
        _ parts: [Part], _ read: @escaping @Sendable (Part) async throws(StoreError) -> Value
    ) async throws(StoreError) -> [Value] {
        let results = await Parallel.map(parts, maxConcurrent: 2) { part -> Result<Value, StoreError> in
            do throws(StoreError) {
                return .success(try await read(part))
            } catch {
                return .failure(error)
            }
        }
        return try results.map { result throws(StoreError) in try result.get() }
    }

    /// `items` in at most `count` parts of nearly equal size, in order.
    static func parts<T>(of items: [T], count: Int) -> [[T]] {
        guard !items.isEmpty else { return [] }
        return Parallel.ranges(of: items.count, parts: min(count, items.count)).map { Array(items[$0]) }
    }

    /// The lists of `sourceIDs` in one query, ordered by source id and position (the primary key's order).
    private func listed(by sourceIDs: [String]) async throws(StoreError) -> [String: [Article]] {
        guard !sourceIDs.isEmpty else { return [:] }
        return try await read { db in
            var lists: [String: [Article]] = [:]
            var current: (sourceID: String, articles: [Article])?
            let rows = try Row.fetchCursor(db, sql: """
                SELECT \(ArticleRecord.selection), sourceList.sourceID, article.rowid FROM sourceList JOIN article ON article.key = sourceList.articleKey
                WHERE sourceList.sourceID IN (\(sourceIDs.map { _ in "?" }.joined(separator: ", ")))
                ORDER BY sourceList.sourceID, sourceList.position
                """, arguments: StatementArguments(sourceIDs))
            var decoded: [ListedRows.Decoded] = []
            while let row = try rows.next() {
                let sourceID: String = try row.decode(atIndex: ArticleRecord.columnCount)
                if current?.sourceID != sourceID {
                    if let done = current { lists[done.sourceID] = done.articles }
                    current = (sourceID, [])
                }
                let article = try ArticleRecord(row: row).article(digester: self.digester)
                decoded.append(ListedRows.Decoded(row: try row.decode(atIndex: ArticleRecord.columnCount + 1), story: article))
                current?.articles.append(article)
            }
            if let done = current { lists[done.sourceID] = done.articles }
            decoded.sort { $0.row < $1.row }
            self.listedRows.withLock { if $0.keeping { $0.decoded.append(decoded) } }
            return lists
        }
    }

    public func archive(of sourceIDs: Set<String>) async throws(StoreError) -> [Article] {
        guard !sourceIDs.isEmpty else { return [] }
        // Stories decoded with the lists are reused unless written since (`ListedRows`).
        let known = listedRows.withLock { rows in
            defer { rows = ListedRows() }
            return rows
        }
        let bounds = try await read { db -> ClosedRange<Int64>? in
            guard let row = try Row.fetchOne(db, sql: "SELECT min(rowid), max(rowid) FROM article"),
                  let first = try row.decode(Int64?.self, atIndex: 0), let last = try row.decode(Int64?.self, atIndex: 1)
            else { return nil }
            return first...last
        }
        guard let bounds else { return [] }
        let parts = Self.parts(from: bounds.lowerBound, through: bounds.upperBound, count: Self.readParts)
        var stories: [Article] = []
        var order = ArchiveReadOrder()
        for part in try await inParts(parts, { rowids throws(StoreError) in try await self.archived(of: sourceIDs, rowids: rowids, known: known) }) {
            stories += part.stories
            order.append(contentsOf: part.order)
        }
        return order.places().map { stories[$0] }
    }

    /// `first...last` in at most `count` ranges of nearly equal size, in order.
    static func parts(from first: Int64, through last: Int64, count: Int) -> [ClosedRange<Int64>] {
        guard first <= last else { return [] }
        let (difference, overflowed) = last.subtractingReportingOverflow(first)
        guard !overflowed, difference < Int64.max else { return [first...last] }
        let span = difference + 1
        let count = Int64(min(max(1, count), Int(clamping: span)))
        let (size, extra) = span.quotientAndRemainder(dividingBy: count)
        func start(_ part: Int64) -> Int64 { first + size * part + min(part, extra) }
        return (0..<count).map { part in start(part)...(part == count - 1 ? last : start(part + 1) - 1) }
    }

    /// The stories of `sourceIDs` in rows `rowids`, in table order, with their archive order. Sorted in Swift
    /// (`ArchiveReadOrder`) because ORDER BY would copy every row into a temporary tree.
    private func archived(of sourceIDs: Set<String>, rowids: ClosedRange<Int64>, known: ListedRows) async throws(StoreError)
        -> (stories: [Article], order: ArchiveReadOrder) {
        try await read { db in
            var stories: [Article] = []
            var order = ArchiveReadOrder()
            let request = ArticleRecord.select(ArticleRecord.databaseSelection + [Column.rowID])
                .filter(sourceIDs.contains(ArticleRecord.Columns.sourceID))
                .filter(sql: "rowid BETWEEN ? AND ?", arguments: [rowids.lowerBound, rowids.upperBound])
            let rows = try Row.fetchCursor(db, request)
            while let row = try rows.next() {
                let key: String = try row.decode(atIndex: 0)
                order.append(key: key, published: try row.decode(Double?.self, atIndex: ArticleRecord.publishedColumn),
                             firstSeen: try row.decode(Double.self, atIndex: ArticleRecord.firstSeenColumn))
                let known = known.story(key, row: try row.decode(atIndex: ArticleRecord.columnCount))
                stories.append(try known ?? ArticleRecord(row: row).article(digester: self.digester))
            }
            return (stories, order)
        }
    }

    /// `lastSeen` is the last time a source listed an article, which retention needs once none does. A 304 writes
    /// no article; the list's articles are updated when the list is replaced, to the source's last success.
    public func recordSuccess(of sourceID: String, content: SourceContent, at date: Date) async throws(StoreError) {
        try await write { db in
            if let seen = try SourceStateRecord.fetchOne(db, key: sourceID)?.state.lastSuccess {
                try db.execute(sql: """
                    UPDATE article SET lastSeen = max(lastSeen, ?) WHERE key IN (SELECT articleKey FROM sourceList WHERE sourceID = ?)
                    """, arguments: [seen.timeIntervalSince1970, sourceID])
            }
            try SourceListRecord.filter(SourceListRecord.Columns.sourceID == sourceID).deleteAll(db)
            for (position, article) in content.articles.enumerated() {
                try ArticleRecord.upsert(article, at: date, in: db, digester: self.digester)
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO sourceList (sourceID, position, articleKey) VALUES (?, ?, ?)")
                    .execute(arguments: [sourceID, position, article.id])
            }
            var state = SourceState()
            state.recordSuccess(content, at: date)
            try SourceStateRecord(sourceID: sourceID, state: state).upsert(db)
        }
        listedRows.withLock { $0.written(content.articles.lazy.map(\.id)) }
    }

    /// Moves the listed articles' `lastSeen` with the last success, as `SourceState.recordNotModified` does
    /// (a test holds the two together).
    public func recordNotModified(of sourceIDs: [String], at date: Date) async throws(StoreError) {
        guard !sourceIDs.isEmpty else { return }
        let time = date.timeIntervalSince1970
        let arguments: StatementArguments = [time, time] + StatementArguments(sourceIDs)
        try await write { db in
            try db.execute(sql: """
                UPDATE sourceState SET lastAttempt = ?, lastSuccess = ?, httpStatus = 304, lastError = NULL, failingSince = NULL
                WHERE sourceID IN (\(sourceIDs.map { _ in "?" }.joined(separator: ", ")))
                """, arguments: arguments)
        }
    }

    public func recordFailure(of sourceID: String, error: SourceError, at date: Date) async throws(StoreError) {
        try await write { db in
            var state = try SourceStateRecord.fetchOne(db, key: sourceID)?.state ?? SourceState()
            state.recordFailure(error, at: date)
            try SourceStateRecord(sourceID: sourceID, state: state).save(db)
        }
    }

    public func keepSaved(_ saved: [SavedSnapshot], at date: Date) async throws(StoreError) {
        try await write { db in
            try SavedRecord.deleteAll(db)
            for item in saved {
                try ArticleRecord.upsert(item.article, at: date, in: db, digester: self.digester, touchLastSeen: false)
                try SavedRecord(entryKey: item.entryKey, articleKey: item.article.id).insert(db, onConflict: .replace)
            }
        }
        listedRows.withLock { $0.written(saved.lazy.map(\.article.id)) }
    }

    public func savedArticles(ids: Set<String>) async throws(StoreError) -> [String: Article] {
        guard !ids.isEmpty else { return [:] }
        return try await read { db in
            var found: [String: Article] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT \(ArticleRecord.selection), saved.entryKey AS entryKey FROM saved JOIN article ON article.key = saved.articleKey") {
                let entryKey: String = row["entryKey"]
                if ids.contains(entryKey) { found[entryKey] = try ArticleRecord(row: row).article(digester: self.digester) }
            }
            return found
        }
    }

    public func extractions(of urls: [String]) async throws(StoreError) -> [String: StoryExtraction] {
        guard !urls.isEmpty else { return [:] }
        return try await read { db in
            var found: [String: StoryExtraction] = [:]
            let statement = try db.cachedStatement(sql: "SELECT kind, value, attempted, attempts FROM extraction WHERE url = ?")
            for url in urls {
                guard let row = try Row.fetchOne(statement, arguments: [url]) else { continue }
                let value: String = row[1]
                let outcome: StoryExtraction.Outcome = switch row[0] as String {
                case "article": .article(html: value)
                case "none": .none(reason: value)
                default: .failed(reason: value)
                }
                found[url] = StoryExtraction(outcome, attempted: Date(timeIntervalSince1970: row[2]), attempts: row[3])
            }
            return found
        }
    }

    public func recordExtractions(_ extractions: [String: StoryExtraction]) async throws(StoreError) {
        guard !extractions.isEmpty else { return }
        try await write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO extraction (url, kind, value, attempted, attempts) VALUES (?, ?, ?, ?, ?)
                """)
            for (url, extraction) in extractions.sorted(by: { $0.key < $1.key }) {
                let (kind, value): (String, String) = switch extraction.outcome {
                case .article(let html): ("article", html)
                case .none(let reason): ("none", reason)
                case .failed(let reason): ("failed", reason)
                }
                try statement.execute(arguments: [url, kind, value, extraction.attempted.timeIntervalSince1970, extraction.attempts])
            }
        }
    }

    /// A made image's `value` is its hash, then its variants: `hash 320x213 640x427`; otherwise the reason.
    public func images(of urls: [String]) async throws(StoreError) -> [String: StoredImage] {
        guard !urls.isEmpty else { return [:] }
        return try await read { db in
            var found: [String: StoredImage] = [:]
            let statement = try db.cachedStatement(sql: """
                SELECT kind, value, attempted, attempts, etag, lastModified, lastShown FROM image WHERE url = ?
                """)
            for url in urls {
                guard let row = try Row.fetchOne(statement, arguments: [url]) else { continue }
                let value: String = row[1]
                let outcome: StoredImage.Outcome
                switch row[0] as String {
                case "made":
                    let words = value.split(separator: " ")
                    let sizes = words.dropFirst().compactMap { word -> PixelSize? in
                        let parts = word.split(separator: "x")
                        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
                        return PixelSize(width: width, height: height)
                    }
                    guard let hash = words.first, !sizes.isEmpty else { continue }
                    outcome = .made(hash: String(hash), variants: sizes)
                case "none": outcome = .none(reason: value)
                default: outcome = .failed(reason: value)
                }
                found[url] = StoredImage(outcome, attempted: Date(timeIntervalSince1970: row[2]), attempts: row[3], etag: row[4],
                                         lastModified: row[5], lastShown: Date(timeIntervalSince1970: row[6]))
            }
            return found
        }
    }

    public func recordImages(_ images: [String: StoredImage]) async throws(StoreError) {
        guard !images.isEmpty else { return }
        try await write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO image (url, kind, value, attempted, attempts, etag, lastModified, lastShown)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (url, image) in images.sorted(by: { $0.key < $1.key }) {
                let (kind, value): (String, String) = switch image.outcome {
                case .made(let hash, let variants): ("made", ([hash] + variants.map { "\($0.width)x\($0.height)" }).joined(separator: " "))
                case .none(let reason): ("none", reason)
                case .failed(let reason): ("failed", reason)
                }
                try statement.execute(arguments: [url, kind, value, image.attempted.timeIntervalSince1970, image.attempts, image.etag,
                                                  image.lastModified, image.lastShown.timeIntervalSince1970])
            }
        }
    }

    public func pruneImages(notShownSince cutoff: Date) async throws(StoreError) -> Set<String> {
        try await write { db in
            let time = cutoff.timeIntervalSince1970
            let gone = try String.fetchAll(db, sql: "SELECT value FROM image WHERE kind = 'made' AND lastShown < ?", arguments: [time])
                .compactMap { $0.split(separator: " ").first.map(String.init) }
            try db.execute(sql: "DELETE FROM image WHERE lastShown < ?", arguments: [time])
            guard !gone.isEmpty else { return [] }
            let kept = Set(try String.fetchAll(db, sql: "SELECT value FROM image WHERE kind = 'made'")
                .compactMap { $0.split(separator: " ").first.map(String.init) })
            return Set(gone).subtracting(kept)
        }
    }

    public func storyGroups(of ids: [String]) async throws(StoreError) -> [String: String] {
        guard !ids.isEmpty else { return [:] }
        let wanted = Set(ids)
        return try await read { db in
            var found: [String: String] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT articleKey, groupKey FROM storyGroup")
            while let row = try rows.next() {
                let key: String = row[0]
                if wanted.contains(key) { found[key] = row[1] }
            }
            return found
        }
    }

    public func recordStoryGroups(_ groups: [String: String]) async throws(StoreError) {
        guard !groups.isEmpty else { return }
        try await write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO storyGroup (articleKey, groupKey) SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM article WHERE key = ?1)
                """)
            for (key, group) in groups.sorted(by: { $0.key < $1.key }) {
                try statement.execute(arguments: [key, group])
            }
        }
    }

    public func prune(notSeenSince cutoff: Date) async throws(StoreError) -> Int {
        try await write { db in
            try db.execute(sql: Self.pruning, arguments: [cutoff.timeIntervalSince1970])
            let pruned = db.changesCount
            try db.execute(sql: Self.pruningExtractions)
            return pruned
        }
    }

    /// Removes the extractions of links no article has any more.
    static let pruningExtractions = """
        DELETE FROM extraction WHERE url NOT IN (SELECT url FROM article WHERE url IS NOT NULL)
        """

    /// Removes articles not seen since a time (seconds since 1970) unless saved or listed; uses the `lastSeen` index.
    static let pruning = """
        DELETE FROM article WHERE lastSeen < ?
        AND key NOT IN (SELECT articleKey FROM saved)
        AND key NOT IN (SELECT articleKey FROM sourceList)
        """

    public func statistics() async throws(StoreError) -> StoreStatistics {
        let counts = try await read { db in
            (try ArticleRecord.fetchCount(db), try SourceStateRecord.fetchCount(db), try SavedRecord.fetchCount(db))
        }
        let bytes = try size(of: path) + size(of: URL(fileURLWithPath: path.path + "-wal"), mayBeMissing: true)
        return StoreStatistics(articles: counts.0, sources: counts.1, saved: counts.2, bytes: bytes)
    }

    /// The size of one of the cache's files; a write-ahead log that is not there (yet) is empty.
    private func size(of file: URL, mayBeMissing: Bool = false) throws(StoreError) -> Int {
        var status = stat()
        guard stat(file.path, &status) == 0 else {
            let error = errno
            if mayBeMissing && error == ENOENT { return 0 }
            throw .failed(.read, file: file, cause: POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO))
        }
        return Int(status.st_size)
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await database.read(body)
        } catch let corrupt as CorruptColumn {
            throw .corruptRow(file: path, articleKey: corrupt.articleKey, column: corrupt.column)
        } catch {
            throw .failed(.read, file: path, cause: error)
        }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await database.write(body)
        } catch let corrupt as CorruptColumn {
            throw .corruptRow(file: path, articleKey: corrupt.articleKey, column: corrupt.column)
        } catch {
            throw .failed(.write, file: path, cause: error)
        }
    }
}

// MARK: - Records

/// Cache rows: dates as seconds since 1970 (DOUBLE), categories as a JSON array in TEXT.
private protocol CacheRecord: Codable, FetchableRecord, PersistableRecord {}

extension CacheRecord {
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
}

extension SQLiteStore {
    /// An `article` column that does not hold what newsgen writes; reported as `StoreError.corruptRow`.
    private struct CorruptColumn: Error {
        var articleKey: String
        var column: String
    }

    /// The stories `lists(of:)` decoded, with their rowids, kept for the archive read next (which holds them again).
    /// A story is reused only while its row is unchanged: keys this store wrote since are noted once the write is
    /// done (a list read beside it may have seen the old row) and decoded again. Nothing is kept after the archive.
    private struct ListedRows: Sendable {
        /// Whether lists were read since the archive was: until then, nothing is kept or noted.
        private(set) var keeping: Bool
        /// The stories of each part the lists were read in, in the order of their rows.
        var decoded: [[Decoded]] = []
        private var changed: Set<String> = []

        init(keeping: Bool = false) {
            self.keeping = keeping
        }

        mutating func written(_ keys: some Sequence<String>) {
            guard keeping else { return }
            changed.formUnion(keys)
        }

        struct Decoded: Sendable {
            var row: Int64
            var story: Article
        }

        /// The story decoded from rowid `row` holding `key`, if still that row's. Parts are in rowid order (bisection).
        func story(_ key: String, row: Int64) -> Article? {
            for half in decoded {
                var (low, high) = (0, half.count)
                while low < high {
                    let middle = (low + high) / 2
                    if half[middle].row < row { low = middle + 1 } else { high = middle }
                }
                if low < half.count, half[low].row == row {
                    let story = half[low].story
                    return story.id == key && !changed.contains(key) ? story : nil
                }
            }
            return nil
        }
    }

    /// A row of `article`. Categories stay JSON text until `article()`, so bad categories are an error naming the
    /// article rather than silently lost.
    private struct ArticleRecord: CacheRecord {
        static let databaseTableName = "article"
        enum Columns {
            static let key = Column(CodingKeys.key)
            static let sourceID = Column(CodingKeys.sourceID)
            static let published = Column(CodingKeys.published)
            static let firstSeen = Column(CodingKeys.firstSeen)
            static let lastSeen = Column(CodingKeys.lastSeen)
        }

        var key: String
        var sourceID: String
        var title: String
        var summary: String
        var author: String?
        var url: String?
        var imageURL: String?
        var published: Date?
        var categories: String
        var guid: String?
        var firstSeen: Date
        var lastSeen: Date
        var content: String?
        var outlet: String?
        var digest: Data?

        /// The columns every article query selects, in `columns` order, so a row is read by position.
        static let selection = columns.map { "article." + $0 }.joined(separator: ", ")
        static var databaseSelection: [any SQLSelectable] { columns.map { Column($0) } }

        /// Read by position rather than through `Decodable`, which is slower for a full-cache read. Dates are seconds since 1970.
        init(row: Row) throws {
            key = try row.decode(atIndex: 0)
            sourceID = try row.decode(atIndex: 1)
            title = try row.decode(atIndex: 2)
            summary = try row.decode(atIndex: 3)
            author = try row.decode(atIndex: 4)
            url = try row.decode(atIndex: 5)
            imageURL = try row.decode(atIndex: 6)
            published = try row.decode(Double?.self, atIndex: Self.publishedColumn).map(Date.init(timeIntervalSince1970:))
            categories = try row.decode(atIndex: 8)
            guid = try row.decode(atIndex: 9)
            firstSeen = Date(timeIntervalSince1970: try row.decode(Double.self, atIndex: Self.firstSeenColumn))
            lastSeen = Date(timeIntervalSince1970: try row.decode(Double.self, atIndex: 11))
            content = try row.decode(atIndex: 12)
            outlet = try row.decode(atIndex: 13)
            digest = try row.decode(atIndex: 14)
        }

        /// Inserts the article, seen first and last at `date`, or updates it keeping `firstSeen` (and `lastSeen` unless
        /// `touchLastSeen`). With `digester`, the row keeps the story's digests.
        static func upsert(_ article: Article, at date: Date, in db: Database, digester: ArticleDigester?,
                           touchLastSeen: Bool = true) throws {
            let statement = try db.cachedStatement(sql: touchLastSeen ? upsertTouchingLastSeen : upsertKeepingLastSeen)
            let seen = date.timeIntervalSince1970
            let categories = String(decoding: try JSONEncoder().encode(article.categories), as: UTF8.self)
            let digest = digester.map { StoredDigest.column(of: article, by: $0) }
            let published = article.published?.timeIntervalSince1970
            try statement.execute(arguments: [
                article.id, article.sourceID, article.title, article.summary, article.author, article.url, article.imageURL,
                published, categories, article.guid, seen, seen, article.content, article.outlet, digest,
            ])
        }

        /// Where `published` and `firstSeen` are in a row (`columns`).
        static let publishedColumn = 7
        static let firstSeenColumn = 10
        /// How many columns `selection` has; a query may select more after them.
        static let columnCount = columns.count

        /// The columns an upsert writes, in the order of its arguments, and every read selects.
        private static let columns = [
            "key", "sourceID", "title", "summary", "author", "url", "imageURL", "published", "categories", "guid",
            "firstSeen", "lastSeen", "content", "outlet", "digest",
        ]

        private static func upsertSQL(updating updated: [String]) -> String {
            """
            INSERT INTO article (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))
            ON CONFLICT(key) DO UPDATE SET \(updated.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            """
        }

        private static let upsertTouchingLastSeen = upsertSQL(updating: columns.filter { $0 != "key" && $0 != "firstSeen" })
        private static let upsertKeepingLastSeen = upsertSQL(updating: columns.filter { $0 != "key" && $0 != "firstSeen" && $0 != "lastSeen" })

        /// The row's story, knowing its digests when `digester` made them.
        func article(digester: ArticleDigester?) throws(CorruptColumn) -> Article {
            let decoded: [String]
            do {
                decoded = try JSONDecoder().decode([String].self, from: Data(categories.utf8))
            } catch {
                throw CorruptColumn(articleKey: key, column: CodingKeys.categories.stringValue)
            }
            let article = Article(
                id: key, sourceID: sourceID, title: title, summary: summary, author: author, url: url,
                imageURL: imageURL, published: published, categories: decoded, guid: guid, content: content,
                outlet: outlet
            )
            guard let digester, let known = StoredDigest.digests(in: digest, by: digester) else { return article }
            return article.knowing(digests: known)
        }
    }

    /// A row of `sourceState`. An unknown format reads as none.
    private struct SourceStateRecord: CacheRecord {
        static let databaseTableName = "sourceState"

        var sourceID: String
        var lastAttempt: Date?
        var lastSuccess: Date?
        var httpStatus: Int?
        var lastError: String?
        var failingSince: Date?
        var etag: String?
        var lastModified: String?
        var title: String?
        var homepage: String?
        var format: String?

        init(sourceID: String, state: SourceState) {
            self.sourceID = sourceID
            lastAttempt = state.lastAttempt
            lastSuccess = state.lastSuccess
            httpStatus = state.httpStatus
            lastError = state.lastError
            failingSince = state.failingSince
            etag = state.etag
            lastModified = state.lastModified
            title = state.title
            homepage = state.homepage
            format = state.format?.rawValue
        }

        var state: SourceState {
            var state = SourceState()
            state.lastAttempt = lastAttempt
            state.lastSuccess = lastSuccess
            state.httpStatus = httpStatus
            state.lastError = lastError
            state.failingSince = failingSince
            state.etag = etag
            state.lastModified = lastModified
            state.title = title
            state.homepage = homepage
            state.format = format.flatMap(FeedFormat.init(rawValue:))
            return state
        }
    }

    /// A row of `sourceList`: the article at `position` in a source's current list.
    private struct SourceListRecord: CacheRecord {
        static let databaseTableName = "sourceList"
        enum Columns {
            static let sourceID = Column(CodingKeys.sourceID)
        }

        var sourceID: String
        var position: Int
        var articleKey: String
    }

    /// A row of `saved`: the article a saved entry shows.
    private struct SavedRecord: CacheRecord {
        static let databaseTableName = "saved"

        var entryKey: String
        var articleKey: String
    }
}

/// How big the cache is, for `--verbose`.
public struct StoreStatistics: Sendable, CustomStringConvertible {
    public var articles: Int
    public var sources: Int
    public var saved: Int
    public var bytes: Int

    public var description: String {
        let size = bytes >= 1_048_576 ? String(format: "%.1f MiB", Double(bytes) / 1_048_576) : "\(max(1, bytes / 1024)) KiB"
        return "\(size), \(articles) articles, \(sources) sources, \(saved) saved"
    }
}

