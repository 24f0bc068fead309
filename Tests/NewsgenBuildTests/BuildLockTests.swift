import Foundation
import Testing
@testable import NewsgenBuild
import NewsgenTestSupport

@Suite("Build lock")
struct BuildLockTests {
    @Test("a second build is refused at once while the lock is held, and gets it once released")
    func exclusive() async throws {
        let path = try TestSupport.temporaryFolder().appendingPathComponent("cache/build.lock")
        var held: BuildLock? = try await BuildLock(path: path, wait: false)
        await #expect(throws: LockError.self) { _ = try await BuildLock(path: path, wait: false) }
        withExtendedLifetime(held) {}
        held = nil
        _ = try await BuildLock(path: path, wait: false)
    }

    @Test("the lock file names the build that holds it, written over what an earlier build left, longer or shorter, in the same file")
    func namesHolder() async throws {
        let pid = "\(ProcessInfo.processInfo.processIdentifier)\n"
        for earlier in ["123456789012345678901234567890\n", "", "7"] {
            let path = try TestSupport.temporaryFolder().appendingPathComponent("build.lock")
            try Data(earlier.utf8).write(to: path)
            let inode = try FileManager.default.attributesOfItem(atPath: path.path)[.systemFileNumber] as? Int
            let held = try await BuildLock(path: path, wait: false)
            #expect(try String(contentsOf: path, encoding: .utf8) == pid, "over \(earlier.debugDescription)")
            #expect(try FileManager.default.attributesOfItem(atPath: path.path)[.systemFileNumber] as? Int == inode)
            withExtendedLifetime(held) {}
        }
    }

    @Test("a build waiting for the lock stops when its task is cancelled, instead of spinning", .timeLimit(.minutes(1)))
    func cancelledWait() async throws {
        let path = try TestSupport.temporaryFolder().appendingPathComponent("build.lock")
        let held = try await BuildLock(path: path, wait: false)
        let waiting = Task { try await BuildLock(path: path, wait: true) }
        try await Task.sleep(for: .milliseconds(300))
        waiting.cancel()
        let started = ContinuousClock.now
        let result = await waiting.result
        // Without the fix the wait never ends (the time limit fails the test); the bound is generous for a busy machine.
        #expect(ContinuousClock.now - started < .seconds(20))
        guard case .failure(let error) = result, let lockError = error as? LockError else {
            Issue.record("expected a lock error, got \(result)")
            return
        }
        #expect(lockError.reason == .cancelled)
        #expect(lockError.description.hasPrefix("stopped waiting for another build's lock"))
        withExtendedLifetime(held) {}
    }
}
