import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenRender
@testable import NewsgenValidate
@testable import NewsgenBuild
import NewsgenTestSupport
import Logging

/// An incremental build carries over what did not change, and its output is byte for byte what
/// a full build of the same inputs gives.
@Suite("Incremental builds")
struct IncrementalTests {
    static let now = TestSupport.date("2026-11-21T12:00:00Z")

    /// A site of two local feeds in its own folder, with its manifest beside its cache.
    struct Site {
        var folder: URL
        var config: SiteConfig
        var store = MemoryStore()
        var manifest: URL { folder.appendingPathComponent("cache/site.manifest") }
        var output: URL { config.output }

        init(templates: URL? = nil) throws {
            folder = try TestSupport.temporaryFolder()
            try Self.feed(world: "Harbour cranes return to the old port").write(to: folder.appendingPathComponent("world.xml"))
            try Self.feed(name: "Science Desk", prefix: "science", titles: ["Comet seen at dawn", "A new map of the deep sea floor"])
                .write(to: folder.appendingPathComponent("science.xml"))
            let templatesLine = templates.map { "\"templates\": \"\($0.path)\"," } ?? ""
            let json = """
                {"title": "Incremental", "baseURL": "https://news.example.org/", \(templatesLine)
                 "cache": "cache/site.sqlite",
                 "sources": [{"id": "world", "feed": "world.xml", "category": "World"},
                             {"id": "science", "feed": "science.xml", "category": "Science"}]}
                """
            config = try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"))
            config.output = folder.appendingPathComponent("public")
        }

        static func feed(world lead: String, note: String = "") -> Data {
            feed(name: "World Desk", prefix: "world", titles: [lead, "Rivers rise in the north", "Talks resume in Geneva"], note: note)
        }

        /// An RSS feed whose items are a day apart, newest first; `note` ends the last item's description.
        static func feed(name: String, prefix: String, titles: [String], note: String = "") -> Data {
            let items = titles.enumerated().map { index, title in
                """
                <item><title>\(title)</title><link>https://example.com/\(prefix)/\(index)</link>
                <guid>https://example.com/\(prefix)/\(index)</guid><description>About \(title).\(index == titles.count - 1 ? note : "")</description>
                <pubDate>\(20 - index) Nov 2026 09:00:00 GMT</pubDate></item>
                """
            }.joined(separator: "\n")
            return Data("""
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>\(name)</title><link>https://example.com/\(prefix)</link>
                <description>\(name)</description>
                \(items)
                </channel></rss>
                """.utf8)
        }

        /// One build with the site's store and manifest (or none, for a reference build).
        @discardableResult
        /// `settled`: the feed files count as unchanged for long enough that an unchanged one is not read again.
        func build(full: Bool = false, manifest useManifest: Bool = true, store: MemoryStore? = nil, output: URL? = nil,
                   settled: Bool = false, logger: Logger? = nil) async throws -> BuildReport {
            var config = self.config
            if let output { config.output = output }
            let ahead: TimeInterval = settled ? 3600 : 0
            let provider = FeedProvider(http: nil, articlesPerSource: config.articlesPerSource, retry: .none,
                                        now: { Date().addingTimeInterval(ahead) })
            return try await TestBuild.run(config, options: .init(refresh: true, full: full), store: store ?? self.store, providers: [provider],
                                           manifest: useManifest ? manifest : nil, at: IncrementalTests.now,
                                           logger: logger ?? TestSupport.recordingLogger().0)
        }

        /// A build of the same inputs from nothing: a new store, no manifest, a new folder. With `numbering`, its search
        /// index continues that numbering (from a manifest that holds it alone), as the site's next build does.
        func referenceBuild(continuing numbering: SearchNumbering = .none) async throws -> [String: Data] {
            let folder = try TestSupport.temporaryFolder()
            let output = folder.appendingPathComponent("public")
            guard !numbering.numbers.isEmpty else {
                try await build(manifest: false, store: MemoryStore(), output: output)
                return try TestSupport.fileBytes(below: output)
            }
            var record = Manifest(output: output, files: [:])
            record.searchNumbering = numbering
            try record.save(to: folder.appendingPathComponent("reference.manifest"))
            var config = self.config
            config.output = output
            let provider = FeedProvider(http: nil, articlesPerSource: config.articlesPerSource, retry: .none, now: { Date() })
            try await TestBuild.run(config, options: .init(refresh: true), store: MemoryStore(), providers: [provider],
                                    manifest: folder.appendingPathComponent("reference.manifest"), at: IncrementalTests.now,
                                    logger: TestSupport.recordingLogger().0)
            return try TestSupport.fileBytes(below: output)
        }
    }

