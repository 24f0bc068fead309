import Foundation
import PackagePlugin

/// Embeds text files into the target as string constants at build time, so that the binary
/// stands alone (a release binary copied to /usr/local/bin has no resource bundle) while the
/// files stay the only copy, in the form their own tools read: the default theme (`Templates/`)
/// and the RELAX NG schemas (`Validate/Schemas/*.rng`).
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let groups = [
            ("theme", context.package.directoryURL.appending(path: "Templates")),
            ("schemas", target.directoryURL.appending(path: "Validate/Schemas")),
        ]
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the theme and the schemas into \(target.name)",
                executable: try context.tool(named: "EmbedFilesTool").url,
                arguments: [output.path(percentEncoded: false)] + groups.map { "\($0.0)=\($0.1.path(percentEncoded: false))" },
                inputFiles: groups.flatMap { files(below: $0.1) },
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
