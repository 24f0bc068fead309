/// The folders a site's files stand in, from their paths relative to the site's root ("/"
/// between components): what publishing creates and prunes, what the manifest records, and
/// what the link checker resolves a link to a folder against.
package enum SitePathFolders {
    /// The folders that relative `paths` stand in, with their parents: "a/b/c.html" gives "a"
    /// and "a/b". Each path's folder, then its parents until one already known (whose parents
    /// are too): splitting and joining every path's components was a tenth of checking a new
    /// story's files.
    /// With `includingRoot`, the site's own folder ("") is one of them.
    package static func folders(holding paths: some Sequence<String>, includingRoot: Bool = false) -> Set<String> {
        var folders: Set<String> = includingRoot ? [""] : []
        for path in paths {
            var end = path.utf8.lastIndex(of: UInt8(ascii: "/"))
            while let slash = end {
                let folder = String(path[..<slash])
                guard folders.insert(folder).inserted else { break }
                end = folder.utf8.lastIndex(of: UInt8(ascii: "/"))
            }
        }
        return folders
    }
}

/// A site's files and the folders they stand in (the site's own, "", among them), made once
/// for the checks of its links, the pruning of its staging folder and its record: each of the
/// three made both sets of ten thousand paths again.
package struct SiteLayout: Sendable {
    /// Paths relative to the site's root, with "/" between components.
    package let files: Set<String>
    /// `SitePathFolders.folders(holding: files, includingRoot: true)`.
    package let folders: Set<String>

    /// The layout of `paths`, each set made on a core of its own.
    package init(files paths: [String]) {
        (files, folders) = Parallel.both({ Set(paths) }, { SitePathFolders.folders(holding: paths, includingRoot: true) })
    }
}
