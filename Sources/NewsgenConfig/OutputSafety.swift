import Foundation

extension SiteConfig {
    /// The files and folders a build reads, each with the key that names it, for the overlap check.
    private var inputs: [(key: String, url: URL, isFolder: Bool)] {
        var inputs: [(key: String, url: URL, isFolder: Bool)] = [
            ("the folder of \(file.lastPathComponent)", file.deletingLastPathComponent(), true),
            ("templates", templates, true),
            ("cache", cache, false),
        ]
        inputs += saved.enumerated().map { index, url in (saved.count == 1 ? "saved" : "saved[\(index)]", url, false) }
        for (index, source) in sources.enumerated() {
            switch source.kind {
            case .feed(.file(let url)): inputs.append(("sources[\(index)].feed", url, false))
            case .json(.file(let url)): inputs.append(("sources[\(index)].json", url, false))
            default: break
            }
        }
        if let staticFolder { inputs.append(("static", staticFolder, true)) }
        return inputs
    }

    /// Checks that the output folder keeps clear of everything else the build reads or keeps:
    /// a build replaces the output folder whole, so it may not be, or contain, the folder of
    /// site.json, the templates, the static folder, the cache, a saved file or a local feed, nor
    /// lie inside the templates or the static folder. `outputKey` names where the output came from (`output`, or `--output`).
    public func checkOutputOverlaps(outputKey: String = "output") throws(ConfigError) {
        let output = PathComparison(output)
        for input in inputs {
            let other = PathComparison(input.url)
            let described = "\(input.key) (\(input.url.path))"
            let problem: String?
            if output.isSame(as: other) {
                problem = "is the same \(input.isFolder ? "folder" : "path") as \(described)"
            } else if output.contains(other) {
                problem = "contains \(described)"
            } else if (input.key == "templates" || input.key == "static") && other.contains(output) {
                problem = "lies inside \(described)"
            } else {
                problem = nil
            }
            if let problem {
                throw error(outputKey, "\"\(self.output.path)\" \(problem); a build replaces its output folder whole, so give it a folder of its own, such as \"public\"")
            }
        }
    }
}

/// A path made comparable: standardized, symbolic links resolved as far as the path exists.
private struct PathComparison {
    let components: [String]

    init(_ url: URL) {
        components = Self.resolved(url.standardizedFileURL.path).split(separator: "/").map(String.init)
    }

    /// `path` with its symbolic links resolved by realpath(3) as far as it exists, the rest as
    /// written.
    private static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return path }
        return resolved(String(path[..<slash])) + path[slash...]
    }

    func isSame(as other: PathComparison) -> Bool { components == other.components }

    /// Whether `other` lies below this path.
    func contains(_ other: PathComparison) -> Bool {
        other.components.count > components.count && Array(other.components.prefix(components.count)) == components
    }
}
