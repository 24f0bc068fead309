package import Foundation
import NewsgenModel

/// A problem with the templates: the file (or folder, or "the built-in theme"), where in it when known, and what is wrong,
/// as `Templates/row.mustache:12:5: …`.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public var file: String
    /// Line and column, from 1; the column is 0 when only the line is known.
    public var position: (line: Int, column: Int)?
    public var message: String

    public init(_ file: String, at position: (line: Int, column: Int)? = nil, _ message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    public var description: String {
        guard let position else { return "\(file): \(message)" }
        let column = position.column > 0 ? ":\(position.column)" : ""
        return "\(file):\(position.line)\(column): \(message)"
    }
}

/// The user-editable Mustache templates and the theme's assets, loaded once and checked before anything renders.
package struct TemplateSet: Sendable {
    /// The templates a theme must have.
    static let required = ["layout", "row", "headlines", "sources", "source", "category", "favorites", "read-later", "article", "archive", "archive-day", "tags", "tag", "search"]

    /// Where the templates come from, for messages: a folder, or the built-in theme.
    let origin: String
    /// Files under the theme's `assets/`, copied into the output as they are.
    let assets: [OutputFile]
    /// The digest of every template's name and text: another theme makes another page, so incremental builds re-render.
    package let digest: Fingerprint
    private let library: MustacheLibrary

    /// The theme in `folder`; with `builtInIfMissing`, the built-in theme when that folder does not exist. `configFile`
    /// is the site.json that names the folder, as messages name it.
    package static func load(folder: URL, builtInIfMissing: Bool, configFile: String = "site.json") async throws(TemplateError) -> TemplateSet {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
        if !exists && builtInIfMissing { return try builtIn() }
        guard exists else {
            throw TemplateError(folder.path, "the templates folder does not exist (\(configFile): templates)")
        }
        return try await TemplateSet(folder: folder)
    }

    /// The theme in a folder: `*.mustache` templates (in subfolders too) and `assets/`.
    init(folder: URL) async throws(TemplateError) {
        origin = folder.path
        let files = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
        var texts: [String: String] = [:]
        for file in files where file.hasSuffix(".mustache") {
            let url = folder.appendingPathComponent(file)
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw TemplateError(url.path, "cannot be read (\(FileProblem.describe(error)))")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw TemplateError(url.path, "is not UTF-8 text; save the template as UTF-8")
            }
            texts[file] = text
        }
        let sources = try Self.sources(texts: texts, location: { folder.appendingPathComponent($0).path })
        library = MustacheLibrary(templates: sources.mapValues(\.nodes))
        var assets: [OutputFile] = []
        for file in files where file.hasPrefix("assets/") {
            let url = folder.appendingPathComponent(file)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            do {
                assets.append(OutputFile("assets/" + String(file.dropFirst("assets/".count)), data: try Data(contentsOf: url)))
            } catch {
                throw TemplateError(url.path, "cannot be read (\(FileProblem.describe(error)))")
            }
        }
        self.assets = assets
        digest = Self.digest(of: texts)
        try check(sources: sources, location: { folder.appendingPathComponent($0).path })
    }

    /// The default theme built into newsgen (Templates/, embedded by Scripts/embed-files). Its texts are compiled in, so the
    /// tests check them (`checking: true`) rather than every build.
    static func builtIn(checking: Bool = false) throws(TemplateError) -> TemplateSet {
        let texts = Dictionary(uniqueKeysWithValues: DefaultTheme.templates.map { ($0.key + ".mustache", $0.value) })
        let location = { (file: String) in "built-in theme: \(file)" }
        let sources = try Self.sources(texts: texts, location: location)
        let set = TemplateSet(
            origin: "the built-in theme", library: MustacheLibrary(templates: sources.mapValues(\.nodes)),
            digest: digest(of: texts),
            assets: DefaultTheme.assets.sorted { $0.key < $1.key }.map { OutputFile("assets/" + $0.key, $0.value) }
        )
        if checking { try set.check(sources: sources, location: location) }
        return set
    }

    private init(origin: String, library: MustacheLibrary, digest: Fingerprint, assets: [OutputFile]) {
        self.origin = origin
        self.library = library
        self.digest = digest
        self.assets = assets
    }

    private static func digest(of texts: [String: String]) -> Fingerprint {
        var hasher = Fingerprint.Hasher()
        for (file, text) in texts.sorted(by: { $0.key < $1.key }) {
            hasher.add(file)
            hasher.add(text)
        }
        return hasher.finish()
    }

    /// Parses every template once, in file order, naming the file, line and column of the first unreadable tag.
    private static func sources(texts: [String: String], location: (String) -> String) throws(TemplateError) -> [String: TemplateSource] {
        var sources: [String: TemplateSource] = [:]
        for (file, text) in texts.sorted(by: { $0.key < $1.key }) {
            let name = String(file.dropLast(".mustache".count))
            sources[name] = try TemplateSource(name: name, location: location(file), text: text)
        }
        return sources
    }

    /// Every required template and every partial named exists (Mustache would render a missing one as nothing); each
    /// template's markup is well-formed, and every name a page template uses is provided by its page model. Otherwise
    /// these would show only on rendered pages.
    private func check(sources: [String: TemplateSource], location: (String) -> String) throws(TemplateError) {
        for name in Self.required where !library.has(name) {
            throw TemplateError(location(name + ".mustache"), "missing; every theme needs \(Self.required.map { $0 + ".mustache" }.joined(separator: ", "))")
        }
        let ordered = sources.values.sorted { $0.location < $1.location }
        for source in ordered {
            try source.nodes.walk { node throws(TemplateError) in
                guard case .partial(let name, _, _) = node.kind, !library.has(name) else { return }
                let line = source.position(of: node.span.lowerBound).line
                throw TemplateError(source.location, at: (line, 0), "names the partial \"\(name)\", but there is no \(name).mustache")
            }
        }
        for source in ordered {
            try TemplateMarkup.check(source)
        }
        try TemplateNames(sources: sources, models: SiteRenderer.pageModels).check()
    }

    /// The bytes of the template `name` rendered for `page`, as its file holds them.
    func render<Content>(_ name: String, _ page: Page<Content>) throws(TemplateError) -> Data {
        try render(name, values: Self.values(of: page))
    }

    /// What a template is given for `page`: a `TemplateValue`, as `Any` so the fingerprints take it like any template value.
    static func values<Content>(of page: Page<Content>) -> Any {
        TemplateValues.convert(page)
    }

    /// The bytes of the template `name` rendered with values from `values(of:)`.
    func render(_ name: String, values: Any) throws(TemplateError) -> Data {
        let value = values as? TemplateValue ?? TemplateValues.convert(values)
        guard let output = library.render(value, template: name) else {
            throw TemplateError(origin, "\(name).mustache is missing")
        }
        return output
    }
}
