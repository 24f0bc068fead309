package import Foundation

/// The previous site kept beside the output (`Publisher.previousSite`), examined against its
/// record before the build stages it: what it holds, when the record still describes it.
///
/// A build whose sources brought something new will most likely publish, and so stage in the
/// previous site and prune it from its record. Examining that record (reading ten thousand
/// lines, and a stat of every recorded folder) took about 0.04 s of a core while the site's
/// model was being built, the longest part of a cron run, on two cores already busy. Started
/// once the sources are fetched, it runs while the archive is read and the saved lists are
/// merged, when the two cores were about 1.3 busy in a profile: a new-story build about 3 %
/// shorter in paired rounds (BENCHMARKS.md, step 125).
///
/// The folder is held open while it is examined and after, so the listing is given only for the
/// very folder examined, whatever it was renamed to since (`listing(ifStaging:)`).
package struct PreviousSite: Sendable {
    private let folder: OpenFolder
    private let listing: Manifest.Listing?

    /// Examines the folder at `site` against the record at `record`, made for the site published
    /// as `output`; `nil` when the folder cannot be opened. The record is left where it is: the
    /// staging writer removes it once the folder is about to change. The paths the last
    /// manifest (`last`) records too are kept as its own (`Manifest.listing(from:output:of:sharingPathsWith:)`).
    package static func examine(_ site: URL, record: URL, output: URL, sharingPathsWith last: Manifest? = nil) -> PreviousSite? {
        guard let folder = OpenFolder(site) else { return nil }
        return PreviousSite(folder: folder, listing: Manifest.listing(from: record, output: output, of: folder, sharingPathsWith: last))
    }

    /// What the folder holds, from its record, when the record described it and `staging` is
    /// that very folder (the previous site renamed to be staged in).
    package func listing(ifStaging staging: String) -> Manifest.Listing? {
        guard let listing, folder.isFolder(at: staging) else { return nil }
        return listing
    }
}
