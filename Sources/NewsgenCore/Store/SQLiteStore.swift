import Foundation
import GRDB
import Logging

/// The cache: articles and fetch state in an SQLite file (WAL mode, migrations, one
/// transaction per write), inspectable with `sqlite3`.
///
/// Articles are keyed by normalized URL (else `source:guid`). Each source's current list is a
/// separate table, so a successful fetch replaces the list while the articles themselves (and
/// the saved ones among them) keep their data.
public final class SQLiteStore: ArticleStore {
    public let path: URL
    private let database: DatabasePool

    /// Opens (or creates) the cache. A file that is corrupt, not a database, or from a newer
    /// newsgen is moved aside with a warning and a new cache is started: the build goes on.
    public static func open(at path: URL, logger: Logger) throws(StoreError) -> SQLiteStore {
        do {
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw StoreError("\(path.deletingLastPathComponent().path): cannot create the cache folder (\(FileProblem.describe(error)))")
        }
        do {
            return try SQLiteStore(path: path)
        } catch let problem as UnusableCache {
            let aside = path.deletingLastPathComponent()
                .appendingPathComponent("\(path.lastPathComponent).unusable-\(Int(Date().timeIntervalSince1970))")
            logger.warning("cache: \(path.path) \(problem.reason); moved it to \(aside.lastPathComponent) and started a new cache")
            try moveAside(path, to: aside)
            do {
                return try SQLiteStore(path: path)
            } catch {
                throw StoreError("cache: \(path.path): cannot be created (\(error))")
            }
        } catch {
            throw StoreError("cache: \(path.path): cannot be opened (\(error))")
        }
    }

    private struct UnusableCache: Error {
        var reason: String
    }

