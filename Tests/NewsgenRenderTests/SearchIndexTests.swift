import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenRender
import NewsgenTestSupport

/// The search index's files (`SearchIndex`, version 4) as the search page reads them: which words find a story, with
/// what weight, where each file lies, and which files a story arriving or leaving rewrites.
@Suite("Search index")
struct SearchIndexTests {
    static let start = TestSupport.date("2026-11-21T18:00:00Z")

    let folder: URL

    init() throws {
        folder = try TestSupport.temporaryFolder()
    }

    func config() throws -> SiteConfig {
        let json = """
            {"baseURL": "https://news.example.org/", "keepDays": 3650, "sources": [
             {"id": "wire", "name": "Meridian Wire", "category": "World", "feed": "https://wire.example/feed"},
             {"id": "other", "category": "Sport", "feed": "https://other.example/feed"}]}
            """
        return try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
    }

    /// A story of `source`, `minutes` before the start.
    static func story(_ number: Int, _ source: String, _ title: String, minutes: Int? = nil, summary: String = "",
                      tags: [String] = [], content: String? = nil) -> Article {
        Article(id: "https://\(source).example/\(number)", sourceID: source, title: title, summary: summary,
                url: "https://\(source).example/\(number)",
                published: start.addingTimeInterval(Double(-(minutes ?? number) * 60)), categories: tags, content: content)
    }

    /// The index's files for `stories`, as a build writes them.
    func index(_ stories: [Article]) throws -> [String: Data] {
        try indexed(stories).files
    }

    /// The same, continuing the numbering of `published`, with the numbering the files give.
    func indexed(_ stories: [Article], continuing published: SearchNumbering = .none) throws -> (files: [String: Data], numbering: SearchNumbering) {
        let model = try model(stories, continuing: published)
        let files = model.searchIndexWriter().files()
        #expect(Set(files.keys) == Set(SearchIndex.paths(numbers: model.searchNumbers)), "the paths planned are the files made")
        return (files, model.searchNumbering)
    }

    /// The site's model as a build makes it, every source listing its stories.
    func model(_ stories: [Article], continuing published: SearchNumbering = .none) throws -> SiteModelBuilder {
        let config = try config()
        let reports = config.sources.map { source in
            SourceReport(config: source, status: .fetched, name: source.name ?? source.id.capitalized,
                         articles: stories.filter { $0.sourceID == source.id })
        }
        return SiteModelBuilder(content: SiteContent(config: config, sources: reports, favorites: [], readLater: [],
                                                     archive: stories, generated: Self.start, searchNumbering: published))
    }

