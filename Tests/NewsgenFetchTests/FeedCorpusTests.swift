import Foundation
import Testing
@testable import NewsgenFetch
import NewsgenTestSupport

/// feedparser's ~2,100 test feeds (../shared/corpus/feedparser-tests): every one parses or is
/// rejected with a clear error, and where its Expect line speaks of the first entry's title or
/// link in plain words, newsgen agrees.
@Suite("feedparser corpus")
struct FeedCorpusTests {
    static let files: [URL] = {
        guard let paths = FileManager.default.enumerator(atPath: TestSupport.corpus.path)?.allObjects as? [String] else { return [] }
        return paths.filter { $0.hasSuffix(".xml") || $0.hasSuffix(".json") }.sorted().map { TestSupport.corpus.appendingPathComponent($0) }
    }()

    @Test("the corpus is there")
    func corpusPresent() {
        #expect(Self.files.count > 2000, "expected ../shared/corpus/feedparser-tests beside the repository, or .feedparser-tests/ (Scripts/install-deps fetches it)")
    }

    @Test("every feed parses or fails with a clear error, never a crash")
    func everyFeed() throws {
        var parsed = 0
        var rejected: [String: String] = [:]
        for file in Self.files {
            let data = try Data(contentsOf: file)
            do {
                let feed = try FeedParser.parse(data, url: file.lastPathComponent)
                _ = feed.articles(sourceID: "corpus", base: URL(string: "http://example.com/"), limit: 1000)
                parsed += 1
            } catch {
                // A clear error says where or what: a position in the XML, the element found, the JSON problem.
                switch error {
                case .empty:
                    #expect(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines.union(["\u{FEFF}"])).isEmpty,
                            "\(file.lastPathComponent) is not empty")
                case .notAFeed(let found):
                    #expect(!found.isEmpty, "\(file.lastPathComponent): \(error)")
                case .malformedXML(let diagnostic):
                    #expect(!diagnostic.message.isEmpty, "\(file.lastPathComponent): \(error)")
                    #expect(diagnostic.line > 0 || error.description.hasPrefix("cannot read the document's text encoding"),
                            "\(file.lastPathComponent): a position of 0 is no position: \(error)")
                case .malformedJSON(let detail):
                    #expect(!detail.isEmpty, "\(file.lastPathComponent): \(error)")
                }
                rejected[file.path] = error.description
            }
        }
        let wellformedRejected = rejected.keys.filter { $0.contains("/wellformed/") }
        // Only CDF documents (Microsoft's Channel Definition Format) are not feeds newsgen reads.
        #expect(wellformedRejected.allSatisfy { $0.contains("cdf") },
                "rejected well-formed feeds: \(wellformedRejected.sorted().prefix(10))")
        #expect(parsed > 1900, "parsed \(parsed) of \(Self.files.count)")
    }

    @Test("first entry's title and link agree with feedparser's Expect lines")
    func parity() throws {
        let titlePattern = /entries\[0\]\['title'\] == u?'([^'<&\\]*)'\s*$/
        let linkPattern = /entries\[0\]\['link'\] == u?'([^'\\]*)'\s*$/
        var checked = 0
        var mismatches: [String] = []
        for file in Self.files where file.path.contains("/wellformed/") && file.pathExtension == "xml" {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard let expectLine = text.split(separator: "\n").first(where: { $0.contains("Expect:") }) else { continue }
            let expectedTitle = expectLine.firstMatch(of: titlePattern).map { String($0.output.1) }
            let expectedLink = expectLine.firstMatch(of: linkPattern).map { String($0.output.1) }
            // Cases that depend on the HTTP context (headers, the document URI) have no equivalent for a file.
            guard expectedTitle != nil || expectedLink != nil, !text.contains("Header:"), !file.lastPathComponent.hasPrefix("http_"), !file.path.contains("cdf") else { continue }
            let feed = try FeedParser.parse(Data(text.utf8), url: file.lastPathComponent)
            var first = feed
            first.items = Array(feed.items.prefix(1))
            let article = first.articles(sourceID: "corpus", base: nil, limit: 1).first
            if let expectedTitle, article?.title != expectedTitle {
                mismatches.append("\(file.lastPathComponent): title \(article?.title ?? "none") ≠ \(expectedTitle)")
            }
            if let expectedLink, article?.url != expectedLink {
                mismatches.append("\(file.lastPathComponent): link \(article?.url ?? "none") ≠ \(expectedLink)")
            }
            checked += 1
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(checked >= 40)
    }
}
