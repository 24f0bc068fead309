package import Foundation
package import Logging
import NewsgenModel
package import NewsgenRender

/// Everything a build's incremental path needs: the last published record (`Manifest`), how the output compares with it,
/// which files can be carried over, and the record of what this build publishes. Without a record file or with `--full`,
/// nothing is carried and every file is rendered; the search index's numbering is kept even then, so that `--full`
/// makes the very files a cron run makes.
package struct PublishedRecord: Sendable {
    /// Where the record is kept (`Manifest.location(cache:)`); `nil` keeps none.
    package let file: URL?
    private let publisher: Publisher
    /// The last record compared with the output; `nil` when there is none to go by.
    private let last: Manifest.Comparison?
    /// The numbers the published search index gives its stories, which this build's index continues.
    package let searchNumbering: SearchNumbering

    /// Reads the last record and compares the output with it (unless `ignoringLast`: then as if there were none but
    /// for its search numbering).
    package init(file: URL?, publisher: Publisher, ignoringLast: Bool = false) {
        self.file = file
        self.publisher = publisher
        let manifest = file.flatMap { Manifest.load(from: $0, output: publisher.output) }
        last = ignoringLast ? nil : manifest?.compared(with: publisher, examiningFolders: false)
        searchNumbering = manifest?.searchNumbering ?? .none
    }

    /// The record of the previous site kept beside the output (the one the next build stages in).
    package var previousSiteRecord: URL? { file.map(Manifest.previousSiteLocation(manifest:)) }

    /// The files that need not be rendered again: those still on disk as recorded, by fingerprint.
    package var carrying: CarryIndex? { last?.carry }

    package var publishedFiles: [String: Manifest.Entry] { last?.manifest.files ?? [:] }

    /// The fingerprint of this build's whole input (`InputFingerprint`), when a record is kept.
    package func input(of content: SiteContent, templates: TemplateSet, listed: ListedStories) -> Fingerprint? {
        file == nil ? nil : InputFingerprint.of(content, templates: templates, listed: listed)
    }

    /// Whether the output already holds, exactly, the site made from `input`: then rendering would only make it again.
    package func holdsSite(madeFrom input: Fingerprint?) -> Bool {
        guard let input, let last, last.manifest.input == input else { return false }
        return last.examiningFolders(of: publisher).isIntact
    }

    /// Whether the output already is `site`: every file carried, the same files as recorded, and nothing else. A record
    /// left by a crash before saving does not match the output, so this is false and the build publishes.
    package func holds(_ site: RenderedSite) -> Bool {
        guard let last, last.filesAreIntact, site.rendered.isEmpty, site.carried.count == last.manifest.files.count,
              last.manifest.files.keys.allSatisfy(Set(site.carried).contains)
        else { return false }
        return last.examiningFolders(of: publisher).isIntact
    }

    /// The carried files to check again: none while every published file is still part of the site, else all of them.
    package func carriedFilesToCheck(in site: RenderedSite) -> Set<String> {
        guard let last else { return Set(site.carried) }
        let kept = site.carried.count + site.rendered.count { last.manifest.files[$0] != nil }
        return kept < last.manifest.files.count ? Set(site.carried) : []
    }

    /// Notes that the unchanged output is also what `input` makes, so the next build with it stops before rendering.
    package func recordUnchanged(madeFrom input: Fingerprint?, logger: Logger) {
        guard let file, let input, var manifest = last?.manifest, manifest.input != input else { return }
        manifest.input = input
        save(manifest, to: file, logger: logger)
    }

    /// Records `site`, just published from `staged`: rendered files and folders as examined, carried files as last
    /// recorded. The record of the site set aside (`keptPrevious`) becomes the previous site's, for the next build.
    package func recordPublished(_ site: RenderedSite, staged: Write.Staged, input: Fingerprint?, keptPrevious: Bool,
                                 logger: Logger) {
        guard let file, let previousSiteRecord else { return }
        // The record of the site set aside becomes the previous site's, when it still describes that site.
        let recordKept = keptPrevious && last?.filesAreIntact == true && rename(file.path, previousSiteRecord.path) == 0
        if !recordKept { try? FileManager.default.removeItem(at: previousSiteRecord) }
        let folders = staged.recordedFolders.map { Manifest.KnownFolders(recorded: $0, changed: site.rendered + staged.changed) }
        var manifest = Manifest.recording(site.fingerprints, output: publisher.output, input: input, previous: last?.manifest.files,
                                          rendered: Set(site.rendered), folders: folders)
        manifest.searchNumbering = site.searchNumbering
        save(manifest, to: file, logger: logger)
    }

    private func save(_ manifest: Manifest, to file: URL, logger: Logger) {
        do {
            try manifest.save(to: file)
        } catch {
            // The site is published; without a record the next build renders every page.
            logger.warning("\(file.path): cannot record what was published (\(FileProblem.describe(error))); the next build renders every page")
        }
    }
}
