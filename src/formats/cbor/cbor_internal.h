/* cbor_internal.h — what the CBOR files share: heads, the failure helpers,
 * the reader state and the walkers. */
#ifndef CODEC_CBOR_INTERNAL_H
#define CODEC_CBOR_INTERNAL_H

#include "codec/cbor.h"
#include "compose/stage_internal.h"
#include "formats/binary/binary_internal.h"
#include "formats/binary/plan_internal.h"
#include "core/error_internal.h"
#include "core/buf_internal.h"

enum { CBOR_UINT, CBOR_NEGINT, CBOR_BYTES, CBOR_TEXT, CBOR_ARRAY, CBOR_MAP, CBOR_TAG,
       CBOR_SIMPLE };

/* Tags given a meaning here. */
#define CBOR_TAG_DATETIME 0
#define CBOR_TAG_EPOCH 1
#define CBOR_TAG_POSBIG 2
#define CBOR_TAG_NEGBIG 3
#define CBOR_TAG_DECIMAL 4
#define CBOR_TAG_UUID 37
#define CBOR_TAG_DAYS 100
#define CBOR_TAG_DATE_TEXT 1004
#define CBOR_TAG_SELF 55799

#define CBOR_FALSE 0xf4
#define CBOR_TRUE 0xf5
#define CBOR_NULL 0xf6
#define CBOR_UNDEFINED 0xf7
#define CBOR_BREAK 0xff

#define CBOR_FAIL(err, ...) CODEC_PAYLOAD_FAIL((err), "cbor", __VA_ARGS__)
#define CBOR_NOMEM(err) codec__nomem((err), "cbor")

/* Writes the head of `major` with argument v at p (room for 9 bytes);
 * returns the end. */
static inline uint8_t *cbor_put_head(uint8_t *p, unsigned major, uint64_t v)
{
    uint8_t m = (uint8_t)(major << 5);
    if (v < 24) {
        *p = (uint8_t)(m | v);
        return p + 1;
    }
    if (v <= 0xff) {
        p[0] = m | 24;
        p[1] = (uint8_t)v;
        return p + 2;
    }
    if (v <= 0xffff) {
        p[0] = m | 25;
        codec_store_be16(p + 1, (uint16_t)v);
        return p + 3;
    }
    if (v <= 0xffffffffu) {
        p[0] = m | 26;
        codec_store_be32(p + 1, (uint32_t)v);
        return p + 5;
    }
    p[0] = m | 27;
    codec_store_be64(p + 1, v);
    return p + 9;
}

/* The floats cbor_put_float leaves: zeros, half subnormals, infinities
 * and the floats no half holds. Out of line so that the hot path keeps its
 * half in a register (encode.c; its address is taken there). */
uint8_t *codec__cbor_put_float_edge(uint8_t *p, float f);

/* Writes f as a half when that keeps its value, else as a single. */
static inline uint8_t *cbor_put_float(uint8_t *p, float f)
{
    uint32_t u = bin_float_bits(f), e = u >> 23 & 0xff;
    /* A half keeps 10 of the 23 mantissa bits: most floats fail this test
     * first. Normal halves (biased exponent 113..142) are converted here;
     * zeros, subnormals and infinities by codec__cbor_put_float_edge. */
    if (!(u & 0x1fff)) {
        if (e - 113 <= 142 - 113) {
            p[0] = 0xf9;
            codec_store_be16(p + 1, (uint16_t)((u >> 16 & 0x8000) | (e - 112) << 10 |
                                          (u & 0x7fffff) >> 13));
            return p + 3;
        }
        return codec__cbor_put_float_edge(p, f);
    }
    p[0] = 0xfa;
    codec_store_be32(p + 1, u);
    return p + 5;
}

/* Writes d as the shortest float that keeps its value (room for 9 bytes). */
static inline uint8_t *cbor_put_double(uint8_t *p, double d)
{
    if (d != d) {
        p[0] = 0xf9, p[1] = 0x7e, p[2] = 0x00;
        return p + 3;
    }
    if (bin_fits_float(d))
        return cbor_put_float(p, (float)d);
    p[0] = 0xfb;
    codec_store_be64(p + 1, bin_double_bits(d));
    return p + 9;
}

