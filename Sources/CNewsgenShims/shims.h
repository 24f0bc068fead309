#ifndef NEWSGEN_SHIMS_H
#define NEWSGEN_SHIMS_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
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

#endif
