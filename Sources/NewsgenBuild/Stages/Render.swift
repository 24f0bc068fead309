package import NewsgenRender

/// Stage 5: every page and feed of the site, in memory, from the theme of stage 1 and the
/// content the stages before gathered. Nothing touches the disk yet.
package struct Render: BuildStep {
    package static let stage = BuildStage.render

    package var templates: TemplateSet
    /// The published files that need not be rendered again; `nil` renders everything.
    package var carrying: CarryIndex?
    /// Told as each file is rendered (or found current).
    package var progress: BuildProgress?

    package init(templates: TemplateSet, carrying: CarryIndex? = nil, progress: BuildProgress? = nil) {
        self.templates = templates
        self.carrying = carrying
        self.progress = progress
    }

    package func run(_ content: SiteContent) async throws(TemplateError) -> RenderedSite {
        let done = progress.map { progress in { @Sendable (total: Int) in progress.advance(.rendering, total: total) } }
        return try await SiteRenderer(templates: templates, content: content).render(carrying: carrying, jobDone: done)
    }

    package func summary(of site: RenderedSite) -> String {
        "\(site.files.count + site.carried.count) files (\(site.files.count) rendered, \(site.carried.count) carried)"
    }
}