    private init(path: URL) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "newsgen.cache"
        do {
            database = try DatabasePool(path: path.path, configuration: configuration)
            let check = try database.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
            guard check == "ok" else { throw UnusableCache(reason: "failed its integrity check (\(check ?? "no answer"))") }
            let migrator = Self.migrator
            if try database.read({ try migrator.hasBeenSuperseded($0) }) {
                throw UnusableCache(reason: "was written by a newer newsgen (its schema is unknown to this one)")
            }
            try migrator.migrate(database)
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            throw UnusableCache(reason: "is not a usable SQLite database (\(error.message ?? "corrupt"))")
        }
    }

    private static func moveAside(_ path: URL, to aside: URL) throws(StoreError) {
        for suffix in ["", "-wal", "-shm"] {
            let file = URL(fileURLWithPath: path.path + suffix)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            do {
                try FileManager.default.moveItem(at: file, to: URL(fileURLWithPath: aside.path + suffix))
            } catch {
                throw StoreError("cache: cannot move \(file.path) aside (\(FileProblem.describe(error)))")
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
        return migrator
    }

    // MARK: - ArticleStore

    public func state(of sourceID: String) async throws(StoreError) -> SourceState? {
        try await read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sourceState WHERE sourceID = ?", arguments: [sourceID]) else {
                return nil
            }
            var state = SourceState()
            state.lastAttempt = Self.date(row["lastAttempt"])
            state.lastSuccess = Self.date(row["lastSuccess"])
            state.httpStatus = row["httpStatus"]
            state.lastError = row["lastError"]
            state.failingSince = Self.date(row["failingSince"])
            state.etag = row["etag"]
            state.lastModified = row["lastModified"]
            state.title = row["title"]
            state.homepage = row["homepage"]
            state.format = (row["format"] as String?).flatMap(FeedFormat.init(rawValue:))
            return state
        }
    }

    public func articles(of sourceID: String) async throws(StoreError) -> [Article] {
        try await read { db in
            // An article two sources list is stored once; each list shows it as its own.
            try Row.fetchAll(db, sql: """
                SELECT article.* FROM sourceList JOIN article ON article.key = sourceList.articleKey
                WHERE sourceList.sourceID = ? ORDER BY sourceList.position
                """, arguments: [sourceID]).map { row in
                var article = try Self.article(row)
                article.sourceID = sourceID
                return article
            }
        }
    }

    public func archive(of sourceIDs: Set<String>) async throws(StoreError) -> [Article] {
        guard !sourceIDs.isEmpty else { return [] }
        let ids = Array(sourceIDs)
        return try await read { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            return try Row.fetchAll(db, sql: """
                SELECT * FROM article WHERE sourceID IN (\(marks))
                ORDER BY published IS NULL, published DESC, firstSeen DESC
                """, arguments: StatementArguments(ids)).map { try Self.article($0) }
        }
    }

    public func recordSuccess(of sourceID: String, content: SourceContent, at date: Date) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM sourceList WHERE sourceID = ?", arguments: [sourceID])
            for (position, article) in content.articles.enumerated() {
                try Self.upsert(article, at: date, in: db)
                try db.execute(sql: "INSERT OR REPLACE INTO sourceList (sourceID, position, articleKey) VALUES (?, ?, ?)",
                               arguments: [sourceID, position, article.id])
            }
            try db.execute(sql: """
                INSERT INTO sourceState (sourceID, lastAttempt, lastSuccess, httpStatus, lastError, failingSince, etag, lastModified, title, homepage, format)
                VALUES (?, ?, ?, NULL, NULL, NULL, ?, ?, ?, ?, ?)
                ON CONFLICT(sourceID) DO UPDATE SET lastAttempt = excluded.lastAttempt, lastSuccess = excluded.lastSuccess,
                    httpStatus = NULL, lastError = NULL, failingSince = NULL, etag = excluded.etag, lastModified = excluded.lastModified,
                    title = excluded.title, homepage = excluded.homepage, format = excluded.format
                """, arguments: [sourceID, date.timeIntervalSince1970, date.timeIntervalSince1970, content.etag, content.lastModified,
                                 content.title, content.homepage, content.format.rawValue])
        }
    }

    public func recordNotModified(of sourceID: String, at date: Date) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: """
                UPDATE sourceState SET lastAttempt = ?, lastSuccess = ?, httpStatus = 304, lastError = NULL, failingSince = NULL
                WHERE sourceID = ?
                """, arguments: [date.timeIntervalSince1970, date.timeIntervalSince1970, sourceID])
            try db.execute(sql: """
                UPDATE article SET lastSeen = ? WHERE key IN (SELECT articleKey FROM sourceList WHERE sourceID = ?)
                """, arguments: [date.timeIntervalSince1970, sourceID])
        }
    }

    public func recordFailure(of sourceID: String, error: SourceError, at date: Date) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO sourceState (sourceID, lastAttempt, httpStatus, lastError, failingSince) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(sourceID) DO UPDATE SET lastAttempt = excluded.lastAttempt, httpStatus = excluded.httpStatus,
                    lastError = excluded.lastError, failingSince = coalesce(sourceState.failingSince, excluded.failingSince)
                """, arguments: [sourceID, date.timeIntervalSince1970, error.status, error.message, date.timeIntervalSince1970])
        }
    }

    public func keepSaved(_ saved: [SavedSnapshot], at date: Date) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM saved")
            for item in saved {
                try Self.upsert(item.article, at: date, in: db, touchLastSeen: false)
                try db.execute(sql: "INSERT OR REPLACE INTO saved (entryKey, articleKey) VALUES (?, ?)",
                               arguments: [item.entryKey, item.article.id])
            }
        }
    }

    public func savedArticles(ids: Set<String>) async throws(StoreError) -> [String: Article] {
        guard !ids.isEmpty else { return [:] }
        return try await read { db in
            var found: [String: Article] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT saved.entryKey AS entryKey, article.* FROM saved JOIN article ON article.key = saved.articleKey") {
                let entryKey: String = row["entryKey"]
                if ids.contains(entryKey) { found[entryKey] = try Self.article(row) }
            }
            return found
        }
    }

    public func prune(notSeenSince cutoff: Date) async throws(StoreError) -> Int {
        try await write { db in
            try db.execute(sql: """
                DELETE FROM article WHERE lastSeen < ?
                AND key NOT IN (SELECT articleKey FROM saved)
                AND key NOT IN (SELECT articleKey FROM sourceList)
                """, arguments: [cutoff.timeIntervalSince1970])
            return db.changesCount
        }
    }

    public func statistics() async throws(StoreError) -> StoreStatistics {
        let counts = try await read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM article") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sourceState") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM saved") ?? 0
            )
        }
        let bytes = ["", "-wal"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: path.path + suffix)[.size] as? Int) ?? 0)
        }
        return StoreStatistics(articles: counts.0, sources: counts.1, saved: counts.2, bytes: bytes)
    }

    // MARK: - Rows

    private static func upsert(_ article: Article, at date: Date, in db: Database, touchLastSeen: Bool = true) throws {
        let categories = String(decoding: try JSONEncoder().encode(article.categories), as: UTF8.self)
        try db.execute(sql: """
            INSERT INTO article (key, sourceID, title, summary, author, url, imageURL, published, categories, guid, firstSeen, lastSeen)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(key) DO UPDATE SET sourceID = excluded.sourceID, title = excluded.title, summary = excluded.summary,
                author = excluded.author, url = excluded.url, imageURL = excluded.imageURL, published = excluded.published,
                categories = excluded.categories, guid = excluded.guid,
                lastSeen = CASE WHEN ? THEN excluded.lastSeen ELSE article.lastSeen END
            """, arguments: [
                article.id, article.sourceID, article.title, article.summary, article.author, article.url, article.imageURL,
                article.published?.timeIntervalSince1970, categories, article.guid, date.timeIntervalSince1970,
                date.timeIntervalSince1970, touchLastSeen,
            ])
    }

    /// An article row; one whose categories are not a JSON array of strings is an error, not an
    /// article that silently lost them.
    private static func article(_ row: Row) throws(StoreError) -> Article {
        let key: String = row["key"]
        let categories: [String]
        do {
            categories = try JSONDecoder().decode([String].self, from: Data((row["categories"] as String? ?? "").utf8))
        } catch {
            throw StoreError("article \(key): its categories in the cache are not a JSON array of strings")
        }
        return Article(
            id: key, sourceID: row["sourceID"], title: row["title"], summary: row["summary"],
            author: row["author"], url: row["url"], imageURL: row["imageURL"], published: date(row["published"]),
            categories: categories, guid: row["guid"]
        )
    }

    private static func date(_ seconds: Double?) -> Date? {
        seconds.map(Date.init(timeIntervalSince1970:))
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await database.read(body)
        } catch {
            throw StoreError("cannot read \(path.lastPathComponent) (\(error))")
        }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await database.write(body)
        } catch {
            throw StoreError("cannot write \(path.lastPathComponent) (\(error))")
        }
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

