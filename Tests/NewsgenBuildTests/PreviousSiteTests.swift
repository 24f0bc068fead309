import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenRender
@testable import NewsgenBuild
import NewsgenTestSupport

/// The site a publish replaced is kept beside the output (.public.previous), and the next build's
/// staging folder starts as it: only what changed is removed, linked or written, the result is
/// what a full build gives, and whatever is in the previous site never reaches the served site.
@Suite("The previous site as the next staging folder")
struct PreviousSiteTests {
    typealias Site = IncrementalTests.Site
    typealias Snapshot = IncrementalTests.Snapshot

    static func inode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int)
    }

    /// Whether `output` holds exactly `files` and the marker as regular files, and the folders
    /// they stand in: no other file, folder or link.
    static func holdsExactly(_ output: URL, _ files: Set<String>) -> Bool {
        let root = output.standardizedFileURL.path
        guard let walk = FileManager.default.enumerator(atPath: root) else { return false }
        var seenFiles: Set<String> = []
        var seenFolders: Set<String> = []
        for case let path as String in walk {
            if Manifest.folderStat(root + "/" + path) != nil {
                seenFolders.insert(path)
            } else if Manifest.stat(root + "/" + path) != nil {
                seenFiles.insert(path)
            } else {
                return false
            }
        }
        return seenFiles == files.union([Publisher.markerName]) && seenFolders == SitePathFolders.folders(holding: files)
    }

    static func edit(_ site: Site, _ title: String) throws {
        try Site.feed(world: title).write(to: site.folder.appendingPathComponent("world.xml"))
    }

    /// A site published twice, its world feed edited between: the second publish kept the first
    /// site as the previous site, with its record.
    static func publishedTwice(settled: Bool = false) async throws -> Site {
        let site = try Site()
        try await site.build(settled: settled)
        try edit(site, "Harbour cranes return to the old port, at last")
        try await site.build(settled: settled)
        return site
    }

    @Test("a publish keeps the replaced site as the previous site; the next publish is staged in it and gives what a full build gives")
    func reused() async throws {
        let site = try Site()
        let spare = Publisher(output: site.output).previousSite
        try await site.build()
        #expect(!FileManager.default.fileExists(atPath: spare.path), "the first build replaced no site")
        let first = try Self.inode(site.output)
        try Self.edit(site, "Harbour cranes return to the old port, at last")
        try await site.build()
        #expect(try Self.inode(spare) == first, "the replaced site is kept")
        var before = try Snapshot(site.output)
        // Three more edits, each staged in the previous site: every result is a full build's, and the
        // files no edit touched keep their inode and time.
        for (round, title) in ["Harbour cranes return", "Harbour cranes return, again", "Harbour cranes leave"].enumerated() {
            let spareInode = try Self.inode(spare)
            try Self.edit(site, title)
            let report = try await site.build()
            #expect(try Self.inode(site.output) == spareInode, "round \(round): the previous site was staged in and swapped in")
            let after = try Snapshot(site.output)
            #expect(try await site.referenceBuild() == after.bytes, "round \(round)")
            let changed = before.changed(in: after)
            for path in after.bytes.keys where !changed.contains(path) {
                #expect(after.files[path] == before.files[path], "round \(round): \(path) kept its inode and time")
            }
            #expect(report.filesCarried > 0)
            before = after
        }
        let again = try await site.build()
        #expect(!again.timings.contains { $0.stage == .render }, "the next build with nothing new stops before rendering")
        #expect(try Snapshot(site.output) == before)
    }

    @Test("whatever the previous site holds (files changed, added or removed by hand, a folder for a file, a link) does not reach the site")
    func tamperedSpare() async throws {
        let site = try await Self.publishedTwice()
        let spare = Publisher(output: site.output).previousSite
        let fileManager = FileManager.default
        // A carried page rewritten in the previous site (a new file, not the served one).
        let page = try #require(fileManager.enumerator(atPath: spare.appendingPathComponent("articles").path)?
            .compactMap { $0 as? String }.first { $0.hasPrefix("comet-seen-at-dawn") && $0.hasSuffix("index.html") })
        let carried = spare.appendingPathComponent("articles").appendingPathComponent(page)
        try fileManager.removeItem(at: carried)
        try Data("<p>tampered</p>".utf8).write(to: carried)
        // A stray file, an empty folder, a folder where a file belongs, a symbolic link, a removed page.
        try Data("stray".utf8).write(to: spare.appendingPathComponent("stray.txt"))
        try fileManager.createDirectory(at: spare.appendingPathComponent("empty/inside"), withIntermediateDirectories: true)
        try fileManager.removeItem(at: spare.appendingPathComponent("sources/index.html"))
        try fileManager.createDirectory(at: spare.appendingPathComponent("sources/index.html/oops"), withIntermediateDirectories: true)
        try fileManager.createSymbolicLink(atPath: spare.appendingPathComponent("feeds/link.rss").path, withDestinationPath: "/etc/hostname")
        try fileManager.removeItem(at: spare.appendingPathComponent("search/index.html"))

        try Self.edit(site, "Harbour cranes leave")
        try await site.build()
        let after = try Snapshot(site.output)
        #expect(try await site.referenceBuild() == after.bytes)
        #expect(Self.holdsExactly(site.output, Set(after.bytes.keys)), "nothing else in the output")
        let again = try await site.build()
        #expect(!again.timings.contains { $0.stage == .publish }, "the output is exactly what the manifest recorded")
    }


    @Test("the previous site as it was published is pruned from its record, without reading its folders; one changed since is read folder by folder")
    func prunedFromRecord() async throws {
        let site = try await Self.publishedTwice()
        let record = Manifest.previousSiteLocation(manifest: site.manifest)
        #expect(FileManager.default.fileExists(atPath: record.path), "the replaced site's record is kept beside the manifest")

        try Self.edit(site, "Harbour cranes return")
        let (logger, log) = TestSupport.recordingLogger()
        try await site.build(logger: logger)
        #expect(log.all.contains { $0.contains("staged in the previous site, pruned from its record") }, "\(log.all)")
        #expect(try await site.referenceBuild() == (try TestSupport.fileBytes(below: site.output)))

        // A file added deep in the previous site moves its folder's time: the record no longer describes it.
        let spare = Publisher(output: site.output).previousSite
        let folder = try #require(FileManager.default.enumerator(atPath: spare.appendingPathComponent("articles").path)?
            .compactMap { $0 as? String }.first { !$0.contains("/") })
        try Data("stray".utf8).write(to: spare.appendingPathComponent("articles").appendingPathComponent(folder).appendingPathComponent("stray.txt"))
        try Self.edit(site, "Harbour cranes leave")
        let (again, againLog) = TestSupport.recordingLogger()
        try await site.build(logger: again)
        #expect(againLog.all.contains { $0.contains("staged in the previous site, pruned by reading its folders") }, "\(againLog.all)")
        let after = try TestSupport.fileBytes(below: site.output)
        #expect(!after.keys.contains { $0.hasSuffix("stray.txt") })
        #expect(try await site.referenceBuild() == after)
    }

    @Test("a build that publishes with nothing new from its sources (the site's title changed) reads the record itself and prunes from it")
    func prunedFromRecordWithoutNewContent() async throws {
        var site = try await Self.publishedTwice(settled: true)
        #expect(FileManager.default.fileExists(atPath: Manifest.previousSiteLocation(manifest: site.manifest).path))

        site.config.title = "Incremental, renamed"
        let (logger, log) = TestSupport.recordingLogger()
        let report = try await site.build(settled: true, logger: logger)
        let readNow = report.sources.filter(\.readNow).map(\.config.id)
        #expect(readNow.isEmpty, "no source was read, so the previous site was not examined after fetching: \(readNow)")
        #expect(log.all.contains { $0.contains("staged in the previous site, pruned from its record") }, "\(log.all)")
        #expect(try await site.referenceBuild() == (try TestSupport.fileBytes(below: site.output)))
    }

    @Test("the previous site becomes this build's staging folder by a rename alone; without one, a new empty folder; a killed build's leftovers go either way")
    func stagingFolder() throws {
        let folder = try TestSupport.temporaryFolder()
        let output = folder.appendingPathComponent("public")
        let publisher = Publisher(output: output)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(at: publisher.previousSite, withIntermediateDirectories: false)
        try Data("old".utf8).write(to: publisher.previousSite.appendingPathComponent("index.html"))
        let previous = try Self.inode(publisher.previousSite)
        func leftover() throws {
            // No process has the largest pid: the build that made it is gone.
            let name = ".public.staging-\(Int32.max)-killed"
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: false)
        }

        try leftover()
        let staging = try publisher.makeStaging(reusingPrevious: true)
        #expect(staging.reused)
        #expect(staging.folder.lastPathComponent.hasPrefix(".public.staging-\(getpid())-"))
        #expect(try Self.inode(staging.folder) == previous)
        #expect(try Data(contentsOf: staging.folder.appendingPathComponent("index.html")) == Data("old".utf8))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == ["public", staging.folder.lastPathComponent])

        try leftover()
        let fresh = try publisher.makeStaging(reusingPrevious: true)
        #expect(!fresh.reused)
        #expect(fresh.folder.lastPathComponent.hasPrefix(".public.staging-\(getpid())-"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fresh.folder.path).isEmpty)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
            == ["public", staging.folder.lastPathComponent, fresh.folder.lastPathComponent])
    }

    @Test("the previous site examined before it is staged in gives its record's listing for that very folder, renamed or not, and for no other")
    func examinedEarly() async throws {
        let site = try await Self.publishedTwice()
        let spare = Publisher(output: site.output).previousSite
        let record = Manifest.previousSiteLocation(manifest: site.manifest)
        let examined = try #require(PreviousSite.examine(spare, record: record, output: site.output))
        let listing = try #require(examined.listing(ifStaging: spare.path), "the record describes the previous site")
        #expect(listing.files.keys.contains("index.html"))

        // Renamed to be staged in, as `Publisher.makeStaging(reusingPrevious:)` does: still that folder.
        let staging = site.folder.appendingPathComponent(".public.staging-examined")
        #expect(rename(spare.path, staging.path) == 0)
        #expect(examined.listing(ifStaging: staging.path) != nil)

        // Another folder put in its place before staging (a copy holds the same names, with
        // folders of other identities): the listing is not given for it.
        let moved = site.folder.appendingPathComponent("moved-away")
        #expect(rename(staging.path, moved.path) == 0)
        try FileManager.default.copyItem(at: moved, to: staging)
        let givenForCopy = examined.listing(ifStaging: staging.path) != nil
        #expect(!givenForCopy, "the folder now at the staging path is not the one examined")
        #expect(examined.listing(ifStaging: moved.path) != nil)

        // A record that no longer describes the folder gives no listing at all.
        let articles = moved.appendingPathComponent("articles")
        let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: articles.path).first)
        try Data("stray".utf8).write(to: articles.appendingPathComponent(folder).appendingPathComponent("stray.txt"))
        let again = try #require(PreviousSite.examine(moved, record: record, output: site.output))
        let givenForChanged = again.listing(ifStaging: moved.path) != nil
        #expect(!givenForChanged, "a name was added to one of its folders since the record")
        #expect(PreviousSite.examine(site.folder.appendingPathComponent("missing"), record: record, output: site.output) == nil)
    }

    @Test("the previous site's listing is its record's files with their inodes and its folders, whichever manifest lends it the paths' text")
    func listingFromRecord() async throws {
        let site = try await Self.publishedTwice()
        let spare = Publisher(output: site.output).previousSite
        let record = Manifest.previousSiteLocation(manifest: site.manifest)
        let recorded = try #require(Manifest.load(from: record, output: site.output))
        let folders = try #require(recorded.folders)
        let alone = try #require(PreviousSite.examine(spare, record: record, output: site.output)?.listing(ifStaging: spare.path))
        #expect(alone.files == recorded.files.mapValues(\.inode))
        #expect(alone.folders == folders)

        // The last manifest lends the paths it shares with the record, and nothing else: its
        // files and folders have other identities (the site published after the previous one),
        // and a path it lacks (here one it no longer records) is read from the record.
        var last = try #require(Manifest.load(from: site.manifest, output: site.output))
        let dropped = try #require(last.files.keys.first { $0.hasPrefix("articles/") })
        last.files[dropped] = nil
        #expect(last.files.contains { path, entry in recorded.files[path].map { $0.inode != entry.inode } ?? false },
                "the two sites have files of other inodes at the same paths")
        let shared = try #require(PreviousSite.examine(spare, record: record, output: site.output, sharingPathsWith: last)?
            .listing(ifStaging: spare.path))
        #expect(shared.files == alone.files)
        #expect(shared.folders == alone.folders)
        #expect(shared.files[dropped] == recorded.files[dropped]?.inode)
        #expect(shared.folderLines?.count == folders.count)
    }
}
