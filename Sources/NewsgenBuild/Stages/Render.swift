package import NewsgenRender

/// Stage 5: every page and feed of the site, in memory, from the theme of stage 1 and the
/// content the stages before gathered. Nothing touches the disk yet.
package struct Render: BuildStep {
    package static let stage = BuildStage.render

    package var templates: TemplateSet

    package init(templates: TemplateSet) {
        self.templates = templates
    }

    package func run(_ content: SiteContent) async throws(TemplateError) -> [OutputFile] {
        try await SiteRenderer(templates: templates, content: content).render()
    }

    package func summary(of files: [OutputFile]) -> String { "\(files.count) files" }
}
