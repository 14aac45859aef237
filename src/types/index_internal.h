/* index_internal.h — the name hash shared by the struct index and backends
 * that want to hash a key while they scan it. */
#ifndef CODEC_TYPES_INDEX_INTERNAL_H
#define CODEC_TYPES_INDEX_INTERNAL_H

#include "codec/types.h"

/* FNV-1a over the bytes, seeded with the length (names are short). */
static inline uint32_t codec_name_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u ^ (uint32_t)n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
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
const codec_field *codec_type_field_by_name_hashed(const codec_type *t, const char *name,
                                                   size_t len, uint32_t hash);

/* strlen of every field name of struct `t` (from its index), or NULL when
 * the index cannot be built (out of memory). */
const uint32_t *codec_type_name_lengths(const codec_type *t);

/* Builds the index of struct `t` now; -1 when out of memory. */
int codec_type_index_ready(const codec_type *t);

#endif
