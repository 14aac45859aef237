/* encode.c — descriptor-driven MessagePack writing. */
#include "formats/msgpack/msgpack_internal.h"
#include "types/xmap_internal.h"

typedef codec_msgpack_options fmt_options;

typedef struct enc {
    codec_buf *out;
    const fmt_options *o;
    codec_error *err;
} enc;

static int enc_any(enc *e, const codec_type *t, const void *v);

static int enc_fail(enc *e, const codec_type *t, const char *what)
{
    return codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, "msgpack", CODEC_NO_OFFSET,
                           "%s value: %s", t->name ? t->name : "?", what);
}

/* structs=array: element tag-1 holds the field with that tag; gaps are nil. */
static int enc_struct_array(enc *e, const codec_type *t, const uint8_t *v)
{
    uint32_t max = 0;
    for (size_t i = 0; i < t->count; i++)
        if (t->fields[i].tag > max)
            max = t->fields[i].tag;
    int rc = mp_out_array(e->out, max, e->err);
    for (uint32_t tag = 1; tag <= max && !rc; tag++) {
        const codec_field *f = t->fields[tag - 1 < t->count ? tag - 1 : 0].tag == tag
                                   ? &t->fields[tag - 1]
                                   : codec_type_field_by_tag(t, tag);
        rc = !f || codec_field_absent(f, v) ? mp_out_byte(e->out, 0xc0, e->err)
                                : enc_any(e, f->type, v + f->offset);
    }
    return rc;
}

/* Field names are short: a fixstr head (< 32 bytes) and a copy. */
static int enc_name(enc *e, const char *name)
{
    if (mp_room(e->out, 32, e->err))
        return CODEC_E_NOMEM;
    uint8_t *d = e->out->data + e->out->len;
    size_t n = bin_copy_name(d + 1, name, 31);
    if (n < 31) {
        d[0] = (uint8_t)(0xa0 | n);
        e->out->len += n + 1;
        return CODEC_OK;
    }
    return codec__mp_out_string(e->out, true, name, strlen(name), e->err);
}

static int enc_struct(enc *e, const codec_type *t, const uint8_t *v)
{
    if (t == &codec_msgpack_ext_type) {
        const codec_msgpack_ext *x = (const codec_msgpack_ext *)v;
        return codec__mp_out_ext(e->out, x->type, x->data.data, x->data.len, e->err);
    }
    if (e->o->struct_arrays)
        return enc_struct_array(e, t, v);
    size_t present = 0;
    for (size_t i = 0; i < t->count; i++)
        present += !codec_field_absent(&t->fields[i], v);
    int rc = mp_out_map(e->out, present, e->err);
    for (size_t i = 0; i < t->count && !rc; i++) {
        const codec_field *f = &t->fields[i];
        if (codec_field_absent(f, v))
            continue;
        if (!(rc = enc_name(e, f->name)))
            rc = enc_any(e, f->type, v + f->offset);
    }
    return rc;
}

/* A map of one entry, the member's name and value; nil when empty. */
static int enc_union(enc *e, const codec_type *t, const uint8_t *v)
{
    if (!codec_union_which(v))
        return mp_out_byte(e->out, 0xc0, e->err);
    const codec_field *f = codec_union_active(t, v);
    if (!f)
        return enc_fail(e, t, "`which` is past the last member");
    int rc = mp_out_map(e->out, 1, e->err);
    if (!rc)
        rc = enc_name(e, f->name);
    return rc ? rc : enc_any(e, f->type, v + f->offset);
}

static int enc_list(enc *e, const codec_type *t, const codec_list *l)
{
    int rc = mp_out_array(e->out, l->count, e->err);
    const uint8_t *item = l->items;
    size_t esz = t->elem->size;
    for (size_t i = 0; i < l->count && !rc; i++, item += esz)
        rc = enc_any(e, t->elem, item);
    return rc;
}

static int enc_map(enc *e, const codec_type *t, const codec_map *m)
{
    int rc = mp_out_map(e->out, m->count, e->err);
    const uint8_t *k = m->keys, *v = m->values;
    for (size_t i = 0; i < m->count && !rc; i++, k += t->key->size, v += t->elem->size)
        if (!(rc = enc_any(e, t->key, k)))
            rc = enc_any(e, t->elem, v);
    return rc;
}

