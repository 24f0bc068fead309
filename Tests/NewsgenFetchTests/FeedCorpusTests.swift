import Foundation
import Testing
@testable import NewsgenFetch
import NewsgenTestSupport
import NewsgenXML

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
    func everyFeed() async throws {
        let (parsed, rejected, unclear) = try await TestSupport.onOwnThread { () throws -> (Int, [String: String], [String]) in
            var parsed = 0
            var rejected: [String: String] = [:]
            var unclear: [String] = []
            for file in Self.files {
                let data = try Data(contentsOf: file)
                do throws(FeedError) {
                    let feed = try FeedParser.parse(data, url: file.lastPathComponent)
                    _ = feed.articles(sourceID: "corpus", base: URL(string: "http://example.com/"), limit: 1000)
                    parsed += 1
                } catch {
                    // A clear error says where or what: a position in the XML, the element found, the JSON problem.
                    let clear = switch error {
                    case .empty:
                        String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines.union(["\u{FEFF}"])).isEmpty
                    case .notAFeed(let found):
                        !found.isEmpty
                    case .malformedXML(let diagnostic):
                        !diagnostic.message.isEmpty
                            && (diagnostic.line > 0 || error.description.hasPrefix("cannot read the document's text encoding"))
                    case .malformedJSON(let detail):
                        !detail.isEmpty
                    case .overLimit:
                        true
                    }
                    if !clear { unclear.append("\(file.lastPathComponent): \(error)") }
                    rejected[file.path] = error.description
                }
            }
            return (parsed, rejected, unclear)
        }
        #expect(unclear.isEmpty, "errors without a position or a reason:\n\(unclear.joined(separator: "\n"))")
        let wellformedRejected = rejected.keys.filter { $0.contains("/wellformed/") }
        // Only CDF documents (Microsoft's Channel Definition Format) are not feeds newsgen reads.
        #expect(wellformedRejected.allSatisfy { $0.contains("cdf") },
                "rejected well-formed feeds: \(wellformedRejected.sorted().prefix(10))")
        #expect(parsed > 1900, "parsed \(parsed) of \(Self.files.count)")
    }

    @Test("first entry's title and link agree with feedparser's Expect lines")
    func parity() async throws {
        let (checked, mismatches) = try await TestSupport.onOwnThread { () throws -> (Int, [String]) in
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
        return (checked, mismatches)
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(checked >= 40)
    }

    /// The value of a Python string literal's body: `\u03b6`, `\xe9`, `\'` and `\\` decoded.
    static func pythonString(_ literal: String) -> String {
        var result = ""
        var rest = Substring(literal)
        while let backslash = rest.firstIndex(of: "\\") {
            result += rest[..<backslash]
            rest = rest[rest.index(after: backslash)...]
            guard let kind = rest.first else { break }
            let width = kind == "u" ? 4 : kind == "U" ? 8 : kind == "x" ? 2 : 0
            if width > 0, let value = UInt32(rest.dropFirst().prefix(width), radix: 16), let scalar = Unicode.Scalar(value) {
                result.unicodeScalars.append(scalar)
                rest = rest.dropFirst(width + 1)
            } else {
                result.append(kind)
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    /// Feeds that are not well-formed but become so once repaired: every title and link that
    /// feedparser's Expect line gives for any entry is what newsgen reads, character for character.
    @Test("feeds well-formed after repair keep their titles and links exactly")
    func repairedParity() async throws {
        let (checked, repaired, recovered, mismatches) = try await TestSupport.onOwnThread { () throws -> (Int, Int, Int, [String]) in
        let pattern = /(?:entries\[(\d+)\]|feed)\['(title|link)'\] == u?'((?:[^'\\]|\\.)*)'/
        var checked = 0
        var repaired = 0
        var recovered = 0
        var mismatches: [String] = []
        for file in Self.files where file.pathExtension == "xml" && !file.path.contains("cdf") && !file.lastPathComponent.hasPrefix("http_") {
            let data = try Data(contentsOf: file)
            guard let feed = try? FeedParser.parse(data, url: file.lastPathComponent), !feed.repairs.isEmpty else { continue }
            repaired += 1
            guard !feed.repairs.contains(where: { if case .recovered = $0 { true } else { false } }) else {
                recovered += 1
                continue
            }
            let text = String(decoding: data, as: UTF8.self)
            guard let expectLine = text.split(separator: "\n").first(where: { $0.contains("Expect:") }), !text.contains("Header:") else { continue }
            for match in expectLine.matches(of: pattern) {
                let (_, index, field, expected) = match.output
                let actual: String?
                if let index, let position = Int(index) {
                    guard position < feed.items.count else { mismatches.append("\(file.lastPathComponent): no entry \(position)"); continue }
                    var one = feed
                    one.items = [feed.items[position]]
                    let article = one.articles(sourceID: "corpus", base: nil, limit: 1).first
                    actual = field == "title" ? article?.title : article?.url
                } else {
                    actual = field == "title" ? feed.title : feed.homepage
                }
                // HTML in an expected title is compared as the text a reader sees.
                let literal = Self.pythonString(String(expected))
                let wanted = field == "title" ? HTMLText.plainText(fromHTML: literal) : literal
                if actual != wanted { mismatches.append("\(file.lastPathComponent): \(field) \(actual ?? "none") ≠ \(wanted)") }
                checked += 1
            }
        }
        return (checked, repaired, recovered, mismatches)
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(checked >= 10, "checked \(checked) titles and links in \(repaired) repaired feeds")
        print("repaired feeds: \(repaired), of which still recovered: \(recovered); titles and links checked: \(checked)")
    }
}
