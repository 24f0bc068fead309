import CNewsgenShims
import Foundation
import NewsgenModel

/// How a build asks the C allocator to give memory back to the system.
///
/// These tune glibc's allocator. The newsgen executable allocates with jemalloc on Linux
/// (CNewsgenAllocator), which has its own settings; there they change nothing, and they serve
/// wherever the library runs on glibc's allocator (its tests, another program).
///
/// A large build frees a lot at once (the feeds' parse trees once read, pages of tens of
/// megabytes once written), and glibc's allocator keeps what is freed for reuse: at 100,000
/// articles the process held about 590 MiB at its peak for a heap of 325 MB. Elsewhere than
/// glibc these do nothing.
enum Memory {
    /// Blocks of 128 KiB or more get pages of their own, returned when freed. glibc starts at
    /// that threshold but raises it as such blocks are freed (up to 32 MiB), after which a large
    /// page's buffer comes from the heap and its memory stays with the process once freed.
    static func returnLargeBlocks() {
        newsgen_set_mmap_threshold(128 * 1024)
    }

    /// Two arenas a core. glibc gives threads up to eight arenas a core, and a block freed in one
    /// arena serves only the threads allocating from it: the build's threads (the cooperative
    /// pool, the staging writer, the cache's queues) kept freed memory apart from where it
    /// was needed next. At 100,000 stories the peak was 410–414 MiB with the default, 386 MiB
    /// with two arenas on two cores (one arena: 324 MiB, but the build took a fifth longer).
    /// One a core was too few once the large blocks and free pages went back to the system
    /// (`returnLargeBlocks`, `returnFreePages`): the two rendering threads and the staging
    /// writer shared two arenas and waited for each other's locks (a fifth of a cold build's
    /// system time was futex calls from malloc). Two a core: cold builds of 10,000 stories
    /// 1.81 → 1.59 s (medians of 6), 100,000 stories 19.3 → 15.6–16.6 s at 316–319 MiB
    /// against 327 (eight a core: 15.6 s, 354 MiB).
    static func limitArenas() {
        newsgen_limit_arenas(Int32(clamping: max(1, Parallel.cores) * 2))
    }

    /// Hands the pages that are wholly free back to the system, in every arena: after a stage,
    /// whose garbage the next would otherwise sit on.
    static func returnFreePages() {
        newsgen_return_free_pages()
    }
}
