public import Foundation
public import NewsgenModel
import NewsgenXML

/// The decoded `site.json`: every setting with its default applied and every path absolute.
public struct SiteConfig: Sendable {
    public var file: URL
    /// The file as messages name it: the path the user gave (`--config /srv/a/site.json`), else `file`'s path.
    public var displayPath: String
    public var title: String
    public var description: String
    /// The absolute URL the site is served from, ending in `/`.
    public var baseURL: URL
    public var language: String
    public var output: URL
    public var templates: URL
    /// Whether site.json named `templates`; if not and the folder is missing, the built-in theme is used.
    public var templatesIsExplicit: Bool
    public var cache: URL
    /// The saved-list files, merged in order.
    public var saved: [URL]
    /// Whether `saved` was named in site.json (a missing file is then worth a warning).
    public var savedIsExplicit: Bool
    public var articlesPerSource: Int
    public var maxCacheAgeDays: Int
    public var keepDays: Int
    public var refreshMinutes: Int
    /// One request's deadline, connect to last byte (a source's `timeoutSeconds` overrides it).
    public var timeoutSeconds: Double = Self.defaultTimeoutSeconds
    /// How long the whole fetch stage may take; sources still pending then are shown from the cache.
    public var fetchBudgetSeconds: Double = Self.defaultFetchBudgetSeconds
    public var newsapi: NewsAPISettings
    public var sources: [SourceConfig]
    /// Files copied into the output as they are (images, `robots.txt`); `nil` when site.json names none.
    public var staticFolder: URL? = nil
    /// Where the images pages show come from.
    public var images: ImageMode = .local
    /// The WebSub hubs the feeds name and are pinged at; `nil` when site.json names none.
    public var websub: WebSubSettings? = nil
    /// Whether stories about the same event from several sources show once, with the others as "Also covered by".
    public var groupStories = true

    /// Where the images pages show come from.
    public enum ImageMode: String, Sendable, Hashable, CaseIterable {
        /// Fetched once at build time, resized and served from the site's `images/` folder: readers ask no other host.
        case local
        /// Linked from where the feed says they are (every page view asks the outlets' servers).
        case remote
        /// None shown.
        case none
    }

    /// Where each top-level key of the file is (line and column of its name), for errors found after reading it.
    package var keyPositions: [String: (line: Int, column: Int)] = [:]

    /// The keys site.json may hold.
    static let keys = [
        "title", "description", "baseURL", "language", "output", "templates", "cache", "saved",
        "articlesPerSource", "maxCacheAgeDays", "keepDays", "refreshMinutes", "timeoutSeconds", "fetchBudgetSeconds",
        "newsapi", "sources", "static", "images", "websub",
        "groupStories",
    ]

    public static let defaultTimeoutSeconds: Double = 30
    public static let defaultFetchBudgetSeconds: Double = 120
    /// The largest values accepted: an hour for one request, a day for the fetch stage.
    static let timeoutRange: ClosedRange<Double> = 0...3600
    static let fetchBudgetRange: ClosedRange<Double> = 0...86_400

    /// A problem with the top-level `key` found after the file was read, naming the file and where the key is in it.
    func error(_ key: String, _ message: String) -> ConfigError {
        ConfigError(file: displayPath, keyPath: key, position: keyPositions[key], message: message)
    }

    /// The deadline of one request for `source`: its own `timeoutSeconds`, else the site's.
    public func timeoutSeconds(for source: SourceConfig) -> Double {
        source.timeoutSeconds ?? timeoutSeconds
    }
}

/// The `websub` settings of site.json: the hubs every feed names (`rel="hub"`), and who pings them when feeds change.
public struct WebSubSettings: Sendable, Hashable {
    /// Absolute http(s) URLs, in site.json's order, each once.
    public var hubs: [URL]
    public var ping: PingMode

