/* encode.c — writes a C value as protobuf, driven by the plan.
 *
 * One forward pass. A length-delimited value whose size is not known up
 * front (a nested message, a packed run, a map entry) gets a one-byte length
 * placeholder; when the body turns out to be 128 bytes or more it is moved
 * up to make room for the longer varint. Most nested messages are small, so
 * the move is rare and there is no separate sizing walk. */
#include "formats/protobuf/pb_internal.h"
#include "types/xmap_internal.h"
#include "core/error_internal.h"
#include "core/buf_internal.h"

/* The state is codec_pb_enc (codec/codegen.h): specialized code shares it. */
typedef codec_pb_enc pb_enc;

/* The writers take the write position `p` and return the new one, or NULL
 * after filling e->err, so the position stays in a register. */
static uint8_t *put_msg(pb_enc *e, uint8_t *p, const pb_msg *m, const uint8_t *v, size_t depth);

static uint8_t *grow(pb_enc *e, uint8_t *p, size_t n)
{
    if (!(p = codec__buf_grow(e->buf, p, n))) {
        e->rc = codec__nomem(e->err, PB_STAGE);
        return NULL;
    }
    e->end = e->buf->data + e->buf->cap;
    return p;
}

/* Makes room for n more bytes at p. */
#define NEED(n)                                                               \
    do {                                                                      \
        if (__builtin_expect((size_t)(e->end - p) < (size_t)(n), 0) &&        \
            !(p = grow(e, p, (n))))                                           \
            return NULL;                                                      \
    } while (0)

static uint8_t *bad_value(pb_enc *e, const char *what)
{
    e->rc = codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, PB_STAGE, CODEC_NO_OFFSET,
                    "field '%s': %s", e->field ? e->field : "?", what);
    return NULL;
}

static inline uint8_t *put_key(uint8_t *p, const uint8_t key[8], unsigned key_len)
{
    memcpy(p, key, 8);    /* callers reserve 8 bytes for any key */
    return p + key_len;
}

static inline uint8_t *put_le(uint8_t *p, uint64_t x, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(x >> (8 * i));
    return p + n;
}

/* The integer (or float bits) of a scalar as 64-bit two's complement. */
static inline uint64_t load_int(const pb_val *v, const void *p)
{
    switch (v->csize) {
    case 1: return v->is_signed ? (uint64_t)(int64_t)*(const int8_t *)p : *(const uint8_t *)p;
    case 2: return v->is_signed ? (uint64_t)(int64_t)*(const int16_t *)p : *(const uint16_t *)p;
    case 4: return v->is_signed ? (uint64_t)(int64_t)*(const int32_t *)p : *(const uint32_t *)p;
    default: return *(const uint64_t *)p;
    }
}

/* Writes a number (room for 10 bytes reserved). */
static inline uint8_t *put_number(uint8_t *p, const pb_val *v, uint64_t x)
{
    switch (v->op) {
    case PB_OP_ZIGZAG: return codec_leb128_put(p, codec_zigzag64((int64_t)x));
    case PB_OP_FIXED32: return put_le(p, x, 4);
    case PB_OP_FIXED64: return put_le(p, x, 8);
    default: return codec_leb128_put(p, x);   /* BOOL, VARINT */
    }
}

/* A body of 128 bytes or more: moves it up to fit its longer length. */
__attribute__((noinline)) static uint8_t *close_long(pb_enc *e, uint8_t *p, size_t at,
                                                     size_t len)
{
    if (len > INT32_MAX)
        return bad_value(e, "a message over 2 GiB cannot be written");
    size_t n = codec_leb128_size(len);
    NEED(n - 1);
    uint8_t *data = e->buf->data;
    memmove(data + at + n, data + at + 1, len);
    codec_leb128_put(data + at, len);
    return p + n - 1;
}

/* Writes the length of everything after the one-byte placeholder at `at`. */
static inline uint8_t *close_len(pb_enc *e, uint8_t *p, size_t at)
{
    size_t len = (size_t)(p - e->buf->data) - at - 1;
    if (__builtin_expect(len < 0x80, 1)) {
        e->buf->data[at] = (uint8_t)len;
        return p;
    }
    return close_long(e, p, at, len);
}

