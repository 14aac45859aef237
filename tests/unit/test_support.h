/* test_support.h — helpers shared by unit tests (include after check.h):
 * an allocator that counts its calls and fails every allocation once
 * `budget` calls have succeeded (SIZE_MAX: never fails), and a spec parser
 * that reports failures. */
#ifndef CODEC_TEST_SUPPORT_H
#define CODEC_TEST_SUPPORT_H

#include "check.h"
#include "codec/compose.h"

#include <stdint.h>
#include <stdlib.h>

typedef struct test_alloc {
    size_t calls;            /* successful alloc + resize calls */
    size_t budget;
    codec_allocator allocator;
} test_alloc;

static inline void *test_alloc_alloc(void *ctx, size_t n)
{
    test_alloc *t = ctx;
    return t->calls < t->budget && ++t->calls ? malloc(n) : NULL;
}

static inline void *test_alloc_resize(void *ctx, void *p, size_t old, size_t n)
{
    (void)old;
    test_alloc *t = ctx;
    return t->calls < t->budget && ++t->calls ? realloc(p, n) : NULL;
}

static inline void test_alloc_release(void *ctx, void *p, size_t n)
{
    (void)ctx, (void)n;
    free(p);
}

/* Sets up `t` and returns its allocator (valid while `t` is). */
static inline const codec_allocator *test_alloc_init(test_alloc *t, size_t budget)
{
    *t = (test_alloc){0, budget,
                      {test_alloc_alloc, test_alloc_resize, test_alloc_release, NULL}};
    t->allocator.ctx = t;
    return &t->allocator;
}

/* codec_parse() of a bytes pipeline that must succeed. */
static inline codec *test_parse(const char *spec)
{
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    if (!c)
        fprintf(stderr, "%s: %s\n", spec, err.message);
    CHECK(c != NULL);
    return c;
}

#endif
