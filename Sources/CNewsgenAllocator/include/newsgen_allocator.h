#ifndef NEWSGEN_ALLOCATOR_H
#define NEWSGEN_ALLOCATOR_H

#if defined(__linux__)
/// The settings jemalloc, the newsgen executable's allocator on Linux, starts with (allocator.c).
extern const char *malloc_conf;
#endif

#endif
