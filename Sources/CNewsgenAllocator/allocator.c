// The newsgen executable's memory allocator.
//
// On Linux the executable links jemalloc (Package.swift) ahead of the C library, so that its
// malloc and free stand in for glibc's everywhere in the process: in the Swift runtime,
// Foundation, libxml2 and SQLite alike. A build makes and frees millions of small blocks on two
// or more threads at once, and glibc's allocator spent a tenth of a 100,000-story build in its
// bins (`_int_malloc`). Measured with jemalloc against glibc's: cold builds of 10,000 stories on
// tmpfs 1.05 -> 0.92 s, one new story 269 -> 241 ms; 100,000 stories 11.5 -> 8.6 s, at a peak
// of 337 MiB against 328.

#include "newsgen_allocator.h"

#if defined(__linux__)
// Read by jemalloc when it starts (before the first block is handed out):
// - an arena per CPU, used by the threads running on it: the build's threads rarely wait for each
//   other's locks, and their freed blocks serve the next ones made on that CPU;
// - pages left unused for half a second go back to the system, and are not kept a second time
//   as "muzzy" pages: a 100,000-story build frees hundreds of megabytes as it goes, and its peak
//   stays under the 400 MiB the benchmarks hold it to.
// (jemalloc itself is drawn from the archive by the references to malloc and free of everything
// linked before it; a test runs the executable and asks jemalloc to speak.)
const char *malloc_conf = "percpu_arena:percpu,dirty_decay_ms:500,muzzy_decay_ms:0";
#endif
