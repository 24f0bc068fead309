#ifndef NEWSGEN_SHIMS_H
#define NEWSGEN_SHIMS_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
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

#endif
