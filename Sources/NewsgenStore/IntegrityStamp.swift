import Foundation
import NewsgenModel

/// Lets a cache skip `PRAGMA quick_check` (which reads every page) on open: a file only SQLite wrote since the
/// last check is whole. The check runs again when anything else may have touched the file: it is not the very
/// file stamped (inode, size, modification and change times in nanoseconds), a write-ahead log is beside it, there
/// is no stamp, or the stamp is a day old (for disk faults no time records).
struct IntegrityStamp: Equatable {
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var changed: Int64
    var checked: Int64

    static let lifetime: Int64 = 86_400

    static func location(of cache: URL) -> URL {
        URL(fileURLWithPath: cache.path + ".checked")
    }

    /// The stamp of `cache` now, checked at `checked`; `nil` when it cannot be examined or a non-empty log is beside it.
    static func of(_ cache: URL, checked: Int64) -> IntegrityStamp? {
        var wal = stat()
        guard lstat(cache.path + "-wal", &wal) == 0 ? wal.st_size == 0 : errno == ENOENT else { return nil }
        var status = stat()
        guard lstat(cache.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return IntegrityStamp(
            inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: status.st_mtim.nanoseconds, changed: status.st_ctim.nanoseconds,
            checked: checked)
    }

    /// When `cache` was last checked, if it is still the stamped file and the check is under a day old at `now`.
    static func lastCheck(of cache: URL, now: Date) -> Int64? {
        guard let text = try? String(contentsOf: location(of: cache), encoding: .utf8),
              let saved = IntegrityStamp(text: text),
              let current = of(cache, checked: saved.checked), current == saved
        else { return nil }
        let age = Int64(now.timeIntervalSince1970.rounded(.down)) - saved.checked
        return (0..<lifetime).contains(age) ? saved.checked : nil
    }

    /// Stamps `cache` as it is now once its store is closed, or removes the stamp if it cannot (the next open checks).
    static func save(for cache: URL, checked: Int64) {
        let file = location(of: cache)
        guard let stamp = of(cache, checked: checked) else {
            unlink(file.path)
            return
        }
        let temporary = file.path + ".\(getpid()).tmp"
        let saved = (try? Data(stamp.text.utf8).write(to: URL(fileURLWithPath: temporary))) != nil
            && rename(temporary, file.path) == 0
        if !saved {
            unlink(temporary)
            unlink(file.path)
        }
    }

    private static let header = "newsgen cache integrity 1"

    var text: String {
        "\(Self.header)\n\(inode) \(size) \(modified) \(changed) \(checked)\n"
    }

    init(inode: UInt64, size: Int64, modified: Int64, changed: Int64, checked: Int64) {
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
        self.checked = checked
    }

    init?(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 3, lines[0] == Self.header, lines[2].isEmpty else { return nil }
        let fields = lines[1].split(separator: " ")
        guard fields.count == 5, let inode = UInt64(fields[0]), let size = Int64(fields[1]), let modified = Int64(fields[2]),
              let changed = Int64(fields[3]), let checked = Int64(fields[4])
        else { return nil }
        self.init(inode: inode, size: size, modified: modified, changed: changed, checked: checked)
    }
}
