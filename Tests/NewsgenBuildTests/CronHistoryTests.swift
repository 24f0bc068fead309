import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenRender
@testable import NewsgenBuild
import NewsgenXML
import NewsgenTestSupport

/// Cron runs played at random on two copies of one site that read the same inputs: one built as
/// a cron run builds it (carrying over what did not change, staged in the previous site), the
/// other with `--full` every time. After every run the two outputs must be the same, byte for
/// byte, whatever the run changed: stories new, syndicated (one story, by its URL, in two feeds,
/// under headlines of their own), edited, moved to another day, retagged (a feed respelling a tag
/// too, which renames it on every page once most stories spell it so), dropped by their feed and
/// later expired from the cache, a feed renamed, broken (its source served from the cache, with a
/// notice) and mended, unfollowed and followed again, the saved lists edited, the site retitled, or
/// nothing at all.
@Suite("Cron histories")
struct CronHistoryTests {
    typealias Generator = SeededGenerator

    struct Story {
        var number: Int
        var title: String
        var summary: String
        var published: Date
        var tags: [String]
        var url: String { "https://example.com/story/\(number)" }
    }

    enum Format: CaseIterable {
        case rss, atom, json
    }

    struct Feed {
        var id: String
        var name: String
        var format: Format
        /// Newest first, as feeds list them.
        var stories: [Story]
        /// Whether the feed's file holds something no parser takes for a feed.
        var broken = false
        /// Whether site.json lists the feed.
        var followed = true
        var file: String {
            switch format {
            case .rss: "\(id).xml"
            case .atom: "\(id).atom"
            case .json: "\(id).json"
            }
        }
    }

    /// What a run changes.
    enum Change: CaseIterable {
        case newStory, syndicate, retitle, resummarize, redate, retag, respell, drop, renameFeed, breakOrMendFeed, unfollowOrFollow, save,
             unsave, retitleSite, daysPass, nothing
    }

    /// The inputs both copies read: the feeds, the saved lists, the site's title and the clock.
    struct World {
        var folder: URL
        var feeds: [Feed]
        var favorites: [String] = []
        var readLater: [String] = []
        var title = "Cron history"
        var now = TestSupport.date("2026-11-21T12:00:00Z")
        var stories = 0
        /// Feeds written since the last run (a feed not written keeps its file, and is not read again).
        var changedFeeds: Set<String> = []
        /// How many stories of each feed the site takes (site.json's `articlesPerSource`); `nil` for its default.
        var articlesPerSource: Int?

        static let words = ["Harbour", "cranes", "return", "rates & rivers", "talks", "resume", "comet", "seen", "at", "dawn",
                            "a", "new", "map", "of", "the", "deep", "sea", "floor", "élection", "«results»", "<tag>", "old", "port"]
        static let tags = ["Politics", "Science", "Sea", "Weather", "Space", "Économie"]

        init(folder: URL, storiesPerFeed: ClosedRange<Int> = 4...8, using generator: inout Generator) {
            self.folder = folder
            feeds = zip(["world", "science", "tech"], Format.allCases).map { id, format in
                Feed(id: id, name: "\(id.capitalized) Desk", format: format, stories: [])
            }
            for index in feeds.indices {
                for _ in 0..<Int.random(in: storiesPerFeed, using: &generator) {
                    let story = makeStory(hoursBack: Double(Int.random(in: 1...72, using: &generator)), using: &generator)
                    feeds[index].stories.append(story)
                }
                feeds[index].stories.sort { $0.published > $1.published }
            }
            changedFeeds = Set(feeds.map(\.id))
            favorites = [feeds[0].stories[0].url, "https://example.com/not-in-any-feed"]
            readLater = [feeds[1].stories[0].url]
        }

        mutating func makeStory(hoursBack: Double, using generator: inout Generator) -> Story {
            stories += 1
            return Story(number: stories, title: Self.phrase(using: &generator), summary: Self.phrase(using: &generator),
                         published: now.addingTimeInterval(-hoursBack * 3600 - Double(stories)),
                         tags: Array(Self.tags.shuffled(using: &generator).prefix(Int.random(in: 0...2, using: &generator))))
        }

