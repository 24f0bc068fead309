import Foundation

/// One problem in an output file: `feeds/headlines.rss:3:7: message`.
public struct ValidationProblem: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(path):\(line):\(column): \(message)" }
}

/// What a validation run found.
public struct ValidationReport: Sendable {
    public var filesChecked: Int
    public var problems: [ValidationProblem]
    public var isValid: Bool { problems.isEmpty }
}

/// Checks every file of a site strictly: HTML pages (polyglot HTML5, so well-formed XML),
/// feeds, OPML and sitemaps with libxml2's XML parser; JSON files with a JSON parser.
public enum SiteValidator {
    static let xmlExtensions: Set<String> = ["html", "htm", "xhtml", "xml", "rss", "atom", "opml", "svg"]

    /// Validates every file below `directory`, in parallel across the machine's cores.
    public static func validate(directory: URL) async -> ValidationReport {
        let root = directory.standardizedFileURL
        let paths = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
            .filter { path in
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                return exists && !isDirectory.boolValue
            }
            .sorted()
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let chunkSize = max(1, (paths.count + workers - 1) / workers)
        let chunks = stride(from: 0, to: paths.count, by: chunkSize).map { Array(paths[$0..<min($0 + chunkSize, paths.count)]) }
        let problems = await withTaskGroup(of: [ValidationProblem].self) { group in
            for chunk in chunks {
                group.addTask { chunk.flatMap { check(root.appendingPathComponent($0), displayPath: $0) } }
            }
            var all: [ValidationProblem] = []
            for await found in group { all += found }
            return all
        }
        return ValidationReport(
            filesChecked: paths.count,
            problems: problems.sorted { ($0.path, $0.line, $0.column) < ($1.path, $1.line, $1.column) }
        )
    }

    /// The problems of one file.
    static func check(_ file: URL, displayPath: String) -> [ValidationProblem] {
        let ext = file.pathExtension.lowercased()
        guard xmlExtensions.contains(ext) || ext == "json" else { return [] }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            return [ValidationProblem(path: displayPath, line: 0, column: 0, message: "cannot be read (\(FileProblem.describe(error)))")]
        }
        if ext == "json" {
            do {
                _ = try JSONValue.parse(data)
                return []
            } catch {
                return [ValidationProblem(path: displayPath, line: 1, column: 1, message: "not valid JSON: \(error.detail)")]
            }
        }
        var problems = data.withUnsafeBytes { LibXML.checkWellFormed($0, url: displayPath) }.map {
            ValidationProblem(path: displayPath, line: $0.line, column: $0.column, message: $0.message)
        }
        if problems.isEmpty && (ext == "html" || ext == "htm") && !startsWithDoctype(data) {
            problems.append(ValidationProblem(path: displayPath, line: 1, column: 1, message: "an HTML page must start with <!DOCTYPE html>"))
        }
        return problems
    }

    private static func startsWithDoctype(_ data: Data) -> Bool {
        let prefix = String(decoding: data.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return prefix.lowercased().hasPrefix("<!doctype html>")
    }
}
