package import Foundation
import Synchronization
package import NewsgenModel
package import NewsgenRender
package import NewsgenValidate

/// Renders every page and feed from the loaded theme and the gathered content. With a `StagingWriter`, each file is
/// checked (libxml2, the rules, its links against every path) while still in memory and handed to the writer, so
/// rendering, checking and writing overlap and no file is read back. Without one, files are kept in memory (for tests).
package struct Render: BuildStep {
    package static let stage = BuildStage.render

    package var templates: TemplateSet
    /// The published files that need not be rendered again; `nil` renders everything.
    package var carrying: CarryIndex?
    /// Where rendered files go as they are made; `nil` keeps them in the result.
    package var writer: StagingWriter?
    /// The site's address, against which the checks judge absolute links.
    package var baseURL: URL?
    /// Told as each file is rendered (or found current).
    package var progress: BuildProgress?

    package init(templates: TemplateSet, carrying: CarryIndex? = nil, writer: StagingWriter? = nil, baseURL: URL? = nil,
                 progress: BuildProgress? = nil) {
        self.templates = templates
        self.carrying = carrying
        self.writer = writer
        self.baseURL = baseURL
        self.progress = progress
    }

    /// The rendered site, and what checking its new files found.
    package struct Output: Sendable {
        package var site: RenderedSite
        /// The site's files (with the marker) and folders, when they were gathered (with a writer).
        package var layout: SiteLayout?
        /// The files checked as they were rendered (those handed to the writer).
        package var checked = 0
        /// What those checks found, in the order of a validation report.
        package var problems: [ValidationProblem] = []
        /// The time the checks took, summed over the cores they ran on.
        package var checkSeconds: Double = 0
    }

    package func run(_ content: SiteContent) async throws(TemplateError) -> Output {
        let done = progress.map { progress in { @Sendable (total: Int) in progress.advance(.rendering, total: total) } }
        let plan = try SiteRenderer(templates: templates, content: content).plan(carrying: carrying)
        guard let writer else { return Output(site: try await plan.run(jobDone: done)) }
        // The site's files and folders, gathered once for the checks, the pruning and the record.
        let paths = plan.paths
        let layout = SiteLayout(files: paths + [Publisher.markerName])
        writer.prepare(keeping: layout)
        writer.makeFolders(of: paths)
        let checker = SiteValidator.FileChecker(layout: layout, baseURL: baseURL)
        let found = ProblemList()
        let site = try await plan.run(deliver: { file in
            let start = ContinuousClock.now
            let problems = checker.check(file.data, path: file.path)
            found.add(problems, took: ContinuousClock.now - start)
            await writer.enqueue(file)
            // A large file is done once written: the next large one waits (`Parallel.map`'s `isLarge`) until then.
            if file.isLarge { await writer.written() }
        }, jobDone: done)
        return Output(site: site, layout: layout, checked: site.delivered.count, problems: SiteValidator.ordered(found.all),
                      checkSeconds: found.seconds)
    }

    package func summary(of output: Output) -> String {
        let site = output.site
        let checked = writer == nil ? "" : ", \(output.checked) checked"
        let search = site.searchIndexSeconds > 0 ? String(format: "; search index %.2f s", site.searchIndexSeconds) : ""
        return "\(site.rendered.count + site.carried.count) files (\(site.rendered.count) rendered, \(site.carried.count) carried\(checked))\(search)"
    }
}

/// Problems found by checks running on several cores at once, and the checks' summed time.
private final class ProblemList: Sendable {
    private let found = Mutex<(problems: [ValidationProblem], time: Duration)>(([], .zero))

    func add(_ problems: [ValidationProblem], took duration: Duration) {
        found.withLock {
            $0.problems += problems
            $0.time += duration
        }
    }

    var all: [ValidationProblem] { found.withLock { $0.problems } }

    var seconds: Double {
        let time = found.withLock { $0.time }
        return Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    }
}
