/* encode.c — writes a C value as protobuf, driven by the plan.
 *
 * One forward pass. A length-delimited value whose size is not known up
 * front (a nested message, a packed run, a map entry) gets a one-byte length
 * placeholder; when the body turns out to be 128 bytes or more it is moved
 * up to make room for the longer varint. Most nested messages are small, so
 * the move is rare and there is no separate sizing walk. */
#include "formats/protobuf/pb_internal.h"

typedef struct pb_enc {
    uint8_t *p, *end;        /* write position and end of the buffer's capacity */
    codec_buf *buf;
    codec_error *err;
    size_t max_depth;
    const char *field;       /* the field being written, for messages */
} pb_enc;

static int put_msg(pb_enc *e, const pb_msg *m, const uint8_t *v, size_t depth);

static int grow(pb_enc *e, size_t n)
{
    e->buf->len = (size_t)(e->p - e->buf->data);
    if (codec_buf_reserve(e->buf, n))
        return codec_error_set(e->err, CODEC_E_NOMEM, 0, PB_STAGE, CODEC_NO_OFFSET,
                               "out of memory");
    e->p = e->buf->data + e->buf->len;
    e->end = e->buf->data + e->buf->cap;
    return CODEC_OK;
}

/* Makes room for n more bytes at e->p. */
#define NEED(e, n)                                                       \
    do {                                                                 \
        if ((size_t)((e)->end - (e)->p) < (size_t)(n) && grow((e), (n))) \
            return CODEC_E_NOMEM;                                        \
    } while (0)

static int bad_value(pb_enc *e, const char *what)
{
    return codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, PB_STAGE, CODEC_NO_OFFSET,
                           "field '%s': %s", e->field ? e->field : "?", what);
}

static inline void put_key(pb_enc *e, const uint8_t key[8], unsigned key_len)
{
    memcpy(e->p, key, 8);    /* callers reserve 8 bytes for any key */
    e->p += key_len;
}

