import ArgumentParser
import Foundation
import NewsgenConfig

/// `--config`, which every command that reads a site shares.
struct SiteOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The site configuration (default: site.json in the current folder).")
    var config: String?

    /// The file as the user named it, or the default.
    var path: String { config ?? "site.json" }

    /// The configuration file, absolute.
    var file: URL { URL(fileURLWithPath: path).standardizedFileURL }

    /// Whether the configuration file exists.
    var exists: Bool { FileManager.default.fileExists(atPath: file.path) }

    /// Reads and checks the configuration; a missing file says how to point at one.
    func load(hint: String = "run newsgen in the folder of your site.json, or pass --config FILE") throws -> SiteConfig {
        guard exists else {
            throw ConfigError(file: path, keyPath: "", message: "not found (\(hint))")
        }
        return try SiteConfig.load(from: file, displayPath: path)
    }
}

/// A command's failure for a reason the user can fix, with a message newsgen wrote (library
/// errors are thrown as they are). `Newsgen.main` prints every failure the same way: one
/// `newsgen: error: …` line per line of the message, no usage dump, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
