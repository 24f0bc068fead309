import ArgumentParser
import Foundation
import NewsgenModel
import NewsgenConfig
import NewsgenFetch

struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List the NewsAPI sources to choose from, with the ids to put in site.json.",
        discussion: """
            Needs a NewsAPI key in the variable named by newsapi.apiKeyEnv (NEWS_API_KEY by default); \
            the API address comes from newsapi.baseURL. The list is cached for a day beside the site's \
            cache (for the site's language), so running this again costs no request. \
            Follow a source with { "id": "bbc", "newsapi": "bbc-news" } in sources.
            """
    )

    /// Optional here: without site.json, NewsAPI's defaults.
    @OptionGroup var site: SiteOptions

    @Option(help: "The language of the sources, such as en, de or pt-BR (NewsAPI is asked for its first part; default: the site's language).")
    var language: String?

    @Option(help: "Only sources of this category, such as technology or business.")
    var category: String?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if let language, !LanguageTag.isWellFormed(language) {
            throw ValidationError("--language expects a language tag, such as en or pt-BR.")
        }
    }

    func run() async throws {
        let logger = logging.makeLogger()
        let loaded = try loadConfig()
        let http = HTTPFetcher(followRedirects: false)
        var catalog = NewsAPICatalog(config: loaded.config, http: http, logger: logger)
        catalog.file = loaded.cacheFile
        let result: Result<NewsAPISourceList, SourceError>
        do throws(SourceError) {
            result = .success(try await catalog.sources(language: language, now: Date()))
        } catch {
            result = .failure(error)
        }
        try? await http.shutdown()

        switch result {
        case .failure(let error):
            throw error
        case .success(let list):
            var sources = list.sources
            if let category {
                sources = sources.filter { $0.category.caseInsensitiveCompare(category) == .orderedSame }
                if sources.isEmpty {
                    let known = Set(list.sources.map(\.category)).sorted().joined(separator: ", ")
                    throw CommandFailure("no \(list.language) sources in category \"\(category)\" (categories: \(known.isEmpty ? "none" : known))")
                }
            }
            print(Self.table(sources), terminator: "")
        }
    }

    /// The site's config, and where the list may be cached. Without site.json (and no --config),
    /// NewsAPI's defaults and no cache.
    private func loadConfig() throws -> (config: SiteConfig, cacheFile: URL?) {
        if site.config == nil && !site.exists {
            return (try SiteConfig.decode(Data(#"{"sources": []}"#.utf8), file: site.file), nil)
        }
        let siteConfig = try site.load(hint: "pass the path of your site.json, or leave out --config")
        return (siteConfig, NewsAPICatalog.defaultFile(for: siteConfig))
    }

    /// An aligned table: id, name, category, language, sorted by id.
    static func table(_ sources: [NewsAPISource]) -> String {
        let rows = [["ID", "NAME", "CATEGORY", "LANGUAGE"]]
            + sources.sorted { $0.id < $1.id }.map { [$0.id, $0.name, $0.category, $0.language] }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
