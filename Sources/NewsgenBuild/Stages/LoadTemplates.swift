package import Foundation
package import NewsgenRender

/// Reads and checks the theme before any request, so a broken template costs no fetch. A site that names no templates
/// folder and has none gets the built-in theme.
package struct LoadTemplates: BuildStep {
    package static let stage = BuildStage.loadTemplates

    package var folder: URL
    /// Use the built-in theme when `folder` does not exist (site.json did not name one).
    package var builtInIfMissing: Bool
    /// The site.json naming the folder, as messages name it.
    package var configFile: String

    package init(folder: URL, builtInIfMissing: Bool, configFile: String = "site.json") {
        self.folder = folder
        self.builtInIfMissing = builtInIfMissing
        self.configFile = configFile
    }

    package func run(_ input: Void) async throws(TemplateError) -> TemplateSet {
        try await TemplateSet.load(folder: folder, builtInIfMissing: builtInIfMissing, configFile: configFile)
    }

    package func summary(of output: TemplateSet) -> String { "" }
}
