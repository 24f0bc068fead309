/// The checks `newsgen validate` and every build run, each with the id a problem names.
public enum ValidationRule: String, CaseIterable, Sendable, Codable {
    /// The file is listed but cannot be read.
    case fileUnreadable = "file-unreadable"
    /// Pages, feeds, OPML, sitemaps and other XML files are well-formed XML (libxml2, no recovery).
    case xmlWellFormed = "xml-well-formed"
    /// No character XML 1.0 forbids (control characters, U+FFFE, U+FFFF), raw or as a
    /// character reference, in an XML file or in a JSON Feed's strings; XML files are UTF-8.
    case xmlForbiddenChar = "xml-forbidden-char"
    /// JSON files parse as JSON (RFC 8259).
    case jsonWellFormed = "json-well-formed"

    /// `*.rss` matches newsgen's RELAX NG schema of RSS 2.0.
    case rssSchema = "rss-schema"
    /// `*.atom` matches the RELAX NG schema of Atom 1.0 (RFC 4287).
    case atomSchema = "atom-schema"
    /// `*.opml` matches the RELAX NG schema of OPML 2.0.
    case opmlSchema = "opml-schema"
    /// `sitemap.xml` and `sitemaps/*.xml` match sitemaps.org 0.9 (urlset or index), at most 50,000 entries each.
    case sitemapSchema = "sitemap-schema"

    /// RSS `pubDate`/`lastBuildDate` are RFC 822 dates: four-digit year, a real date, the right weekday if named.
    case rssDate = "rss-date"
    /// A `guid` that is not an absolute http(s) URL says `isPermaLink="false"`.
    case rssGuidPermalink = "rss-guid-permalink"
    /// No two items of an RSS feed have the same `guid`.
    case rssGuidUnique = "rss-guid-unique"
    /// No two entries of an Atom feed have the same `id`.
    case atomIDUnique = "atom-id-unique"
    /// Atom `updated` and `published` are RFC 3339 date-times (with `T` and a time zone).
    case atomDate = "atom-date"
    /// RSS and Atom feeds have `atom:link rel="self"`, and every self link (JSON Feed `feed_url`) is absolute http(s)
    /// and equals baseURL plus the file's path (without a baseURL: ends with the file's path).
    case feedSelfLink = "feed-self-link"
    /// A JSON Feed has `version`, `title` and `items`; each item an `id` and `content_html` or `content_text`.
    case jsonFeedRequired = "json-feed-required"
    /// Every field JSON Feed 1.1 defines has the type it defines (strings, URLs, RFC 3339 dates, arrays, objects).
    case jsonFeedType = "json-feed-type"
    /// No two items of a JSON Feed have the same `id`.
    case jsonFeedIDUnique = "json-feed-id-unique"

    /// A page is polyglot HTML5: `<!DOCTYPE html>`, root `<html xmlns="http://www.w3.org/1999/xhtml">`,
    /// and `<meta charset="utf-8"/>`.
    case htmlPolyglot = "html-polyglot"
    /// `<html>` has a `lang` attribute holding a language tag.
    case htmlLang = "html-lang"
    /// A page has exactly one `<h1>`.
    case htmlOneH1 = "html-one-h1"
    /// No two elements of a page have the same `id`.
    case htmlUniqueID = "html-unique-id"
    /// Every `<img>` has an `alt` attribute (empty for a decorative image).
    case htmlImgAlt = "html-img-alt"
    /// Every local `href`, `src` and form `action` resolves to a file in the output (a folder means its index.html).
    case htmlLocalLink = "html-local-link"
    /// Links are http(s), mailto: or local: no `javascript:`, `data:`, `file:` or other scheme.
    case htmlLinkScheme = "html-link-scheme"
    /// A page has a `<link rel="alternate">` of an RSS, Atom or JSON Feed type whose href is a file in the output.
    case htmlFeedLink = "html-feed-link"
}

