package import Foundation
import Mustache
import NewsgenModel

/// A problem with the templates: the file (or folder, or "the built-in theme"), where in it
/// when known, and what is wrong. Reads as `Templates/row.mustache:12:5: …`.
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

/// The user-editable Mustache templates and the theme's assets, loaded once and checked
/// before anything renders.
package struct TemplateSet: Sendable {
    /// The templates a theme must have.
    static let required = ["layout", "row", "headlines", "sources", "source", "category", "favorites", "read-later", "article", "archive", "archive-day", "tags", "tag", "search"]

    /// Where the templates come from, for messages: a folder, or the built-in theme.
    let origin: String
    /// Files under the theme's `assets/`, copied into the output as they are.
    let assets: [OutputFile]
    /// The digest of every template's name and text: a page rendered with another theme is
    /// another page, so an incremental build renders it again.
    package let digest: Fingerprint
    private let library: MustacheLibrary

    /// The theme in `folder`; with `builtInIfMissing`, the built-in theme when that folder does not exist.
    package static func load(folder: URL, builtInIfMissing: Bool) async throws(TemplateError) -> TemplateSet {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
        if !exists && builtInIfMissing { return try builtIn() }
        guard exists else {
            throw TemplateError(folder.path, "the templates folder does not exist (site.json: templates)")
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
        // Sections first: swift-mustache says only that "a section is never closed", at the end of the file.
        let sources = try Self.sources(texts: texts, location: { folder.appendingPathComponent($0).path })
        do {
            library = try await MustacheLibrary(directory: folder.path)
        } catch let error as MustacheLibrary.ParserError {
            throw TemplateError(folder.appendingPathComponent(error.filename).path, at: (error.context.lineNumber, error.context.columnNumber),
                                "\(Self.describe(error.error)) near \"\(error.context.line.trimmingCharacters(in: .whitespaces))\"")
        } catch {
            throw TemplateError(folder.path, "cannot load templates (\(error))")
        }
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

    /// The default theme built into newsgen (the EmbedFiles plugin embeds Templates/).
    static func builtIn() throws(TemplateError) -> TemplateSet {
        let texts = Dictionary(uniqueKeysWithValues: DefaultTheme.templates.map { ($0.key + ".mustache", $0.value) })
        let location = { (file: String) in "built-in theme: \(file)" }
        let sources = try Self.sources(texts: texts, location: location)
        var library = MustacheLibrary()
        for (name, text) in DefaultTheme.templates.sorted(by: { $0.key < $1.key }) {
            do {
                try library.register(text, named: name)
            } catch {
                throw TemplateError("built-in theme: \(name).mustache", "\(error)")
            }
        }
        let set = TemplateSet(
            origin: "the built-in theme", library: library, digest: digest(of: texts),
            assets: DefaultTheme.assets.sorted { $0.key < $1.key }.map { OutputFile("assets/" + $0.key, $0.value) }
        )
        try set.check(sources: sources, location: location)
        return set
    }

    private init(origin: String, library: MustacheLibrary, digest: Fingerprint, assets: [OutputFile]) {
        self.origin = origin
        self.library = library
        self.digest = digest
        self.assets = assets
    }

    /// The templates' names and texts, in name order.
    private static func digest(of texts: [String: String]) -> Fingerprint {
        var hasher = Fingerprint.Hasher()
        for (file, text) in texts.sorted(by: { $0.key < $1.key }) {
            hasher.add(file)
            hasher.add(text)
        }
        return hasher.finish()
    }

    /// Reads each template's tags, naming a section that is never closed or closed by another name.
    private static func sources(texts: [String: String], location: (String) -> String) throws(TemplateError) -> [String: TemplateSource] {
        var sources: [String: TemplateSource] = [:]
        for (file, text) in texts.sorted(by: { $0.key < $1.key }) {
            let name = String(file.dropLast(".mustache".count))
            if let source = try TemplateSource(name: name, location: location(file), text: text) {
                sources[name] = source
            }
        }
        return sources
    }

    /// Every required template exists, and every partial a template names exists: Mustache would
    /// render a missing one as nothing, so a theme that names one is broken, and says where.
    /// Then each template's own markup is well-formed, and every name a page template uses is
    /// one its page model provides: both would otherwise show only on rendered pages.
    private func check(sources: [String: TemplateSource], location: (String) -> String) throws(TemplateError) {
        for name in Self.required where library.getTemplate(named: name) == nil {
            throw TemplateError(location(name + ".mustache"), "missing; every theme needs \(Self.required.map { $0 + ".mustache" }.joined(separator: ", "))")
        }
        let ordered = sources.values.sorted { $0.location < $1.location }
        for source in ordered {
            for tag in source.tags where [.partial, .parent].contains(tag.kind) && library.getTemplate(named: tag.name) == nil {
                throw TemplateError(source.location, at: (tag.position.line, 0), "names the partial \"\(tag.name)\", but there is no \(tag.name).mustache")
            }
        }
        for source in ordered {
            try TemplateMarkup.check(source)
        }
        try TemplateNames(sources: sources, models: SiteRenderer.pageModels).check()
    }

    func render<Content>(_ name: String, _ page: Page<Content>) throws(TemplateError) -> String {
        try render(name, values: Self.values(of: page))
    }

    /// What a template is given for `page`: dictionaries, arrays and scalars.
    static func values<Content>(of page: Page<Content>) -> Any {
        TemplateValues.convert(page) ?? [String: Any]()
    }

    /// Renders the template `name` with values from `values(of:)`.
    func render(_ name: String, values: Any) throws(TemplateError) -> String {
        guard let output = library.render(values, withTemplate: name) else {
            throw TemplateError(origin, "\(name).mustache is missing")
        }
        return output
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? MustacheTemplate.Error { return describe(error) }
        return String(describing: error)
    }

    private static func describe(_ error: MustacheTemplate.Error) -> String {
        switch error {
        case .sectionCloseNameIncorrect: "a section is closed with a different name than it was opened with"
        case .unfinishedName: "a tag is not finished (missing }})"
        case .expectedSectionEnd: "a section is never closed"
        case .invalidSetDelimiter: "a set-delimiter tag is malformed"
        case .transformAppliedToInheritanceSection: "a transform is applied to an inheritance section"
        case .illegalTokenInsideInheritSection: "an inheritance section holds a tag it may not"
        case .textInsideInheritSection: "an inheritance section holds text outside a block"
        case .invalidConfigVariableSyntax: "a configuration tag is malformed"
        case .unrecognisedConfigVariable: "a configuration tag is not recognised"
        }
    }
}
