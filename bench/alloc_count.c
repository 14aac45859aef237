/* alloc_count.c — see alloc_count.h. Defining malloc in the executable is
 * glibc's supported way to replace it; glibc exports its own implementation
 * as __libc_malloc and friends, which we forward to. */
#include "alloc_count.h"

#include <stdlib.h>

static __thread bench_alloc_tally heap;

#ifdef BENCH_COUNT_HEAP

#include <errno.h>
#include <malloc.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static inline void tally(size_t n)
{
    heap.calls++;
    heap.bytes += n;
}

void *malloc(size_t n)
{
    tally(n);
    return __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
    tally(k * n);
    return __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
    tally(n);
    return __libc_realloc(p, n);
}

void free(void *p)
{
    __libc_free(p);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)) != 0)
        return EINVAL;
    tally(n);
    void *p = __libc_memalign(align, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
    tally(n);
    return __libc_memalign(align, n);
}

void *memalign(size_t align, size_t n)
{
    tally(n);
    return __libc_memalign(align, n);
}

bool bench_heap_counting(void)
{
    return true;
}

#else

bool bench_heap_counting(void)
{
    return false;
}

#endif

bench_alloc_tally bench_heap_tally(void)
{
    return heap;
}

static void *count_alloc(void *ctx, size_t n)
{
    bench_alloc_tally *t = ctx;
    t->calls++;
    t->bytes += n;
    return malloc(n);
}

static void *count_resize(void *ctx, void *p, size_t old, size_t n)
{
    bench_alloc_tally *t = ctx;
    (void)old;
    t->calls++;
    t->bytes += n;
    return realloc(p, n);
}

static void count_release(void *ctx, void *p, size_t n)
{
    (void)ctx;
    (void)n;
    free(p);
}

void bench_counting_allocator(codec_allocator *a, bench_alloc_tally *tally)
{
    *a = (codec_allocator){count_alloc, count_resize, count_release, tally};
}
