package import Foundation
package import Logging
package import NewsgenModel
package import NewsgenConfig
package import NewsgenFetch
package import NewsgenStore
import NewsgenExtract

/// Gives the stories of sources with `"fullText": "extract"` the article of their own page when the feed carries no full
/// text. A page is fetched once per link: what it gave (an article, or why none) is kept in the cache, and only a page
/// that could not be had is asked for again, later (`StoryExtraction`). Only stories listed now are fetched; archived
/// ones show what the cache kept. Fetching shares the build's budget and per-host limit, and never fails the build.
package struct ExtractFullText: BuildStep {
    package static let stage = BuildStage.extract

    package var config: SiteConfig
    package var store: any ArticleStore
    /// `nil` fetches nothing (`--offline`): stories get what the cache kept.
    package var pages: StoryPageFetcher?
    package var budget: FetchBudget
    package var now: Date
    package var logger: Logger

    package init(config: SiteConfig, store: any ArticleStore, pages: StoryPageFetcher?, budget: FetchBudget, now: Date, logger: Logger) {
        self.config = config
        self.store = store
        self.pages = pages
        self.budget = budget
        self.now = now
        self.logger = logger
    }

    package struct Stories: Sendable {
        package var sources: [SourceReport]
        package var archive: [Article]
        /// Stories given a full text, and pages fetched now.
        package var extracted = 0
        package var fetched = 0

        package init(sources: [SourceReport], archive: [Article]) {
            self.sources = sources
            self.archive = archive
        }
    }

    package func run(_ stories: Stories) async -> Stories {
        let extracting = Set(config.sources.filter { $0.fullText == .extract }.map(\.id))
        guard !extracting.isEmpty else { return stories }
        func wanting(_ article: Article) -> String? {
            article.content == nil && extracting.contains(article.sourceID) ? article.url : nil
        }
        let listed = stories.sources.flatMap(\.articles).compactMap { article in wanting(article).map { (url: $0, source: article.sourceID) } }
        let urls = Array(Set(listed.map(\.url) + stories.archive.compactMap(wanting))).sorted()
        var known: [String: StoryExtraction]
        do {
            known = try await store.extractions(of: urls)
        } catch {
            logger.warning("cache: \(error) (the full texts of \(urls.count) stories)")
            return stories
        }
        var result = stories
        if let pages {
            var seen = Set<String>()
            let due = listed.filter { story in
                (known[story.url].map { kept in kept.isDue(at: now) } ?? true) && seen.insert(story.url).inserted
            }
            let outcomes = await fetch(due, from: pages, known: known)
            for (url, extraction) in outcomes { known[url] = extraction }
            result.fetched = outcomes.count
            do {
                try await store.recordExtractions(outcomes)
            } catch {
                logger.warning("cache: \(error) (the full texts of \(outcomes.count) stories)")
            }
        }
        func giving(_ article: Article) -> Article {
            guard let url = wanting(article), let html = known[url]?.html else { return article }
            var article = article
            article.content = html
            return article
        }
        for index in result.sources.indices {
            guard extracting.contains(result.sources[index].config.id) else { continue }
            result.sources[index].articles = result.sources[index].articles.map(giving)
        }
        result.archive = result.archive.map(giving)
        result.extracted = Set(result.sources.flatMap(\.articles).lazy.filter { $0.content != nil && extracting.contains($0.sourceID) }.compactMap(\.url)).count
        return result
    }

    /// Fetches and extracts each page, at most `FetchLimits.perHost` per host at once, until the fetch budget ends;
    /// returns the outcome of each page asked for (pages not reached are absent: the next build asks for them).
    private func fetch(_ due: [(url: String, source: String)], from pages: StoryPageFetcher,
                       known: [String: StoryExtraction]) async -> [String: StoryExtraction] {
        let sources = Dictionary(config.sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let (budget, now, logger, config) = (budget, now, logger, config)
        let requests = StoryRequests(budget: budget, logger: logger, noun: ("story pages", "pages"), level: .warning)
        let reached = await requests.run(due, url: \.url, seconds: { story in
            sources[story.source].map { config.timeoutSeconds(for: $0) } ?? config.timeoutSeconds
        }) { story, url, timeout, noAnswer -> (String, StoryExtraction)? in
            let attempts = (known[story.url]?.attempts ?? 0) + 1
            let outcome: StoryExtraction.Outcome
            do throws(StoryPageProblem) {
                let page = try await pages.page(at: url, timeout: timeout)
                do throws(ExtractionFailure) {
                    let article = try ArticleExtractor().extract(html: page.bytes, url: page.url, declaredCharset: page.charset)
                    outcome = .article(html: article.html)
                } catch {
                    logger.warning("source \"\(story.source)\": \(story.url): \(Self.clause(error.reason)); showing the feed's summary")
                    outcome = .none(reason: error.reason)
                }
            } catch {
                if case .transport(.timedOut) = error, budget.isExhausted { return nil }
                if case .transport(let failure) = error, failure.isNoAnswer { noAnswer(failure.description) }
                if error.isLasting || attempts >= RetryLater.attempts {
                    logger.warning("source \"\(story.source)\": \(story.url): \(error); showing the feed's summary")
                    outcome = .none(reason: error.description)
                } else {
                    logger.warning("source \"\(story.source)\": \(story.url): \(error); trying again in \(Int(RetryLater.after / 3600)) h")
                    outcome = .failed(reason: error.description)
                }
            }
            return (story.url, StoryExtraction(outcome, attempted: now, attempts: attempts))
        }
        return Dictionary(reached, uniquingKeysWith: { first, _ in first })
    }

    /// A sentence as a clause of a log line: "The page has no article." → "the page has no article".
    static func clause(_ sentence: String) -> String {
        var text = sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
        if let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase ?? true {
            text = first.lowercased() + text.dropFirst()
        }
        return text
    }

    package func summary(of stories: Stories) -> String {
        stories.fetched == 0 && stories.extracted == 0 ? "" : "\(stories.extracted) full texts, \(stories.fetched) pages fetched"
    }
}
