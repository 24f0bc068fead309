import Foundation
import PackagePlugin

/// Embeds text files into the target as string constants at build time, so that the binary
/// stands alone (a release binary copied to /usr/local/bin has no resource bundle) while the
/// files stay the only copy, in the form their own tools read: the default theme (`Templates/`,
/// into NewsgenRender) and the RELAX NG schemas (`Schemas/*.rng`, into NewsgenValidate).
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let groups: [(name: String, folder: URL)] = switch target.name {
        case "NewsgenRender": [("theme", context.package.directoryURL.appending(path: "Templates"))]
        case "NewsgenValidate": [("schemas", target.directoryURL.appending(path: "Schemas"))]
        default: throw EmbedFilesError(target: target.name)
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(groups.map(\.name).joined(separator: " and ")) into \(target.name)",
                executable: try context.tool(named: "EmbedFilesTool").url,
                arguments: [output.path(percentEncoded: false)] + groups.map { "\($0.name)=\($0.folder.path(percentEncoded: false))" },
                inputFiles: groups.flatMap { files(below: $0.folder) },
                outputFiles: [output]
            )
        ]
    }

    /// The regular files below `folder`, hidden ones left out.
    private func files(below folder: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]
        )
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }
}

struct EmbedFilesError: Error, CustomStringConvertible {
    var target: String
    var description: String { "EmbedFiles knows no files to embed into the target \(target)." }
}