    /// Every file's bytes, inode and modification time.
    struct Snapshot: Equatable {
        var files: [String: Manifest.OnDisk]
        var bytes: [String: Data]

        init(_ folder: URL) throws {
            bytes = try TestSupport.fileBytes(below: folder)
            var files: [String: Manifest.OnDisk] = [:]
            for path in bytes.keys { files[path] = Manifest.stat(folder.appendingPathComponent(path)) }
            self.files = files
        }

        /// Paths added, removed, or with other bytes in `other`.
        func changed(in other: Snapshot) -> Set<String> {
            Set(bytes.keys).union(other.bytes.keys).filter { bytes[$0] != other.bytes[$0] }
        }
    }

    @Test("a second build with nothing new renders nothing and leaves every file's bytes, inode and time as they were")
    func nothingNew() async throws {
        let site = try Site()
        let first = try await site.build()
        #expect(first.filesCarried == 0, "nothing to carry over the first time")
        let before = try Snapshot(site.output)
        let second = try await site.build()
        #expect(second.filesWritten == 0)
        #expect(second.filesCarried == before.bytes.count - 1, "every file but the marker is carried")
        #expect(try Snapshot(site.output) == before)
    }

    @Test("an edited story changes the pages and feeds that show it, and the result is what a full build gives")
    func editedStory() async throws {
        let site = try Site()
        try await site.build()
        let before = try Snapshot(site.output)
        try Site.feed(world: "Harbour cranes return to the old port, at last").write(to: site.folder.appendingPathComponent("world.xml"))
        let report = try await site.build()
        let after = try Snapshot(site.output)
        let changed = before.changed(in: after)
        #expect(changed.contains("index.html"))
        #expect(changed.contains("feeds/sources/world.rss"))
        #expect(changed.contains { $0.hasPrefix("articles/harbour-cranes-return-to-the-old-port-at-last") })
        #expect(!changed.contains { $0.hasPrefix("articles/comet-seen-at-dawn") }, "another story's page is untouched")
        #expect(!changed.contains("feeds/sources/science.rss"), "another source's feed is untouched")
        #expect(report.filesCarried > 0)
        for path in after.bytes.keys where !changed.contains(path) {
            #expect(after.files[path] == before.files[path], "\(path) kept its inode and time")
        }
        #expect(try await site.referenceBuild() == after.bytes)
    }