/* Output helpers: each reserves what it writes (the fast path is one
 * comparison) and reports CODEC_E_NOMEM through err. */
static inline int cbor_room(codec_buf *out, size_t n, codec_error *err)
{
    return codec__buf_room(out, n) ? CBOR_NOMEM(err) : CODEC_OK;
}

static inline int cbor_out_head(codec_buf *out, unsigned major, uint64_t v, codec_error *err)
{
    if (cbor_room(out, 9, err))
        return CODEC_E_NOMEM;
    out->len = (size_t)(cbor_put_head(out->data + out->len, major, v) - out->data);
    return CODEC_OK;
}

static inline int cbor_out_int(codec_buf *out, int64_t v, codec_error *err)
{
    return v < 0 ? cbor_out_head(out, CBOR_NEGINT, (uint64_t)(-1 - v), err)
                 : cbor_out_head(out, CBOR_UINT, (uint64_t)v, err);
}

static inline int cbor_out_double(codec_buf *out, double d, codec_error *err)
{
    if (cbor_room(out, 9, err))
        return CODEC_E_NOMEM;
    out->len = (size_t)(cbor_put_double(out->data + out->len, d) - out->data);
    return CODEC_OK;
}

static inline int cbor_out_byte(codec_buf *out, uint8_t b, codec_error *err)
{
    if (cbor_room(out, 1, err))
        return CODEC_E_NOMEM;
    out->data[out->len++] = b;
    return CODEC_OK;
}

/* A byte or text string (text is not checked here). */
static inline int cbor_out_string(codec_buf *out, unsigned major, const void *p, size_t n,
                                  codec_error *err)
{
    if (n > SIZE_MAX - 9 || cbor_room(out, n + 9, err))
        return CBOR_NOMEM(err);
    uint8_t *d = cbor_put_head(out->data + out->len, major, n);
    if (n)
        memcpy(d, p, n);
    out->len = (size_t)(d + n - out->data);
    return CODEC_OK;
}

/* A text string after a UTF-8 check (CODEC_E_INVALID_VALUE when invalid). */
static inline int cbor_out_text(codec_buf *out, const char *s, size_t n, codec_error *err)
{
    if (!codec__utf8_valid((const uint8_t *)s, n))
        return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "cbor", CODEC_NO_OFFSET,
                               "string is not valid UTF-8");
    return cbor_out_string(out, CBOR_TEXT, s, n, err);
}

/* One decoded head. `arg` is the length/count/value/tag; for major 7 it is
 * the simple value (ai < 24 or the extra byte) or the float bits. */
typedef struct cbor_head {
    uint8_t major, ai;
    bool indefinite;
    uint64_t arg;
    size_t at;              /* offset of the initial byte */
} cbor_head;

/* The reader state of one decode. */
typedef struct cbor_rd {
    const uint8_t *base, *p, *end;
    const codec_cbor_options *o;
    codec_arena *arena;
    codec_error *err;
    size_t depth;
    codec_text_pool pool;           /* where the planned walk copies strings to */
} cbor_rd;

/* Reads one head; checks well-formedness of the head itself (reserved
 * additional info, indefinite lengths where not allowed, two-byte simple
 * values below 32). 0 or an invalid-payload status. */
static inline int cbor_read_head(cbor_rd *r, cbor_head *h)
{
    h->at = (size_t)(r->p - r->base);
    if (r->p == r->end)
        return CBOR_FAIL(r->err, CODEC_D_TRUNCATED, h->at, "input ends before an item");
    uint8_t ib = *r->p++;
    h->major = ib >> 5;
    h->ai = ib & 31;
    h->indefinite = false;
    if (h->ai < 24) {
        h->arg = h->ai;
        return CODEC_OK;
    }
    if (h->ai <= 27) {
        size_t n = (size_t)1 << (h->ai - 24);
        if ((size_t)(r->end - r->p) < n)
            return CBOR_FAIL(r->err, CODEC_D_TRUNCATED, h->at, "input ends inside a head");
        switch (n) {
        case 1: h->arg = r->p[0]; break;
        case 2: h->arg = codec_load_be16(r->p); break;
        case 4: h->arg = codec_load_be32(r->p); break;
        default: h->arg = codec_load_be64(r->p); break;
        }
        r->p += n;
        if (h->major == CBOR_SIMPLE && h->ai == 24 && h->arg < 32)
            return CBOR_FAIL(r->err, CODEC_D_CORRUPT, h->at,
                             "simple value %u in two bytes (not well-formed)", (unsigned)h->arg);
        return CODEC_OK;
    }
    if (h->ai == 31 && (h->major >= CBOR_BYTES && h->major <= CBOR_MAP)) {
        h->indefinite = true;
        h->arg = 0;
        return CODEC_OK;
    }
    if (h->ai == 31 && h->major == CBOR_SIMPLE)
        return CBOR_FAIL(r->err, CODEC_D_CORRUPT, h->at, "unexpected break");
    return CBOR_FAIL(r->err, CODEC_D_CORRUPT, h->at, "reserved additional information %u",
                     (unsigned)h->ai);
}

