import ArgumentParser
import Foundation
import NewsgenModel
import NewsgenConfig
import NewsgenFetch

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Find the feed of a page or feed URL and add it to site.json as a source.",
        discussion: """
            The URL may be a feed (RSS, Atom or JSON Feed) or a page: newsgen reads the feeds the page \
            names in <link rel="alternate">, or, when it names none, tries the usual places on the same \
            site (/feed, /rss.xml, /atom.xml, /feed.json, …). The feed must read; its title gives the \
            source's name and id unless --name and --id are given. The source is added after the last \
            one, written like it: the rest of site.json keeps its bytes, and the file is only written \
            when the new configuration loads.

            Examples:
              newsgen add https://www.example.org/
              newsgen add https://www.example.org/feed.xml --id example --category World
              newsgen add https://blog.example.org/ --name "Example blog" --dry-run

            Exit status: 0 added (or, with --dry-run, found); 1 no feed found, several found, the id or \
            the feed already in site.json, or the page could not be fetched; 2 usage error.
            """
    )

    @Argument(help: "A page of the site, or its feed: an http(s) URL.")
    var url: String

    @OptionGroup var site: SiteOptions

    @Option(help: "The source's id (default: from the feed's title, else the host name).")
    var id: String?

    @Option(help: "The source's name on the pages (default: the feed's title).")
    var name: String?

    @Option(help: "The source's category, such as World or Technology.")
    var category: String?

    @Flag(help: "Print the source that would be added; write nothing.")
    var dryRun = false

    func validate() throws {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host?.isEmpty == false else {
            throw ValidationError("\(url) is not an http(s) URL; give the address of a page or a feed, such as https://www.example.org/.")
        }
        if let id, id.range(of: #"^[a-z0-9][a-z0-9_-]{0,63}$"#, options: .regularExpression) == nil {
            throw ValidationError("--id expects lowercase letters, digits, - and _ (at most 64), such as \"bbc-news\".")
        }
        for (option, value) in [("--name", name), ("--category", category)] where value?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            throw ValidationError("\(option) expects a non-empty value.")
        }
    }

    func run() async throws {
        guard site.exists else {
            throw ConfigError(file: site.path, keyPath: "", message: "not found (run newsgen in the folder of your site.json, or pass --config FILE)")
        }
        let editor = try SiteFileEditor(file: site.file, displayPath: site.path)
        let file = site.path
        guard let address = URL(string: url) else { throw ValidationError("\(url) is not an http(s) URL.") }
        if let id, let index = editor.index(ofID: id) {
            throw CommandFailure(Self.idInUse(id, index: index, editor: editor, file: file, given: true))
        }
        if let existing = editor.source(reading: address) {
            throw CommandFailure("\(url) is already in \(file): it is the feed of source \"\(existing.id)\"")
        }

        let http = HTTPFetcher(timeout: .milliseconds(Int(editor.config.timeoutSeconds * 1000)))
        let result: Result<DiscoveredFeed, DiscoveryError>
        do throws(DiscoveryError) {
            result = .success(try await FeedDiscovery(http: http).discover(address))
        } catch {
            result = .failure(error)
        }
        try? await http.shutdown()
        let feed = try result.get()

        if let existing = editor.source(reading: feed.url) {
            throw CommandFailure("the feed of \(url), \(feed.url.absoluteString), is already in \(file): it is the feed of source \"\(existing.id)\"")
        }
        let host = (feed.url.host ?? address.host ?? "feed").replacingOccurrences(of: #"^www\."#, with: "", options: .regularExpression)
        let chosenID = id ?? Self.defaultID(title: feed.title, host: host)
        if let index = editor.index(ofID: chosenID) {
            throw CommandFailure(Self.idInUse(chosenID, index: index, editor: editor, file: file, given: id != nil))
        }
        let source = SiteFileEditor.NewSource(
            id: chosenID, name: name ?? feed.title ?? host, category: category, feed: feed.url.absoluteString
        )
        let edited = try editor.adding(source)

        let items = "\(feed.itemCount) item\(feed.itemCount == 1 ? "" : "s")"
        print("Found \(feed.format.rawValue) feed \(feed.title.map { "\"\($0)\"" } ?? "(untitled)") with \(items): \(feed.url.absoluteString)")
        if dryRun {
            print("Would add to \(file) (nothing written):")
            print(editor.entryText(for: source))
        } else {
            try editor.save(edited)
            print("Added source \"\(source.id)\" to \(file).")
        }
    }

    /// The id a source gets when --id is not given: its title's slug, else its host's.
    static func defaultID(title: String?, host: String) -> String {
        for text in [title, host].compactMap({ $0 }) {
            let slug = Slug.make(text, limit: 48)
            if !slug.isEmpty { return slug }
        }
        return "feed"
    }

    static func idInUse(_ id: String, index: Int, editor: SiteFileEditor, file: String, given: Bool) -> String {
        let hint = given ? "choose another" : "give it another"
        return "the id \"\(id)\" is already used by sources[\(index)] in \(file); \(hint) with --id, such as --id \(editor.freeID(like: id))"
    }
}