    @Test("after builds that carry files, the manifest records each file and folder as it is on disk (carried files are taken from the last record, folders a reused staging folder's record knows too)")
    func manifestMatchesDisk() async throws {
        var site = try Site()
        // Static files: one is removed in a round whose staging folder is pruned from its record,
        // which changes its folder though nothing is rendered there.
        let staticFolder = site.folder.appendingPathComponent("static")
        try FileManager.default.createDirectory(at: staticFolder.appendingPathComponent("images"), withIntermediateDirectories: true)
        for name in ["images/a.txt", "images/b.txt", "c.txt"] {
            try Data(name.utf8).write(to: staticFolder.appendingPathComponent(name))
        }
        site.config.staticFolder = staticFolder
        try await site.build()
        var prunedFromRecord = 0
        // Each lead gives the story another page (its folder is removed, another made), from the
        // third build on in the previous site, staged in place.
        let leads = ["Harbour cranes return to the old port, at last", "Harbour cranes return", "Cranes back in the harbour", "Harbour cranes return",
                     "Cranes at the harbour again"]
        for (round, lead) in leads.enumerated() {
            try Site.feed(world: lead).write(to: site.folder.appendingPathComponent("world.xml"))
            if round == 3 {
                try FileManager.default.removeItem(at: staticFolder.appendingPathComponent("images/b.txt"))
            }
            if round < 2 {
                // A page edited by hand is rendered again with the fingerprint it had: it is recorded as written now.
                // (The site is then not the one recorded, so its record is not kept for the build after.)
                try Data("<p>edited</p>".utf8).write(to: site.output.appendingPathComponent("sources/index.html"))
            }
            let (logger, log) = TestSupport.recordingLogger()
            let report = try await site.build(logger: logger)
            if log.all.contains(where: { $0.contains("pruned from its record") }) { prunedFromRecord += 1 }
            #expect(report.filesCarried > 0, "the test means something only when files are carried")
            let saved = try #require(Manifest.load(from: site.manifest, output: site.output))
            var onDisk = Manifest.recording(saved.files.mapValues(\.fingerprint), output: site.output, input: saved.input)
            onDisk.searchNumbering = saved.searchNumbering
            #expect(saved == onDisk)
            #expect(!saved.searchNumbering.numbers.isEmpty, "the search numbering is recorded")
            // In the order of its paths.
            #expect(try Data(contentsOf: site.manifest) == Data(saved.text.utf8))
            #expect(saved.files.count == (try TestSupport.fileBytes(below: site.output)).count - 1, "every file but the marker")
        }
        #expect(prunedFromRecord >= 2, "the test means something only when staging folders are pruned from their records")
    }

    @Test("a staging folder opened before the swap is recorded as itself, though the swap gives its name to the previous site")
    func recordingFollowsTheOpenFolder() async throws {
        let site = try Site()
        try await site.build()
        let saved = try #require(Manifest.load(from: site.manifest, output: site.output))
        // The published site stands for the staging folder; another site takes its name, as the
        // previous site does in a swap.
        let staged = try #require(OpenFolder(site.output))
        let moved = site.folder.appendingPathComponent("moved")
        try FileManager.default.moveItem(at: site.output, to: moved)
        try FileManager.default.createDirectory(at: site.output, withIntermediateDirectories: false)
        try Data("other".utf8).write(to: site.output.appendingPathComponent("index.html"))

        let recorded = Manifest.recording(saved.files.mapValues(\.fingerprint), output: site.output, examining: staged, input: saved.input)
        #expect(recorded.files == saved.files)
        #expect(recorded.folders == saved.folders)
        let byName = Manifest.recording(saved.files.mapValues(\.fingerprint), output: site.output, input: saved.input)
        #expect(byName.files != saved.files, "the test means something only when the folder now at the name differs")
    }

