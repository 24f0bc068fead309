public import Foundation
package import NewsgenModel
import NewsgenXML

/// What a file is, by its path, and so which checks it gets.
enum FileKind: Hashable, Sendable {
    /// `*.html`, `*.htm`: well-formed XML and the page rules.
    case page
    /// `*.rss`, `*.atom`, `*.opml`, `sitemap.xml` and `sitemaps/*.xml`: well-formed XML, their schema and rules.
    case rss, atom, opml, sitemap
    /// `feeds/**/*.json`: JSON and the JSON Feed rules.
    case jsonFeed
    /// Other `*.json`: JSON.
    case json
    /// Other XML (`*.xml`, `*.xhtml`, `*.svg`): well-formed XML.
    case xml
    /// Anything else (CSS, images) is not checked.
    case other

    init(path: String) {
        let name = (path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[path.utf8.index(after: $0)...] } ?? path[...]).lowercased()
        switch Self.fileExtension(of: name) {
        case "html", "htm": self = .page
        case "rss": self = .rss
        case "atom": self = .atom
        case "opml": self = .opml
        case "json": self = path.hasPrefix("feeds/") ? .jsonFeed : .json
        case "xml": self = name == "sitemap.xml" || path.hasPrefix("sitemaps/") ? .sitemap : .xml
        case "xhtml", "svg": self = .xml
        default: self = .other
        }
    }

    /// The last dot-separated part of a name that has two non-empty ones ("a.html." ends in "html"; ".html" has none).
    static func fileExtension(of name: String) -> Substring {
        let dot = UInt8(ascii: ".")
        let bytes = name.utf8
        guard let last = bytes.lastIndex(where: { $0 != dot }) else { return "" }
        let trimmed = bytes[...last]
        guard let separator = trimmed.lastIndex(of: dot),
              trimmed[..<separator].contains(where: { $0 != dot }) else { return "" }
        return name[bytes.index(after: separator)..<bytes.index(after: last)]
    }

    var schemaRule: ValidationRule? {
        switch self {
        case .rss: .rssSchema
        case .atom: .atomSchema
        case .opml: .opmlSchema
        case .sitemap: .sitemapSchema
        default: nil
        }
    }
}

/// What `newsgen validate`'s summary counts a checked file as: its kind, with SVG images apart from other XML. The
/// cases are in the order the summary names them.
enum SummaryKind: CaseIterable, Hashable, Sendable {
    case page, rss, atom, jsonFeed, opml, sitemap, json, xml, svg

    /// The kind of the file at `path`; `nil` for a file that gets no checks.
    init?(path: String) {
        switch FileKind(path: path) {
        case .page: self = .page
        case .rss: self = .rss
        case .atom: self = .atom
        case .jsonFeed: self = .jsonFeed
        case .opml: self = .opml
        case .sitemap: self = .sitemap
        case .json: self = .json
        case .xml: self = FileKind.fileExtension(of: Self.name(of: path)) == "svg" ? .svg : .xml
        case .other: return nil
        }
    }

    /// The last part of a path, lowercased.
    static func name(of path: String) -> String {
        path.split(separator: "/").last.map { String($0).lowercased() } ?? ""
    }

    /// What a summary calls `count` files of this kind: `169 HTML pages`, `1 sitemap`.
    func counted(_ count: Int) -> String {
        let (one, many) = switch self {
        case .page: ("HTML page", "HTML pages")
        case .rss: ("RSS feed", "RSS feeds")
        case .atom: ("Atom feed", "Atom feeds")
        case .jsonFeed: ("JSON Feed", "JSON Feeds")
        case .opml: ("OPML file", "OPML files")
        case .sitemap: ("sitemap", "sitemaps")
        case .json: ("JSON file", "JSON files")
        case .xml: ("XML file", "XML files")
        case .svg: ("SVG image", "SVG images")
        }
        return "\(count) \(count == 1 ? one : many)"
    }
}

/// Checks every file of a site: XML files with libxml2 (well-formedness, RELAX NG) and newsgen's rules; JSON with
/// a strict parser and the JSON Feed rules. Every problem is reported, not just the first.
public enum SiteValidator {
    /// Validates every file below `directory` in parallel. Without `baseURL`, rules that need it work from the files.
    /// With `only`, just those files are checked, links still against the whole site. `files` saves listing the folder.
    public static func validate(directory: URL, baseURL: URL? = nil, only: Set<String>? = nil, files known: [String]? = nil) async -> ValidationReport {
        let root = directory.standardizedFileURL
        let files = known.map { paths in
            paths.sorted().map { path in (path: path, size: only?.contains(path) == false ? 0 : fileSize(root.path + "/" + path)) }
        } ?? regularFiles(below: root)
        let paths = files.map(\.path)
        let context = Context(root: root, site: SiteFiles(files: paths), baseURL: baseURL)
        // Largest first, so a big page does not finish last on one core.
        let order = files.indices.filter { only?.contains(paths[$0]) ?? true }.sorted { files[$0].size > files[$1].size }
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        let problems = await Parallel.map(order) { index in
            check(file: rootPath + paths[index], path: paths[index], context: context)
        }.flatMap { $0 }
        var report = ValidationReport(filesChecked: order.count, problems: ordered(problems))
        for index in order {
            if let kind = SummaryKind(path: paths[index]) {
                report.checkedByKind[kind, default: 0] += 1
            } else {
                report.uncheckedByExtension[String(FileKind.fileExtension(of: SummaryKind.name(of: paths[index]))), default: 0] += 1
            }
        }
        return report
    }

