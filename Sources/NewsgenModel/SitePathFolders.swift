/// The folders a site's files stand in, from their paths relative to the site's root ("/"
/// between components): what publishing creates and prunes, what the manifest records, and
/// what the link checker resolves a link to a folder against.
package enum SitePathFolders {
    /// The folders that relative `paths` stand in, with their parents: "a/b/c.html" gives "a"
    /// and "a/b". Each path's folder, then its parents until one already known (whose parents
    /// are too). With `includingRoot`, the site's own folder ("") is one of them.
    package static func folders(holding paths: some Sequence<String>, includingRoot: Bool = false) -> Set<String> {
        var folders: Set<String> = includingRoot ? [""] : []
        // Most files of a site have a folder of their own (`articles/<slug>/index.html`).
        folders.reserveCapacity(paths.underestimatedCount + 1)
        for path in paths {
            // The slashes are found in the path's bytes, from its end.
            var path = path
            path.withUTF8 { bytes in
                var end = bytes.count
                while let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")),
                      folders.insert(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<slash]), as: UTF8.self)).inserted {
                    end = slash
                }
            }
        }
        return folders
    }
}

/// A site's files and the folders they stand in (the site's own, "", among them), made once
/// for the checks of its links, the pruning of its staging folder and its record.
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
