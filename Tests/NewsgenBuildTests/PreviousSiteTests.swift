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

    @Test("the previous site's listing is its record's files with their inodes and its folders, while the record describes it name for name")
    func listingFromRecord() async throws {
        let site = try await Self.publishedTwice()
        let spare = Publisher(output: site.output).previousSite
        let record = Manifest.previousSiteLocation(manifest: site.manifest)
        let recorded = try #require(Manifest.load(from: record, output: site.output))
        let folders = try #require(recorded.folders)
        let listing = try #require(OpenFolder(spare).flatMap { Manifest.listing(from: record, output: site.output, of: $0) })
        #expect(listing.files == recorded.files.mapValues(\.inode))
        #expect(listing.folders == folders)

        // Renamed to be staged in, as `Publisher.makeStaging(reusingPrevious:)` does: still described.
        let staging = site.folder.appendingPathComponent(".public.staging-examined")
        #expect(rename(spare.path, staging.path) == 0)
        #expect(OpenFolder(staging).flatMap { Manifest.listing(from: record, output: site.output, of: $0) } != nil)

        // A copy holds the same names, with folders of other identities: not described.
        let copy = site.folder.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: staging, to: copy)
        #expect(OpenFolder(copy).flatMap { Manifest.listing(from: record, output: site.output, of: $0) } == nil)

        // A name added to one of its folders since the record: not described.
        let articles = staging.appendingPathComponent("articles")
        let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: articles.path).first)
        try Data("stray".utf8).write(to: articles.appendingPathComponent(folder).appendingPathComponent("stray.txt"))
        #expect(OpenFolder(staging).flatMap { Manifest.listing(from: record, output: site.output, of: $0) } == nil)
        #expect(OpenFolder(site.folder.appendingPathComponent("missing")) == nil)
    }
}