        static func phrase(using generator: inout Generator) -> String {
            (0..<Int.random(in: 2...6, using: &generator)).map { _ in words.randomElement(using: &generator) ?? "news" }.joined(separator: " ")
        }

        /// A random story's place, when any feed has one.
        func anyStory(using generator: inout Generator) -> (feed: Int, story: Int)? {
            let places = feeds.indices.flatMap { feed in feeds[feed].stories.indices.map { (feed, $0) } }
            return places.randomElement(using: &generator)
        }

        /// Applies `change`; what it did, in words, for a failure's message.
        mutating func apply(_ change: Change, using generator: inout Generator) -> String {
            switch change {
            case .newStory:
                let feed = Int.random(in: 0..<feeds.count, using: &generator)
                let story = makeStory(hoursBack: Double(Int.random(in: 0...3, using: &generator)) / 4, using: &generator)
                feeds[feed].stories.append(story)
                feeds[feed].stories.sort { $0.published > $1.published }
                changedFeeds.insert(feeds[feed].id)
                return "story \(story.number) new in \(feeds[feed].id)"
            case .syndicate:
                // The same story (its URL) in another feed, under a headline of its own now and then:
                // one copy is shown, the other deduplicated.
                guard let (feed, place) = anyStory(using: &generator) else { return "no story to syndicate" }
                var copy = feeds[feed].stories[place]
                guard let other = feeds.indices.filter({ other in other != feed && !feeds[other].stories.contains { $0.number == copy.number } })
                    .randomElement(using: &generator)
                else { return "story \(copy.number) already in every feed" }
                if Bool.random(using: &generator) { copy.title = Self.phrase(using: &generator) }
                feeds[other].stories.append(copy)
                feeds[other].stories.sort { $0.published > $1.published }
                changedFeeds.insert(feeds[other].id)
                return "story \(copy.number) of \(feeds[feed].id) syndicated in \(feeds[other].id)"
            case .retitle, .resummarize, .redate, .retag, .drop:
                guard let (feed, place) = anyStory(using: &generator) else { return "no story to change" }
                let number = feeds[feed].stories[place].number
                changedFeeds.insert(feeds[feed].id)
                switch change {
                case .retitle: feeds[feed].stories[place].title = Self.phrase(using: &generator)
                case .resummarize: feeds[feed].stories[place].summary = Self.phrase(using: &generator)
                case .redate:
                    feeds[feed].stories[place].published.addTimeInterval(Double(Int.random(in: -48...(-1), using: &generator)) * 3600)
                    feeds[feed].stories.sort { $0.published > $1.published }
                case .retag: feeds[feed].stories[place].tags = Array(Self.tags.shuffled(using: &generator).prefix(Int.random(in: 0...3, using: &generator)))
                default: feeds[feed].stories.remove(at: place)
                }
                return "story \(number) of \(feeds[feed].id): \(change)"
            case .respell:
                // A feed starts spelling a tag its own way, which folds to the same tag: once most
                // stories spell it so, that spelling names the tag on every page, other feeds' too.
                let tagged = feeds.indices.flatMap { feed in feeds[feed].stories.flatMap { story in story.tags.map { (feed, $0) } } }
                guard let (feed, tag) = tagged.randomElement(using: &generator) else { return "no tag to respell" }
                let respelled = Bool.random(using: &generator) ? tag.lowercased() : tag.uppercased()
                for story in feeds[feed].stories.indices {
                    feeds[feed].stories[story].tags = feeds[feed].stories[story].tags.map { $0 == tag ? respelled : $0 }
                }
                changedFeeds.insert(feeds[feed].id)
                return "\(feeds[feed].id) spells \(tag) \(respelled)"
            case .renameFeed:
                let feed = Int.random(in: 0..<feeds.count, using: &generator)
                feeds[feed].name = Self.phrase(using: &generator)
                changedFeeds.insert(feeds[feed].id)
                return "\(feeds[feed].id) renamed"
            case .breakOrMendFeed:
                let feed = Int.random(in: 0..<feeds.count, using: &generator)
                feeds[feed].broken.toggle()
                changedFeeds.insert(feeds[feed].id)
                return "\(feeds[feed].id) \(feeds[feed].broken ? "broken" : "mended")"
            case .unfollowOrFollow:
                // One feed at least stays followed.
                let feed = Int.random(in: 0..<feeds.count, using: &generator)
                guard !feeds[feed].followed || feeds.filter(\.followed).count > 1 else { return "\(feeds[feed].id) kept, the last followed" }
                feeds[feed].followed.toggle()
                return "\(feeds[feed].id) \(feeds[feed].followed ? "followed again" : "unfollowed")"
            case .save, .unsave:
                guard let (feed, place) = anyStory(using: &generator) else { return "no story to save" }
                let url = feeds[feed].stories[place].url
                if change == .save {
                    if Bool.random(using: &generator) { favorites.append(url) } else { readLater.append(url) }
                    return "story \(feeds[feed].stories[place].number) saved"
                }
                favorites.removeAll { $0 == url }
                readLater.removeAll { $0 == url }
                if !favorites.isEmpty { favorites.removeFirst() }
                return "saved entries removed"
            case .retitleSite:
                title = Self.phrase(using: &generator)
                return "site retitled"
            case .daysPass:
                let days = Int.random(in: 1...3, using: &generator)
                now.addTimeInterval(Double(days) * 86_400)
                return "\(days) days passed"
            case .nothing:
                return "nothing"
            }
        }

