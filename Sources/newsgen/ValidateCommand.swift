import ArgumentParser
import Foundation
import NewsgenValidate

struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check every file of a built site; exit 1 on any problem.",
        discussion: """
            Pages must be polyglot HTML5 with lang, one <h1>, unique ids, alt on images, local links \
            that resolve and a link to their feeds; feeds, OPML and the sitemap must match their \
            RELAX NG schemas and feed rules (dates, unique ids, self links); JSON Feeds their required \
            fields and types; other JSON must parse. Styles, scripts and images get no checks. Prints every \
            problem as path:line:col: rule: message, then a line saying how many files of each kind were \
            checked, which were not, and how many problems were found; --format json prints \
            {"files": N, "problems": [{path, line, column, rule, message}]}, N counting every file.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The folder to check, such as public.")
    var directory: String

    @Option(help: "text (path:line:col: rule: message, then what was checked) or json.")
    var format: Format = .text

    @Option(help: "Where the site will be served, to check feeds' self links exactly (such as https://news.example.org/).")
    var baseURL: String?

    /// `--base-url` as a folder URL (with its trailing slash), as site.json's baseURL is.
    private var siteURL: URL? {
        guard let baseURL else { return nil }
        return URL(string: baseURL.hasSuffix("/") ? baseURL : baseURL + "/")
    }

    func validate() throws {
        if baseURL != nil {
            guard let url = siteURL, ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
                throw ValidationError("--base-url: expected an absolute http(s) URL such as https://news.example.org/")
            }
        }
    }

    /// A path that is not a folder with files in it is an error a person can act on: one line on
    /// stderr and exit status 1, with nothing on stdout whatever the --format.
    func run() async throws {
        let url = URL(fileURLWithPath: directory).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CommandFailure("\(directory): no such folder")
        }
        guard isDirectory.boolValue else {
            throw CommandFailure("\(directory): is a file; validate takes the folder a build wrote")
        }
        let report = await SiteValidator.validate(directory: url, baseURL: siteURL)
        guard report.filesChecked > 0 else {
            throw CommandFailure("\(directory): is empty; nothing to validate")
        }
        switch format {
        case .text:
            for problem in report.problems {
                print(problem)
            }
            print(report.checkSummary)
        case .json:
            print(try Self.json(report))
        }
        if !report.isValid { throw ExitCode(1) }
    }

    private struct Output: Encodable {
        var files: Int
        var problems: [ValidationProblem]
    }

    static func json(_ report: ValidationReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Output(files: report.filesChecked, problems: report.problems))
        return String(decoding: data, as: UTF8.self)
    }
}
