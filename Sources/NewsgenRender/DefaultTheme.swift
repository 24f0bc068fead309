/// The default theme: `Templates/` as `Scripts/embed-files` embedded it (`EmbeddedFiles.theme`).
/// Used when site.json names no templates folder and there is no
/// Templates folder beside it, so that an installed binary needs nothing else.
enum DefaultTheme {
    /// Mustache templates by name (the path below Templates/ without `.mustache`).
    static let templates: [String: String] = Dictionary(uniqueKeysWithValues: EmbeddedFiles.theme.compactMap { path, text in
        path.hasSuffix(".mustache") ? (String(path.dropLast(".mustache".count)), text) : nil
    })

    /// Files under assets/, by path below it.
    static let assets: [String: String] = Dictionary(uniqueKeysWithValues: EmbeddedFiles.theme.compactMap { path, text in
        path.hasPrefix("assets/") ? (String(path.dropFirst("assets/".count)), text) : nil
    })
}