        /// Writes the feeds changed since the last run, and the saved lists.
        mutating func write() throws {
            for feed in feeds where changedFeeds.contains(feed.id) {
                try Self.text(of: feed).write(to: folder.appendingPathComponent(feed.file), atomically: true, encoding: .utf8)
            }
            changedFeeds = []
            func entries(_ urls: [String]) -> String {
                urls.map { #"{"url": "\#($0)", "title": "Saved \#($0.split(separator: "/").last ?? "")"}"# }.joined(separator: ", ")
            }
            try #"{"favorites": [\#(entries(favorites))], "readLater": [\#(entries(readLater))]}"#
                .write(to: folder.appendingPathComponent("saved.json"), atomically: true, encoding: .utf8)
        }

        static func text(of feed: Feed) throws -> String {
            if feed.broken { return "Service unavailable: \(feed.id) is down for maintenance.\n" }
            let home = "https://example.com/\(feed.id)"
            switch feed.format {
            case .rss:
                let items = feed.stories.map { story in
                    "<item><title>\(escape(story.title))</title><link>\(story.url)</link><guid>\(story.url)</guid>"
                        + "<description>\(escape(story.summary))</description><pubDate>\(Dates.rfc822(story.published))</pubDate>"
                        + story.tags.map { "<category>\(escape($0))</category>" }.joined() + "</item>"
                }
                return #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>"#
                    + "<title>\(escape(feed.name))</title><link>\(home)</link><description>\(escape(feed.name))</description>\n"
                    + items.joined(separator: "\n") + "\n</channel></rss>\n"
            case .atom:
                let updated = feed.stories.first.map { Dates.rfc3339($0.published) } ?? "2026-11-01T00:00:00Z"
                let entries = feed.stories.map { story in
                    "<entry><title>\(escape(story.title))</title><id>\(story.url)</id><link href=\"\(story.url)\"/>"
                        + "<published>\(Dates.rfc3339(story.published))</published><updated>\(Dates.rfc3339(story.published))</updated>"
                        + "<summary>\(escape(story.summary))</summary>"
                        + story.tags.map { "<category term=\"\(escape($0))\"/>" }.joined() + "</entry>"
                }
                return #"<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">"#
                    + "<title>\(escape(feed.name))</title><id>\(home)</id><link href=\"\(home)\"/><updated>\(updated)</updated>\n"
                    + entries.joined(separator: "\n") + "\n</feed>\n"
            case .json:
                let items: [[String: Any]] = feed.stories.map { story in
                    ["id": story.url, "url": story.url, "title": story.title, "summary": story.summary, "content_text": story.summary,
                     "date_published": Dates.rfc3339(story.published), "tags": story.tags]
                }
                let object: [String: Any] = ["version": "https://jsonfeed.org/version/1.1", "title": feed.name, "home_page_url": home, "items": items]
                return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            }
        }

        static func escape(_ text: String) -> String {
            XMLWriter.escape(text, quotes: true)
        }
    }

