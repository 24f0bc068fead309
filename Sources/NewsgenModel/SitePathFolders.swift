/// The folders a site's files stand in, from root-relative paths: what publishing creates and prunes, the
/// manifest records and the link checker resolves against.
package enum SitePathFolders {
    /// The folders `paths` stand in, with their parents ("a/b/c.html" gives "a" and "a/b"); with `includingRoot`, "" too.
    package static func folders(holding paths: some Sequence<String>, includingRoot: Bool = false) -> Set<String> {
        var folders: Set<String> = includingRoot ? [""] : []
        folders.reserveCapacity(paths.underestimatedCount + 1)
        for path in paths {
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

/// A site's files and folders ("" among them), made once for link checks, staging pruning and the record.
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
