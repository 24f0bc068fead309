import ArgumentParser
import Foundation
import NewsgenModel
import NewsgenConfig

struct SavedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saved",
        abstract: "Edit the Favorites and Read Later lists (saved.json).",
        discussion: "Edits are atomic and keep fields newsgen does not know. The next build shows them.",
        subcommands: [Add.self, Remove.self, List.self]
    )

    enum ListName: String, ExpressibleByArgument, CaseIterable {
        case favorites
        case readLater = "read-later"

        var kind: SavedListKind { self == .favorites ? .favorites : .readLater }
    }

    struct FileOptions: ParsableArguments {
        @OptionGroup var site: SiteOptions

        @Option(name: .long, help: "Edit this saved file instead of the one site.json names.")
        var file: String?

        /// The saved files to work on: --file, else those of site.json (the first for additions).
        func files() throws -> [URL] {
            try named().files
        }

        /// The saved files, and whether they were named (by --file, or by `saved` in site.json)
        /// rather than the default, which may well not exist.
        func named() throws -> (files: [URL], explicit: Bool) {
            if let file { return ([URL(fileURLWithPath: file).standardizedFileURL], true) }
            let config = try site.load(hint: "run newsgen in the folder of your site.json, or pass --config FILE or --file FILE")
            return (config.saved, config.savedIsExplicit)
        }

        /// Prints a warning as a build does: one line on stderr.
        static func warn(_ message: CustomStringConvertible) {
            FileHandle.standardError.write(Data("newsgen: warning: \(message)\n".utf8))
        }

        /// Reads every saved file with the warnings a build gives: a named file that does not
        /// exist, an entry that is skipped.
        func readAll() throws -> [SavedLists] {
            let (files, explicit) = try named()
            var lists: [SavedLists] = []
            for file in files {
                if let reading = try SavedFile.reading(file) {
                    lists.append(reading.lists)
                    reading.warnings.forEach(FileOptions.warn)
                } else if explicit {
                    FileOptions.warn(SavedFile.notFound(file))
                }
            }
            return lists
        }
    }

    static func checkURL(_ url: String) throws {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw ValidationError("\(url) is not an absolute http(s) URL.")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Save an article to a list.")

        @Argument(help: "The article's URL.")
        var url: String

        @Option(name: .long, help: "The list: favorites or read-later.")
        var list: ListName = .favorites

        @Option(name: .long, help: "A title, shown when no source lists the article.")
        var title: String?

        @OptionGroup var options: FileOptions

        func validate() throws { try SavedCommand.checkURL(url) }

        func run() async throws {
            guard let file = try options.files().first else { throw CommandFailure("\(options.site.path) names no saved file") }
            var editor = try SavedFileEditor(file: file)
            editor.warnings.forEach(FileOptions.warn)
            let outcome = editor.add(url: url, to: list.kind, title: title, at: Date())
            try editor.save()
            switch outcome {
            case .added: print("Saved to \(list.kind.title): \(url)")
            case .updated: print("Updated the title in \(list.kind.title): \(url)")
            default: print("Already in \(list.kind.title): \(url)")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an article from a list (from both when --list is not given).")

        @Argument(help: "The article's URL.")
        var url: String

        @Option(name: .long, help: "The list: favorites or read-later.")
        var list: ListName?

        @OptionGroup var options: FileOptions

        func validate() throws { try SavedCommand.checkURL(url) }

        func run() async throws {
            let kinds = list.map { [$0.kind] } ?? SavedListKind.allCases
            var removed: [String] = []
            let (files, explicit) = try options.named()
            for file in files {
                guard FileManager.default.fileExists(atPath: file.path) else {
                    if explicit {
                        FileOptions.warn(SavedFile.notFound(file))
                    }
                    continue
                }
                var editor = try SavedFileEditor(file: file)
                editor.warnings.forEach(FileOptions.warn)
                if case .removed(let from) = editor.remove(url: url, from: kinds) {
                    try editor.save()
                    removed += from.map { "\($0.title) (\(file.lastPathComponent))" }
                }
            }
            guard !removed.isEmpty else {
                throw CommandFailure("\(url) is not in \(kinds.map(\.title).joined(separator: " or "))")
            }
            print("Removed from \(removed.joined(separator: ", ")): \(url)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Print both lists, merged from every saved file.")

        @OptionGroup var options: FileOptions

        func run() async throws {
            let merged = SavedLists.merge(try options.readAll())
            for kind in SavedListKind.allCases {
                let entries = merged[kind]
                print("\(kind.title) (\(entries.count))")
                for entry in entries {
                    let date = entry.savedAt.map(Dates.rfc3339Day) ?? "          "
                    let title = entry.title.map { "\($0) — " } ?? ""
                    print("  \(date)  \(title)\(entry.url ?? entry.id ?? "")")
                }
            }
        }
    }
}

