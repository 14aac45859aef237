/* test_support.h — helpers shared by unit tests (include after check.h):
 * an allocator that counts its calls and fails every allocation once
 * `budget` calls have succeeded (SIZE_MAX: never fails), a spec parser
 * that reports failures, and a whole input through a bytes stream. */
#ifndef CODEC_TEST_SUPPORT_H
#define CODEC_TEST_SUPPORT_H

#include "check.h"
#include "codec/compose.h"
#include "codec/stream.h"

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

/* Drains what the stream has ready onto the end of out. */
static inline int test_stream_drain(codec_stream *s, codec_buf *out, codec_error *err)
{
    size_t got;
    int rc;
    do {
        if ((rc = codec_buf_reserve(out, 4096)))
            return rc;
        rc = codec_stream_drain(s, out->data + out->len, 4096, &got, err);
        out->len += got;
    } while (!rc && got);
    return rc;
}

/* in[0..n) through a `mode` stream of c, its output appended to out.
 * @return 0 or the stream's status (err filled). */
static inline int test_stream_all(const codec *c, codec_stream_mode mode, const uint8_t *in,
                                  size_t n, codec_buf *out, codec_error *err)
{
    codec_stream *s = codec_stream_new(c, mode, err);
    if (!s)
        return err->family;
    int rc = CODEC_OK;
    for (size_t pos = 0, used = 0; !rc && pos < n; pos += used)
        if (!(rc = codec_stream_feed(s, in + pos, n - pos, &used, err)))
            rc = test_stream_drain(s, out, err);
    if (!rc)
        rc = codec_stream_finish(s, err);
    if (!rc)
        rc = test_stream_drain(s, out, err);
    CHECK(rc || codec_stream_done(s));
    codec_stream_free(s);
    return rc;
}

#endif