    public enum PingMode: String, Sendable, Hashable, CaseIterable {
        /// The build pings after it publishes: the output folder is what the web server serves.
        case build
        /// `newsgen ping` does, run after the site is uploaded (a hub fetches the feed as soon as it is pinged).
        case manual
    }

    public init(hubs: [URL], ping: PingMode = .build) {
        self.hubs = hubs
        self.ping = ping
    }

    static let keys = ["hubs", "ping"]
}

/// The `newsapi` settings of site.json.
public struct NewsAPISettings: Sendable, Hashable {
    public var baseURL: URL
    public var apiKeyEnv: String
    public var refreshMinutes: Int
    /// One request per source instead of batches of up to 20 sources.
    public var requestPerSource: Bool

    static let keys = ["baseURL", "apiKeyEnv", "refreshMinutes", "requestPerSource"]

    /// NewsAPI's address, a constant that always parses.
    static let newsAPIBaseURL: URL = {
        guard let url = URL(string: "https://newsapi.org/v2") else {
            preconditionFailure("https://newsapi.org/v2 is a valid URL")
        }
        return url
    }()

    public static let defaults = NewsAPISettings(
        baseURL: newsAPIBaseURL,
        apiKeyEnv: "NEWS_API_KEY",
        refreshMinutes: 60,
        requestPerSource: false
    )
}


extension SourceConfig {
    /// The keys one entry of `sources` may hold.
    static let keys = ["id", "name", "category", "feed", "newsapi", "json", "refreshMinutes", "timeoutSeconds", "fullText"]
    /// The keys of a `newsapi` query.
    static let newsAPIQueryKeys = ["country", "category", "q", "sources", "domains", "excludeDomains", "from", "to", "sortBy", "searchIn", "language"]
}

