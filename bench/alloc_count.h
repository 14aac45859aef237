/* alloc_count.h — counting every heap allocation made by the calling thread.
 *
 * Two counters, because the benchmark has two kinds of subject:
 *   - codec: a counting codec_allocator given to its buffers and arenas
 *     (bench_counting_allocator) counts what codec asks for;
 *   - everyone (codec and peers): malloc, calloc, realloc, posix_memalign and
 *     aligned_alloc are defined in this executable and forward to glibc, so
 *     calls from inside shared libraries (libzstd, libbrotli, libstdc++) are
 *     counted too. Built only without sanitizers (ASan owns malloc then);
 *     bench_heap_counting() says whether it is active.
 * Counters are per thread, so thread-scaling runs do not share a cache line. */
#ifndef BENCH_ALLOC_COUNT_H
#define BENCH_ALLOC_COUNT_H

#include "codec/core.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct bench_alloc_tally {
    uint64_t calls;   /* allocations and reallocations */
    uint64_t bytes;   /* bytes requested by them */
} bench_alloc_tally;

/* This thread's heap tally since it started (zero when not counting). */
bench_alloc_tally bench_heap_tally(void);
bool bench_heap_counting(void);

/* A codec_allocator over libc that adds to *tally. */
void bench_counting_allocator(codec_allocator *a, bench_alloc_tally *tally);

#endif
