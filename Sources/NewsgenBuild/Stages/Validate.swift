package import Foundation
package import NewsgenValidate

/// Stage 7: libxml2 checks of every file in a folder (the staging folder, in a build). A site
/// with any problem fails the stage, so that it is never published.
package struct Validate: BuildStep {
    package static let stage = BuildStage.validate

    /// The site's address, against which absolute links are checked.
    package var baseURL: URL?
    /// The files to check (their links still resolve against every file); `nil` for all.
    package var only: Set<String>?
    /// Every file of the folder, when the build knows them; `nil` lists the folder.
    package var files: [String]?

    package init(baseURL: URL?, only: Set<String>? = nil, files: [String]? = nil) {
        self.baseURL = baseURL
        self.only = only
        self.files = files
    }

    package func run(_ folder: URL) async throws(ValidationFailure) -> ValidationReport {
        let report = await SiteValidator.validate(directory: folder, baseURL: baseURL, only: only, files: files)
        guard report.isValid else { throw ValidationFailure(report: report) }
        return report
    }

    package func summary(of report: ValidationReport) -> String {
        "\(report.filesChecked) files, \(report.problems.count) problems"
    }

    /// The same line as a pass: what was checked and how much was found.
    package func summary(ofFailure failure: ValidationFailure) -> String? {
        summary(of: failure.report)
    }
}

/// A site that failed validation, with every problem found.
package struct ValidationFailure: StageFailure {
    package var report: ValidationReport

    package var buildReason: BuildError.Reason { .validation(report) }
}
