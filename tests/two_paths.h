/* two_paths.h — what the tests and fuzz targets that compare codec-gen's
 * specialized code with the generic (descriptor) path share: seeded random
 * numbers, re-encoding a decoded value, and byte equality of two buffers. */
#ifndef CODEC_TESTS_TWO_PATHS_H
#define CODEC_TESTS_TWO_PATHS_H

#include "codec/codec.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Marsaglia's xorshift64: the same sequence on every run and machine. */
static inline uint64_t two_paths_next(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static inline unsigned two_paths_below(uint64_t *state, unsigned n)
{
    return (unsigned)(two_paths_next(state) % n);
}

/* Encodes `v` into `b` (cleared first); a value that decoded always
 * encodes, so a failure aborts (a fuzz finding). */
static inline void two_paths_encode(codec *c, const void *v, codec_buf *b)
{
    codec_error err;
    codec_buf_clear(b);
    if (codec_encode(c, v, b, &err))
        abort();
}

static inline bool two_paths_same(const codec_buf *a, const codec_buf *b)
{
    return a->len == b->len && (!a->len || memcmp(a->data, b->data, a->len) == 0);
}

#endif