static bool timestamp_ok(const codec_timestamp *t)
{
    /* 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59Z, as google.protobuf.Timestamp. */
    return t->seconds >= -62135596800LL && t->seconds <= 253402300799LL && t->nanos >= 0 &&
           t->nanos <= 999999999 && t->offset_minutes >= -1439 && t->offset_minutes <= 1439;
}

static uint8_t *put_timestamp(pb_enc *e, uint8_t *p, const codec_timestamp *t)
{
    if (!timestamp_ok(t))
        return bad_value(e, "timestamp outside years 1..9999, or bad nanos or offset");
    uint64_t off = codec_zigzag64(t->offset_minutes);
    size_t len = (t->seconds ? 1 + codec_leb128_size((uint64_t)t->seconds) : 0) +
                 (t->nanos ? 1 + codec_leb128_size((uint64_t)t->nanos) : 0) +
                 (off ? 1 + codec_leb128_size(off) : 0);
    NEED(1 + len);
    *p++ = (uint8_t)len;   /* at most 11 + 6 + 3 bytes */
    if (t->seconds)
        *p++ = 1 << 3 | PB_WT_VARINT, p = codec_leb128_put(p, (uint64_t)t->seconds);
    if (t->nanos)
        *p++ = 2 << 3 | PB_WT_VARINT, p = codec_leb128_put(p, (uint64_t)t->nanos);
    if (off)
        *p++ = 3 << 3 | PB_WT_VARINT, p = codec_leb128_put(p, off);
    return p;
}

static bool all_zero(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return false;
    return true;
}

/* A string, bytes or decimal value with its key. */
static inline uint8_t *put_text(pb_enc *e, uint8_t *p, const uint8_t key[8], unsigned key_len,
                                const pb_val *v, const codec_bytes *s)
{
    size_t n = s->len;
    if (v->op == PB_OP_DECIMAL && !codec__decimal_text_valid((const char *)s->data, n))
        return bad_value(e, "not a decimal number");
    NEED(8 + 10 + n);
    p = put_key(p, key, key_len);
    if (n < 0x80)
        *p++ = (uint8_t)n;
    else
        p = codec_leb128_put(p, n);
    if (n && codec_copy_ascii(p, s->data, n) && v->op == PB_OP_STRING &&
        !codec__utf8_valid(s->data, n))
        return bad_value(e, "string is not valid UTF-8");
    return p + n;
}

static uint8_t *put_field(pb_enc *e, uint8_t *p, const uint8_t key[8], unsigned key_len,
                          const pb_val *v, const void *fv, bool explicit, size_t depth);

/* Out of line: its buffers would make every put_field frame large. */
__attribute__((noinline)) static uint8_t *put_xmap(pb_enc *e, uint8_t *p, const uint8_t key[8],
                                                   unsigned key_len, const pb_val *v,
                                                   const void *fv, bool explicit, size_t depth)
{
    codec_xmap_frame f;
    if (codec_xmap_to_wire(v->type, fv, &f))
        return bad_value(e, "rejected by its xmap adapter");
    return put_field(e, p, key, key_len, v->xwire, f.wire, explicit, depth);
}