    static func object(_ files: [String: Data], _ path: String) throws -> [String: Any] {
        let data = try #require(files[path], "no \(path)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// What the browser reads for `term`: every story number with its weight, from its chunk and the delta.
    static func lookup(_ term: String, in files: [String: Data]) throws -> [Int: Int] {
        let manifest = try object(files, SearchIndex.manifestPath)
        let chunks = try #require(manifest["chunks"] as? Int)
        let chunk = try object(files, SearchIndex.chunkPath(SearchIndex.chunk(of: term, count: chunks)))
        let delta = try object(files, SearchIndex.deltaPath)
        var found: [Int: Int] = [:]
        for (number, weight) in SearchPostings.decode(chunk[term] as? String ?? "", origin: 0) { found[number] = weight }
        let deltaTerms = try #require(delta["terms"] as? [String: String])
        for (number, weight) in SearchPostings.decode(deltaTerms[term] ?? "", origin: delta["first"] as? Int ?? -1) {
            found[number] = weight
        }
        return found
    }

    /// Story `number`'s record: `[title, link, source, day, snippet]`.
    static func record(_ number: Int, in files: [String: Data]) throws -> [Any] {
        let data = try #require(files[SearchIndex.shardPath(number / SearchIndex.recordsPerShard)])
        let shard = try #require(try JSONSerialization.jsonObject(with: data) as? [Any])
        return try #require(shard[number % SearchIndex.recordsPerShard] as? [Any], "story \(number) is a hole")
    }

    @Test("words are folded (case, diacritics, final sigma, compatibility forms) and split at anything not a letter or number; one-letter words are left out")
    func folding() {
        #expect(SearchText.fold("Théâtre CAFÉ") == "theatre cafe")
        #expect(SearchText.fold("İstanbul") == "istanbul")
        #expect(SearchText.fold("ΟΔΟΣ") == "οδοσ")
        #expect(SearchText.fold("ﬁnance ①") == "finance 1")
        #expect(SearchText.words("Don't panic: Harbour-side 2026, a B2B café!") == ["don", "panic", "harbour", "side", "2026", "b2b", "cafe"])
        #expect(SearchText.words("東京 tower") == ["東京", "tower"])
        #expect(SearchText.words("a I") == [])
    }

    @Test("postings read back as written: rising story numbers with gaps of any size, weights clamped to 1…63")
    func postings() {
        var generator = SeededGenerator(state: 58)
        for origin in [0, 32, 4_096] {
            var number = origin
            var stories: [(number: Int, weight: Int)] = []
            for _ in 0..<500 {
                number += 1 + Int(generator.next() % (generator.next() % 2 == 0 ? 3 : 70_000))
                stories.append((number, 1 + Int(generator.next() % 63)))
            }
            stories[0].number = origin
            var bytes: [UInt8] = []
            SearchPostings.encode(stories.map { SearchPostings.packed($0.number, $0.weight) }, origin: origin, into: &bytes)
            let decoded = SearchPostings.decode(String(decoding: bytes, as: UTF8.self), origin: origin)
            #expect(decoded.map(\.number) == stories.map(\.number))
            #expect(decoded.map(\.weight) == stories.map(\.weight))
        }
        var bytes: [UInt8] = []
        SearchPostings.encode([SearchPostings.packed(0, 0), SearchPostings.packed(1, 200)], origin: 0, into: &bytes)
        #expect(SearchPostings.decode(String(decoding: bytes, as: UTF8.self), origin: 0).map(\.weight) == [1, 63])
    }

    @Test("a word in the title weighs more than in a tag, a tag more than the summary, and the summary more than deep in the full text")
    func weights() throws {
        let body = "<p>" + String(repeating: "Filler words of a long article. ", count: 120) + "harbour</p>"
        let files = try index([
            Self.story(1, "wire", "Harbour reopens"),
            Self.story(2, "wire", "Port news", tags: ["Harbour"]),
            Self.story(3, "wire", "Port news", summary: "The harbour reopened after the storm and the strike were over."),
            Self.story(4, "wire", "Port news", content: body),
            Self.story(5, "wire", "Port news"),
        ])
        let found = try Self.lookup("harbour", in: files)
        // Story 1 (one minute old) is the newest: number 4.
        #expect(Set(found.keys) == [4, 3, 2, 1], "the full text is searched too: \(found)")
        #expect(found[4, default: 0] > found[3, default: 0] && found[3, default: 0] > found[2, default: 0]
                && found[2, default: 0] > found[1, default: 0], "\(found)")
        #expect(try Self.lookup("meridian", in: files).count == 5, "the source's name finds its stories")
        #expect(try Self.lookup("world", in: files).count == 5, "the section's name finds its stories")
    }

    @Test("the manifest names the sources, sections and days; records hold title, page, source, day and snippet; filters list their stories")
    func layout() throws {
        let long = String(repeating: "word ", count: 60) + "end"
        let stories = [
            Self.story(1, "wire", "Harbour reopens", minutes: 60, summary: long),
            Self.story(2, "other", "Cup final", minutes: 60 * 30),
            Article(id: "undated", sourceID: "wire", title: "Undated \"story\"", url: "https://wire.example/a?b=\"c\""),
        ]
        let files = try index(stories)
        #expect(Set(files.keys) == Set(SearchIndex.paths(numbers: [0, 1, 2])))
        let manifest = try Self.object(files, SearchIndex.manifestPath)
        #expect(manifest["version"] as? Int == 4)
        #expect(try Self.object(files, SearchIndex.deltaPath)["stories"] as? Int == 3)
        #expect(manifest["base"] as? Int == 0 && manifest["chunks"] as? Int == 16 && manifest["shard"] as? Int == SearchIndex.recordsPerShard)
        #expect(manifest["sources"] as? [[String]] == [["wire", "Meridian Wire"], ["other", "Other"]])
        #expect(manifest["categories"] as? [[String]] == [["world", "World"], ["sport", "Sport"]])
        let days = try #require(manifest["days"] as? [[Any]])
        #expect(days.map { $0[0] as? String } == ["", "2026-11-20", "2026-11-21"], "undated first (oldest), then by day")
        #expect(days.map { $0[1] as? Int } == [0, 1, 2])

        let newest = try Self.record(2, in: files)
        #expect(newest[0] as? String == "Harbour reopens")
        let link = try #require(newest[1] as? String)
        #expect(link.hasPrefix("harbour-reopens-"), "a story with a page is found by its slug: \(link)")
        #expect(newest[2] as? Int == 0 && newest[3] as? String == "2026-11-21")
        let snippet = try #require(newest[4] as? String)
        #expect(snippet.count <= SiteRenderer.searchSnippetLimit + 1 && snippet.hasSuffix("word…"), "\(snippet)")
        #expect(try Self.record(0, in: files)[0] as? String == "Undated \"story\"")

        #expect(Set(try Self.lookup("~s:wire", in: files).keys) == [0, 2])
        #expect(Set(try Self.lookup("~c:sport", in: files).keys) == [1])
    }

