/* encode.c — the fast way from a C value to compact JSON: one walk over the
 * descriptor writing straight into the output buffer, room made once per
 * value, no per-token calls.
 *
 * It writes exactly what the reference walker (bind.c over writer.c)
 * writes. When a value needs care — a string with bytes to escape or
 * non-ASCII text to check, a number that is not finite, an enum number
 * without a name — it either takes the escaping path of writer.c or gives
 * up; on giving up the caller truncates the output and encodes again with
 * the reference walker, which reports the exact error. Rare kinds (bytes,
 * UUID, dates, decimals, xmap, codec_value, maps with non-string keys) are
 * written by that walker in place. Pretty output always goes that way. */
#include "formats/json/json_scan.h"
#include "types/index_internal.h"
#include "core/number_internal.h"

#include <math.h>
#include <string.h>

typedef struct fast_enc {
    codec_buf *out;
    uint8_t *lim;           /* out->data + out->cap */
    codec_error *err;
    bool plain_names;       /* field and enum names need no check */
    bool nomem;             /* gave up for lack of memory: no second pass */
} fast_enc;

#define GIVE_UP NULL

/* The most bytes a number, literal or separator may take. */
#define SCALAR_ROOM (CODEC_NUMBER_MAX_CHARS + 8)

static uint8_t *grow(fast_enc *e, uint8_t *d, size_t n)
{
    e->out->len = (size_t)(d - e->out->data);
    if (codec_buf_reserve(e->out, n)) {
        e->nomem = true;
        return GIVE_UP;
    }
    e->lim = e->out->data + e->out->cap;
    return e->out->data + e->out->len;
}

/* d with at least n writable bytes after it (the buffer may move). */
static inline uint8_t *room(fast_enc *e, uint8_t *d, size_t n)
{
    return (size_t)(e->lim - d) >= n ? d : grow(e, d, n);
}

/* ---------------------------------------------------------------------------
 * Scalars
 * ------------------------------------------------------------------------ */

static inline unsigned decimal_digits(uint64_t v)
{
    unsigned n = 1;
    for (;;) {
        if (v < 10) return n;
        if (v < 100) return n + 1;
        if (v < 1000) return n + 2;
        if (v < 10000) return n + 3;
        v /= 10000;
        n += 4;
    }
}

/* The decimal digits of v at d. */
static inline uint8_t *put_u64(uint8_t *d, uint64_t v)
{
    unsigned n = decimal_digits(v);
    codec_write_digits(v, (char *)d + n);
    return d + n;
}

static inline uint8_t *put_i64(uint8_t *d, int64_t v)
{
    if (v < 0) {
        *d++ = '-';
        return put_u64(d, (uint64_t)0 - (uint64_t)v);
    }
    return put_u64(d, (uint64_t)v);
}

/* A finite double as codec_format_double writes it. Whole numbers below
 * 2^53 are their own shortest form: the digits, then ".0". */
static inline uint8_t *put_double(uint8_t *d, double v)
{
    if (v != 0 && v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(int64_t)v) {
        d = put_i64(d, (int64_t)v);
        memcpy(d, ".0", 2);
        return d + 2;
    }
    return d + codec_format_double(v, (char *)d);
}

static inline uint8_t *put_float(uint8_t *d, float v)
{
    if (v != 0 && v > -16777216.0f && v < 16777216.0f && v == (float)(int32_t)v) {
        d = put_i64(d, (int32_t)v);
        memcpy(d, ".0", 2);
        return d + 2;
    }
    return d + codec_format_float(v, (char *)d);
}

/* Whether s[0..n) needs no escaping and no UTF-8 check: printable ASCII
 * without '"' and '\\'. Overlapping word loads cover short strings. */
static inline bool plain_text(const uint8_t *s, size_t n)
{
    uint64_t x, y;
    if (n < 8) {
        uint32_t a, b;
        if (n < 4) {
            x = JSON_ONES * 'a';
            for (size_t i = 0; i < n; i++)
                x = x << 8 | s[i];
            return !json_special_bytes(x);
        }
        memcpy(&a, s, 4), memcpy(&b, s + n - 4, 4);
        return !json_special_bytes((uint64_t)a << 32 | b);
    }
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote),
                                                _mm_cmpeq_epi8(v, bslash)),
                                   _mm_cmplt_epi8(v, space));
        if (_mm_movemask_epi8(hit))
            return false;
    }
#endif
    for (; i + 8 < n; i += 8) {
        memcpy(&x, s + i, 8);
        if (json_special_bytes(x))
            return false;
    }
    memcpy(&y, s + n - 8, 8);
    return !json_special_bytes(y);
}

