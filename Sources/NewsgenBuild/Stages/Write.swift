package import Foundation
package import NewsgenRender
import NewsgenModel

/// Makes the staging folder whole, unseen by the served folder until the publish swap: the writer's remaining files are
/// written, carried files linked from the published site, and the marker added. A folder it cannot fill is removed.
package struct Write: BuildStep {
    package static let stage = BuildStage.write

    package var publisher: Publisher
    /// The writer rendering handed its files to; `nil` makes a staging folder here and writes the rendered site's `files`.
    package var writer: StagingWriter?
    /// Each published file as recorded and found: a carried file a reused staging folder already holds as that inode is left.
    package var published: [String: Manifest.Entry]

    package init(publisher: Publisher, writer: StagingWriter? = nil, published: [String: Manifest.Entry] = [:]) {
        self.publisher = publisher
        self.writer = writer
        self.published = published
    }

    /// The staging folder, and how many files were written or carried over unchanged.
    package struct Staged: Sendable {
        package var folder: URL
        package var summary: Publisher.WriteSummary
        /// Files linked from the published site without being rendered.
        package var carried = 0
        /// In a reused staging folder pruned from its record: the recorded folders, and the paths this stage and pruning
        /// changed (rendered files aside). A folder above none of those paths is still as recorded.
        package var recordedFolders: [String: Manifest.Folder]?
        package var changed: [String] = []
    }

    package func run(_ site: RenderedSite) async throws(PublishError) -> Staged {
        let staging: URL
        var summary = Publisher.WriteSummary()
        if let writer {
            staging = writer.staging
            do {
                summary = try await writer.finish()
            } catch {
                publisher.discard(staging)
                throw error
            }
        } else {
            staging = try publisher.makeStaging()
        }
        do {
            let written = try await publisher.write(site.files, to: staging)  // and the marker
            summary.written += written.written
            summary.unchanged += written.unchanged
            let kept = writer?.keptFromPrevious ?? Publisher.Kept()
            let linked = site.carried.filter { path in kept.inode(of: path).map { $0 != published[path]?.inode } ?? true }
            try await carry(linked, to: staging, existing: kept.holdsFolder)
            return Staged(folder: staging, summary: summary, carried: site.carried.count,
                          recordedFolders: kept.recordedFolders,
                          changed: linked + kept.removed + [Publisher.markerName])
        } catch {
            publisher.discard(staging)
            throw error
        }
    }

    /// Hard-links each carried file from the published site into the staging folder, keeping its bytes and mtime.
    private func carry(_ paths: [String], to staging: URL, existing folders: (String) -> Bool) async throws(PublishError) {
        try await publisher.createFolders(for: paths, in: staging, existing: folders)
        let (output, stagingPath) = (publisher.output.path, staging.path)
        let failures = await Parallel.map(paths) { path -> PublishError? in
            let target = stagingPath + "/" + path
            // In a reused staging folder most carried files are already these links.
            guard let reason = Publisher.carry(output + "/" + path, to: target) else { return nil }
            return PublishError(URL(fileURLWithPath: target), .cannotWrite, reason: reason)
        }
        if let failure = failures.compactMap({ $0 }).first { throw failure }
    }

    package func summary(of staged: Staged) -> String {
        let reused = writer?.reused == true ? (staged.recordedFolders == nil ? ", staged in the previous site, pruned by reading its folders"
                                                                               : ", staged in the previous site, pruned from its record") : ""
        return "\(staged.summary.written) written, \(staged.summary.unchanged) unchanged, \(staged.carried) carried\(reused)"
    }
}
