/* value_util.h — helpers of the binary-format conformance tests: read a
 * file, parse its JSON into a codec_value, compare values, decode hex. */
#ifndef CODEC_TEST_VALUE_UTIL_H
#define CODEC_TEST_VALUE_UTIL_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "codec/codec.h"

/* The whole file in the arena (NULL when unreadable). */
static inline uint8_t *vu_read_file(const char *path, size_t *n, codec_arena *arena)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = codec_arena_alloc(arena, (size_t)size + 1, 1);
    *n = fread(p, 1, (size_t)size, f);
    fclose(f);
    return p;
}

/* A JSON document as a codec_value (duplicate keys allowed). */
static inline int vu_parse_json(const uint8_t *text, size_t n, codec_value *out,
                                codec_arena *arena)
{
    codec_error err;
    codec *c = codec_parse("json:duplicates=allow", codec_value_type(), &err);
    int rc = c ? codec_decode(c, text, n, out, arena, &err) : -1;
    if (rc)
        fprintf(stderr, "json: %s\n", err.message);
    codec_free(c);
    return rc;
}

/* Hex digits, optionally separated by '-', into dst; the byte count or -1. */
static inline long vu_hex(const char *s, size_t n, uint8_t *dst, size_t cap)
{
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '-') {
            i++;
            continue;
        }
        unsigned v;
        if (i + 1 >= n || out == cap || sscanf(s + i, "%2x", &v) != 1)
            return -1;
        dst[out++] = (uint8_t)v;
        i += 2;
    }
    return (long)out;
}

static inline bool vu_is_number(const codec_value *v)
{
    return v->kind == CODEC_V_INT || v->kind == CODEC_V_UINT || v->kind == CODEC_V_DOUBLE;
}

static inline double vu_number(const codec_value *v)
{
    return v->kind == CODEC_V_INT ? (double)v->as.i
           : v->kind == CODEC_V_UINT ? (double)v->as.u
                                     : v->as.d;
}

/* Structural equality; numbers compare by value (integers exactly, NaN
 * equal to NaN, -0.0 distinct from 0.0 only between two doubles). */
static inline bool vu_equal(const codec_value *a, const codec_value *b)
{
    if (vu_is_number(a) && vu_is_number(b)) {
        if (a->kind != CODEC_V_DOUBLE && b->kind != CODEC_V_DOUBLE)
            return a->kind == b->kind ? a->as.u == b->as.u : false;
        double x = vu_number(a), y = vu_number(b);
        if (isnan(x) || isnan(y))
            return isnan(x) && isnan(y);
        if (a->kind == CODEC_V_DOUBLE && b->kind == CODEC_V_DOUBLE && signbit(x) != signbit(y))
            return false;
        return x == y;
    }
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case CODEC_V_NULL: return true;
    case CODEC_V_BOOL: return a->as.b == b->as.b;
    case CODEC_V_STRING:
    case CODEC_V_BYTES:
        return a->as.s.len == b->as.s.len &&
               (a->as.s.len == 0 || memcmp(a->as.s.ptr, b->as.s.ptr, a->as.s.len) == 0);
    case CODEC_V_ARRAY:
        if (a->as.array.count != b->as.array.count)
            return false;
        for (size_t i = 0; i < a->as.array.count; i++)
            if (!vu_equal(&a->as.array.items[i], &b->as.array.items[i]))
                return false;
        return true;
    case CODEC_V_OBJECT:
        if (a->as.object.count != b->as.object.count)
            return false;
        for (size_t i = 0; i < a->as.object.count; i++) {
            const codec_member *m = &a->as.object.members[i];
            const codec_value *o = codec_value_get(b, m->key.ptr, m->key.len);
            if (!o || !vu_equal(&m->value, o))
                return false;
        }
        return true;
    default: return false;
    }
}

#endif