static inline void put_le(pb_enc *e, uint64_t x, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        e->p[i] = (uint8_t)(x >> (8 * i));
    e->p += n;
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
static inline void put_number(pb_enc *e, const pb_val *v, uint64_t x)
{
    switch (v->op) {
    case PB_OP_ZIGZAG: e->p = pb_put_varint(e->p, pb_zigzag((int64_t)x)); break;
    case PB_OP_FIXED32: put_le(e, x, 4); break;
    case PB_OP_FIXED64: put_le(e, x, 8); break;
    default: e->p = pb_put_varint(e->p, x); break;   /* BOOL, VARINT */
    }
}

/* Reserves a one-byte length; returns its offset in the buffer. */
static inline size_t open_len(pb_enc *e)
{
    size_t at = (size_t)(e->p - e->buf->data);
    e->p++;
    return at;
}

/* Writes the length of everything after the placeholder at `at`. */
static int close_len(pb_enc *e, size_t at)
{
    uint8_t *data = e->buf->data;
    size_t len = (size_t)(e->p - data) - at - 1;
    if (len < 0x80) {
        data[at] = (uint8_t)len;
        return CODEC_OK;
    }
    if (len > INT32_MAX)
        return bad_value(e, "a message over 2 GiB cannot be written");
    size_t n = pb_varint_size(len);
    NEED(e, n - 1);
    data = e->buf->data;
    memmove(data + at + n, data + at + 1, len);
    pb_put_varint(data + at, len);
    e->p += n - 1;
    return CODEC_OK;
}

static bool timestamp_ok(const codec_timestamp *t)
{
    /* 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59Z, as google.protobuf.Timestamp. */
    return t->seconds >= -62135596800LL && t->seconds <= 253402300799LL && t->nanos >= 0 &&
           t->nanos <= 999999999 && t->offset_minutes >= -1439 && t->offset_minutes <= 1439;
}

static int put_timestamp(pb_enc *e, const codec_timestamp *t)
{
    if (!timestamp_ok(t))
        return bad_value(e, "timestamp outside years 1..9999, or bad nanos or offset");
    uint64_t off = pb_zigzag(t->offset_minutes);
    size_t len = (t->seconds ? 1 + pb_varint_size((uint64_t)t->seconds) : 0) +
                 (t->nanos ? 1 + pb_varint_size((uint64_t)t->nanos) : 0) +
                 (off ? 1 + pb_varint_size(off) : 0);
    NEED(e, 1 + len);
    *e->p++ = (uint8_t)len;   /* at most 3 + 10 + 5 + 3 bytes */
    if (t->seconds)
        *e->p++ = 1 << 3 | PB_WT_VARINT, e->p = pb_put_varint(e->p, (uint64_t)t->seconds);
    if (t->nanos)
        *e->p++ = 2 << 3 | PB_WT_VARINT, e->p = pb_put_varint(e->p, (uint64_t)t->nanos);
    if (off)
        *e->p++ = 3 << 3 | PB_WT_VARINT, e->p = pb_put_varint(e->p, off);
    return CODEC_OK;
}

static bool all_zero(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return false;
    return true;
}

/* Writes key + value; with `explicit` false a default value is left out. */
static int put_field(pb_enc *e, const uint8_t key[8], unsigned key_len, const pb_val *v,
                     const void *p, bool explicit, size_t depth)
{
    switch (v->op) {
    case PB_OP_BOOL:
    case PB_OP_VARINT:
    case PB_OP_ZIGZAG:
    case PB_OP_FIXED32:
    case PB_OP_FIXED64: {
        uint64_t x = load_int(v, p);
        if (!x && !explicit)
            return CODEC_OK;
        NEED(e, 8 + 10);
        put_key(e, key, key_len);
        put_number(e, v, x);
        return CODEC_OK;
    }
    case PB_OP_STRING:
    case PB_OP_DECIMAL:
    case PB_OP_BYTES: {
        const codec_bytes *s = p;   /* codec_string has the same layout */
        if (!s->len && !explicit)
            return CODEC_OK;
        if (v->op == PB_OP_STRING && pb_utf8_check(s->data, s->len))
            return bad_value(e, "string is not valid UTF-8");
        if (v->op == PB_OP_DECIMAL && pb_decimal_check((const char *)s->data, s->len))
            return bad_value(e, "not a decimal number");
        NEED(e, 8 + 10 + s->len);
        put_key(e, key, key_len);
        e->p = pb_put_varint(e->p, s->len);
        if (s->len)
            memcpy(e->p, s->data, s->len);
        e->p += s->len;
        return CODEC_OK;
    }
    case PB_OP_UUID:
        if (!explicit && all_zero(p, 16))
            return CODEC_OK;
        NEED(e, 8 + 1 + 16);
        put_key(e, key, key_len);
        *e->p++ = 16;
        memcpy(e->p, p, 16);
        e->p += 16;
        return CODEC_OK;
    case PB_OP_TIMESTAMP: {
        const codec_timestamp *t = p;
        if (!explicit && !t->seconds && !t->nanos && !t->offset_minutes)
            return CODEC_OK;
        NEED(e, 8);
        put_key(e, key, key_len);
        return put_timestamp(e, t);
    }
    case PB_OP_MESSAGE: {
        NEED(e, 8 + 1);
        size_t start = (size_t)(e->p - e->buf->data);
        put_key(e, key, key_len);
        size_t at = open_len(e);
        const char *field = e->field;
        int rc = put_msg(e, v->msg, p, depth + 1);
        e->field = field;
        if (rc)
            return rc;
        /* An empty message is the default of a plain message field. */
        if (!explicit && (size_t)(e->p - e->buf->data) == at + 1) {
            e->p = e->buf->data + start;
            return CODEC_OK;
        }
        return close_len(e, at);
    }
    default: {   /* PB_OP_XMAP */
        _Alignas(16) uint8_t wire[CODEC_XMAP_MAX_WIRE];
        char scratch[CODEC_XMAP_SCRATCH];
        const codec_xmap *x = v->type->xmap;
        memset(wire, 0, x->wire->size);
        if (x->to_wire(x->ctx, p, wire, scratch))
            return bad_value(e, "rejected by its xmap adapter");
        return put_field(e, key, key_len, v->xwire, wire, explicit, depth);
    }
    }
}

/* A packed run of scalars: key, length, values back to back. */
static int put_packed(pb_enc *e, const pb_field *f, const codec_list *l)
{
    if (!l->count)
        return CODEC_OK;
    const pb_val *v = &f->val;
    NEED(e, 8 + 1);
    put_key(e, f->key, f->key_len);
    size_t at = open_len(e);
    const uint8_t *item = l->items;
    /* Floats, doubles and fixed-width ints of the wire's width are the
     * wire bytes already (little-endian host). */
    unsigned width = v->op == PB_OP_FIXED32 ? 4 : v->op == PB_OP_FIXED64 ? 8 : 0;
    if (width && v->csize == width && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
        if (l->count > SIZE_MAX / width)
            return bad_value(e, "list too long");
        NEED(e, l->count * width);
        memcpy(e->p, item, l->count * width);
        e->p += l->count * width;
    } else {
        for (size_t i = 0; i < l->count; i++, item += f->elem_size) {
            NEED(e, 10);
            put_number(e, v, load_int(v, item));
        }
    }
    return close_len(e, at);
}

static int put_repeated(pb_enc *e, const pb_field *f, const codec_list *l, size_t depth)
{
    const uint8_t *item = l->items;
    for (size_t i = 0; i < l->count; i++, item += f->elem_size) {
        int rc = put_field(e, f->key, f->key_len, &f->val, item, true, depth);
        if (rc)
            return rc;
    }
    return CODEC_OK;
}

/* Each entry is a message {key = 1; value = 2}; both are always written,
 * as Google's serializers do. */
static int put_map(pb_enc *e, const pb_field *f, const codec_map *m, size_t depth)
{
    const uint8_t k1[8] = {1 << 3 | f->mkey.wire}, k2[8] = {2 << 3 | f->val.wire};
    const uint8_t *k = m->keys, *v = m->values;
    for (size_t i = 0; i < m->count; i++, k += f->key_size, v += f->elem_size) {
        NEED(e, 8 + 1);
        put_key(e, f->key, f->key_len);
        size_t at = open_len(e);
        int rc;
        if ((rc = put_field(e, k1, 1, &f->mkey, k, true, depth)) ||
            (rc = put_field(e, k2, 1, &f->val, v, true, depth)) || (rc = close_len(e, at)))
            return rc;
    }
    return CODEC_OK;
}

static int put_msg(pb_enc *e, const pb_msg *m, const uint8_t *v, size_t depth)
{
    if (depth > e->max_depth)
        return bad_value(e, "messages nest deeper than max-depth");
    for (size_t i = 0; i < m->count; i++) {
        const pb_field *f = &m->fields[i];
        const uint8_t *fv = v + f->offset;
        int rc;
        e->field = f->name;
        switch (f->mode) {
        case PB_SINGLE: rc = put_field(e, f->key, f->key_len, &f->val, fv, false, depth); break;
        case PB_OPTIONAL:
            rc = *(const bool *)fv ? put_field(e, f->key, f->key_len, &f->val,
                                               fv + f->value_offset, true, depth)
                                   : CODEC_OK;
            break;
        case PB_PACKED: rc = put_packed(e, f, (const codec_list *)fv); break;
        case PB_REPEATED: rc = put_repeated(e, f, (const codec_list *)fv, depth); break;
        case PB_MAP: rc = put_map(e, f, (const codec_map *)fv, depth); break;
        default: rc = CODEC_OK; break;   /* PB_UNKNOWN: written last */
        }
        if (rc)
            return rc;
    }
    if (m->unknown) {
        const codec_bytes *u = (const codec_bytes *)(v + m->unknown->offset);
        NEED(e, u->len);
        if (u->len)
            memcpy(e->p, u->data, u->len);
        e->p += u->len;
    }
    return CODEC_OK;
}

int pb_encode(const pb_state *st, const void *value, codec_buf *out, codec_error *err)
{
    size_t base = out->len;
    pb_enc e = {.buf = out, .err = err, .max_depth = st->o.max_depth};
    if (codec_buf_reserve(out, 64))
        return codec_error_set(err, CODEC_E_NOMEM, 0, PB_STAGE, CODEC_NO_OFFSET, "out of memory");
    e.p = out->data + out->len;
    e.end = out->data + out->cap;
    int rc = put_msg(&e, st->root, value, 0);
    out->len = rc ? base : (size_t)(e.p - out->data);
    return rc;
}
