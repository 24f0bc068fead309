import Foundation
import Logging
import Synchronization
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenFetch
@testable import NewsgenBuild
import NewsgenTestSupport

/// The counts a build reports as it goes, for the updating line `newsgen build` shows on a terminal.
@Suite("Build progress")
struct ProgressTests {
    /// Every snapshot a build reported, in order.
    final class Recorder: ProgressReporter, Sendable {
        private let recorded = Mutex<[BuildProgress.Snapshot]>([])
        private let finishes = Mutex(0)

        func update(_ progress: BuildProgress.Snapshot) { recorded.withLock { $0.append(progress) } }
        func finish() { finishes.withLock { $0 += 1 } }

        var snapshots: [BuildProgress.Snapshot] { recorded.withLock { $0 } }
        var finished: Int { finishes.withLock { $0 } }
    }

    @Test("the line's text: counts with thousands separated, totals alone for writing and validating")
    func text() {
        #expect(BuildProgress.Snapshot(phase: .fetching, done: 37, total: 100).text == "fetching 37/100 sources")
        #expect(BuildProgress.Snapshot(phase: .rendering, done: 4200, total: 10600).text == "rendering 4,200/10,600 files")
        #expect(BuildProgress.Snapshot(phase: .rendering, done: 0, total: 0).text == "rendering files")
        #expect(BuildProgress.Snapshot(phase: .validating, done: 0, total: 1_234_567).text == "validating 1,234,567 files")
        #expect(BuildProgress.Snapshot.grouped(999) == "999")
        #expect(BuildProgress.Snapshot.grouped(1000) == "1,000")
    }

    @Test("counts from many tasks at once arrive in order and add up; an item of an ended phase is ignored")
    func concurrentCounts() async {
        let recorder = Recorder()
        let progress = BuildProgress(reporter: recorder)
        progress.begin(.rendering, total: 0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<500 { group.addTask { progress.advance(.rendering, total: 500) } }
        }
        progress.advance(.fetching)
        progress.finish()
        let counts = recorder.snapshots.map(\.done)
        #expect(counts == Array(0...500))
        #expect(recorder.snapshots.last == .init(phase: .rendering, done: 500, total: 500))
        #expect(recorder.finished == 1)
    }

    @Test("a build reports every source fetched and every file rendered, then writing and validating")
    func build() async throws {
        var config = try SiteConfig.load(from: TestSupport.repository.appendingPathComponent("site.json"))
        config.output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let recorder = Recorder()
        var options = Build.Options(offline: true)
        options.progress = BuildProgress(reporter: recorder)
        let report = try await Build(
            config: config, options: options,
            providers: [
                FeedProvider(http: nil, articlesPerSource: config.articlesPerSource, retry: .none),
                JSONNewsProvider(http: nil, articlesPerSource: config.articlesPerSource, retry: .none),
            ],
            store: MemoryStore(), now: { TestSupport.date("2026-11-21T12:00:00Z") }, logger: .silent
        ).run()
        let snapshots = recorder.snapshots
        let fetching = snapshots.filter { $0.phase == .fetching }
        #expect(fetching.map(\.done) == Array(0...config.sources.count))
        #expect(fetching.allSatisfy { $0.total == config.sources.count })
        let rendering = snapshots.filter { $0.phase == .rendering }
        // Every file the site has, counted once: the publisher adds only its marker file.
        let files = report.filesWritten + report.filesUnchanged + report.filesCarried - 1
        #expect(rendering.last == .init(phase: .rendering, done: files, total: files))
        #expect(rendering.map(\.done) == Array(0...files))
        #expect(snapshots.first { $0.phase == .writing }?.total == files)
        let later: [BuildProgress.Phase] = snapshots.map(\.phase).filter { $0 == .writing || $0 == .validating }
        #expect(later == [.writing, .validating])
    }
}
