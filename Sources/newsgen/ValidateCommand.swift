import ArgumentParser
import Foundation
import NewsgenCore

struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check every file of a built site with libxml2; exit 1 on any problem.",
        discussion: "Prints each problem as path:line:col: message, then a count."
    )

    @Argument(help: "The folder to check, such as public.")
    var directory: String

    func run() async throws {
        let url = URL(fileURLWithPath: directory).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(directory): no such folder.")
        }
        let report = await SiteValidator.validate(directory: url)
        for problem in report.problems {
            print(problem)
        }
        let files = Set(report.problems.map(\.path)).count
        print("\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s") in \(files) of \(report.filesChecked) files")
        if !report.isValid { throw ExitCode(1) }
    }
}
