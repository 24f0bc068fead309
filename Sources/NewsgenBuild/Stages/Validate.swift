package import Foundation
package import NewsgenValidate

/// libxml2 checks of every file in a folder (the staging folder, in a build); a site with any problem fails, so it is
/// never published. Files already checked while rendering are not read again: their findings are taken as they are.
package struct Validate: BuildStep {
    package static let stage = BuildStage.validate

    /// The site's address, against which absolute links are checked.
    package var baseURL: URL?
    /// The files to check (their links still resolve against every file); `nil` for all.
    package var only: Set<String>?
    /// Every file of the folder, when the build knows them; `nil` lists the folder.
    package var files: [String]?
    /// Files checked before they were written (not read again), and what was found.
    package var checkedBefore: (count: Int, problems: [ValidationProblem]) = (0, [])

    package init(baseURL: URL?, only: Set<String>? = nil, files: [String]? = nil,
                 checkedBefore: (count: Int, problems: [ValidationProblem]) = (0, [])) {
        self.baseURL = baseURL
        self.only = only
        self.files = files
        self.checkedBefore = checkedBefore
    }

    package func run(_ folder: URL) async throws(ValidationFailure) -> ValidationReport {
        var report = ValidationReport(filesChecked: 0, problems: [])
        if only?.isEmpty != true {
            report = await SiteValidator.validate(directory: folder, baseURL: baseURL, only: only, files: files)
        }
        if checkedBefore.count > 0 {
            report.filesChecked += checkedBefore.count
            report.problems = SiteValidator.ordered(report.problems + checkedBefore.problems)
        }
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
