package import Foundation

extension timespec {
    /// The time in nanoseconds since 1970, as stat(2) gives a file's times: what tells a file
    /// changed since it was noted (the manifest's records, a local feed's validator, the cache's
    /// integrity stamp).
    package var nanoseconds: Int64 {
        Int64(tv_sec) * 1_000_000_000 + Int64(tv_nsec)
    }
}
