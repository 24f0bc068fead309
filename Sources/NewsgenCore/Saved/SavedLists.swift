import Foundation

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
    var key: String {
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

    /// Merges lists from several files (one per device): an article saved in two files appears
    /// once, with the first title found and the earliest save time. Newest saves first.
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

/// Reading saved.json files.
public enum SavedFile {
    /// Reads one saved file. A file that does not exist is an empty list (`nil`);
    /// a file that exists but is broken is an error naming the key path.
    public static func read(_ url: URL) throws(ConfigError) -> SavedLists? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ConfigError(file: url.path, keyPath: "", message: "cannot be read (\(FileProblem.describe(error)))")
        }
        return try decode(data, file: url.path)
    }

    /// Decodes saved.json bytes. Unknown keys are allowed (other tools and devices may add them).
    public static func decode(_ data: Data, file: String) throws(ConfigError) -> SavedLists {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return SavedLists() }
        let json: JSONValue
        do {
            json = try JSONValue.parse(data)
        } catch {
            throw ConfigError(file: file, keyPath: "", message: "is not valid JSON: \(error.detail)")
        }
        guard case .object(let root) = json else {
            throw ConfigError(file: file, keyPath: "", message: "expected an object with favorites and readLater, found \(json.kindName)")
        }
        var lists = SavedLists()
        for kind in SavedListKind.allCases {
            guard let value = root[kind.key], value != .null else { continue }
            guard case .array(let items) = value else {
                throw ConfigError(file: file, keyPath: kind.key, message: "expected an array of entries, found \(value.kindName)")
            }
            for (index, item) in items.enumerated() {
                lists[kind].append(try entry(item, file: file, path: "\(kind.key)[\(index)]"))
            }
        }
        return lists
    }

    private static func entry(_ value: JSONValue, file: String, path: String) throws(ConfigError) -> SavedEntry {
        guard case .object(let object) = value else {
            throw ConfigError(file: file, keyPath: path, message: "expected an object with a url, found \(value.kindName)")
        }
        func string(_ key: String) throws(ConfigError) -> String? {
            guard let value = object[key], value != .null else { return nil }
            guard case .string(let string) = value else {
                throw ConfigError(file: file, keyPath: "\(path).\(key)", message: "expected a string, found \(value.kindName)")
            }
            let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        var entry = SavedEntry(url: try string("url"), id: try string("id"), title: try string("title"))
        if let url = entry.url, URLNormalizer.absoluteHTTP(url, base: nil) == nil {
            throw ConfigError(file: file, keyPath: "\(path).url", message: "expected an absolute http(s) URL, found \"\(url)\"")
        }
        guard entry.url != nil || entry.id != nil else {
            throw ConfigError(file: file, keyPath: path, message: "needs a url (or the id of an article)")
        }
        if let raw = try string("savedAt") {
            guard let date = FeedDate.parse(raw) else {
                throw ConfigError(file: file, keyPath: "\(path).savedAt", message: "expected a date such as 2026-11-20T08:00:00Z, found \"\(raw)\"")
            }
            entry.savedAt = date
        }
        return entry
    }
}

/// A saved entry with the article it shows.
public struct SavedArticle: Sendable, Hashable {
    public var entry: SavedEntry
    public var article: Article
    /// Whether a source (now or in the cache) lists the article; if not, it is built from the entry alone.
    public var matched: Bool
}

/// Matches saved entries to articles by normalized URL or by article id.
struct SavedMatcher {
    private var byKey: [String: Article] = [:]

    init(articles: [Article]) {
        for article in articles {
            if let url = article.url.flatMap(URLNormalizer.normalize), byKey[url] == nil { byKey[url] = article }
            if byKey["id:" + article.id] == nil { byKey["id:" + article.id] = article }
            if let guid = article.guid, byKey["id:" + guid] == nil { byKey["id:" + guid] = article }
        }
    }

    func match(_ entry: SavedEntry) -> Article? {
        if let url = entry.url.flatMap(URLNormalizer.normalize), let article = byKey[url] { return article }
        if let id = entry.id, let article = byKey["id:" + id] { return article }
        return nil
    }

    /// The article an unmatched entry shows: what the entry holds.
    static func placeholder(for entry: SavedEntry) -> Article {
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
