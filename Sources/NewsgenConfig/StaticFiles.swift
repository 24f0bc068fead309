public import Foundation
import NewsgenModel

/// A file of the `static` folder, copied into the output at the same relative path.
public struct StaticFile: Sendable, Hashable {
    /// Relative to the static folder and to the output, `/`-separated (`images/storm.svg`).
    public var path: String
    public var data: Data

    public init(path: String, data: Data) {
        self.path = path
        self.data = data
    }
}

extension SiteConfig {
    /// The files of the `static` folder, in path order; none without one.
    ///
    /// Only regular files and folders are read: a symbolic link (which could reach anything on
    /// the machine) or a device is refused, naming it. Files and folders whose names start with
    /// `.` (`.DS_Store`, `.git`) are skipped, so nothing can stand in for the output's marker.
    public func staticFiles() throws(ConfigError) -> [StaticFile] {
        guard let staticFolder else { return [] }
        let root = staticFolder.standardizedFileURL
        switch Self.kind(of: root) {
        case .folder: break
        case nil: throw staticError("\"\(root.path)\" does not exist; create it, or remove the key")
        case .file, .other: throw staticError("\"\(root.path)\" is not a folder")
        case .link:
            // The folder named in site.json may be a link (a shared images folder); what is inside may not.
            guard Self.kind(of: root.resolvingSymlinksInPath()) == .folder else {
                throw staticError("\"\(root.path)\" is not a folder")
            }
        }
        var files: [StaticFile] = []
        try collect(root.resolvingSymlinksInPath(), relative: "", into: &files)
        return files
    }

    private func collect(_ folder: URL, relative: String, into files: inout [StaticFile]) throws(ConfigError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            throw staticError("\"\(folder.path)\" cannot be read (\(FileProblem.describe(error)))")
        }
        for name in names where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            let path = relative + name
            switch Self.kind(of: url) {
            case .folder:
                try collect(url, relative: path + "/", into: &files)
            case .file:
                do {
                    files.append(StaticFile(path: path, data: try Data(contentsOf: url)))
                } catch {
                    throw staticError("\"\(url.path)\" cannot be read (\(FileProblem.describe(error)))")
                }
            case .link:
                throw staticError("\"\(url.path)\" is a symbolic link; static files are copied as they are, so put the file itself there")
            case .other, nil:
                throw staticError("\"\(url.path)\" is not a regular file or folder")
            }
        }
    }

    private func staticError(_ message: String) -> ConfigError {
        error("static", message)
    }

    private enum EntryKind { case file, folder, link, other }

    /// What is at `url`, without following a symbolic link; `nil` when nothing is.
    private static func kind(of url: URL) -> EntryKind? {
        var status = Foundation.stat()
        guard lstat(url.path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }
}
