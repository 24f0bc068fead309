import ArgumentParser
import Foundation
import Logging
import NewsgenModel
import NewsgenBuild

@main
struct Newsgen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "newsgen",
        abstract: "Turns a list of news sources into a static news site and its feeds.",
        discussion: """
            newsgen fetches RSS, Atom and JSON Feed sources (and NewsAPI), keeps them in a cache so that \
            a failed fetch falls back to recent data, renders an HTML page for each tab from Mustache \
            templates, writes RSS, Atom and JSON feeds, validates every file, and only then swaps the \
            new site into place.

            Exit status of build: 0 published with every source fresh; 3 published, but a source \
            failed and was served from the cache or shown as unavailable; 1 nothing published; 2 usage error.
            """,
        version: NewsgenVersion.string,
        subcommands: [BuildCommand.self, ValidateCommand.self, ServeCommand.self, SavedCommand.self, SourcesCommand.self, AddCommand.self, ExtractCommand.self, PingCommand.self],
        defaultSubcommand: nil
    )

    /// The names the first argument may be.
    static var commandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    }

    /// Runs the command line with the exit statuses of the contract (usage errors exit 2).
    static func main() async {
        if let word = CommandLine.arguments.dropFirst().first, !word.hasPrefix("-"), !commandNames.contains(word) {
            let names = commandNames.filter { $0 != "help" }
            let hint = Suggestion.closest(to: word, in: names).map { "; did you mean '\($0)'?" }
                ?? " (commands: \(names.joined(separator: ", ")))"
            printError("unknown command '\(word)'\(hint)")
            FileHandle.standardError.write(Data("See 'newsgen --help'.\n".utf8))
            Foundation.exit(2)
        }
        var command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            // The command line itself: --help and --version, or a usage error (exit status 2).
            if exitCode(for: error) == .validationFailure { usageError(error) }
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let status as ExitCode {
            Foundation.exit(status.rawValue)
        } catch {
            switch exitCode(for: error) {
            case .success:
                exit(withError: error)  // help that a command (or `newsgen` alone) asked for
            case .validationFailure:
                usageError(error)
            default:
                // Every failure of a command, the library's errors included, is printed here, one way.
                for line in String(describing: error).split(separator: "\n") { printError(String(line)) }
                Foundation.exit(1)
            }
        }
    }
}

extension Newsgen {
    /// A usage error (argument-parser's, or a command's `ValidationError`) as every other error is printed,
    /// `newsgen: error: …`, then the usage argument-parser gives; exit status 2.
    static func usageError(_ error: any Error) -> Never {
        let text = message(for: error)
        for line in text.split(separator: "\n") { printError(sentenceCase(String(line))) }
        // argument-parser's full text is its own "Error: <message>" line, then help and usage, which follow ours.
        var rest = fullMessage(for: error)
        let own = "Error: " + text + "\n"
        if rest.hasPrefix(own) { rest.removeFirst(own.count) }
        if !rest.isEmpty { TerminalProgress.standardError.write(rest.hasSuffix("\n") ? rest : rest + "\n") }
        Foundation.exit(2)
    }

    /// argument-parser's messages start with a capital (`Unknown option '--bogus'`); newsgen's errors start in lowercase.
    /// A word in capitals (`URL`) is kept.
    static func sentenceCase(_ message: String) -> String {
        guard let first = message.first, first.isUppercase, let second = message.dropFirst().first, second.isLowercase else {
            return message
        }
        return first.lowercased() + message.dropFirst()
    }
}

/// Writes one `newsgen: error: …` line on stderr.
func printError(_ message: String) {
    TerminalProgress.standardError.write("newsgen: error: \(message)\n")
}

/// The logging flags every command shares.
struct LoggingOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Print each stage with its duration and counts, and details per source.")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together.") }
    }

    /// Warnings and errors by default (quiet under cron), errors only with --quiet, everything with --verbose.
    func makeLogger() -> Logger {
        let level: Logger.Level = quiet ? .error : verbose ? .debug : .warning
        var logger = Logger(label: "newsgen") { _ in StderrLogHandler() }
        logger.logLevel = level
        return logger
    }
}

/// One line per event on standard error: `newsgen: warning: source "hn": HTTP 404 from hnrss.org`.
struct StderrLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let prefix: String
        switch event.level {
        case .warning: prefix = "newsgen: warning: "
        case .error, .critical: prefix = "newsgen: error: "
        default: prefix = "newsgen: "
        }
        // Through the progress line, which is cleared first when a build shows one.
        TerminalProgress.standardError.write(prefix + event.message.description + "\n")
    }
}