/* "s" at d (room for n + 2 made by the caller when plain). */
static uint8_t *put_string(fast_enc *e, uint8_t *d, const char *s, size_t n)
{
    if (!s)
        s = "";
    if (plain_text((const uint8_t *)s, n)) {
        if (!(d = room(e, d, n + 2)))
            return GIVE_UP;
        *d = '"';
        json_copy_short(d + 1, s, n);
        d[n + 1] = '"';
        return d + n + 2;
    }
    e->out->len = (size_t)(d - e->out->data);
    int rc = json_put_string(e->out, s, n);
    if (rc) {
        e->nomem = rc == CODEC_E_NOMEM;
        return GIVE_UP;
    }
    e->lim = e->out->data + e->out->cap;
    return e->out->data + e->out->len;
}

/* ---------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------ */

static uint8_t *value(fast_enc *e, const codec_type *t, const void *v, uint8_t *d,
                      uint32_t depth);

/* The value written by the reference walker, inside `depth` containers. */
static uint8_t *by_reference(fast_enc *e, const codec_type *t, const void *v, uint8_t *d,
                             uint32_t depth)
{
    e->out->len = (size_t)(d - e->out->data);
    int rc = json_encode_one(e->out, depth, t, v, e->err);
    if (rc) {
        e->nomem = rc == CODEC_E_NOMEM;
        return GIVE_UP;
    }
    e->lim = e->out->data + e->out->cap;
    return e->out->data + e->out->len;
}

static uint8_t *struct_value(fast_enc *e, const codec_type *t, const uint8_t *v, uint8_t *d,
                             uint32_t depth)
{
    const uint32_t *lens = codec_type_name_lengths(t);
    if (!lens)
        return by_reference(e, t, v, d, depth);
    *d++ = '{';
    bool first = true;
    for (size_t i = 0; i < t->count; i++) {
        const codec_field *f = &t->fields[i];
        if (codec_field_absent(f, v))
            continue;
        size_t n = lens[i];
        if (!(d = room(e, d, n + 4 + SCALAR_ROOM)))
            return GIVE_UP;
        *d = ',';
        d += !first;
        first = false;
        *d = '"';
        json_copy_short(d + 1, f->name, n);
        if (!e->plain_names && !plain_text(d + 1, n))
            return GIVE_UP;
        memcpy(d + n + 1, "\":", 2);
        if (!(d = value(e, f->type, v + f->offset, d + n + 3, depth)))
            return GIVE_UP;
    }
    if (!(d = room(e, d, SCALAR_ROOM)))
        return GIVE_UP;
    *d++ = '}';
    return d;
}

static uint8_t *list_value(fast_enc *e, const codec_type *t, const codec_list *l, uint8_t *d,
                           uint32_t depth)
{
    const uint8_t *item = l->items;
    size_t esz = t->elem->size;
    *d++ = '[';
    for (size_t i = 0; i < l->count; i++, item += esz) {
        if (!(d = room(e, d, 1 + SCALAR_ROOM)))
            return GIVE_UP;
        *d = ',';
        d += i != 0;
        if (!(d = value(e, t->elem, item, d, depth)))
            return GIVE_UP;
    }
    if (!(d = room(e, d, SCALAR_ROOM)))
        return GIVE_UP;
    *d++ = ']';
    return d;
}

static uint8_t *map_value(fast_enc *e, const codec_type *t, const codec_map *m, uint8_t *d,
                          uint32_t depth)
{
    const uint8_t *k = m->keys, *v = m->values;
    *d++ = '{';
    for (size_t i = 0; i < m->count; i++, k += t->key->size, v += t->elem->size) {
        const codec_string *key = (const codec_string *)k;
        if (!(d = room(e, d, 1)))
            return GIVE_UP;
        *d = ',';
        d += i != 0;
        if (!(d = put_string(e, d, key->ptr, key->len)) || !(d = room(e, d, 1 + SCALAR_ROOM)))
            return GIVE_UP;
        *d++ = ':';
        if (!(d = value(e, t->elem, v, d, depth)))
            return GIVE_UP;
    }
    if (!(d = room(e, d, SCALAR_ROOM)))
        return GIVE_UP;
    *d++ = '}';
    return d;
}