    @Test("a changed template renders every page again")
    func changedTemplate() async throws {
        let templates = try TestSupport.temporaryFolder().appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent("Templates"), to: templates)
        let site = try Site(templates: templates)
        try await site.build()
        let before = try Snapshot(site.output)
        let layout = templates.appendingPathComponent("layout.mustache")
        let text = try String(contentsOf: layout, encoding: .utf8)
        try text.replacingOccurrences(of: "</footer>", with: "<p>Edited theme.</p></footer>").write(to: layout, atomically: true, encoding: .utf8)
        try await site.build()
        let after = try Snapshot(site.output)
        let pages = after.bytes.keys.filter { $0.hasSuffix(".html") }
        #expect(!pages.isEmpty)
        for page in pages {
            #expect(String(decoding: after.bytes[page] ?? Data(), as: UTF8.self).contains("Edited theme."), "\(page)")
        }
        #expect(try await site.referenceBuild() == after.bytes)
        #expect(before.changed(in: after).isSuperset(of: pages))
    }

    @Test("--full carries nothing over and writes the same bytes")
    func full() async throws {
        let site = try Site()
        try await site.build()
        let before = try Snapshot(site.output)
        let report = try await site.build(full: true)
        #expect(report.filesCarried == 0)
        #expect(try Snapshot(site.output).bytes == before.bytes)
    }

    @Test("a published file changed by hand is rendered again, not carried")
    func editedByHand() async throws {
        let site = try Site()
        try await site.build()
        let before = try Snapshot(site.output)
        let page = site.output.appendingPathComponent("sources/index.html")
        try Data("<p>edited</p>".utf8).write(to: page)
        try await site.build()
        #expect(try Data(contentsOf: page) == before.bytes["sources/index.html"])
    }

    @Test("a manifest older than the published site (a crash before it was saved) only makes more work")
    func staleManifest() async throws {
        let site = try Site()
        try await site.build()
        let older = try Data(contentsOf: site.manifest)
        try Site.feed(world: "Harbour cranes return to the old port, at last").write(to: site.folder.appendingPathComponent("world.xml"))
        try await site.build()
        try older.write(to: site.manifest)
        try await site.build()
        let reference = try await site.referenceBuild()
        #expect(try TestSupport.fileBytes(below: site.output) == reference)
    }

    @Test("a manifest of another output folder is not used")
    func otherOutput() async throws {
        let site = try Site()
        try await site.build()
        let elsewhere = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let report = try await site.build(output: elsewhere)
        #expect(report.filesCarried == 0)
        #expect(Manifest.load(from: site.manifest, output: elsewhere) != nil, "the manifest now describes the folder built last")
    }

    @Test("with nothing removed, validation checks only the new files; the report says how many")
    func validationScope() async throws {
        let site = try Site()
        let (logger, log) = TestSupport.recordingLogger()
        try await site.build()
        // A new summary for the oldest story: no page comes or goes.
        try Site.feed(world: "Harbour cranes return to the old port", note: " Updated.").write(to: site.folder.appendingPathComponent("world.xml"))
        let build = Build(
            config: site.config, options: .init(refresh: true),
            providers: [FeedProvider(http: nil, articlesPerSource: site.config.articlesPerSource, retry: .none)],
            store: site.store, manifest: site.manifest, now: { Self.now }, logger: logger
        )
        let report = try await build.run()
        let total = try TestSupport.fileBytes(below: site.output).count
        let line = try #require(log.all.first { $0.contains("] validate ") })
        let checked = try #require(line.split(separator: " ").dropFirst(2).first.flatMap { Int($0) })
        #expect(checked < total, "\(line)")
        #expect(checked == total - report.filesCarried - 1, "the new and changed files, not the marker")
    }

    /// The names beside the output that a build left: staging folders, previous sites.
    /// Staging folders beside the output (the previous site, kept for the next build, is not one).
    static func leftovers(beside output: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".\(output.lastPathComponent).") && $0 != ".\(output.lastPathComponent).previous" }
    }

    @Test("with nothing new, a build publishes nothing: no staging, no swap, the output folder itself untouched")
    func nothingPublished() async throws {
        let site = try Site()
        try await site.build()
        let before = try Snapshot(site.output)
        let index = try #require(Manifest.stat(site.output.appendingPathComponent("index.html")))
        let outputInode = try #require(try FileManager.default.attributesOfItem(atPath: site.output.path)[.systemFileNumber] as? Int)
        let (logger, log) = TestSupport.recordingLogger()
        let report = try await site.build(logger: logger)
        #expect(report.filesWritten == 0 && report.filesUnchanged == 0)
        #expect(report.filesCarried == before.bytes.count - 1)
        #expect(!report.timings.contains { [.write, .validate, .publish].contains($0.stage) }, "\(report.timings.map(\.stage))")
        #expect(log.all.contains { $0.contains("nothing changed") && $0.contains("0 written, \(report.filesCarried) carried") }, "\(log.all)")
        #expect(try FileManager.default.attributesOfItem(atPath: site.output.path)[.systemFileNumber] as? Int == outputInode, "not swapped")
        #expect(Manifest.stat(site.output.appendingPathComponent("index.html")) == index)
        #expect(try Snapshot(site.output) == before)
        #expect(try Self.leftovers(beside: site.output).isEmpty)
    }

    @Test("a file added to the output by hand makes the build publish, which removes it")
    func strayFile() async throws {
        let site = try Site()
        try await site.build()
        let before = try Snapshot(site.output)
        try Data("stray".utf8).write(to: site.output.appendingPathComponent("articles/stray.txt"))
        let report = try await site.build()
        #expect(report.timings.contains { $0.stage == .publish })
        #expect(try Snapshot(site.output).bytes == before.bytes)
    }

    @Test("a folder, a link or a file added anywhere in the output by hand makes the build publish, which removes it")
    func strayEntries() async throws {
        let site = try Site()
        try await site.build()
        let before = try Snapshot(site.output)
        let strays: [(String, (URL) throws -> Void)] = [
            ("an empty folder in a story's folder", { try FileManager.default.createDirectory(at: $0.appendingPathComponent("sources/stray"), withIntermediateDirectories: false) }),
            ("a link in the output folder", { try FileManager.default.createSymbolicLink(atPath: $0.appendingPathComponent("stray").path, withDestinationPath: "index.html") }),
            ("a file in a folder of a folder", { try Data("stray".utf8).write(to: $0.appendingPathComponent("feeds/sources/stray.xml")) }),
        ]
        for (stray, add) in strays {
            try add(site.output)
            let report = try await site.build()
            #expect(report.timings.contains { $0.stage == .publish }, "\(stray)")
            #expect(try Snapshot(site.output).bytes == before.bytes, "\(stray)")
            #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("stray").path), "\(stray)")
            let again = try await site.build()
            #expect(!again.timings.contains { $0.stage == .publish }, "the output is the site again: \(stray)")
        }
    }

    @Test("a build with new content examines the output's folders only when every file came out as published, and then finds what was added")
    func foldersExaminedLast() async throws {
        let site = try Site()
        try await site.build()
        let publisher = Publisher(output: site.output)
        let manifest = try #require(Manifest.load(from: site.manifest, output: site.output))
        let carried = RenderedSite(carried: Array(manifest.files.keys))
        let unexamined = manifest.compared(with: publisher, examiningFolders: false)
        #expect(unexamined.filesAreIntact && unexamined.foldersAreIntact == nil && !unexamined.isIntact)
        #expect(PublishedRecord(file: site.manifest, publisher: publisher).holds(carried))
        // One page rendered: the site is not current, whatever its folders hold.
        #expect(!PublishedRecord(file: site.manifest, publisher: publisher)
            .holds(RenderedSite(delivered: ["index.html"], carried: Array(manifest.files.keys.filter { $0 != "index.html" }))))

        try Data("stray".utf8).write(to: site.output.appendingPathComponent("feeds/sources/stray.xml"))
        let afterStray = manifest.compared(with: publisher, examiningFolders: false)
        #expect(afterStray.filesAreIntact, "no recorded file changed")
        #expect(!PublishedRecord(file: site.manifest, publisher: publisher).holds(carried), "a folder holds a file more")
        #expect(afterStray.examiningFolders(of: publisher).foldersAreIntact == false)
        #expect(manifest.compared(with: publisher).foldersAreIntact == false)
    }

    @Test("the manifest reads back what it wrote, paths with spaces, backslashes and line breaks and the search numbering included; any line that does not read makes no manifest")
    func manifestText() throws {
        let digest = Fingerprint.of(Data("page".utf8))
        let files = [
            "index.html": Manifest.Entry(fingerprint: digest, inode: 12, size: 3400, modified: 1_795_000_000_123_456_789),
            "static/a name\\with\\nback\\slashes\n.txt": Manifest.Entry(fingerprint: digest, inode: 13, size: 0, modified: -5),
            "static/two\nlines": Manifest.Entry(fingerprint: digest, inode: UInt64.max, size: 1, modified: 0),
            "articles/zoë-日本-🇳🇴/index.html": Manifest.Entry(fingerprint: digest, inode: 14, size: Int64.max, modified: Int64.min),
        ]
        let folders = ["": Manifest.Folder(inode: 2, modified: 7), "static": Manifest.Folder(inode: 3, modified: 8)]
        let output = URL(fileURLWithPath: "/srv/my site\\n/public")
        let numbering = SearchNumbering(numbers: [0: 3, UInt64.max: 0, SearchNumbering.key(of: "https://a.example/1"): 1])
        for input in [nil, Fingerprint.of(Data("input".utf8))] {
            var manifest = Manifest(output: output, files: files, folders: folders, input: input)
            manifest.searchNumbering = numbering
            #expect(Manifest(text: Data(manifest.text.utf8)) == manifest)
            #expect(manifest.text.split(separator: "\n").count == 3 + folders.count + files.count + 3, "one line a record")
        }
        var numbered = Manifest(output: output, files: files, folders: folders)
        numbered.searchNumbering = numbering
        let good = numbered.text
        #expect(good.contains("\nstory 0 ffffffffffffffff\n"))
        let badStories: [String] = ["story -1 ffffffffffffffff", "story 0 1ffffffffffffffff", "story 0", "story x ffffffffffffffff"]
        for broken in badStories.map({ good.replacingOccurrences(of: "story 0 ffffffffffffffff", with: $0) }) + [
            good.replacingOccurrences(of: "newsgen manifest \(Manifest.formatVersion)", with: "newsgen manifest 3"),
            good.replacingOccurrences(of: "file \(digest.hex) 12 ", with: "file \(digest.hex) twelve "),
            good.replacingOccurrences(of: "file \(digest.hex)", with: "file \(digest.hex.dropLast())"),
            good.replacingOccurrences(of: "file \(digest.hex)", with: "file \(digest.hex.uppercased())"),
            good.replacingOccurrences(of: "file \(digest.hex)", with: "file \(digest.hex.dropLast())g"),
            good.replacingOccurrences(of: "folder 3 8 static", with: "folder 3 static"),
            good.replacingOccurrences(of: "file \(digest.hex) 12 ", with: "file \(digest.hex) 18446744073709551616 "),
            good.replacingOccurrences(of: "file \(digest.hex) 12 ", with: "file \(digest.hex) -12 "),
            good.replacingOccurrences(of: "folder 3 8 static", with: "folder 3 8x static"),
            good + "extra line\n",
            String(good.dropLast()),
            good.replacingOccurrences(of: #"a name\\with"#, with: #"a name\qwith"#),
            "{\"format\": 2}",
        ] {
            #expect(Manifest(text: Data(broken.utf8)) == nil, "\(broken.prefix(200))")
        }
    }

    @Test("a saved manifest reads back whole, replaces the one before in one rename, and a save that fails says why and leaves the one before and no temporary file")
    func manifestSave() throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appendingPathComponent("cache.manifest")
        let digest = Fingerprint.of(Data("page".utf8))
        let entry = Manifest.Entry(fingerprint: digest, inode: 7, size: 9, modified: 11)
        let first = Manifest(output: URL(fileURLWithPath: "/srv/site"), files: ["index.html": entry],
                             folders: ["": Manifest.Folder(inode: 2, modified: 3)], input: digest)
        try first.save(to: file)
        #expect(Manifest.load(from: file, output: URL(fileURLWithPath: "/srv/site")) == first)
        var second = first
        second.files["a/index.html"] = entry
        second.folders?["a"] = Manifest.Folder(inode: 4, modified: 5)
        try second.save(to: file)
        #expect(Manifest.load(from: file, output: URL(fileURLWithPath: "/srv/site")) == second)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["cache.manifest"], "no temporary file left")

        // A folder standing where the file goes: the rename fails.
        let blocked = folder.appendingPathComponent("blocked.manifest")
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
        do {
            try first.save(to: blocked)
            Issue.record("saving over a folder succeeded")
        } catch {
            let reason = FileProblem.describe(error)
            #expect(reason == "is a directory" || reason == "directory not empty", "\(reason)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["blocked.manifest", "cache.manifest"])
    }

    @Test("a site removes files of the published one exactly when one of its files is not among the new site's, whatever the counts")
    func removedFiles() throws {
        let digest = Fingerprint.of(Data("page".utf8))
        let entry = Manifest.Entry(fingerprint: digest, inode: 1, size: 1, modified: 1)
        let output = URL(fileURLWithPath: "/nonexistent/site")
        let file = try TestSupport.temporaryFolder().appendingPathComponent("cache.manifest")
        try Manifest(output: output, files: ["index.html": entry, "a/index.html": entry, "b/index.html": entry]).save(to: file)
        let published = PublishedRecord(file: file, publisher: Publisher(output: output))
        let cases: [(delivered: [String], carried: [String], removes: Bool)] = [
            ([], ["index.html", "a/index.html", "b/index.html"], false),
            (["index.html"], ["a/index.html", "b/index.html"], false),
            (["index.html", "c/index.html"], ["a/index.html", "b/index.html"], false),
            (["index.html"], ["a/index.html"], true),
            // As many files as before, one of them new: one published file went away.
            (["index.html", "c/index.html"], ["a/index.html"], true),
            ([], [], true),
        ]
        for (delivered, carried, removes) in cases {
            let site = RenderedSite(delivered: delivered, carried: carried)
            #expect(published.carriedFilesToCheck(in: site) == (removes ? Set(carried) : []), "\(delivered) + \(carried)")
        }
    }

    @Test("a fingerprint is the SHA-256 of what it was fed, spelled in 64 lowercase hexadecimal digits, and reads back from them alone")
    func fingerprintDigits() throws {
        // SHA-256 of "abc" (FIPS 180-2, appendix B.1), fed as raw bytes the way `of(_:)` does after its tag.
        let known = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        let parsed = try #require(Fingerprint(hex: known))
        #expect(parsed.hex == known)
        #expect(Fingerprint(hex: known.uppercased()) == nil)
        #expect(Fingerprint(hex: String(known.dropLast())) == nil)
        #expect(Fingerprint(hex: known + "0") == nil)
        #expect(Fingerprint(hex: String(known.dropLast()) + "g") == nil)
        for word in 0..<4 {
            // Each 16-digit word counts: changing one digit of it gives another fingerprint.
            var digits = Array(known)
            digits[word * 16 + 15] = digits[word * 16 + 15] == "0" ? "1" : "0"
            #expect(try #require(Fingerprint(hex: String(digits))) != parsed)
        }
        let made = Fingerprint.of(Data("page".utf8))
        #expect(made.hex.count == 64 && made.hex.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(Fingerprint(hex: made.hex) == made)
        #expect(made != Fingerprint.of(Data("page ".utf8)))
    }

    @Test("the JSON manifest of an earlier newsgen is not read, and is removed when the new one is saved")
    func earlierManifest() async throws {
        let site = try Site()
        let earlier = site.manifest.appendingPathExtension("json")
        try FileManager.default.createDirectory(at: earlier.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"format": 2, "output": "x", "files": {}}"#.utf8).write(to: earlier)
        try await site.build()
        #expect(!FileManager.default.fileExists(atPath: earlier.path))
        #expect(Manifest.load(from: site.manifest, output: site.output) != nil)
    }

    @Test("a file deleted from the output by hand makes the build render and publish it again")
    func deletedFile() async throws {
        let site = try Site()
        try await site.build()
        let before = try Snapshot(site.output)
        try FileManager.default.removeItem(at: site.output.appendingPathComponent("sources/index.html"))
        let report = try await site.build()
        #expect(report.filesWritten == 1)
        #expect(try Snapshot(site.output).bytes == before.bytes)
    }

    @Test("after a crash between the swap and the manifest, the next build publishes what it renders, even with nothing new")
    func crashBeforeManifest() async throws {
        let site = try Site()
        try await site.build()
        let older = try Data(contentsOf: site.manifest)
        // The next build drops a story (a page goes) and edits one (a page is new): then "crashes".
        try Site.feed(name: "Science Desk", prefix: "science", titles: ["Comet seen at dawn, again"])
            .write(to: site.folder.appendingPathComponent("science.xml"))
        try await site.build()
        try older.write(to: site.manifest)
        let numbering = try #require(Manifest.load(from: site.manifest, output: site.output)).searchNumbering
        let report = try await site.build()
        #expect(report.timings.contains { $0.stage == .publish }, "the manifest does not describe the output: no skip")
        // The search index goes on from the numbering the manifest holds (the dropped story leaves a hole there).
        #expect(try TestSupport.fileBytes(below: site.output) == (try await site.referenceBuild(continuing: numbering)))
        let again = try await site.build()
        #expect(!again.timings.contains { $0.stage == .publish }, "the manifest now describes the output")
    }

    @Test("the previous site is kept beside the output for the next build, and folders a killed build left are removed by the next build")
    func previousSiteKept() async throws {
        let site = try Site()
        try await site.build()
        // A folder a killed build left: its process (the largest pid) does not run.
        let leftover = site.output.deletingLastPathComponent().appendingPathComponent(".public.staging-2147483647-deadbeef")
        try FileManager.default.createDirectory(at: leftover.appendingPathComponent("articles/a"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: leftover.appendingPathComponent("articles/a/index.html"))
        try await site.build()
        #expect(try Self.leftovers(beside: site.output).isEmpty, "removed by a build that publishes nothing")

        try FileManager.default.createDirectory(at: leftover.appendingPathComponent("articles/a"), withIntermediateDirectories: true)
        try Site.feed(world: "Harbour cranes return to the old port, at last").write(to: site.folder.appendingPathComponent("world.xml"))
        let report = try await site.build()
        #expect(report.timings.contains { $0.stage == .publish })
        #expect(try Self.leftovers(beside: site.output).isEmpty, "the leftover is gone")
        let previous = site.output.deletingLastPathComponent().appendingPathComponent(".public.previous")
        #expect(FileManager.default.fileExists(atPath: previous.appendingPathComponent(Publisher.markerName).path), "the previous site, kept")
    }

    @Test("a build updates the previous site in place into its staging folder: the result is byte for byte a full build, the served site's files are never written into, and nothing planted there is published")
    func previousSiteReused() async throws {
        let site = try Site()
        let previous = site.output.deletingLastPathComponent().appendingPathComponent(".public.previous")
        try await site.build()
        // Each build changes something: a new lead story (pages added and changed), then one dropped (pages removed).
        let leads = ["Harbour cranes return to the old port, at last", "Ferries run again across the bay", "Harbour cranes return to the old port"]
        for (round, lead) in leads.enumerated() {
            try Site.feed(world: lead).write(to: site.folder.appendingPathComponent("world.xml"))
            if round == 1 {
                // Planted in the kept site: a stray file, a folder where a page goes, a link out of the site.
                let articles = try #require(try FileManager.default.contentsOfDirectory(atPath: previous.appendingPathComponent("articles").path).first)
                try Data("stray".utf8).write(to: previous.appendingPathComponent("stray.html"))
                try FileManager.default.removeItem(at: previous.appendingPathComponent("sources/index.html"))
                try FileManager.default.createDirectory(at: previous.appendingPathComponent("sources/index.html"), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: previous.appendingPathComponent("articles/\(articles)/link.html").path,
                                                           withDestinationPath: "/etc/hostname")
            }
            let served = try TestSupport.fileBytes(below: site.output)
            let report = try await site.build()
            #expect(report.timings.contains { $0.stage == .publish })
            #expect(try TestSupport.fileBytes(below: site.output) == (try await site.referenceBuild()), "round \(round)")
            #expect(try TestSupport.fileBytes(below: previous) == served, "round \(round): the site that was served is whole, so nothing was written into its files")
        }
        #expect(try Self.leftovers(beside: site.output).isEmpty)
    }

    @Test("an unchanged local feed is not read again, and the site is byte for byte what reading it gives")
    func unchangedLocalFeed() async throws {
        let site = try Site()
        try await site.build(settled: true)
        let before = try Snapshot(site.output)
        let report = try await site.build(settled: true)
        #expect(try await site.store.state(of: "world")?.httpStatus == 304, "served like a 304")
        #expect(report.sources.allSatisfy { if case .fetched = $0.status { true } else { false } }, "shown as read")
        #expect(!report.timings.contains { $0.stage == .publish })
        #expect(try Snapshot(site.output) == before)
        #expect(try await site.referenceBuild() == before.bytes)

        // Edited: read again.
        try Site.feed(world: "Harbour cranes return to the old port, at last").write(to: site.folder.appendingPathComponent("world.xml"))
        try await site.build(settled: true)
        #expect(try await site.store.state(of: "world")?.httpStatus == nil, "read")
        #expect(try await site.referenceBuild() == (try TestSupport.fileBytes(below: site.output)))
    }
}