/* Writes key + value; with `explicit` false a default value is left out. */
static uint8_t *put_field(pb_enc *e, uint8_t *p, const uint8_t key[8], unsigned key_len,
                          const pb_val *v, const void *fv, bool explicit, size_t depth)
{
    switch (v->op) {
    case PB_OP_BOOL:
    case PB_OP_VARINT:
    case PB_OP_ZIGZAG:
    case PB_OP_FIXED32:
    case PB_OP_FIXED64: {
        uint64_t x = load_int(v, fv);
        if (!x && !explicit)
            return p;
        NEED(8 + 10);
        return put_number(put_key(p, key, key_len), v, x);
    }
    case PB_OP_STRING:
    case PB_OP_DECIMAL:
    case PB_OP_BYTES: {
        const codec_bytes *s = fv;   /* codec_string has the same layout */
        if (!s->len && !explicit)
            return p;
        return put_text(e, p, key, key_len, v, s);
    }
    case PB_OP_UUID:
        if (!explicit && all_zero(fv, 16))
            return p;
        NEED(8 + 1 + 16);
        p = put_key(p, key, key_len);
        *p++ = 16;
        memcpy(p, fv, 16);
        return p + 16;
    case PB_OP_TIMESTAMP: {
        const codec_timestamp *t = fv;
        if (!explicit && !t->seconds && !t->nanos && !t->offset_minutes)
            return p;
        NEED(8);
        return put_timestamp(e, put_key(p, key, key_len), t);
    }
    case PB_OP_MESSAGE: {
        NEED(8 + 1);
        size_t start = (size_t)(p - e->buf->data);
        p = put_key(p, key, key_len);
        size_t at = (size_t)(p - e->buf->data);
        const char *field = e->field;
        if (!(p = put_msg(e, p + 1, v->msg, fv, depth + 1)))
            return NULL;
        e->field = field;
        /* An empty message is the default of a plain message field. */
        if (!explicit && (size_t)(p - e->buf->data) == at + 1)
            return e->buf->data + start;
        return close_len(e, p, at);
    }
    default: return put_xmap(e, p, key, key_len, v, fv, explicit, depth);
    }
}

/* A packed run of scalars: key, length, values back to back. */
static uint8_t *put_packed(pb_enc *e, uint8_t *p, const pb_field *f, const codec_list *l)
{
    if (!l->count)
        return p;
    const pb_val *v = &f->val;
    NEED(8 + 1);
    p = put_key(p, f->key, f->key_len);
    size_t at = (size_t)(p - e->buf->data);
    p++;
    const uint8_t *item = l->items;
    /* Floats, doubles and fixed-width ints of the wire's width are the
     * wire bytes already (little-endian host). */
    unsigned width = v->op == PB_OP_FIXED32 ? 4 : v->op == PB_OP_FIXED64 ? 8 : 0;
    if (width && v->csize == width && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
        if (l->count > SIZE_MAX / width)
            return bad_value(e, "list too long");
        NEED(l->count * width);
        memcpy(p, item, l->count * width);
        p += l->count * width;
    } else {
        for (size_t i = 0; i < l->count; i++, item += f->elem_size) {
            NEED(10);
            p = put_number(p, v, load_int(v, item));
        }
    }
    return close_len(e, p, at);
}

static uint8_t *put_repeated(pb_enc *e, uint8_t *p, const pb_field *f, const codec_list *l,
                             size_t depth)
{
    const uint8_t *item = l->items;
    for (size_t i = 0; i < l->count && p; i++, item += f->elem_size)
        p = put_field(e, p, f->key, f->key_len, &f->val, item, true, depth);
    return p;
}

/* Each entry is a message {key = 1; value = 2}; both are always written,
 * as Google's serializers do. */
static uint8_t *put_map(pb_enc *e, uint8_t *p, const pb_field *f, const codec_map *m,
                        size_t depth)
{
    const uint8_t k1[8] = {1 << 3 | f->mkey.wire}, k2[8] = {2 << 3 | f->val.wire};
    const uint8_t *k = m->keys, *v = m->values;
    for (size_t i = 0; i < m->count; i++, k += f->key_size, v += f->elem_size) {
        NEED(8 + 1);
        p = put_key(p, f->key, f->key_len);
        size_t at = (size_t)(p - e->buf->data);
        p++;
        if (!(p = put_field(e, p, k1, 1, &f->mkey, k, true, depth)) ||
            !(p = put_field(e, p, k2, 1, &f->val, v, true, depth)) || !(p = close_len(e, p, at)))
            return NULL;
    }
    return p;
}

