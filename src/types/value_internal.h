/* value_internal.h — format-neutral helpers for decoders of any format:
 * UTF-8 validation, growing arena arrays, finding repeated keys (value_util.c). */
#ifndef CODEC_TYPES_VALUE_INTERNAL_H
#define CODEC_TYPES_VALUE_INTERNAL_H

#include "codec/types.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at p[0] (a byte >= 0x80) within
 * p[0..end), or 0 when it is invalid: overlong forms, UTF-16 surrogates and
 * anything above U+10FFFF are refused. Shared by the JSON reader and writer
 * and the binary formats' UTF-8 check. */
static inline size_t codec_utf8_sequence(const uint8_t *p, const uint8_t *end)
{
    uint8_t c = p[0], lo = 0x80, hi = 0xBF;
    size_t need;
    if (c >= 0xC2 && c <= 0xDF)
        need = 1;
    else if (c >= 0xE0 && c <= 0xEF)
        need = 2, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        need = 3, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if ((size_t)(end - p) <= need || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i <= need; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return need + 1;
}

/* CODEC_E_USAGE (from `stage`) when `t` reaches a CODEC_T_POINTER: the
 * backends that do not carry pointers call it when a codec is built. */
int codec__type_refuse_pointers(const codec_type *t, const char *stage, codec_error *err);

/* The value inside the OPTIONAL of type `t` at v, or NULL when absent. */
static inline const void *codec_optional_get(const codec_type *t, const void *v)
{
    return *(const bool *)v ? (const uint8_t *)v + t->value_offset : NULL;
}

/* True when field f of the struct at v is an OPTIONAL that is absent or a
 * UNION with no member (the encoders leave such fields out rather than
 * writing a null). */
static inline bool codec_field_absent(const codec_field *f, const void *v)
{
    const uint8_t *fv = (const uint8_t *)v + f->offset;
    return (f->type->kind == CODEC_T_OPTIONAL && !*(const bool *)fv) ||
           (f->type->kind == CODEC_T_UNION && !codec_union_which(fv));
}

/* True for the fields encoders may leave out (OPTIONAL and UNION): a
 * decoder's require-all option does not require them. */
static inline bool codec_field_may_be_absent(const codec_field *f)
{
    return f->type->kind == CODEC_T_OPTIONAL || f->type->kind == CODEC_T_UNION;
}

/* Arena bytes the decoders carve string copies from, so most strings cost
 * no arena call. A pool is taken in chunks of up to CODEC_TEXT_POOL_MAX
 * bytes, never more than `left` (the input not read yet: a decoded string
 * is never longer than its encoded form) but at least the n asked for, so
 * a small message costs one allocation and the tail a refill leaves behind
 * (smaller than n) keeps the waste below the bytes copied. Zero it before
 * the first take. */
typedef struct codec_text_pool {
    char *p, *end;
} codec_text_pool;
#define CODEC_TEXT_POOL_MAX 4096

/* A new pool and n bytes from it; NULL when out of memory. */
char *codec__text_pool_refill(codec_text_pool *pool, codec_arena *arena, size_t left, size_t n);

/* n bytes (n <= left) for a string copy; NULL when out of memory. */
static inline char *codec_text_pool_take(codec_text_pool *pool, codec_arena *arena, size_t left,
                                         size_t n)
{
    if ((size_t)(pool->end - pool->p) < n)
        return codec__text_pool_refill(pool, arena, left, n);
    char *d = pool->p;
    pool->p += n;
    return d;
}

/* True when s[0..n) is valid UTF-8 (no surrogates, no overlongs). */
bool codec__utf8_valid(const uint8_t *s, size_t n);

/* Copies n bytes and returns their high bits ORed (0 for ASCII), so the
 * UTF-8 check of ASCII text costs nothing beyond the copy: encoders and
 * decoders call codec__utf8_valid only when this is not 0. dst and src must
 * not overlap. */
static inline uint64_t codec_copy_ascii(uint8_t *dst, const uint8_t *src, size_t n)
{
    uint64_t acc = 0, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __builtin_memcpy(&w, src + i, 8);
        __builtin_memcpy(dst + i, &w, 8);
        acc |= w;
    }
    if (i < n && n >= 8) {
        __builtin_memcpy(&w, src + n - 8, 8);
        __builtin_memcpy(dst + n - 8, &w, 8);
        acc |= w;
    } else {
        for (; i < n; i++) {
            dst[i] = src[i];
            acc |= src[i];
        }
    }
    return acc & 0x8080808080808080ull;
}

/* True when s[0..n) is exactly one number of the JSON grammar, the text
 * form of codec_type_decimal (no sign '+', no leading zeros, no spaces). */
bool codec__decimal_text_valid(const char *s, size_t n);

/* Finds a repeated key among n keys laid out `stride` bytes apart: each a
 * codec_string at the start of its element when raw_size is 0, else
 * raw_size bytes compared as is. Small sets are compared pairwise, larger
 * ones through a hash table in the arena, so hostile objects stay linear.
 * @return the index of a repeat, -1 if none, -2 when out of memory. */
long codec__find_duplicate_key(const void *keys, size_t stride, size_t n, size_t raw_size,
                               codec_arena *arena);

/* codec__find_duplicate_key over the n keys of a decoded MAP of type `map`
 * (string keys by their text, other keys by their bytes). */
long codec__find_duplicate_map_key(const codec_type *map, const void *keys, size_t n,
                                   codec_arena *arena);

/* Fails with a payload error of `stage` at byte `at` naming the first
 * repeated key of a schemaless object ("duplicate key 'k' in <container>"),
 * or with CODEC_E_NOMEM; CODEC_OK when the keys are unique. */
int codec__check_unique_members(const codec_member *members, size_t n, codec_arena *arena,
                                const char *stage, uint64_t at, const char *container,
                                codec_error *err);

/* Grows an arena array of esz-byte items so that index `count` fits
 * (doubling *cap); NULL when out of memory. */
void *codec__array_grow(codec_arena *arena, void *items, size_t count, size_t *cap, size_t esz);

#endif