/// One problem in an output file: `feeds/headlines.rss:3:7: rss-date: message`.
public struct ValidationProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file, relative to the folder that was checked.
    public var path: String
    /// 1-based; 0 when the problem concerns the file as a whole.
    public var line: Int
    /// 1-based, in characters; 0 when unknown.
    public var column: Int
    public var rule: ValidationRule
    public var message: String

    public init(path: String, line: Int, column: Int, rule: ValidationRule, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.rule = rule
        self.message = message
    }

    public var description: String { "\(path):\(line):\(column): \(rule.rawValue): \(message)" }
}

/// What a validation run found.
public struct ValidationReport: Sendable {
    public var filesChecked: Int
    /// Every problem, ordered by path, then position.
    public var problems: [ValidationProblem]
    public var isValid: Bool { problems.isEmpty }
    /// The files that got checks, by kind (counted by `SiteValidator.validate`).
    var checkedByKind: [SummaryKind: Int] = [:]
    /// The files that get no checks (styles, scripts, images), by extension in lowercase ("" for none).
    var uncheckedByExtension: [String: Int] = [:]

    public init(filesChecked: Int, problems: [ValidationProblem]) {
        self.filesChecked = filesChecked
        self.problems = problems
    }

    /// Problems with the same rule and message grouped, in order of first occurrence (a template mistake repeats on every page).
    public var grouped: [(first: ValidationProblem, count: Int, files: Int)] {
        var order: [String] = []
        var groups: [String: (first: ValidationProblem, count: Int, files: Set<String>)] = [:]
        for problem in problems {
            let key = problem.rule.rawValue + "\u{0}" + problem.message
            if var group = groups[key] {
                group.count += 1
                group.files.insert(problem.path)
                groups[key] = group
            } else {
                order.append(key)
                groups[key] = (problem, 1, [problem.path])
            }
        }
        return order.compactMap { groups[$0] }.map { ($0.first, $0.count, $0.files.count) }
    }

    /// "3 problems in 2 of 120 files"
    public var summary: String {
        let files = Set(problems.map(\.path)).count
        return "\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(files) of \(filesChecked) files"
    }

    /// What was checked, by kind, what was not, and what was found, for `newsgen validate`:
    /// `checked 214 of 217 files (169 HTML pages, 45 RSS feeds, …); 3 have no checks (2 .css, 1 .js): 0 problems`.
    /// Falls back to `summary` for a report that did not count kinds.
    public var checkSummary: String {
        let checked = checkedByKind.values.reduce(0, +)
        let unchecked = uncheckedByExtension.values.reduce(0, +)
        guard checked + unchecked == filesChecked, filesChecked > 0 else { return summary }
        var text = unchecked > 0 ? "checked \(checked) of \(filesChecked) files" : "checked \(Self.counted(checked, "file", "files"))"
        let kinds = SummaryKind.allCases.compactMap { kind in checkedByKind[kind].map(kind.counted) }
        if !kinds.isEmpty { text += " (" + kinds.joined(separator: ", ") + ")" }
        if unchecked > 0 {
            // Most common first, then by name, files without an extension last among as many.
            let extensions = uncheckedByExtension.sorted {
                ($1.value, $0.key.isEmpty ? 1 : 0, $0.key) < ($0.value, $1.key.isEmpty ? 1 : 0, $1.key)
            }.map { name, count in
                name.isEmpty ? "\(count) without an extension" : "\(count) .\(name)"
            }
            text += "; \(unchecked) \(unchecked == 1 ? "has" : "have") no checks (" + extensions.joined(separator: ", ") + ")"
        }
        let files = Set(problems.map(\.path)).count
        text += ": " + (problems.isEmpty ? "0 problems"
            : "\(Self.counted(problems.count, "problem", "problems")) in \(Self.counted(files, "file", "files"))")
        return text
    }

    private static func counted(_ count: Int, _ one: String, _ many: String) -> String {
        "\(count) \(count == 1 ? one : many)"
    }
}
