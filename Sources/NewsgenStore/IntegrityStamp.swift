import Foundation
import NewsgenModel

/// What lets a cache skip its integrity check when it opens: the file as the last build that
/// closed it left it, and when it was last checked.
///
/// `PRAGMA quick_check` reads every page of the file; a file only SQLite has written since the
/// last check is whole. The check is made again when anything else may have touched the file:
/// when it is not the very file the stamp names (its inode, size, and modification and change
/// times to the nanosecond), when a write-ahead log is beside it (a build that did not close
/// the cache, or another program using it), when there is no stamp, and once a day whatever
/// the stamp says, for what no time records (a disk's own faults).
struct IntegrityStamp: Equatable {
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var changed: Int64
    /// When the file was last checked (whole seconds since 1970).
    var checked: Int64

    /// How long a check is trusted for.
    static let lifetime: Int64 = 86_400

    static func location(of cache: URL) -> URL {
        URL(fileURLWithPath: cache.path + ".checked")
    }

    /// The stamp of `cache` as it is now, checked at `checked`; `nil` when the file cannot be
    /// examined or has a write-ahead log with anything in it beside it.
    static func of(_ cache: URL, checked: Int64) -> IntegrityStamp? {
        // No log, or an empty one (all of it checkpointed into the file).
        var wal = stat()
        guard lstat(cache.path + "-wal", &wal) == 0 ? wal.st_size == 0 : errno == ENOENT else { return nil }
        var status = stat()
        guard lstat(cache.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return IntegrityStamp(
            inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: status.st_mtim.nanoseconds, changed: status.st_ctim.nanoseconds,
            checked: checked)
    }

    /// When `cache` was last checked, if it is still the file its stamp names and that check is
    /// less than a day old at `now`: then it need not be checked again.
    static func lastCheck(of cache: URL, now: Date) -> Int64? {
        guard let text = try? String(contentsOf: location(of: cache), encoding: .utf8),
              let saved = IntegrityStamp(text: text),
              let current = of(cache, checked: saved.checked), current == saved
        else { return nil }
        let age = Int64(now.timeIntervalSince1970.rounded(.down)) - saved.checked
        return (0..<lifetime).contains(age) ? saved.checked : nil
    }

    /// Notes `cache` as it is now, checked at `checked`, once its store is closed; or removes
    /// the stamp when the file cannot be noted (the next open checks it).
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