    /// A corpus of `count` stories of random titles, one a minute, newest first.
    static func corpus(_ count: Int, seed: UInt64) -> [Article] {
        var generator = SeededGenerator(state: seed)
        let words = ["harbour", "talks", "resume", "cup", "final", "late", "winner", "markets", "rally", "storm", "warning",
                     "Café", "Zürich", "ΘΕΑΤΡΟ", "東京", "budget", "vote", "bridge", "rail", "drought", "2026", "élan", "naïve"]
        func text(_ length: Int) -> String {
            (0..<length).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ")
        }
        return (0..<count).map { number in
            story(number, number % 3 == 0 ? "other" : "wire", text(1 + Int(generator.next() % 9)),
                  summary: number % 4 == 0 ? "" : text(Int(generator.next() % 40)),
                  tags: (0..<Int(generator.next() % 3)).map { _ in text(1) })
        }
    }

    @Test("every story of a generated corpus is found by each word of its title, in the chunks or the delta", arguments: [40, 333])
    func everyTitleWord(count: Int) throws {
        let stories = Self.corpus(count, seed: UInt64(count))
        let files = try index(stories)
        for (place, story) in stories.enumerated() {
            let number = count - 1 - place
            #expect(try Self.record(number, in: files)[0] as? String == story.title)
            for word in SearchText.words(story.title) {
                #expect(try Self.lookup(word, in: files)[number] != nil, "\(story.title): \(word) does not find story \(number)")
            }
        }
    }

    @Test("a new story rewrites the delta and the last record shard (and the manifest on a new day); the same stories write the same bytes")
    func newStory() throws {
        var stories = Self.corpus(300, seed: 3)
        let (before, numbering) = try indexed(stories)
        #expect(try indexed(stories, continuing: numbering).files == before, "the same stories, the same bytes")
        stories.insert(Self.story(1_000, "wire", "Harbour strike ends", minutes: -5), at: 0)
        let after = try indexed(stories, continuing: numbering).files
        let changed = Set(after.keys.filter { before[$0] != after[$0] })
        #expect(changed == [SearchIndex.deltaPath, SearchIndex.shardPath(300 / SearchIndex.recordsPerShard)], "\(changed.sorted())")
        #expect(try Self.lookup("strike", in: after)[300] != nil)

        // Past the delta's bound, it is merged into the chunks: the one build in `deltaBound` that rewrites more.
        let merged = Self.corpus(SearchIndex.deltaBound * 10 - 1, seed: 4)
        let full = try index([Self.story(2_000, "wire", "Harbour strike ends", minutes: -5)] + merged)
        let mergedFiles = try index(merged)
        let manifest = try Self.object(full, SearchIndex.manifestPath)
        #expect(manifest["base"] as? Int == SearchIndex.deltaBound * 10)
        #expect(try Self.lookup("strike", in: full)[SearchIndex.deltaBound * 10 - 1] != nil)
        #expect(full.keys.filter { mergedFiles[$0] != full[$0] }.count > 3)
    }

    /// The chunks that hold the words and filters of the story numbered `number` in `model`'s index, whose files are `files`.
    static func chunks(of number: Int, in files: [String: Data], model: SiteModelBuilder) throws -> Set<String> {
        let chunkCount = try #require(try object(files, SearchIndex.manifestPath)["chunks"] as? Int)
        let writer = model.searchIndexWriter()
        let index = try #require(writer.numbers.firstIndex(of: number))
        return Set(SearchWeights.weights(of: writer.story(index)).keys.map { SearchIndex.chunkPath(SearchIndex.chunk(of: $0, count: chunkCount)) })
    }

