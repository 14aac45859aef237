/* encode.c — descriptor-driven CBOR writing, and the deterministic sort of
 * map entries. */
#define _GNU_SOURCE /* qsort_r */
#include "formats/cbor/cbor_internal.h"
#include "types/time_text_internal.h"
#include "types/xmap_internal.h"

#include <stdlib.h>

typedef codec_cbor_options fmt_options;

typedef struct enc {
    codec_buf *out;
    const fmt_options *o;
    codec_error *err;
} enc;

static int enc_any(enc *e, const codec_type *t, const void *v);

static int enc_fail(enc *e, const codec_type *t, const char *what)
{
    return codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, "cbor", CODEC_NO_OFFSET,
                           "%s value: %s", t->name ? t->name : "?", what);
}

/* An integer -mag or +mag given as a big-endian magnitude (tag 2/3 past 64
 * bits, RFC 8949 §3.4.3). */
static int enc_bigint(enc *e, bool neg, const uint8_t *mag, size_t len)
{
    uint8_t m[BIN_BIGNUM_MAX_BYTES];
    memcpy(m, mag, len);
    if (neg && len) {
        /* Negative n is written as -1 - n: subtract one first. */
        for (size_t i = len; i-- > 0;)
            if (m[i]--)
                break;
    }
    size_t skip = 0;
    while (skip < len && m[skip] == 0)
        skip++;
    if (len - skip <= 8)
        return cbor_out_head(e->out, neg && len ? CBOR_NEGINT : CBOR_UINT,
                             bin_mag_u64(m + skip, len - skip), e->err);
    if (cbor_out_head(e->out, CBOR_TAG, neg ? CBOR_TAG_NEGBIG : CBOR_TAG_POSBIG, e->err))
        return CODEC_E_NOMEM;
    return cbor_out_string(e->out, CBOR_BYTES, m + skip, len - skip, e->err);
}

/* Decimal text: an integer when it has no fraction or exponent, else a
 * decimal fraction 4([exponent, mantissa]) (RFC 8949 §3.4.4). */
static int enc_decimal(enc *e, const codec_type *t, const codec_string *s)
{
    bin_decimal d;
    if (codec__bin_decimal_parse(s->ptr ? s->ptr : "", s->len, &d))
        return enc_fail(e, t, "not a decimal number (or longer than 1233 digits)");
    if (d.exponent == 0)
        return enc_bigint(e, d.neg, d.mag, d.len);
    if (cbor_out_head(e->out, CBOR_TAG, CBOR_TAG_DECIMAL, e->err) ||
        cbor_out_head(e->out, CBOR_ARRAY, 2, e->err) || cbor_out_int(e->out, d.exponent, e->err))
        return CODEC_E_NOMEM;
    return enc_bigint(e, d.neg, d.mag, d.len);
}

static int enc_timestamp(enc *e, const codec_type *t, const codec_timestamp *ts)
{
    if (ts->nanos == 0 && ts->offset_minutes == 0) {
        if (cbor_out_head(e->out, CBOR_TAG, CBOR_TAG_EPOCH, e->err))
            return CODEC_E_NOMEM;
        return cbor_out_int(e->out, ts->seconds, e->err);
    }
    /* Fractions and offsets are kept exactly by the RFC 3339 form. */
    char text[CODEC_TIMESTAMP_MAX_CHARS];
    int n = codec__format_timestamp(ts, text);
    if (n < 0)
        return enc_fail(e, t, "out of range (years 0..9999, nanos, offset)");
    if (cbor_out_head(e->out, CBOR_TAG, CBOR_TAG_DATETIME, e->err))
        return CODEC_E_NOMEM;
    return cbor_out_string(e->out, CBOR_TEXT, text, (size_t)n, e->err);
}

static int enc_key_name(enc *e, const codec_field *f)
{
    if (e->o->tag_keys)
        return cbor_out_head(e->out, CBOR_UINT, f->tag, e->err);
    /* Field names are short: a one-byte head (< 24 bytes) and a copy. */
    if (cbor_room(e->out, 24, e->err))
        return CODEC_E_NOMEM;
    uint8_t *d = e->out->data + e->out->len;
    size_t n = bin_copy_name(d + 1, f->name, 23);
    if (n < 23) {
        d[0] = (uint8_t)(CBOR_TEXT << 5 | n);
        e->out->len += n + 1;
        return CODEC_OK;
    }
    return cbor_out_string(e->out, CBOR_TEXT, f->name, strlen(f->name), e->err);
}