extension SiteConfig {
    /// Reads and checks a site.json file. Errors name it as `displayPath` (the path as the user gave it), else by its
    /// absolute path.
    public static func load(from file: URL, displayPath: String? = nil) throws(ConfigError) -> SiteConfig {
        let display = displayPath ?? file.path
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ConfigError(file: display, keyPath: "", message: "cannot be read (\(FileProblem.describe(error)))")
        }
        return try decode(data, file: file, displayPath: display)
    }

    /// Decodes site.json bytes; relative paths resolve against the folder of `file`. Errors name the file as
    /// `displayPath`, else by `file`'s absolute path, with the line and column of the key they are about.
    public static func decode(_ data: Data, file: URL, displayPath: String? = nil) throws(ConfigError) -> SiteConfig {
        let document = ConfigDocument(file: displayPath ?? file.path, data: data)
        let json = try document.parse()
        let folder = file.deletingLastPathComponent()
        let root = try ConfigReader(json, document: document, path: "", allowedKeys: keys)

        func path(_ key: String, default value: String) throws(ConfigError) -> URL {
            let raw = try root.nonEmptyString(key) ?? value
            return resolve(raw, against: folder)
        }

        let baseURLString = try root.nonEmptyString("baseURL") ?? "https://news.example.org/"
        guard let baseURL = httpURL(baseURLString, directory: true) else {
            throw root.error("baseURL", "expected an absolute http(s) URL such as https://news.example.org/")
        }
        let language = try root.nonEmptyString("language") ?? "en"
        guard LanguageTag.isWellFormed(language) else {
            throw root.error("language", "expected a language tag such as en or pt-BR")
        }

        var saved: [URL] = []
        var savedIsExplicit = false
        switch root.value("saved")?.value {
        case nil:
            saved = [resolve("saved.json", against: folder)]
        case .string(let single)?:
            guard !single.isEmpty else { throw root.error("saved", "expected a path or an array of paths") }
            saved = [resolve(single, against: folder)]
            savedIsExplicit = true
        case .array(let items)?:
            for (index, item) in items.enumerated() {
                guard let single = item.string, !single.isEmpty else {
                    throw root.error("saved[\(index)]", at: item, "expected a path, found \(item.kindName)")
                }
                saved.append(resolve(single, against: folder))
            }
            savedIsExplicit = true
        case .some:
            throw root.error("saved", "expected a path or an array of paths, found \(root.value("saved")?.kindName ?? "null")")
        }

        let newsapi = try decodeNewsAPI(root)
        guard let sourcesValue = root.value("sources") else {
            throw root.error("sources", "is required: list the feeds and NewsAPI sources to build from")
        }
        guard let sourceValues = sourcesValue.array else {
            throw root.error("sources", "expected an array of sources, found \(sourcesValue.kindName)")
        }
        var sources: [SourceConfig] = []
        var seenIDs: [String: Int] = [:]
        for (index, value) in sourceValues.enumerated() {
            let reader = try ConfigReader(value, document: document, path: "sources[\(index)]", allowedKeys: SourceConfig.keys)
            let source = try decodeSource(reader, folder: folder)
            if let first = seenIDs[source.id] {
                throw reader.error("id", "\"\(source.id)\" is already the id of sources[\(first)]; ids must be unique")
            }
            seenIDs[source.id] = index
            sources.append(source)
        }

        let config = SiteConfig(
            file: file,
            displayPath: document.file,
            title: try root.nonEmptyString("title") ?? "Morning Brief",
            description: try root.string("description") ?? "Headlines from the sources I follow",
            baseURL: baseURL,
            language: language,
            output: try path("output", default: "public"),
            templates: try path("templates", default: "Templates"),
            templatesIsExplicit: root.contains("templates"),
            cache: try path("cache", default: ".newsgen/cache.sqlite"),
            saved: saved,
            savedIsExplicit: savedIsExplicit,
            articlesPerSource: try root.integer("articlesPerSource", in: 1...1000) ?? 10,
            maxCacheAgeDays: try root.integer("maxCacheAgeDays", in: 1...3650) ?? 7,
            keepDays: try root.integer("keepDays", in: 1...3650) ?? 30,
            refreshMinutes: try root.integer("refreshMinutes", in: 0...10080) ?? 15,
            timeoutSeconds: try root.seconds("timeoutSeconds", upTo: timeoutRange.upperBound, example: "30") ?? defaultTimeoutSeconds,
            fetchBudgetSeconds: try root.seconds("fetchBudgetSeconds", upTo: fetchBudgetRange.upperBound, example: "120") ?? defaultFetchBudgetSeconds,
            newsapi: newsapi,
            sources: sources,
            staticFolder: try root.nonEmptyString("static").map { resolve($0, against: folder) },
            images: try imageMode(root),
            websub: try decodeWebSub(root),
            groupStories: try root.bool("groupStories") ?? true,
            keyPositions: root.keyPositions
        )
        try config.checkOutputOverlaps()
        return config
    }

    private static func imageMode(_ root: ConfigReader) throws(ConfigError) -> ImageMode {
        guard let raw = try root.string("images") else { return .local }
        guard let mode = ImageMode(rawValue: raw) else {
            throw root.error("images", "expected \"local\" (fetched and served from the site), \"remote\" (linked from the outlets) or \"none\"")
        }
        return mode
    }

    private static func decodeWebSub(_ root: ConfigReader) throws(ConfigError) -> WebSubSettings? {
        guard let value = root.value("websub") else { return nil }
        let reader = try ConfigReader(value, document: root.document, path: "websub", allowedKeys: WebSubSettings.keys)
        guard let list = reader.value("hubs") else {
            throw reader.error("hubs", "is required: the hubs' URLs, such as [\"https://pubsubhubbub.appspot.com/\"]")
        }
        guard let values = list.array, !values.isEmpty else {
            throw reader.error("hubs", "expected a non-empty array of hub URLs, found \(list.array == nil ? list.kindName : "an empty array")")
        }
        var hubs: [URL] = []
        for (index, value) in values.enumerated() {
            guard let raw = value.string, let url = httpURL(raw, directory: false) else {
                throw reader.error("hubs[\(index)]", at: value, "expected an absolute http(s) URL such as https://pubsubhubbub.appspot.com/")
            }
            if !hubs.contains(url) { hubs.append(url) }
        }
        var settings = WebSubSettings(hubs: hubs)
        if let raw = try reader.string("ping") {
            guard let mode = WebSubSettings.PingMode(rawValue: raw) else {
                throw reader.error("ping", "expected \"build\" (the build pings after publishing) or \"manual\" (`newsgen ping` does, after an upload)")
            }
            settings.ping = mode
        }
        return settings
    }

    private static func decodeNewsAPI(_ root: ConfigReader) throws(ConfigError) -> NewsAPISettings {
        guard let value = root.value("newsapi") else { return .defaults }
        let reader = try ConfigReader(value, document: root.document, path: "newsapi", allowedKeys: NewsAPISettings.keys)
        var settings = NewsAPISettings.defaults
        if let raw = try reader.nonEmptyString("baseURL") {
            guard let url = httpURL(raw, directory: false) else {
                throw reader.error("baseURL", "expected an absolute http(s) URL such as https://newsapi.org/v2")
            }
            settings.baseURL = url
        }
        if let env = try reader.nonEmptyString("apiKeyEnv") {
            guard env.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression) != nil else {
                throw reader.error("apiKeyEnv", "expected the name of an environment variable, such as NEWS_API_KEY")
            }
            settings.apiKeyEnv = env
        }
        settings.refreshMinutes = try reader.integer("refreshMinutes", in: 0...10080) ?? settings.refreshMinutes
        settings.requestPerSource = try reader.bool("requestPerSource") ?? settings.requestPerSource
        return settings
    }

    private static func decodeSource(_ reader: ConfigReader, folder: URL) throws(ConfigError) -> SourceConfig {
        guard let id = try reader.nonEmptyString("id") else {
            throw reader.error("id", "is required: a short name such as \"bbc-news\", used in paths and feeds")
        }
        guard isSourceID(id) else {
            throw reader.error("id", "expected lowercase letters, digits, - and _ (at most 64), such as \"bbc-news\"")
        }
        let kinds = ["feed", "newsapi", "json"].filter(reader.contains)
        guard kinds.count == 1 else {
            let found = kinds.isEmpty ? "none" : kinds.joined(separator: " and ")
            throw reader.error("", "expected exactly one of feed, newsapi or json, found \(found)")
        }
        let kind: SourceConfig.Kind
        switch kinds[0] {
        case "feed":
            kind = .feed(try location(reader, key: "feed", folder: folder))
        case "json":
            kind = .json(try location(reader, key: "json", folder: folder))
        default:
            kind = .newsapi(try newsAPIQuery(reader))
        }
        return SourceConfig(
            id: id,
            name: try reader.nonEmptyString("name"),
            category: try reader.nonEmptyString("category"),
            kind: kind,
            refreshMinutes: try reader.integer("refreshMinutes", in: 0...10080),
            timeoutSeconds: try reader.seconds("timeoutSeconds", upTo: SiteConfig.timeoutRange.upperBound, example: "30"),
            fullText: try fullText(reader)
        )
    }

    private static func fullText(_ reader: ConfigReader) throws(ConfigError) -> SourceConfig.FullText {
        guard let raw = try reader.string("fullText") else { return .feed }
        guard let choice = SourceConfig.FullText(rawValue: raw) else {
            throw reader.error("fullText", "expected \"feed\" (the feed's own text) or \"extract\" (the article fetched from the story's page)")
        }
        return choice
    }

    private static func location(_ reader: ConfigReader, key: String, folder: URL) throws(ConfigError) -> SourceConfig.Location {
        guard let raw = try reader.string(key)?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else {
            throw reader.error(key, "expected a URL or a path")
        }
        if let scheme = scheme(of: raw), scheme.count > 1 {
            guard scheme == "http" || scheme == "https", let url = httpURL(raw, directory: false) else {
                throw reader.error(key, "expected a URL or a path (only http and https URLs can be fetched)")
            }
            return .remote(url)
        }
        return .file(resolve(raw, against: folder, isDirectory: false))
    }

    /// A lowercase letter or digit, then at most 63 of those, `-` and `_`.
    static func isSourceID(_ id: String) -> Bool {
        let bytes = id.utf8
        guard let first = bytes.first, isLowercaseOrDigit(first), bytes.count <= 64 else { return false }
        return bytes.dropFirst().allSatisfy { isLowercaseOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    private static func isLowercaseOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || Text.isASCIIDigit(byte)
    }

    /// The lowercased scheme `raw` begins with (RFC 3986); `nil` for a path.
    static func scheme(of raw: String) -> String? {
        let bytes = raw.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), let first = bytes.first, Text.isASCIILetter(first) else { return nil }
        let rest = bytes[bytes.index(after: bytes.startIndex)..<colon]
        guard rest.allSatisfy({ Text.isASCIILetter($0) || Text.isASCIIDigit($0) || "+-.".utf8.contains($0) }) else {
            return nil
        }
        return String(raw[..<colon]).lowercased()
    }

    private static func newsAPIQuery(_ reader: ConfigReader) throws(ConfigError) -> SourceConfig.NewsAPIQuery {
        guard let value = reader.value("newsapi") else { throw reader.error("newsapi", "expected a source id or an object") }
        if let id = value.string {
            guard id.range(of: #"^[a-z0-9][a-z0-9._-]*$"#, options: .regularExpression) != nil else {
                throw reader.error("newsapi", "expected a NewsAPI source id such as \"bbc-news\" (see `newsgen sources`)")
            }
            return .source(id)
        }
        let query = try ConfigReader(value, document: reader.document, path: reader.child("newsapi"), allowedKeys: SourceConfig.newsAPIQueryKeys)
        var parameters: [String: String] = [:]
        for key in SourceConfig.newsAPIQueryKeys {
            if let string = try query.nonEmptyString(key) { parameters[key] = string }
        }
        if parameters["q"] != nil {
            return .everything(parameters)
        }
        guard parameters["country"] != nil || parameters["category"] != nil || parameters["sources"] != nil else {
            throw query.error("", "expected q (for everything), or country and/or category (for top-headlines)")
        }
        return .topHeadlines(parameters)
    }

    /// `path` (`~` expanded) against `folder`; a given `isDirectory` spares asking the file system.
    static func resolve(_ path: String, against folder: URL, isDirectory: Bool? = nil) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        if let isDirectory {
            if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded, isDirectory: isDirectory).standardizedFileURL }
            return folder.appendingPathComponent(expanded, isDirectory: isDirectory).standardizedFileURL
        }
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL }
        return folder.appendingPathComponent(expanded).standardizedFileURL
    }

    static func httpURL(_ raw: String, directory: Bool) -> URL? {
        var string = raw.trimmingCharacters(in: .whitespaces)
        if directory && !string.hasSuffix("/") { string += "/" }
        guard let url = URL(string: string), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else { return nil }
        return url
    }
}

extension ConfigReader {
    /// A positive number of seconds, at most `limit`; fractions allowed (`1.5`).
    fileprivate func seconds(_ key: String, upTo limit: Double, example: String) throws(ConfigError) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value.value else {
            throw error(key, "must be a positive number of seconds, such as \(example); found \(value.kindName)")
        }
        guard number > 0, number.isFinite else {
            throw error(key, "must be a positive number of seconds, such as \(example); found \(value.numberText ?? String(number))")
        }
        guard number <= limit else {
            throw error(key, "must be at most \(SourceError.seconds(limit)) seconds; found \(value.numberText ?? String(number))")
        }
        return number
    }
}
