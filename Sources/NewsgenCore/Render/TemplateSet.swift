import Foundation
import Mustache

/// A problem with the templates folder; reads as `Templates/row.mustache:12:5: …`.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The user-editable Mustache templates, loaded once and checked before anything renders.
struct TemplateSet: Sendable {
    /// The templates a theme must have.
    static let required = ["layout", "row", "headlines", "sources", "source", "category", "favorites", "read-later", "article", "archive"]

    let folder: URL
    private let library: MustacheLibrary

    init(folder: URL) async throws(TemplateError) {
        self.folder = folder
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TemplateError("\(folder.path): the templates folder does not exist (site.json: templates)")
        }
        do {
            library = try await MustacheLibrary(directory: folder.path)
        } catch let error as MustacheLibrary.ParserError {
            throw TemplateError("\(folder.appendingPathComponent(error.filename).path):\(error.context.lineNumber):\(error.context.columnNumber): \(Self.describe(error.error)) near \"\(error.context.line.trimmingCharacters(in: .whitespaces))\"")
        } catch {
            throw TemplateError("\(folder.path): cannot load templates (\(error))")
        }
        for name in Self.required where library.getTemplate(named: name) == nil {
            throw TemplateError("\(folder.appendingPathComponent(name + ".mustache").path): missing; every theme needs \(Self.required.map { $0 + ".mustache" }.joined(separator: ", "))")
        }
        try checkPartials()
    }

    /// Mustache renders a missing partial as nothing; a theme that names one is broken, so say so.
    private func checkPartials() throws(TemplateError) {
        let pattern = /\{\{\s*[<>]\s*([^\s}]+)\s*\}\}/
        let files = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".mustache") }.sorted()
        for file in files {
            guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else { continue }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for match in line.matches(of: pattern) {
                    let name = String(match.output.1)
                    if library.getTemplate(named: name) == nil {
                        throw TemplateError("\(folder.appendingPathComponent(file).path):\(index + 1): names the partial \"\(name)\", but there is no \(name).mustache")
                    }
                }
            }
        }
    }

    func render<Content>(_ name: String, _ page: Page<Content>) throws(TemplateError) -> String {
        guard let output = library.render(page, withTemplate: name) else {
            throw TemplateError("\(folder.appendingPathComponent(name + ".mustache").path): missing")
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