static int enc_struct(enc *e, const codec_type *t, const uint8_t *v)
{
    size_t present = 0;
    for (size_t i = 0; i < t->count; i++)
        present += !codec_field_absent(&t->fields[i], v);
    int rc = cbor_out_head(e->out, CBOR_MAP, present, e->err);
    size_t start = e->out->len;
    for (size_t i = 0; i < t->count && !rc; i++) {
        const codec_field *f = &t->fields[i];
        if (codec_field_absent(f, v))
            continue;
        if (!(rc = enc_key_name(e, f)))
            rc = enc_any(e, f->type, v + f->offset);
    }
    if (!rc && e->o->deterministic)
        rc = codec__cbor_sort_map(e->out, start, present, e->err);
    return rc;
}

/* A map of one entry, the member's key (its name, or its tag with
 * keys=tags) and value; null when empty. */
static int enc_union(enc *e, const codec_type *t, const uint8_t *v)
{
    if (!codec_union_which(v))
        return cbor_out_byte(e->out, CBOR_NULL, e->err);
    const codec_field *f = codec_union_active(t, v);
    if (!f)
        return enc_fail(e, t, "`which` is past the last member");
    int rc = cbor_out_head(e->out, CBOR_MAP, 1, e->err);
    if (!rc)
        rc = enc_key_name(e, f);
    return rc ? rc : enc_any(e, f->type, v + f->offset);
}

static int enc_list(enc *e, const codec_type *t, const codec_list *l)
{
    int rc = cbor_out_head(e->out, CBOR_ARRAY, l->count, e->err);
    const uint8_t *item = l->items;
    size_t esz = t->elem->size;
    for (size_t i = 0; i < l->count && !rc; i++, item += esz)
        rc = enc_any(e, t->elem, item);
    return rc;
}

static int enc_map(enc *e, const codec_type *t, const codec_map *m)
{
    int rc = cbor_out_head(e->out, CBOR_MAP, m->count, e->err);
    size_t start = e->out->len;
    const uint8_t *k = m->keys, *v = m->values;
    for (size_t i = 0; i < m->count && !rc; i++, k += t->key->size, v += t->elem->size)
        if (!(rc = enc_any(e, t->key, k)))
            rc = enc_any(e, t->elem, v);
    if (!rc && e->o->deterministic)
        rc = codec__cbor_sort_map(e->out, start, m->count, e->err);
    return rc;
}

static int enc_xmap(enc *e, const codec_type *t, const void *v)
{
    codec_xmap_frame f;
    if (codec_xmap_to_wire(t, v, &f))
        return enc_fail(e, t, "rejected by its xmap adapter");
    return enc_any(e, t->xmap->wire, f.wire);
}

static int enc_leaf(enc *e, const codec_type *t, const void *v)
{
    switch (t->kind) {
    case CODEC_T_BOOL:
        return cbor_out_byte(e->out, *(const bool *)v ? CBOR_TRUE : CBOR_FALSE, e->err);
    case CODEC_T_FLOAT: return cbor_out_double(e->out, *(const float *)v, e->err);
    case CODEC_T_DOUBLE: return cbor_out_double(e->out, *(const double *)v, e->err);
    case CODEC_T_STRING: {
        const codec_string *s = v;
        return cbor_out_text(e->out, s->ptr, s->len, e->err);
    }
    case CODEC_T_BYTES: {
        const codec_bytes *b = v;
        return cbor_out_string(e->out, CBOR_BYTES, b->data, b->len, e->err);
    }
    case CODEC_T_UUID:
        if (cbor_out_head(e->out, CBOR_TAG, CBOR_TAG_UUID, e->err))
            return CODEC_E_NOMEM;
        return cbor_out_string(e->out, CBOR_BYTES, v, 16, e->err);
    case CODEC_T_DATE:
        if (cbor_out_head(e->out, CBOR_TAG, CBOR_TAG_DAYS, e->err))
            return CODEC_E_NOMEM;
        return cbor_out_int(e->out, ((const codec_date *)v)->days, e->err);
    case CODEC_T_TIMESTAMP: return enc_timestamp(e, t, v);
    case CODEC_T_DECIMAL: return enc_decimal(e, t, v);
    default:
        if (codec_kind_is_signed(t->kind))
            return cbor_out_int(e->out, codec_int_load(t->kind, v), e->err);
        return cbor_out_head(e->out, CBOR_UINT, codec_uint_load(t->kind, v), e->err);
    }
}