    @Test("a story leaving the archive rewrites its record shard, the chunks of its words and the manifest; every other story keeps its number")
    func storyLeaving() throws {
        let stories = Self.corpus(400, seed: 7)
        let (before, numbering) = try indexed(stories)
        // The oldest story leaves (keepDays), and one from the middle (its source's list and the cache let it go).
        let leaving = [stories.count - 1, 150]
        let kept = stories.indices.filter { !leaving.contains($0) }.map { stories[$0] }
        let (after, continued) = try indexed(kept, continuing: numbering)

        let changed = Set(before.keys.filter { before[$0] != after[$0] }).union(Set(after.keys).subtracting(before.keys))
        let shards = Set(leaving.map { SearchIndex.shardPath((stories.count - 1 - $0) / SearchIndex.recordsPerShard) })
        let model = try model(stories)
        let chunks = try leaving.reduce(into: Set<String>()) {
            $0.formUnion(try Self.chunks(of: stories.count - 1 - $1, in: before, model: model))
        }
        #expect(changed.isSubset(of: shards.union(chunks).union([SearchIndex.manifestPath, SearchIndex.deltaPath])),
                "\(changed.subtracting(shards.union(chunks)).sorted())")
        #expect(shards.isSubset(of: changed))
        #expect(changed.count < before.count / 2, "\(changed.count) of \(before.count) files")
        for (place, story) in stories.enumerated() where !leaving.contains(place) {
            let number = stories.count - 1 - place
            #expect(continued.numbers[SearchNumbering.key(of: story.id)] == number)
            #expect(try Self.record(number, in: after)[0] as? String == story.title)
        }
        let firstShard = try #require(after[SearchIndex.shardPath(0)])
        let hole = try #require(try JSONSerialization.jsonObject(with: firstShard) as? [Any])
        #expect(hole.first is NSNull, "a hole's record is null")
        #expect(try Self.object(after, SearchIndex.deltaPath)["stories"] as? Int == kept.count)
        let days = try #require(try Self.object(after, SearchIndex.manifestPath)["days"] as? [[Any]])
        #expect(days.first?[0] as? String == "" && days.first?[1] as? Int == 0, "a hole is in no date range: \(days.prefix(3))")
    }

    @Test("a site whose stories come and go over many builds: each build rewrites the record shards of those alone, every story is found at its number, and the archive is renumbered once holes outnumber its stories")
    func steadySite() throws {
        var generator = SeededGenerator(state: 61)
        let corpus = Self.corpus(1_500, seed: 11)
        // The archive is a window of the corpus (newest first) that moves as stories arrive and expire.
        var newest = 1_200, count = 200
        var (files, numbering) = try indexed(Array(corpus[newest..<(newest + count)]))
        var renumbered = 0
        for _ in 0..<120 {
            let arriving = Int(generator.next() % 6), leaving = Int(generator.next() % 6)
            newest -= arriving
            count += arriving - leaving
            let stories = Array(corpus[newest..<(newest + count)])
            let (next, continued) = try indexed(stories, continuing: numbering)
            let highest = continued.numbers.values.max() ?? 0
            if highest < (numbering.numbers.values.max() ?? 0) {
                renumbered += 1
                #expect(highest == stories.count - 1, "renumbered without holes")
            } else {
                for story in stories {
                    let key = SearchNumbering.key(of: story.id)
                    if let number = numbering.numbers[key] { #expect(continued.numbers[key] == number, "a story keeps its number") }
                }
                let shards = Set(files.keys).union(next.keys).filter { SearchIndex.shard(ofPath: $0) != nil && files[$0] != next[$0] }
                #expect(shards.count <= arriving + leaving + 1, "\(arriving) in, \(leaving) out: \(shards.sorted())")
            }
            #expect(highest + 1 - stories.count <= stories.count, "holes never outnumber the stories")
            for story in stories {
                let number = try #require(continued.numbers[SearchNumbering.key(of: story.id)])
                #expect(try Self.record(number, in: next)[0] as? String == story.title)
                if let word = SearchText.words(story.title).first {
                    #expect(try Self.lookup(word, in: next)[number] != nil, "\(story.title) is found by \(word)")
                }
            }
            (files, numbering) = (next, continued)
        }
        #expect(renumbered >= 1, "the window moved past its size, so holes came to outnumber the stories")
    }
}
