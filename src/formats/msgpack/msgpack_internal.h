/* msgpack_internal.h — what the MessagePack files share: the item reader,
 * the output helpers, the failure helpers and the walkers. */
#ifndef CODEC_MSGPACK_INTERNAL_H
#define CODEC_MSGPACK_INTERNAL_H

#include "codec/msgpack.h"
#include "compose/stage_internal.h"
#include "formats/binary/binary_internal.h"
#include "formats/binary/plan_internal.h"
#include "core/error_internal.h"
#include "core/buf_internal.h"

#define MP_FAIL(err, ...) CODEC_PAYLOAD_FAIL((err), "msgpack", __VA_ARGS__)
#define MP_NOMEM(err) codec__nomem((err), "msgpack")

#define MP_TIMESTAMP (-1)

/* The families of items. */
typedef enum mp_kind {
    MP_NIL, MP_BOOL, MP_UINT, MP_INT, MP_FLOAT, MP_STR, MP_BIN, MP_ARRAY, MP_MAP, MP_EXT
} mp_kind;

/* One item head. For STR, BIN and EXT the payload (len bytes, already
 * checked to be in the input and within max-string) starts at `data`. */
typedef struct mp_item {
    mp_kind kind;
    int8_t ext_type;
    bool b;
    uint64_t u;          /* UINT; also lengths and counts (len) */
    int64_t i;           /* INT (always negative) */
    double d;            /* FLOAT */
    uint64_t len;        /* STR/BIN/EXT bytes, ARRAY items, MAP entries */
    const uint8_t *data;
    size_t at;           /* offset of the format byte */
} mp_item;

typedef struct mp_rd {
    const uint8_t *base, *p, *end;
    const codec_msgpack_options *o;
    codec_arena *arena;
    codec_error *err;
    size_t depth;
    codec_text_pool pool;           /* where the planned walk copies strings to */
} mp_rd;

/* Reads one item head (and skips over a str/bin/ext payload). */
int codec__mp_read(mp_rd *r, mp_item *it);

/* Checks that `items` x count could fit in the remaining input and the
 * element limit, then enters one nesting level. */
int codec__mp_enter(mp_rd *r, const mp_item *it, uint64_t per);

/* Skips the rest of an item (the contents of arrays and maps). */
int codec__mp_skip(mp_rd *r, const mp_item *it);

/* The payload of a STR/BIN item copied into the arena (UTF-8 checked for STR). */
int codec__mp_copy(mp_rd *r, const mp_item *it, codec_string *out);

/* Output: each reserves what it writes. */
static inline int mp_room(codec_buf *out, size_t n, codec_error *err)
{
    return codec__buf_room(out, n) ? MP_NOMEM(err) : CODEC_OK;
}

static inline uint8_t *mp_put_uint(uint8_t *p, uint64_t v)
{
    if (v < 128) {
        *p = (uint8_t)v;
        return p + 1;
    }
    if (v <= 0xff) {
        p[0] = 0xcc, p[1] = (uint8_t)v;
        return p + 2;
    }
    if (v <= 0xffff) {
        p[0] = 0xcd, codec_store_be16(p + 1, (uint16_t)v);
        return p + 3;
    }
    if (v <= 0xffffffffu) {
        p[0] = 0xce, codec_store_be32(p + 1, (uint32_t)v);
        return p + 5;
    }
    p[0] = 0xcf, codec_store_be64(p + 1, v);
    return p + 9;
}

static inline uint8_t *mp_put_int(uint8_t *p, int64_t v)
{
    if (v >= 0)
        return mp_put_uint(p, (uint64_t)v);
    if (v >= -32) {
        *p = (uint8_t)(int8_t)v;
        return p + 1;
    }
    if (v >= INT8_MIN) {
        p[0] = 0xd0, p[1] = (uint8_t)(int8_t)v;
        return p + 2;
    }
    if (v >= INT16_MIN) {
        p[0] = 0xd1, codec_store_be16(p + 1, (uint16_t)(int16_t)v);
        return p + 3;
    }
    if (v >= INT32_MIN) {
        p[0] = 0xd2, codec_store_be32(p + 1, (uint32_t)(int32_t)v);
        return p + 5;
    }
    p[0] = 0xd3, codec_store_be64(p + 1, (uint64_t)v);
    return p + 9;
}