static int enc_any(enc *e, const codec_type *t, const void *v)
{
    switch (t->kind) {
    case CODEC_T_STRUCT: return enc_struct(e, t, v);
    case CODEC_T_UNION: return enc_union(e, t, v);
    case CODEC_T_LIST: return enc_list(e, t, v);
    case CODEC_T_MAP: return enc_map(e, t, v);
    case CODEC_T_OPTIONAL: {
        const void *in = codec_optional_get(t, v);
        return in ? enc_any(e, t->elem, in) : cbor_out_byte(e->out, CBOR_NULL, e->err);
    }
    case CODEC_T_ENUM: {
        int32_t n = *(const int32_t *)v;
        if (!codec_enum_by_number(t, n))
            return codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, "cbor", CODEC_NO_OFFSET,
                                   "%s value: %d is not one of its numbers",
                                   t->name ? t->name : "enum", (int)n);
        return cbor_out_int(e->out, n, e->err);
    }
    case CODEC_T_XMAP: return enc_xmap(e, t, v);
    case CODEC_T_VALUE: return codec__cbor_write_value(e->out, v, e->o, e->err);
    default: return enc_leaf(e, t, v);
    }
}

/* ---------------------------------------------------------------------------
 * The planned walk: formats/binary/plan_encode_internal.h with CBOR's items.
 * ------------------------------------------------------------------------ */

static inline uint8_t *put_int(uint8_t *p, int64_t v)
{
    /* -1 - v is ~v: one head call for both signs. */
    uint64_t m = (uint64_t)(v >> 63);
    return cbor_put_head(p, (unsigned)(m & 1), (uint64_t)v ^ m);
}

uint8_t *codec__cbor_put_float_edge(uint8_t *p, float f)
{
    uint16_t h;
    if (codec__bin_float_to_half(f, &h)) {
        p[0] = 0xf9;
        codec_store_be16(p + 1, h);
        return p + 3;
    }
    p[0] = 0xfa;
    codec_store_be32(p + 1, bin_float_bits(f));
    return p + 5;
}

static inline __attribute__((always_inline)) uint8_t *fmt_scalar(uint8_t *p, unsigned op,
                                                                 const void *v)
{
    switch (op) {
    case BIN_OP_BOOL: *p = *(const bool *)v ? CBOR_TRUE : CBOR_FALSE; return p + 1;
    case BIN_OP_I8: return put_int(p, *(const int8_t *)v);
    case BIN_OP_I16: return put_int(p, *(const int16_t *)v);
    case BIN_OP_I32: return put_int(p, *(const int32_t *)v);
    case BIN_OP_I64: return put_int(p, *(const int64_t *)v);
    case BIN_OP_U8: return cbor_put_head(p, CBOR_UINT, *(const uint8_t *)v);
    case BIN_OP_U16: return cbor_put_head(p, CBOR_UINT, *(const uint16_t *)v);
    case BIN_OP_U32: return cbor_put_head(p, CBOR_UINT, *(const uint32_t *)v);
    case BIN_OP_U64: return cbor_put_head(p, CBOR_UINT, *(const uint64_t *)v);
    case BIN_OP_F32: return cbor_put_double(p, *(const float *)v);
    case BIN_OP_F64: return cbor_put_double(p, *(const double *)v);
    default: return NULL;
    }
}

static inline uint8_t *fmt_text_head(uint8_t *p, size_t n)
{
    return cbor_put_head(p, CBOR_TEXT, n);
}

static inline uint8_t *fmt_head(uint8_t *p, bool map, size_t n)
{
    return cbor_put_head(p, map ? CBOR_MAP : CBOR_ARRAY, n);
}

static inline bool fmt_planned(const enc *e, const bin_struct *s)
{
    (void)e, (void)s;
    return true;
}