/* The timestamp extension in the smallest of its three sizes. */
static int enc_timestamp(enc *e, const codec_type *t, const codec_timestamp *ts)
{
    uint8_t b[12];
    if (ts->nanos < 0 || ts->nanos > 999999999)
        return enc_fail(e, t, "nanos outside 0..999999999");
    if (ts->seconds >= 0 && ts->seconds >> 34 == 0) {
        if (ts->nanos == 0 && ts->seconds <= UINT32_MAX) {
            codec_store_be32(b, (uint32_t)ts->seconds);
            return codec__mp_out_ext(e->out, MP_TIMESTAMP, b, 4, e->err);
        }
        codec_store_be64(b, (uint64_t)ts->nanos << 34 | (uint64_t)ts->seconds);
        return codec__mp_out_ext(e->out, MP_TIMESTAMP, b, 8, e->err);
    }
    codec_store_be32(b, (uint32_t)ts->nanos);
    codec_store_be64(b + 4, (uint64_t)ts->seconds);
    return codec__mp_out_ext(e->out, MP_TIMESTAMP, b, 12, e->err);
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
    case CODEC_T_BOOL: return mp_out_byte(e->out, *(const bool *)v ? 0xc3 : 0xc2, e->err);
    case CODEC_T_FLOAT: {
        if (mp_room(e->out, 5, e->err))
            return CODEC_E_NOMEM;
        uint8_t *p = e->out->data + e->out->len;
        p[0] = 0xca;
        codec_store_be32(p + 1, bin_float_bits(*(const float *)v));
        e->out->len += 5;
        return CODEC_OK;
    }
    case CODEC_T_DOUBLE: return mp_out_double(e->out, *(const double *)v, e->err);
    case CODEC_T_STRING: {
        const codec_string *s = v;
        return codec__mp_out_string(e->out, true, s->ptr, s->len, e->err);
    }
    case CODEC_T_BYTES: {
        const codec_bytes *b = v;
        return codec__mp_out_string(e->out, false, b->data, b->len, e->err);
    }
    case CODEC_T_UUID: return codec__mp_out_string(e->out, false, v, 16, e->err);
    case CODEC_T_DATE: return mp_out_int(e->out, ((const codec_date *)v)->days, e->err);
    case CODEC_T_TIMESTAMP: return enc_timestamp(e, t, v);
    case CODEC_T_DECIMAL: {
        /* No decimal type in MessagePack: the exact text as a str. */
        const codec_string *s = v;
        if (!codec__decimal_text_valid(s->ptr, s->len))
            return enc_fail(e, t, "not a decimal number");
        return codec__mp_out_string(e->out, true, s->ptr, s->len, e->err);
    }
    default:
        if (codec_kind_is_signed(t->kind))
            return mp_out_int(e->out, codec_int_load(t->kind, v), e->err);
        return mp_out_uint(e->out, codec_uint_load(t->kind, v), e->err);
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
        return in ? enc_any(e, t->elem, in) : mp_out_byte(e->out, 0xc0, e->err);
    }
    case CODEC_T_ENUM: {
        int32_t n = *(const int32_t *)v;
        if (!codec_enum_by_number(t, n))
            return codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, "msgpack",
                                   CODEC_NO_OFFSET, "%s value: %d is not one of its numbers",
                                   t->name ? t->name : "enum", (int)n);
        return mp_out_int(e->out, n, e->err);
    }
    case CODEC_T_XMAP: return enc_xmap(e, t, v);
    case CODEC_T_VALUE: return codec__mp_write_value(e->out, v, e->err);
    default: return enc_leaf(e, t, v);
    }
}

/* ---------------------------------------------------------------------------
 * The planned walk: formats/binary/plan_encode_internal.h with MessagePack's items.
 * ------------------------------------------------------------------------ */

static inline uint8_t *put_float(uint8_t *p, float f)
{
    p[0] = 0xca;
    codec_store_be32(p + 1, bin_float_bits(f));
    return p + 5;
}

static inline __attribute__((always_inline)) uint8_t *fmt_scalar(uint8_t *p, unsigned op,
                                                                 const void *v)
{
    switch (op) {
    case BIN_OP_BOOL: *p = *(const bool *)v ? 0xc3 : 0xc2; return p + 1;
    case BIN_OP_I8: return mp_put_int(p, *(const int8_t *)v);
    case BIN_OP_I16: return mp_put_int(p, *(const int16_t *)v);
    case BIN_OP_I32: return mp_put_int(p, *(const int32_t *)v);
    case BIN_OP_I64: return mp_put_int(p, *(const int64_t *)v);
    case BIN_OP_U8: return mp_put_uint(p, *(const uint8_t *)v);
    case BIN_OP_U16: return mp_put_uint(p, *(const uint16_t *)v);
    case BIN_OP_U32: return mp_put_uint(p, *(const uint32_t *)v);
    case BIN_OP_U64: return mp_put_uint(p, *(const uint64_t *)v);
    case BIN_OP_F32: return put_float(p, *(const float *)v);
    case BIN_OP_F64: {
        double d = *(const double *)v;
        if (bin_fits_float(d) || d != d)
            return put_float(p, (float)d);
        p[0] = 0xcb;
        codec_store_be64(p + 1, bin_double_bits(d));
        return p + 9;
    }
    default: return NULL;
    }
}

static inline uint8_t *fmt_text_head(uint8_t *p, size_t n)
{
    return mp_put_len(p, n, 0xa0, 32, 0xd9, 0xda);
}

static inline uint8_t *fmt_head(uint8_t *p, bool map, size_t n)
{
    return map ? mp_put_len(p, n, 0x80, 16, 0, 0xde) : mp_put_len(p, n, 0x90, 16, 0, 0xdc);
}

/* structs=array and the ext struct have their own layouts. */
static inline bool fmt_planned(const enc *e, const bin_struct *s)
{
    return !e->o->struct_arrays && s->type != &codec_msgpack_ext_type;
}

#define FMT_TEXT_MAX UINT32_MAX
#define FMT_STAGE "msgpack"
#define FMT_NULL 0xc0
#define FMT_NOMEM MP_NOMEM
#include "formats/binary/plan_encode_internal.h"

int codec__mp_encode_value(const codec_stage *s, const void *value, codec_buf *out,
                           codec_error *err)
{
    const mp_state *st = s->state;
    enc e = {.out = out, .o = &st->o, .err = err};
    return plan_encode(&e, &st->plan, value);
}

size_t codec__mp_plan_map_head(size_t n, uint8_t *dst)
{
    return (size_t)(fmt_head(dst, true, n) - dst);
}

/* The key of a struct field: its name as a str. */
size_t codec__mp_plan_key(const codec_field *f, const void *ctx, uint8_t *dst)
{
    (void)ctx;
    size_t n = strlen(f->name);
    uint8_t *d = mp_put_len(dst, n, 0xa0, 32, 0xd9, 0xda);
    memcpy(d, f->name, n);
    return (size_t)(d + n - dst);
}
