import Foundation
import Testing
@testable import NewsgenBuild
@testable import NewsgenRender
@testable import NewsgenStore
@testable import NewsgenFetch
import NewsgenTestSupport

/// A build stopped by SIGINT or SIGTERM (its task cancelled) publishes nothing and leaves no
/// staging folder; folders left by killed builds are removed by the next one.
@Suite("Publisher: stopping")
struct PublisherStopTests {
    func stagingFolders(beside output: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".\(output.lastPathComponent).staging-") }
    }

    @Test("a cancelled task creates no staging folder, writes nothing and swaps nothing")
    func cancelled() async throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let publisher = Publisher(output: output)
        let staging = try publisher.makeStaging()
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var problems: [PublishError.Problem?] = []
            do { _ = try publisher.makeStaging() } catch { problems.append((error as? PublishError)?.problem) }
            do { _ = try await publisher.write([OutputFile("index.html", "<p>new</p>")], to: staging) } catch { problems.append((error as? PublishError)?.problem) }
            do { try publisher.swap(in: staging) } catch { problems.append((error as? PublishError)?.problem) }
            return problems
        }.value
        #expect(outcome == [.stopped, .stopped, .stopped])
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing was published")
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging.path).isEmpty, "nothing was written")
        #expect(try stagingFolders(beside: output).count == 1, "only the one made before the stop")
        #expect(PublishError(output, .stopped).description.hasSuffix("the build was stopped before publishing; nothing was published"))
    }

    @Test("a build cancelled while it runs leaves the previous site whole and no staging folder")
    func cancelledBuild() async throws {
        let (output, config) = try await SampleSiteValidationTests.buildSample()
        let before = try TestSupport.fileBytes(below: output)
        var changed = config
        changed.title = "Changed while stopping"
        let (logger, _) = TestSupport.recordingLogger()
        for delay in [0, 20, 60, 150] {
            let task = Task {
                try await Build(config: changed, providers: [FeedProvider(http: nil, articlesPerSource: 10)],
                                store: MemoryStore(), now: { TestSupport.date("2026-11-21T12:00:00Z") }, logger: logger).run()
            }
            try await Task.sleep(for: .milliseconds(delay))
            task.cancel()
            let result = await task.result
            let after = try TestSupport.fileBytes(below: output)
            if case .failure = result {
                #expect(after == before, "a stopped build left the previous site as it was (delay \(delay) ms)")
            } else {
                #expect(after["index.html"].map { String(decoding: $0, as: UTF8.self).contains("Changed while stopping") } == true)
            }
            #expect(try stagingFolders(beside: output).isEmpty, "no staging folder left (delay \(delay) ms)")
        }
    }

    @Test("staging folders of builds that no longer run are removed; a running build's are kept")
    func leftovers() throws {
        let output = try TestSupport.temporaryFolder().appendingPathComponent("public")
        let parent = output.deletingLastPathComponent()
        // A process that has exited: its pid is free (until the system reuses it).
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        let dead = parent.appendingPathComponent(".public.staging-\(exited.processIdentifier)-0badf00d")
        let alive = parent.appendingPathComponent(".public.staging-1-0000cafe")
        let foreign = parent.appendingPathComponent(".public.staging-notes")
        for folder in [dead, alive, foreign] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("articles"), withIntermediateDirectories: true)
        }
        let staging = try Publisher(output: output).makeStaging()
        let left = Set(try stagingFolders(beside: output))
        #expect(left == [alive.lastPathComponent, foreign.lastPathComponent, staging.lastPathComponent])
    }
}