/* One value at d, which has SCALAR_ROOM bytes of room. */
static uint8_t *value(fast_enc *e, const codec_type *t, const void *v, uint8_t *d,
                      uint32_t depth)
{
    switch (t->kind) {
    case CODEC_T_BOOL:
        if (*(const bool *)v) {
            memcpy(d, "true", 4);
            return d + 4;
        }
        memcpy(d, "false", 5);
        return d + 5;
    case CODEC_T_INT8: return put_i64(d, *(const int8_t *)v);
    case CODEC_T_INT16: return put_i64(d, *(const int16_t *)v);
    case CODEC_T_INT32: return put_i64(d, *(const int32_t *)v);
    case CODEC_T_INT64: return put_i64(d, *(const int64_t *)v);
    case CODEC_T_UINT8: return put_u64(d, *(const uint8_t *)v);
    case CODEC_T_UINT16: return put_u64(d, *(const uint16_t *)v);
    case CODEC_T_UINT32: return put_u64(d, *(const uint32_t *)v);
    case CODEC_T_UINT64: return put_u64(d, *(const uint64_t *)v);
    case CODEC_T_DOUBLE:
        return isfinite(*(const double *)v) ? put_double(d, *(const double *)v) : GIVE_UP;
    case CODEC_T_FLOAT:
        return isfinite(*(const float *)v) ? put_float(d, *(const float *)v) : GIVE_UP;
    case CODEC_T_STRING: {
        const codec_string *s = v;
        return put_string(e, d, s->ptr, s->len);
    }
    case CODEC_T_ENUM: {
        const codec_enum_value *ev = codec_enum_by_number(t, *(const int32_t *)v);
        if (!ev)
            return GIVE_UP;
        size_t n = strlen(ev->name);
        if (!e->plain_names)
            return put_string(e, d, ev->name, n);
        if (!(d = room(e, d, n + 2)))
            return GIVE_UP;
        *d = '"';
        json_copy_short(d + 1, ev->name, n);
        d[n + 1] = '"';
        return d + n + 2;
    }
    case CODEC_T_OPTIONAL: {
        const void *in = codec_optional_get(t, v);
        if (in)
            return value(e, t->elem, in, d, depth);
        memcpy(d, "null", 4);
        return d + 4;
    }
    case CODEC_T_STRUCT:
    case CODEC_T_LIST:
    case CODEC_T_MAP:
        /* The reference walker refuses deeper nesting; it says so. */
        if (depth >= CODEC_JSON_MAX_DEPTH_LIMIT)
            return GIVE_UP;
        if (t->kind == CODEC_T_STRUCT)
            return struct_value(e, t, v, d, depth + 1);
        if (t->kind == CODEC_T_LIST)
            return list_value(e, t, v, d, depth + 1);
        if (t->key->kind == CODEC_T_STRING)
            return map_value(e, t, v, d, depth + 1);
        return by_reference(e, t, v, d, depth);
    default:
        return by_reference(e, t, v, d, depth);
    }
}

/* Depth-first over the descriptor graph; `seen` holds the types already
 * visited (graphs may be cyclic). */
static bool names_plain(const codec_type *t, const codec_type **seen, size_t *n, size_t cap)
{
    for (size_t i = 0; i < *n; i++)
        if (seen[i] == t)
            return true;
    if (*n == cap)
        return false;
    seen[(*n)++] = t;
    switch (t->kind) {
    case CODEC_T_STRUCT:
        for (size_t i = 0; i < t->count; i++)
            if (!plain_text((const uint8_t *)t->fields[i].name, strlen(t->fields[i].name)) ||
                !names_plain(t->fields[i].type, seen, n, cap))
                return false;
        return true;
    case CODEC_T_ENUM:
        for (size_t i = 0; i < t->count; i++)
            if (!plain_text((const uint8_t *)t->values[i].name, strlen(t->values[i].name)))
                return false;
        return true;
    case CODEC_T_MAP:
        return names_plain(t->key, seen, n, cap) && names_plain(t->elem, seen, n, cap);
    case CODEC_T_LIST:
    case CODEC_T_OPTIONAL:
        return names_plain(t->elem, seen, n, cap);
    default:   /* xmap and the leaves: written by the reference walker or nameless */
        return true;
    }
}

bool json_type_names_plain(const codec_type *t)
{
    const codec_type *seen[256];
    size_t n = 0;
    return names_plain(t, seen, &n, sizeof seen / sizeof seen[0]);
}

int json_encode_fast(const codec_type *t, const void *v, bool plain_names, codec_buf *out,
                     codec_error *err)
{
    fast_enc e = {.out = out, .err = err, .plain_names = plain_names, .nomem = false};
    size_t base = out->len;
    if (codec_buf_reserve(out, SCALAR_ROOM))
        return JSON_NOMEM(err);
    e.lim = out->data + out->cap;
    uint8_t *d = value(&e, t, v, out->data + out->len, 0);
    if (d) {
        out->len = (size_t)(d - out->data);
        return CODEC_OK;
    }
    out->len = base;
    return e.nomem ? JSON_NOMEM(err) : 1;
}
