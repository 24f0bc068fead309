#ifndef NEWSGEN_SHIMS_H
#define NEWSGEN_SHIMS_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise (ENOSYS or EINVAL where the
/// kernel or file system cannot do it; the caller then falls back to two renames).
static inline int newsgen_exchange_paths(const char *first, const char *second) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, 2 /* RENAME_EXCHANGE */);
#else
    (void)first; (void)second;
    errno = ENOSYS;
    return -1;
#endif
}

/// Flushes the file system that holds the open file `fd` to disk (Linux syncfs(2)); elsewhere
/// every file system (sync(2)). Returns 0, or -1 with errno set.
static inline int newsgen_sync_file_system(int fd) {
#if defined(__linux__) && defined(SYS_syncfs)
    return (int)syscall(SYS_syncfs, fd);
#else
    (void)fd;
    sync();
    return 0;
#endif
}

/// Starts writing the open file `fd`'s dirty pages to disk without waiting for them (Linux
/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE); elsewhere nothing. Not a guarantee of
/// anything: a later sync finds less left to write.
static inline void newsgen_start_writeback(int fd) {
#if defined(__linux__) && defined(SYS_sync_file_range)
    (void)syscall(SYS_sync_file_range, fd, (long long)0, (long long)0, 2u /* SYNC_FILE_RANGE_WRITE */);
#else
    (void)fd;
#endif
}

/// glibc: blocks of `bytes` or more get pages of their own, returned to the system when freed
/// (a fixed threshold, where glibc would raise it as large blocks are freed). Elsewhere nothing.
static inline void newsgen_set_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
#endif
}

/// glibc: at most `count` arenas (pools that threads allocate from), instead of eight a core.
static inline void newsgen_limit_arenas(int count) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, count);
#else
    (void)count;
#endif
}

/// glibc: hands the pages that are wholly free in every arena back to the system (malloc_trim).
/// Elsewhere nothing.
static inline void newsgen_return_free_pages(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

#endif
