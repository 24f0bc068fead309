public import Foundation
import NewsgenModel

/// Why the build lock could not be taken.
public struct LockError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// Another build holds it (and we were not to wait).
        case held
        /// The wait for it was cancelled.
        case cancelled
        /// The lock's folder could not be created, or the lock file opened or locked.
        case system(String)
    }

    public var path: URL
    public var reason: Reason

    public var description: String {
        switch reason {
        case .held: "another build is running (lock \(path.path)); use --wait to wait for it"
        case .cancelled: "stopped waiting for another build's lock (\(path.path))"
        case .system(let problem): "\(path.path): \(problem)"
        }
    }
}

/// A lock file beside the cache, so two builds (a slow one and the next cron run) never write the cache or output at once.
/// The kernel releases it if the process dies.
package final class BuildLock: Sendable {
    public let path: URL
    private let descriptor: Int32

    /// Takes the lock: without `wait`, a lock another build holds is an error at once; with it, polls until the other
    /// build finishes or the task is cancelled.
    public init(path: URL, wait: Bool) async throws(LockError) {
        self.path = path
        let folder = path.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw LockError(path: folder, reason: .system("cannot create the cache folder (\(FileProblem.describe(error)))"))
        }
        let descriptor = open(path.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw LockError(path: path, reason: .system("cannot open the lock file (\(String(cString: strerror(errno))))"))
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw LockError(path: path, reason: .system("cannot lock (\(reason))"))
            }
            guard wait else {
                close(descriptor)
                throw LockError(path: path, reason: .held)
            }
            do {
                try await Task.sleep(for: .milliseconds(200))
            } catch {
                // Cancelled (Ctrl-C, or the caller gave up): stop waiting rather than spin.
                close(descriptor)
                throw LockError(path: path, reason: .cancelled)
            }
        }
        // The holder's pid, written over the last one and the file cut to its length.
        let pid = Array("\(ProcessInfo.processInfo.processIdentifier)\n".utf8)
        let written = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        if written == pid.count { _ = ftruncate(descriptor, off_t(pid.count)) }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