    /// One copy of the site: its own site.json, cache, manifest and output, the world's feeds and saved lists.
    struct Copy {
        var folder: URL
        var output: URL { folder.appendingPathComponent("public") }

        /// The copy's site.json for the world as it is now.
        func config(_ world: World) throws -> SiteConfig {
            // Two of the three sources share a section (tech is filed under Science).
            let sources = world.feeds.filter(\.followed).map { feed in
                #"{"id": "\#(feed.id)", "feed": "\#(world.folder.appendingPathComponent(feed.file).path)", "category": "\#(feed.id == "tech" ? "Science" : feed.id.capitalized)"}"#
            }
            let limit = world.articlesPerSource.map { #""articlesPerSource": \#($0), "# } ?? ""
            let json = """
                {"title": "\(world.title)", "baseURL": "https://news.example.org/", "keepDays": 2, \(limit)
                 "cache": "\(folder.appendingPathComponent("cache/site.sqlite").path)",
                 "saved": "\(world.folder.appendingPathComponent("saved.json").path)",
                 "sources": [\(sources.joined(separator: ", "))]}
                """
            var config = try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
            config.output = output
            return config
        }

        func build(_ world: World, full: Bool) async throws -> BuildReport {
            let config = try config(world)
            let logger = TestSupport.recordingLogger().0
            let store = try SQLiteStore.open(at: config.cache, logger: logger, now: world.now, digester: Fingerprint.articleDigester)
            defer { store.close() }
            // The feeds' files count as settled: a feed not written since the last run is not read again.
            let clock: @Sendable () -> Date = { Date().addingTimeInterval(3600) }
            let now = world.now
            let build = Build(
                config: config, options: .init(refresh: true, full: full),
                providers: [FeedProvider(http: nil, articlesPerSource: config.articlesPerSource, retry: .none, now: clock)],
                store: store, manifest: Manifest.location(cache: config.cache), now: { now }, logger: logger
            )
            return try await build.run()
        }
    }

    @Test("after every cron run, whatever it changed, the site built as cron builds it is byte for byte the site --full builds",
          arguments: Array(1...10) as [UInt64])
    func historiesAgree(seed: UInt64) async throws {
        var generator = Generator(state: seed)
        var world = World(folder: try TestSupport.temporaryFolder(), using: &generator)
        let incremental = Copy(folder: try TestSupport.temporaryFolder())
        let full = Copy(folder: try TestSupport.temporaryFolder())
        for run in 0..<14 {
            let changes = run == 0 ? [Change.nothing] : (0..<Int.random(in: 1...2, using: &generator)).map { _ in
                Change.allCases.randomElement(using: &generator) ?? .nothing
            }
            let done = changes.map { world.apply($0, using: &generator) }
            // A cron run every quarter of an hour.
            world.now.addTimeInterval(900)
            try world.write()
            let before = run == 0 ? nil : try IncrementalTests.Snapshot(incremental.output)
            let report = try await incremental.build(world, full: false)
            _ = try await full.build(world, full: true)
            let after = try IncrementalTests.Snapshot(incremental.output)
            let reference = try IncrementalTests.Snapshot(full.output)
            let differing = after.changed(in: reference).sorted()
            #expect(differing.isEmpty, "seed \(seed), run \(run) (\(done.joined(separator: "; "))): \(differing.prefix(8)) differ from the full build")
            if !differing.isEmpty { return }
            #expect(reference.bytes.count > 20, "the site has its pages")
            if run > 0 && changes.allSatisfy({ $0 == .nothing }) {
                #expect(report.filesWritten == 0, "seed \(seed), run \(run): nothing changed, nothing written")
            }
            // What rsync, an upload or an HTTP cache sees: a file with the bytes it had keeps its inode and time.
            if let before {
                let touched = after.bytes.keys.filter { after.bytes[$0] == before.bytes[$0] && after.files[$0] != before.files[$0] }.sorted()
                #expect(touched.isEmpty, "seed \(seed), run \(run) (\(done.joined(separator: "; "))): \(touched.prefix(8)) kept their bytes, not their inode and time")
            }
        }
    }
}