/* A container or string head: fix form when small (fix_base | n below
 * fix_limit), else the 8 (str/bin only), 16 or 32-bit form. */
static inline uint8_t *mp_put_len(uint8_t *p, uint64_t n, uint8_t fix_base, uint64_t fix_limit,
                                  uint8_t f8, uint8_t f16)
{
    if (n < fix_limit) {
        *p = (uint8_t)(fix_base | n);
        return p + 1;
    }
    if (f8 && n <= 0xff) {
        p[0] = f8, p[1] = (uint8_t)n;
        return p + 2;
    }
    if (n <= 0xffff) {
        p[0] = f16, codec_store_be16(p + 1, (uint16_t)n);
        return p + 3;
    }
    p[0] = (uint8_t)(f16 + 1), codec_store_be32(p + 1, (uint32_t)n);
    return p + 5;
}

static inline int mp_out_uint(codec_buf *out, uint64_t v, codec_error *err)
{
    if (mp_room(out, 9, err))
        return CODEC_E_NOMEM;
    out->len = (size_t)(mp_put_uint(out->data + out->len, v) - out->data);
    return CODEC_OK;
}

static inline int mp_out_int(codec_buf *out, int64_t v, codec_error *err)
{
    if (mp_room(out, 9, err))
        return CODEC_E_NOMEM;
    out->len = (size_t)(mp_put_int(out->data + out->len, v) - out->data);
    return CODEC_OK;
}

static inline int mp_out_byte(codec_buf *out, uint8_t b, codec_error *err)
{
    if (mp_room(out, 1, err))
        return CODEC_E_NOMEM;
    out->data[out->len++] = b;
    return CODEC_OK;
}

static inline int mp_out_double(codec_buf *out, double d, codec_error *err)
{
    if (mp_room(out, 9, err))
        return CODEC_E_NOMEM;
    uint8_t *p = out->data + out->len;
    if (bin_fits_float(d) || d != d) {
        p[0] = 0xca, codec_store_be32(p + 1, bin_float_bits((float)d));
        out->len += 5;
    } else {
        p[0] = 0xcb, codec_store_be64(p + 1, bin_double_bits(d));
        out->len += 9;
    }
    return CODEC_OK;
}

static inline int mp_out_array(codec_buf *out, uint64_t n, codec_error *err)
{
    if (mp_room(out, 5, err))
        return CODEC_E_NOMEM;
    out->len = (size_t)(mp_put_len(out->data + out->len, n, 0x90, 16, 0, 0xdc) - out->data);
    return CODEC_OK;
}

static inline int mp_out_map(codec_buf *out, uint64_t n, codec_error *err)
{
    if (mp_room(out, 5, err))
        return CODEC_E_NOMEM;
    out->len = (size_t)(mp_put_len(out->data + out->len, n, 0x80, 16, 0, 0xde) - out->data);
    return CODEC_OK;
}

/* str (text = true, UTF-8 checked) or bin. */
int codec__mp_out_string(codec_buf *out, bool text, const void *p, size_t n, codec_error *err);

/* An ext item of `type` in its smallest form (fixext when n is 1/2/4/8/16). */
int codec__mp_out_ext(codec_buf *out, int8_t type, const void *p, size_t n, codec_error *err);

/* A stage's state: the resolved options and the plan built from them. */
typedef struct mp_state {
    codec_msgpack_options o;
    bin_plan plan;
} mp_state;

/* The plan's key writer (bin_key_writer). */
size_t codec__mp_plan_key(const codec_field *f, const void *ctx, uint8_t *dst);

/* The plan's map head writer (bin_map_head_writer). */
size_t codec__mp_plan_map_head(size_t n, uint8_t *dst);

/* Walkers. */
/* The stage's encode_value (the plan's walk; out->len restored on failure). */
int codec__mp_encode_value(const codec_stage *s, const void *value, codec_buf *out,
                           codec_error *err);
int codec__mp_decode_typed(const mp_state *st, const codec_type *t, const uint8_t *in, size_t n,
                           void *value, codec_arena *arena, codec_error *err);
int codec__mp_write_value(codec_buf *out, const codec_value *v, codec_error *err);
int codec__mp_read_value(mp_rd *r, const mp_item *it, codec_value *out);


#endif
