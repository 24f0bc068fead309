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