/* Field f of the message at v. */
__attribute__((always_inline)) static inline uint8_t *
put_one(pb_enc *e, uint8_t *p, const pb_field *f, const uint8_t *v, size_t depth)
{
    const uint8_t *fv = v + f->offset;
    e->field = f->name;
    switch (f->mode) {
    case PB_SINGLE:
        /* Numbers and text inline: they are most fields. */
        if (f->val.op <= PB_OP_FIXED64) {
            uint64_t x = load_int(&f->val, fv);
            if (x) {
                NEED(8 + 10);
                p = put_number(put_key(p, f->key, f->key_len), &f->val, x);
            }
        } else if (f->val.op <= PB_OP_DECIMAL) {
            if (((const codec_bytes *)fv)->len)
                p = put_text(e, p, f->key, f->key_len, &f->val, (const codec_bytes *)fv);
        } else {
            p = put_field(e, p, f->key, f->key_len, &f->val, fv, false, depth);
        }
        return p;
    case PB_OPTIONAL:
        if (*(const bool *)fv)
            p = put_field(e, p, f->key, f->key_len, &f->val, fv + f->value_offset, true, depth);
        return p;
    case PB_PACKED:
        return f->unpacked ? put_repeated(e, p, f, (const codec_list *)fv, depth)
                           : put_packed(e, p, f, (const codec_list *)fv);
    case PB_POINTER: {
        const void *target = *(const void *const *)fv;
        if (target)
            p = put_field(e, p, f->key, f->key_len, &f->val, target, true, depth);
        return p;
    }
    case PB_REPEATED: return put_repeated(e, p, f, (const codec_list *)fv, depth);
    case PB_MAP: return put_map(e, p, f, (const codec_map *)fv, depth);
    case PB_ONEOF: {
        /* Members are consecutive: the first one checks `which`. */
        uint32_t which = codec_union_which(fv);
        if (f->case_index == 1 && which > f->case_count)
            return bad_value(e, "union `which` is past its last member");
        if (which != f->case_index)
            return p;
        const void *member = fv + f->value_offset;
        if (f->boxed && !(member = *(const void *const *)member)) {
            NEED(8 + 1);   /* chosen but NULL: an empty message */
            p = put_key(p, f->key, f->key_len);
            *p++ = 0;
            return p;
        }
        return put_field(e, p, f->key, f->key_len, &f->val, member, true, depth);
    }
    default: return p;   /* PB_UNKNOWN: written last */
    }
}

static uint8_t *put_msg(pb_enc *e, uint8_t *p, const pb_msg *m, const uint8_t *v, size_t depth)
{
    if (depth > e->max_depth)
        return bad_value(e, "messages nest deeper than max-depth");
    if (m->gen)   /* specialized code */
        return m->gen->pb_encode(e, p, m, v, depth);
    const pb_field *f = m->fields, *last = f + m->count;
    for (; f < last && p; f++)
        p = put_one(e, p, f, v, depth);
    if (p && m->unknown) {
        const codec_bytes *u = (const codec_bytes *)(v + m->unknown->offset);
        NEED(u->len);
        if (u->len)
            memcpy(p, u->data, u->len);
        p += u->len;
    }
    return p;
}

/* ---------------------------------------------------------------------------
 * What specialized code calls (codec/codegen.h)
 * ------------------------------------------------------------------------ */

uint8_t *codec_pb_grow(codec_pb_enc *e, uint8_t *p, size_t n)
{
    return grow(e, p, n);
}

uint8_t *codec_pb_enc_field(codec_pb_enc *e, uint8_t *p, const codec_pb_msg *m, size_t index,
                            const void *value, size_t depth)
{
    return put_one(e, p, &m->fields[index], value, depth);
}

uint8_t *codec_pb_enc_text(codec_pb_enc *e, uint8_t *p, const codec_pb_msg *m, size_t index,
                           const codec_bytes *s)
{
    const pb_field *f = &m->fields[index];
    e->field = f->name;
    return put_text(e, p, f->key, f->key_len, &f->val, s);
}

int codec__pb_encode(const pb_state *st, const void *value, codec_buf *out, codec_error *err)
{
    size_t base = out->len;
    pb_enc e = {.buf = out, .err = err, .max_depth = st->o.max_depth};
    if (codec_buf_reserve(out, 64))
        return codec__nomem(err, PB_STAGE);
    e.end = out->data + out->cap;
    uint8_t *p = put_msg(&e, out->data + out->len, st->root, value, 0);
    if (!p) {
        out->len = base;
        return e.rc;
    }
    out->len = (size_t)(p - out->data);
    return CODEC_OK;
}