    /// Checks rendered files from memory, before they reach the disk, so nothing is read back to be validated.
    public struct FileChecker: Sendable {
        let context: Context

        /// `files` is every path of the site being made, against which local links resolve.
        public init(files: [String], baseURL: URL?) {
            self.init(layout: SiteLayout(files: files), baseURL: baseURL)
        }

        package init(layout: SiteLayout, baseURL: URL?) {
            context = Context(root: URL(fileURLWithPath: "/"), site: SiteFiles(layout), baseURL: baseURL)
        }

        /// The problems of the file at `path` (relative to the site's root) holding `data`.
        public func check(_ data: Data, path: String) -> [ValidationProblem] {
            SiteValidator.check(data, path: path, context: context)
        }
    }

    public static func ordered(_ problems: [ValidationProblem]) -> [ValidationProblem] {
        problems.sorted {
            ($0.path, $0.line, $0.column, $0.rule.rawValue, $0.message) < ($1.path, $1.line, $1.column, $1.rule.rawValue, $1.message)
        }
    }

    /// What every file's checks share.
    struct Context: Sendable {
        var root: URL
        var site: SiteFiles
        var baseURL: URL?
    }

    /// A file's size in bytes, 0 when it cannot be examined (reading it then reports why).
    static func fileSize(_ file: String) -> Int {
        var status = stat()
        return stat(file, &status) == 0 ? Int(status.st_size) : 0
    }

    /// Every regular file below `root` (symbolic links followed), relative to it, sorted, with its size.
    static func regularFiles(below root: URL) -> [(path: String, size: Int)] {
        let paths = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
        return paths.compactMap { path -> (path: String, size: Int)? in
            let attributes = try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).resolvingSymlinksInPath().path)
            guard attributes?[.type] as? FileAttributeType == .typeRegular else { return nil }
            return (path, (attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }.sorted { $0.path < $1.path }
    }

    /// The problems of one file on disk (`file` is its full path).
    static func check(file: String, path: String, context: Context) -> [ValidationProblem] {
        if FileKind(path: path) == .other { return [] }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file, isDirectory: false))
        } catch {
            return [ValidationProblem(path: path, line: 0, column: 0, rule: .fileUnreadable, message: "cannot be read (\(FileProblem.describe(error)))")]
        }
        return check(data, path: path, context: context)
    }

    /// The problems of one file's bytes.
    static func check(_ data: Data, path: String, context: Context) -> [ValidationProblem] {
        let kind = FileKind(path: path)
        if kind == .other { return [] }
        var problems = FileProblems(path: path, source: SourceText(data))
        switch kind {
        case .json, .jsonFeed:
            checkJSON(data, kind: kind, context: context, into: &problems)
        default:
            checkXML(data, kind: kind, context: context, into: &problems)
        }
        return problems.problems
    }

    private static func checkXML(_ data: Data, kind: FileKind, context: Context, into problems: inout FileProblems) {
        if kind == .page {
            PageRules(path: problems.path, site: context.site, baseURL: context.baseURL).check(data, into: &problems)
            return
        }
        var schema: LibXML.RelaxNGSchema?
        if let rule = kind.schemaRule, let compiled = Schemas.compiled[kind] {
            switch compiled {
            case .success(let compiled): schema = compiled
            case .failure(let error): problems.add(rule, error.description, line: 0, column: 0)
            }
        }
        if kind == .sitemap {
            SitemapRules.check(data, schema: schema, into: &problems)
            return
        }
        let checked = data.withUnsafeBytes { LibXML.check($0, url: problems.path, schema: schema) }
        problems.add(syntax: checked.syntax)
        if let rule = kind.schemaRule {
            SchemaMessages.report(checked.schema, as: rule, into: &problems)
        }
        guard let root = checked.root else { return }
        let feed = FeedRules(path: problems.path, baseURL: context.baseURL)
        switch kind {
        case .rss: feed.checkRSS(root, into: &problems)
        case .atom: feed.checkAtom(root, into: &problems)
        default: break
        }
    }

    /// A JSON Feed is parsed into a tree for its rules; other JSON (such as the search index) is only checked.
    private static func checkJSON(_ data: Data, kind: FileKind, context: Context, into problems: inout FileProblems) {
        do {
            if kind == .jsonFeed {
                let root = try JSONDocument.parse(data)
                JSONFeedRules(feed: FeedRules(path: problems.path, baseURL: context.baseURL)).check(root, into: &problems)
            } else {
                try JSONDocument.check(data)
            }
        } catch {
            problems.add(.jsonWellFormed, "not valid JSON: \(error.message)", offset: error.offset)
        }
    }
}
