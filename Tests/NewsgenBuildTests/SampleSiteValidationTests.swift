import Foundation
import Testing
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenValidate
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// The repository's sample site, built end to end, against every rule.
@Suite("Validation of the sample site")
struct SampleSiteValidationTests {
    /// Builds the repository's site.json into a temporary folder.
    static func buildSample() async throws -> (URL, SiteConfig) {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        var config = try SiteConfig.load(from: TestSupport.repository.appendingPathComponent("site.json"))
        config.output = output
        let (logger, _) = TestSupport.recordingLogger()
        let build = Build(
            config: config, providers: [FeedProvider(http: nil, articlesPerSource: config.articlesPerSource)],
            store: MemoryStore(), now: { TestSupport.date("2026-11-21T12:00:00Z") }, logger: logger
        )
        _ = try await build.run()
        return (output, config)
    }

    @Test("the sample site passes every rule, with its baseURL and without")
    func samplePasses() async throws {
        let (output, config) = try await Self.buildSample()
        let exact = await SiteValidator.validate(directory: output, baseURL: config.baseURL)
        #expect(exact.problems.isEmpty, "\(exact.problems.map(\.description).joined(separator: "\n"))")
        let inferred = await SiteValidator.validate(directory: output)
        #expect(inferred.problems.isEmpty, "\(inferred.problems.map(\.description).joined(separator: "\n"))")
        #expect(inferred.filesChecked > 40)
        let kinds = Set(SiteValidator.regularFiles(below: output).map { FileKind(path: $0.path) })
        #expect(kinds.isSuperset(of: [.page, .rss, .atom, .jsonFeed, .opml, .sitemap]), "every kind of file was checked")
    }

    @Test("validations running at once on several threads agree (schemas are shared, contexts are not)")
    func concurrent() async throws {
        let (output, _) = try await Self.buildSample()
        let feed = output.appendingPathComponent("feeds/headlines.rss")
        let text = try String(contentsOf: feed, encoding: .utf8)
        try text.replacingOccurrences(of: "<language>en</language>", with: "<language>en</language><ttl>soon</ttl>")
            .write(to: feed, atomically: true, encoding: .utf8)
        let reports = await withTaskGroup(of: [ValidationProblem].self) { group in
            for _ in 0..<6 { group.addTask { await SiteValidator.validate(directory: output).problems } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let first = try #require(reports.first)
        #expect(first.map(\.description) == ["feeds/headlines.rss:7:28: rss-schema: <ttl> is not allowed here, appears more often than allowed, or holds what the schema does not allow"])
        #expect(reports.allSatisfy { $0 == first })
    }
}