/* True (and the break consumed) when the next byte is a break. */
static inline bool cbor_at_break(cbor_rd *r)
{
    if (r->p < r->end && *r->p == CBOR_BREAK) {
        r->p++;
        return true;
    }
    return false;
}

/* The float value of a major-7 head with ai 25..27. */
static inline double cbor_head_double(const cbor_head *h)
{
    if (h->ai == 25)
        return codec__bin_half_to_double((uint16_t)h->arg);
    if (h->ai == 26)
        return bin_bits_float((uint32_t)h->arg);
    return bin_bits_double(h->arg);
}

/* Reads the head of the next chunk of the indefinite string `h` into *c and
 * checks that it is a definite string of the same major type. */
int codec__cbor_read_chunk_head(cbor_rd *r, const cbor_head *h, cbor_head *c);

/* Checks that a definite string of h->arg bytes fits in the input and the
 * string limit. */
int codec__cbor_check_string(cbor_rd *r, const cbor_head *h);

/* The bytes of a string item (h is its head; definite or indefinite) in
 * the arena (copied), UTF-8 checked for text. */
int codec__cbor_read_string(cbor_rd *r, const cbor_head *h, codec_string *out);

/* Checks that a definite array/map of `count` items (x2 for maps) could fit
 * in the remaining input and the element limit. */
int codec__cbor_check_count(cbor_rd *r, const cbor_head *h, uint64_t items);

/* Skips the rest of the item whose head is h (nested items included). */
int codec__cbor_skip(cbor_rd *r, const cbor_head *h);

/* Enters / leaves a nesting level (arrays, maps, tags). */
static inline int cbor_enter(cbor_rd *r, const cbor_head *h)
{
    if (++r->depth > r->o->max_depth)
        return CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at, "nesting deeper than max-depth (%zu)",
                         r->o->max_depth);
    return CODEC_OK;
}

/* A stage's state: the resolved options and the plan built from them. */
typedef struct cbor_state {
    codec_cbor_options o;
    bin_plan plan;
} cbor_state;

/* The plan's key writer (bin_key_writer; ctx is the options). */
size_t codec__cbor_plan_key(const codec_field *f, const void *ctx, uint8_t *dst);

/* The plan's map head writer (bin_map_head_writer). */
size_t codec__cbor_plan_map_head(size_t n, uint8_t *dst);

/* Walkers (encode.c, decode.c, value.c). */
/* The stage's encode_value (the plan's walk; out->len restored on failure). */
int codec__cbor_encode_value(const codec_stage *s, const void *value, codec_buf *out,
                             codec_error *err);
int codec__cbor_decode_typed(const cbor_state *st, const codec_type *t, const uint8_t *in, size_t n,
                             void *value, codec_arena *arena, codec_error *err);
int codec__cbor_write_value(codec_buf *out, const codec_value *v, const codec_cbor_options *o,
                            codec_error *err);
int codec__cbor_read_value(cbor_rd *r, const cbor_head *h, codec_value *out);

/* Sorts the `count` entries of the map written at out->data[start..len)
 * by their encoded keys (deterministic mode), using out's spare capacity. */
int codec__cbor_sort_map(codec_buf *out, size_t start, size_t count, codec_error *err);

/* The options with every default filled in. */
void codec__cbor_options_resolve(const codec_cbor_options *in, codec_cbor_options *out);

#endif
