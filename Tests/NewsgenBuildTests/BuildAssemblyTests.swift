import Foundation
import Testing
@testable import NewsgenConfig
@testable import NewsgenBuild
import NewsgenTestSupport

/// The assembly `newsgen build` and `serve` run: real lock, real SQLite cache, real providers.
@Suite("Standard build")
struct BuildAssemblyTests {
    /// A copy of the sample site (site.json, Samples, Templates) in a folder of its own.
    func sampleSite() throws -> SiteConfig {
        let folder = try TestSupport.temporaryFolder()
        for item in ["site.json", "Samples", "Templates"] {
            try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent(item), to: folder.appendingPathComponent(item))
        }
        return try SiteConfig.load(from: folder.appendingPathComponent("site.json"))
    }

    @Test("offline: publishes from local feeds, keeps the cache, and releases the lock")
    func offline() async throws {
        let config = try sampleSite()
        let (logger, log) = TestSupport.recordingLogger()
        let report = try await Build.runStandard(config: config, options: .init(offline: true), waitForLock: false, logger: logger)
        #expect(report.exitStatus == 0)
        #expect(log.warnings.isEmpty, "\(log.warnings)")
        #expect(FileManager.default.fileExists(atPath: config.output.appendingPathComponent("index.html").path))
        #expect(FileManager.default.fileExists(atPath: config.cache.path), "the SQLite cache")
        let second = try await Build.runStandard(config: config, options: .init(offline: true), waitForLock: false, logger: logger)
        #expect(second.exitStatus == 0, "the lock was released")
        #expect(second.filesWritten == 0 && second.filesCarried > 0, "nothing changed, so every file was carried over")
    }

    @Test("a cache that cannot be opened fails the build with its error before any source is fetched; the published site stays as it was")
    func cacheCannotOpen() async throws {
        let config = try sampleSite()
        let (logger, _) = TestSupport.recordingLogger()
        _ = try await Build.runStandard(config: config, options: .init(offline: true), waitForLock: false, logger: logger)
        let published = try TestSupport.fileBytes(below: config.output)
        // A folder where the cache was: SQLite cannot open it.
        try FileManager.default.removeItem(at: config.cache)
        try FileManager.default.createDirectory(at: config.cache, withIntermediateDirectories: false)
        let (failing, log) = TestSupport.recordingLogger()
        do {
            _ = try await Build.runStandard(config: config, options: .init(offline: true), waitForLock: false, logger: failing)
            Issue.record("built without a cache")
        } catch {
            guard case .store(let storeError) = error.reason, case .cannotOpen(let file, _) = storeError else {
                Issue.record("expected the cache's error, got \(error)")
                return
            }
            #expect(file == config.cache)
        }
        #expect(!log.all.contains { $0.contains("[2/9]") }, "nothing was fetched: \(log.all)")
        #expect(try TestSupport.fileBytes(below: config.output) == published)
        // The lock was released: with the cache back, the next build runs.
        try FileManager.default.removeItem(at: config.cache)
        let next = try await Build.runStandard(config: config, options: .init(offline: true), waitForLock: false, logger: logger)
        #expect(next.exitStatus == 0)
    }

    @Test("a build holding the lock makes the next one fail at once, without --wait")
    func locked() async throws {
        let config = try sampleSite()
        let held = try await BuildLock(path: config.cache.deletingLastPathComponent().appendingPathComponent("build.lock"), wait: false)
        let (logger, _) = TestSupport.recordingLogger()
        do {
            _ = try await Build.runStandard(config: config, options: .init(offline: true), waitForLock: false, logger: logger)
            Issue.record("built while another build held the lock")
        } catch {
            guard case .locked(let lockError) = error.reason else { Issue.record("\(error)"); return }
            #expect(lockError.reason == .held)
            #expect(lockError.description.hasPrefix("another build is running"))
        }
        withExtendedLifetime(held) {}
        #expect(!FileManager.default.fileExists(atPath: config.output.path), "nothing was published")
    }
}