#define FMT_TEXT_MAX (SIZE_MAX / 2)
#define FMT_STAGE "cbor"
#define FMT_NULL CBOR_NULL
#define FMT_NOMEM CBOR_NOMEM
#include "formats/binary/plan_encode_internal.h"

int codec__cbor_encode_value(const codec_stage *s, const void *value, codec_buf *out,
                             codec_error *err)
{
    const cbor_state *st = s->state;
    enc e = {.out = out, .o = &st->o, .err = err};
    return plan_encode(&e, &st->plan, value);
}

size_t codec__cbor_plan_map_head(size_t n, uint8_t *dst)
{
    return (size_t)(fmt_head(dst, true, n) - dst);
}

/* The key of a struct field: its name as text, or its tag (keys=tags). */
size_t codec__cbor_plan_key(const codec_field *f, const void *ctx, uint8_t *dst)
{
    const codec_cbor_options *o = ctx;
    if (o->tag_keys)
        return (size_t)(cbor_put_head(dst, CBOR_UINT, f->tag) - dst);
    size_t n = strlen(f->name);
    uint8_t *d = cbor_put_head(dst, CBOR_TEXT, n);
    memcpy(d, f->name, n);
    return (size_t)(d + n - dst);
}

/* ---------------------------------------------------------------------------
 * Deterministic map order
 * ------------------------------------------------------------------------ */

typedef struct entry {
    size_t at, key_len, len;     /* offsets relative to the map's first entry */
} entry;

static int entry_cmp(const void *a, const void *b, void *base)
{
    const entry *x = a, *y = b;
    const uint8_t *p = base;
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(p + x->at, p + y->at, n);
    if (c)
        return c;
    return x->key_len < y->key_len ? -1 : x->key_len > y->key_len;
}

int codec__cbor_sort_map(codec_buf *out, size_t start, size_t count, codec_error *err)
{
    if (count < 2)
        return CODEC_OK;
    size_t span = out->len - start;
    /* Scratch past len: the entry table, then the sorted copy. Once out has
     * grown to fit this, steady-state encoding stays allocation-free. */
    size_t table = count * sizeof(entry) + _Alignof(entry);
    if (cbor_room(out, table + span, err))
        return CODEC_E_NOMEM;
    uint8_t *base = out->data + start;
    uint8_t *tail = out->data + out->len;
    entry *ix =
        (entry *)(((uintptr_t)tail + _Alignof(entry) - 1) & ~(uintptr_t)(_Alignof(entry) - 1));
    uint8_t *copy = (uint8_t *)(ix + count);
    codec_cbor_options o = {.max_depth = CODEC_CBOR_MAX_DEPTH_LIMIT, .max_string = SIZE_MAX,
                            .max_elements = SIZE_MAX};
    cbor_rd r = {.base = base, .p = base, .end = base + span, .o = &o, .err = err};
    for (size_t i = 0; i < count; i++) {
        cbor_head h;
        ix[i].at = (size_t)(r.p - base);
        if (cbor_read_head(&r, &h) || codec__cbor_skip(&r, &h))
            return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "cbor", CODEC_NO_OFFSET,
                                   "cannot sort a map whose entries are not well-formed");
        ix[i].key_len = (size_t)(r.p - base) - ix[i].at;
        if (cbor_read_head(&r, &h) || codec__cbor_skip(&r, &h))
            return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "cbor", CODEC_NO_OFFSET,
                                   "cannot sort a map whose entries are not well-formed");
        ix[i].len = (size_t)(r.p - base) - ix[i].at;
    }
    if (count <= 16) {
        /* Struct-sized maps: insertion sort beats qsort's indirect calls. */
        for (size_t i = 1; i < count; i++) {
            entry x = ix[i];
            size_t j = i;
            for (; j > 0 && entry_cmp(&x, &ix[j - 1], base) < 0; j--)
                ix[j] = ix[j - 1];
            ix[j] = x;
        }
    } else {
        qsort_r(ix, count, sizeof *ix, entry_cmp, base);
    }
    bool sorted = true;
    for (size_t i = 0; i < count && sorted; i++)
        sorted = i == 0 || ix[i].at > ix[i - 1].at;
    if (sorted)
        return CODEC_OK;
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        memcpy(copy + at, base + ix[i].at, ix[i].len);
        at += ix[i].len;
    }
    memcpy(base, copy, span);
    return CODEC_OK;
}
