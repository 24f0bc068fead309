public import Foundation
package import NewsgenModel
import NewsgenXML

/// The two lists a reader saves articles to.
public enum SavedListKind: String, Sendable, CaseIterable, Hashable {
    case favorites
    case readLater

    /// The key in saved.json.
    public var key: String { rawValue }
    /// The name on the command line and in output paths.
    public var slug: String { self == .favorites ? "favorites" : "read-later" }
    public var title: String { self == .favorites ? "Favorites" : "Read Later" }
}

/// One saved article as saved.json holds it.
public struct SavedEntry: Sendable, Hashable {
    public var url: String?
    public var id: String?
    public var title: String?
    public var savedAt: Date?

    public init(url: String? = nil, id: String? = nil, title: String? = nil, savedAt: Date? = nil) {
        self.url = url
        self.id = id
        self.title = title
        self.savedAt = savedAt
    }

    /// The key entries are merged and matched by: the normalized URL, else the id.
    package var key: String {
        if let url, let normalized = URLNormalizer.normalize(url) { return normalized }
        return "id:" + (id ?? url ?? "")
    }
}

/// Favorites and Read Later, merged from every saved file.
public struct SavedLists: Sendable, Hashable {
    public var favorites: [SavedEntry]
    public var readLater: [SavedEntry]

    public init(favorites: [SavedEntry] = [], readLater: [SavedEntry] = []) {
        self.favorites = favorites
        self.readLater = readLater
    }

    public subscript(kind: SavedListKind) -> [SavedEntry] {
        get { kind == .favorites ? favorites : readLater }
        set { if kind == .favorites { favorites = newValue } else { readLater = newValue } }
    }

    /// Merges lists from several files (one per device): an article saved twice appears once, with the first title
    /// and earliest save time. Newest saves first.
    public static func merge(_ lists: [SavedLists]) -> SavedLists {
        var merged = SavedLists()
        for kind in SavedListKind.allCases {
            var order: [String] = []
            var byKey: [String: SavedEntry] = [:]
            for entry in lists.flatMap({ $0[kind] }) {
                let key = entry.key
                guard var existing = byKey[key] else {
                    order.append(key)
                    byKey[key] = entry
                    continue
                }
                existing.title = existing.title ?? entry.title
                existing.url = existing.url ?? entry.url
                existing.id = existing.id ?? entry.id
                if let date = entry.savedAt, existing.savedAt.map({ date < $0 }) ?? true { existing.savedAt = date }
                byKey[key] = existing
            }
            let entries = order.compactMap { byKey[$0] }
            merged[kind] = entries.enumerated().sorted { lhs, rhs in
                switch (lhs.element.savedAt, rhs.element.savedAt) {
                case let (left?, right?) where left != right: left > right
                case (_?, nil): true
                case (nil, _?): false
                default: lhs.offset < rhs.offset
                }
            }.map(\.element)
        }
        return merged
    }
}

/// Reading saved.json files. Strict like site.json: bad JSON, an unknown key or a non-array list is an error
/// naming the line and column or key path. An unusable entry is a warning and is skipped, so one device's
/// file cannot stop the site.
public enum SavedFile {
    static let keys = SavedListKind.allCases.map(\.key)
    static let entryKeys = ["url", "id", "title", "savedAt"]

    /// What reading one saved file gave: its lists, and a warning for each entry skipped.
    public struct Reading: Sendable, Hashable {
        public var lists: SavedLists
        /// One per skipped entry: `saved.json: favorites[2]: url "not a url" is not an absolute http(s) URL; skipped`.
        public var warnings: [ConfigError]

        public init(lists: SavedLists = SavedLists(), warnings: [ConfigError] = []) {
            self.lists = lists
            self.warnings = warnings
        }
    }

    /// The warning for a saved file that was named (in site.json or with --file) but does not exist.
    public static func notFound(_ url: URL) -> String {
        "\(url.path): saved file not found; its lists are empty"
    }

    /// Reads one saved file: `nil` when it does not exist, an error naming the key path when broken. Unusable
    /// entries are left out (`reading(_:)` says which).
    public static func read(_ url: URL) throws(ConfigError) -> SavedLists? {
        try reading(url)?.lists
    }

