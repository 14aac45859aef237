/* index_internal.h — the name hash shared by the struct index and backends
 * that want to hash a key while they scan it. */
#ifndef CODEC_TYPES_INDEX_INTERNAL_H
#define CODEC_TYPES_INDEX_INTERNAL_H

#include "codec/types.h"

#include <string.h>

static inline uint64_t codec_name_mix_(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0xFF51AFD7ED558CCDu;
    return h ^ (h >> 32);
}

/* A multiply-xorshift over 8-byte words, seeded with the length: a byte at a
 * time was the cost of looking up the long unknown keys of real documents
 * (twitter's "profile_background_image_url_https"). The loads stay inside
 * s[0..n): the last word overlaps the one before it; names under 8 bytes
 * are two overlapping 4-byte loads, or the bytes themselves. */
static inline uint32_t codec_name_hash(const char *s, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ n, w = 0;
    if (n >= 8) {
        size_t i = 0;
        for (; i + 8 < n; i += 8) {
            memcpy(&w, s + i, 8);
            h = codec_name_mix_(h, w);
        }
        memcpy(&w, s + n - 8, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4), memcpy(&b, s + n - 4, 4);
        w = (uint64_t)a << 32 | b;
    } else {
        for (size_t i = 0; i < n; i++)
            w = w << 8 | (uint8_t)s[i];
    }
    h = codec_name_mix_(h, w);
    return (uint32_t)(h ^ (h >> 29));
}

/* True when the C string `field` is exactly name[0..len) (name may hold NULs). */
static inline bool codec_name_equals(const char *field, const char *name, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (field[i] != name[i] || field[i] == '\0')
            return false;
    return field[len] == '\0';
}

/* Lookup with a hash the caller already has. */
const codec_field *codec__type_field_by_name_hashed(const codec_type *t, const char *name,
                                                    size_t len, uint32_t hash);

/* strlen of every field name of struct `t` (from its index), or NULL when
 * the index cannot be built (out of memory). */
const uint32_t *codec__type_name_lengths(const codec_type *t);

/* Builds the index of struct `t` now; -1 when out of memory. */
int codec__type_index_ready(const codec_type *t);

/* Frees the index of a struct or union type built at run time (no codec
 * may use `t` any more). */
void codec__type_index_free(const codec_type *t);

#endif