    /// Reads one saved file, with a warning per skipped entry; `nil` when it does not exist.
    public static func reading(_ url: URL) throws(ConfigError) -> Reading? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ConfigError(file: url.path, keyPath: "", message: "cannot be read (\(FileProblem.describe(error)))")
        }
        return try reading(data, file: url.path)
    }

    /// Decodes saved.json bytes; entries that cannot be used are left out.
    public static func decode(_ data: Data, file: String) throws(ConfigError) -> SavedLists {
        try reading(data, file: file).lists
    }

    /// Decodes saved.json bytes, with a warning for each entry skipped. An empty file is empty lists.
    public static func reading(_ data: Data, file: String) throws(ConfigError) -> Reading {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return Reading() }
        let document = ConfigDocument(file: file, data: data)
        return try reading(document.parse(), in: document)
    }

    /// Reads a saved.json document parsed from `document`, with a warning for each entry skipped.
    static func reading(_ json: JSONNode, in document: ConfigDocument) throws(ConfigError) -> Reading {
        guard json.members != nil else {
            throw document.error("", at: json.offset, "expected an object with favorites and readLater, found \(json.kindName)")
        }
        let root = try ConfigReader(json, document: document, path: "", allowedKeys: keys)
        var reading = Reading()
        for kind in SavedListKind.allCases {
            guard let value = root.value(kind.key) else { continue }
            guard let items = value.array else {
                throw root.error(kind.key, "expected an array of entries, found \(value.kindName)")
            }
            for (index, item) in items.enumerated() {
                let path = "\(kind.key)[\(index)]"
                switch try entry(item, document: document, path: path) {
                case .success(let entry): reading.lists[kind].append(entry)
                case .failure(let problem): reading.warnings.append(root.error(path, at: item, "\(problem.message); skipped"))
                }
            }
        }
        return reading
    }

    private struct EntryProblem: Error {
        var message: String
    }

    /// One entry: an unknown key is an error (a typo would silently lose a field); anything else wrong makes it
    /// unusable, which the caller reports and skips.
    private static func entry(_ value: JSONNode, document: ConfigDocument, path: String) throws(ConfigError) -> Result<SavedEntry, EntryProblem> {
        guard value.members != nil else {
            return .failure(EntryProblem(message: "expected an object with a url, found \(value.kindName)"))
        }
        let object = try ConfigReader(value, document: document, path: path, allowedKeys: entryKeys)
        func string(_ key: String) -> Result<String?, EntryProblem> {
            guard let value = object.value(key) else { return .success(nil) }
            guard let string = value.string else {
                return .failure(EntryProblem(message: "\(key) is \(value.kindName); expected a string"))
            }
            let trimmed = string.trimmedWhitespace
            return .success(trimmed.isEmpty ? nil : trimmed)
        }
        do throws(EntryProblem) {
            var entry = SavedEntry(url: try string("url").get(), id: try string("id").get(), title: try string("title").get())
            if let url = entry.url, URLNormalizer.absoluteHTTP(url, base: nil) == nil {
                throw EntryProblem(message: "url \(JSONNode.quoted(url)) is not an absolute http(s) URL")
            }
            guard entry.url != nil || entry.id != nil else {
                throw EntryProblem(message: "has neither a url nor an id")
            }
            if let raw = try string("savedAt").get() {
                guard let date = Dates.parse(raw) else {
                    throw EntryProblem(message: "savedAt \(JSONNode.quoted(raw)) is not a date such as 2026-11-20T08:00:00Z")
                }
                entry.savedAt = date
            }
            return .success(entry)
        } catch {
            return .failure(error)
        }
    }
}

/// A saved entry with the article it shows.
package struct SavedArticle: Sendable, Hashable {
    public var entry: SavedEntry
    public var article: Article
    /// Whether a source (now or in the cache) lists the article; if not, it is built from the entry alone.
    public var matched: Bool

    public init(entry: SavedEntry, article: Article, matched: Bool) {
        self.entry = entry
        self.article = article
        self.matched = matched
    }
}

/// Matches saved entries to articles by normalized URL or article id (id or GUID); the first article wins.
package struct SavedMatcher {
    private var byURL: [String: Article] = [:]
    private var byID: [String: Article] = [:]

    /// Indexes the articles of `lists` (in order) that `entries` can match, by looking articles up in the
    /// entries' few keys rather than indexing every article.
    package init(lists: [[Article]], entries: [SavedEntry]) {
        var urls = Set(entries.compactMap { $0.url.flatMap(URLNormalizer.normalize) })
        var ids = Set(entries.compactMap(\.id))
        for articles in lists {
            for article in articles {
                if urls.isEmpty && ids.isEmpty { return }
                if !urls.isEmpty, let url = article.url.flatMap(URLNormalizer.normalize), urls.remove(url) != nil { byURL[url] = article }
                if ids.remove(article.id) != nil { byID[article.id] = article }
                if let guid = article.guid, ids.remove(guid) != nil { byID[guid] = article }
            }
        }
    }

    package func match(_ entry: SavedEntry) -> Article? {
        if let url = entry.url.flatMap(URLNormalizer.normalize), let article = byURL[url] { return article }
        if let id = entry.id, let article = byID[id] { return article }
        return nil
    }

    /// The article an unmatched entry shows: what the entry holds.
    package static func placeholder(for entry: SavedEntry) -> Article {
        let url = entry.url.flatMap { URLNormalizer.absoluteHTTP($0, base: nil) }
        let fallbackTitle = url.flatMap(URL.init(string:)).map { ($0.host ?? "") + $0.path } ?? entry.id ?? "Saved article"
        return Article(
            id: entry.key,
            sourceID: "",
            title: Text.collapsingWhitespace(Text.removingForbiddenCharacters(entry.title ?? fallbackTitle)),
            url: url,
            published: nil,
            guid: entry.id
        )
    }
}
