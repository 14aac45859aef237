/* encode.c — the fast way from a C value to compact JSON: one walk over the
 * codec's encode plan (plan.c) writing straight into the output buffer,
 * room made once per struct, no per-token calls.
 *
 * It writes exactly what the reference walker (bind.c over writer.c)
 * writes. When a value needs care — a string with bytes to escape or
 * non-ASCII text to check, a number that is not finite, an enum number
 * without a name — it either takes the escaping path of writer.c or gives
 * up; on giving up the caller truncates the output and encodes again with
 * the reference walker, which reports the exact error. Rare kinds (bytes,
 * xmap, maps with non-string keys, a codec_value's bytes) are written by
 * that walker in place. Pretty output always goes that way.
 *
 * Containers are written with a separator before every item, the first
 * one in the place of the bracket, which is then stored over it: no
 * "first item" test per item. */
#include "formats/json/json_plan_internal.h"
#include "formats/json/json_scan_internal.h"
#include "formats/json/json_text_internal.h"
#include "types/time_text_internal.h"
#include "core/buf_internal.h"

#include <math.h>
#include <string.h>

typedef struct fast_enc {
    codec_buf *out;
    uint8_t *lim;           /* out->data + out->cap */
    codec_error *err;
    bool nomem;             /* gave up for lack of memory: no second pass */
} fast_enc;

#define GIVE_UP NULL

static uint8_t *grow(fast_enc *e, uint8_t *d, size_t n)
{
    if (!(d = codec__buf_grow(e->out, d, n))) {
        e->nomem = true;
        return GIVE_UP;
    }
    e->lim = e->out->data + e->out->cap;
    return d;
}

/* d with at least n writable bytes after it (the buffer may move). */
static inline uint8_t *room(fast_enc *e, uint8_t *d, size_t n)
{
    return (size_t)(e->lim - d) >= n ? d : grow(e, d, n);
}

/* d with room for n (any size) and then `rest` bytes. */
static inline uint8_t *room_more(fast_enc *e, uint8_t *d, size_t n, size_t rest)
{
    size_t left = (size_t)(e->lim - d);
    if (left >= rest && left - rest >= n)
        return d;
    if (n > SIZE_MAX / 2) {
        e->nomem = true;
        return GIVE_UP;
    }
    return grow(e, d, n + rest);
}

/* Stores the opening bracket over the separator of the first item (at
 * offset `open`), or writes it when there was none; then the closing one. */
static inline uint8_t *close_container(fast_enc *e, size_t open, uint8_t *d, uint8_t c)
{
    uint8_t *o = e->out->data + open;
    if (d == o)
        *d++ = (uint8_t)(c - 2);    /* '{' and '[' are '}' - 2 and ']' - 2 */
    else
        *o = (uint8_t)(c - 2);
    *d++ = c;
    return d;
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

/* A finite double as codec__format_double writes it. Whole numbers below
 * 2^53 are their own shortest form: the digits, then ".0". */
static inline uint8_t *put_double(uint8_t *d, double v)
{
    if (v != 0 && v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(int64_t)v) {
        d = put_i64(d, (int64_t)v);
        memcpy(d, ".0", 2);
        return d + 2;
    }
    return d + codec__format_double(v, (char *)d);
}

static inline uint8_t *put_float(uint8_t *d, float v)
{
    if (v != 0 && v > -16777216.0f && v < 16777216.0f && v == (float)(int32_t)v) {
        d = put_i64(d, (int32_t)v);
        memcpy(d, ".0", 2);
        return d + 2;
    }
    return d + codec__format_float(v, (char *)d);
}

/* Quotes around the n bytes of text at d + 1; GIVE_UP when n < 0 (a date
 * or time out of range: the reference walker says which). */
static inline uint8_t *quote_text(uint8_t *d, int n)
{
    if (n < 0)
        return GIVE_UP;
    d[0] = '"';
    d[n + 1] = '"';
    return d + n + 2;
}

/* The value of op (JSON_OP_BOOL..JSON_OP_TIMESTAMP: bounded size) at v,
 * written at d (room: JSON_SCALAR_ROOM); GIVE_UP for NaN and infinities
 * and dates out of range. */
static inline uint8_t *put_scalar(unsigned op, const void *v, uint8_t *d)
{
    switch (op) {
    case JSON_OP_UUID: return quote_text(d, (int)codec__json_format_uuid(v, (char *)d + 1));
    case JSON_OP_DATE:
        return quote_text(d, codec__format_date(*(const codec_date *)v, (char *)d + 1));
    case JSON_OP_TIMESTAMP: return quote_text(d, codec__format_timestamp(v, (char *)d + 1));
    case JSON_OP_BOOL:
        if (*(const bool *)v) {
            memcpy(d, "true", 4);
            return d + 4;
        }
        memcpy(d, "false", 5);
        return d + 5;
    case JSON_OP_I8: return put_i64(d, *(const int8_t *)v);
    case JSON_OP_I16: return put_i64(d, *(const int16_t *)v);
    case JSON_OP_I32: return put_i64(d, *(const int32_t *)v);
    case JSON_OP_I64: return put_i64(d, *(const int64_t *)v);
    case JSON_OP_U8: return put_u64(d, *(const uint8_t *)v);
    case JSON_OP_U16: return put_u64(d, *(const uint16_t *)v);
    case JSON_OP_U32: return put_u64(d, *(const uint32_t *)v);
    case JSON_OP_U64: return put_u64(d, *(const uint64_t *)v);
    case JSON_OP_F32:
        return isfinite(*(const float *)v) ? put_float(d, *(const float *)v) : GIVE_UP;
    default:
        return isfinite(*(const double *)v) ? put_double(d, *(const double *)v) : GIVE_UP;
    }
}

/* ---------------------------------------------------------------------------
 * Strings
 * ------------------------------------------------------------------------ */

/* "s" with escapes (and a UTF-8 check) by the writer, at d, followed by
 * room for `rest` bytes. */
static uint8_t *put_escaped(fast_enc *e, uint8_t *d, const char *s, size_t n, size_t rest)
{
    e->out->len = (size_t)(d - e->out->data);
    int rc = codec__json_put_string(e->out, s, n);
    if (rc) {
        e->nomem = rc == CODEC_E_NOMEM;
        return GIVE_UP;
    }
    e->lim = e->out->data + e->out->cap;
    return room(e, e->out->data + e->out->len, rest);
}

/* "s" at d, with room for s->len + 2 + rest; returns with room for rest. */
static inline uint8_t *put_string(fast_enc *e, uint8_t *d, const codec_string *s, size_t rest)
{
    const char *p = s->ptr ? s->ptr : "";
    size_t n = s->len;
    *d = '"';
    if (!json_copy_plain(d + 1, (const uint8_t *)p, n))
        return put_escaped(e, d, p, n, rest);
    d[n + 1] = '"';
    return d + n + 2;
}

/* ---------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------ */

static uint8_t *node_value(fast_enc *e, const json_node *nd, const void *v, uint8_t *d,
                           uint32_t depth);

/* The value written by the reference walker, inside `depth` containers. */
static uint8_t *by_reference(fast_enc *e, const codec_type *t, const void *v, uint8_t *d,
                             uint32_t depth)
{
    e->out->len = (size_t)(d - e->out->data);
    int rc = codec__json_encode_one(e->out, depth, t, v, e->err);
    if (rc) {
        e->nomem = rc == CODEC_E_NOMEM;
        return GIVE_UP;
    }
    e->lim = e->out->data + e->out->cap;
    return e->out->data + e->out->len;
}

/* `,"name":` at d: two fixed 16-byte moves for keys of up to JSON_KEY_PAD
 * bytes (the plan pads them; the bytes past the key are written over). */
static inline uint8_t *put_key(uint8_t *d, const json_field *f)
{
    if (f->key_len <= JSON_KEY_PAD)
        memcpy(d, f->key, JSON_KEY_PAD);
    else
        memcpy(d, f->key, f->key_len);
    return d + f->key_len;
}

/* The struct at v, `depth` containers open counting it. */
static uint8_t *struct_value(fast_enc *e, const json_struct *st, const uint8_t *v, uint8_t *d,
                             uint32_t depth)
{
    const size_t rest = st->room;
    if (!(d = room(e, d, rest)))
        return GIVE_UP;
    size_t open = (size_t)(d - e->out->data);
    for (const json_field *f = st->fields; f != st->end; f++) {
        const uint8_t *p = v + f->offset;
        if (f->presence) {
            if (f->presence == JSON_IF_MEMBER ? !codec_union_which(p) : !*(const bool *)p)
                continue;
            p += f->value_offset;
        }
        d = put_key(d, f);
        if (f->op == JSON_OP_STRING) {
            const codec_string *s = (const codec_string *)p;
            if (!(d = room_more(e, d, s->len, 2 + rest)) || !(d = put_string(e, d, s, rest)))
                return GIVE_UP;
        } else if (f->op >= JSON_OP_BOOL && f->op <= JSON_OP_TIMESTAMP) {
            if (!(d = put_scalar(f->op, p, d)))
                return GIVE_UP;
        } else if (!(d = node_value(e, f->node, p, d, depth)) || !(d = room(e, d, rest))) {
            return GIVE_UP;
        }
    }
    return close_container(e, open, d, '}');
}

static uint8_t *string_list(fast_enc *e, const codec_list *l, uint8_t *d)
{
    size_t open = (size_t)(d - e->out->data);
    const codec_string *s = l->items, *end = s + l->count;
    for (; s != end; s++) {
        /* `,"text"` and room for the closing bracket */
        if (!(d = room_more(e, d, s->len, 4)))
            return GIVE_UP;
        *d++ = ',';
        if (!(d = put_string(e, d, s, 1)))
            return GIVE_UP;
    }
    return close_container(e, open, d, ']');
}

/* A list, `depth` containers open counting it. */
static uint8_t *list_value(fast_enc *e, const json_node *elem, const codec_list *l, uint8_t *d,
                           uint32_t depth)
{
    if (elem->op == JSON_OP_STRING)
        return string_list(e, l, d);
    size_t open = (size_t)(d - e->out->data);
    const uint8_t *item = l->items;
    size_t esz = elem->type->size;
    if (elem->op == JSON_OP_STRUCT && l->count) {
        if (depth >= CODEC_JSON_MAX_DEPTH_LIMIT)
            return GIVE_UP;
        for (size_t i = 0; i < l->count; i++, item += esz) {
            if (!(d = room(e, d, 1 + JSON_SCALAR_ROOM)))
                return GIVE_UP;
            *d++ = ',';
            if (!(d = struct_value(e, elem->st, item, d, depth + 1)))
                return GIVE_UP;
        }
    } else {
        for (size_t i = 0; i < l->count; i++, item += esz) {
            if (!(d = room(e, d, 1 + JSON_SCALAR_ROOM)))
                return GIVE_UP;
            *d++ = ',';
            if (!(d = node_value(e, elem, item, d, depth)))
                return GIVE_UP;
        }
    }
    if (!(d = room(e, d, JSON_SCALAR_ROOM)))
        return GIVE_UP;
    return close_container(e, open, d, ']');
}

/* A map with string keys, `depth` containers open counting it. */
static uint8_t *map_value(fast_enc *e, const json_node *nd, const codec_map *m, uint8_t *d,
                          uint32_t depth)
{
    size_t open = (size_t)(d - e->out->data);
    const codec_type *t = nd->type;
    const uint8_t *k = m->keys, *v = m->values;
    for (size_t i = 0; i < m->count; i++, k += t->key->size, v += t->elem->size) {
        const codec_string *key = (const codec_string *)k;
        if (!(d = room_more(e, d, key->len, 4 + JSON_SCALAR_ROOM)))
            return GIVE_UP;
        *d++ = ',';
        if (!(d = put_string(e, d, key, 1 + JSON_SCALAR_ROOM)))
            return GIVE_UP;
        *d++ = ':';
        if (!(d = node_value(e, nd->elem, v, d, depth)))
            return GIVE_UP;
    }
    if (!(d = room(e, d, JSON_SCALAR_ROOM)))
        return GIVE_UP;
    return close_container(e, open, d, '}');
}

static uint8_t *enum_value(fast_enc *e, const json_node *nd, int32_t number, uint8_t *d)
{
    const codec_enum_value *ev = codec_enum_by_number(nd->type, number);
    if (!ev)
        return GIVE_UP;
    const json_text *name = &nd->names[ev - nd->type->values];
    if (!name->len || !(d = room(e, d, name->len)))
        return GIVE_UP;
    json_copy_short(d, name->bytes, name->len);
    return d + name->len;
}

/* A schemaless value at d (JSON_SCALAR_ROOM bytes of room), inside
 * `depth` open containers, as writer.c's codec__json_write_value writes it. */
static uint8_t *any_value(fast_enc *e, const codec_value *v, uint8_t *d, uint32_t depth)
{
    size_t open = (size_t)(d - e->out->data);
    switch (v->kind) {
    case CODEC_V_NULL:
        memcpy(d, "null", 4);
        return d + 4;
    case CODEC_V_BOOL: return put_scalar(JSON_OP_BOOL, &v->as.b, d);
    case CODEC_V_INT: return put_i64(d, v->as.i);
    case CODEC_V_UINT: return put_u64(d, v->as.u);
    case CODEC_V_DOUBLE: return isfinite(v->as.d) ? put_double(d, v->as.d) : GIVE_UP;
    case CODEC_V_STRING:
        return (d = room_more(e, d, v->as.s.len, 2)) ? put_string(e, d, &v->as.s, 0) : GIVE_UP;
    case CODEC_V_ARRAY:
        if (depth >= CODEC_JSON_MAX_DEPTH_LIMIT)
            return GIVE_UP;
        for (size_t i = 0; i < v->as.array.count; i++) {
            if (!(d = room(e, d, 1 + JSON_SCALAR_ROOM)))
                return GIVE_UP;
            *d++ = ',';
            if (!(d = any_value(e, &v->as.array.items[i], d, depth + 1)))
                return GIVE_UP;
        }
        return (d = room(e, d, 2)) ? close_container(e, open, d, ']') : GIVE_UP;
    case CODEC_V_OBJECT:
        if (depth >= CODEC_JSON_MAX_DEPTH_LIMIT)
            return GIVE_UP;
        for (size_t i = 0; i < v->as.object.count; i++) {
            const codec_member *m = &v->as.object.members[i];
            /* `,"key":` and room for the value */
            if (!(d = room_more(e, d, m->key.len, 4 + JSON_SCALAR_ROOM)))
                return GIVE_UP;
            *d++ = ',';
            if (!(d = put_string(e, d, &m->key, 1 + JSON_SCALAR_ROOM)))
                return GIVE_UP;
            *d++ = ':';
            if (!(d = any_value(e, &m->value, d, depth + 1)))
                return GIVE_UP;
        }
        return (d = room(e, d, 2)) ? close_container(e, open, d, '}') : GIVE_UP;
    default:
        return by_reference(e, codec_value_type(), v, d, depth);
    }
}

/* One value at d, which has JSON_SCALAR_ROOM bytes of room, inside
 * `depth` open containers; no room is left promised after it. */
static uint8_t *node_value(fast_enc *e, const json_node *nd, const void *v, uint8_t *d,
                           uint32_t depth)
{
    switch (nd->op) {
    case JSON_OP_STRING: {
        const codec_string *s = v;
        return (d = room_more(e, d, s->len, 2)) ? put_string(e, d, s, 0) : GIVE_UP;
    }
    case JSON_OP_ENUM:
        return enum_value(e, nd, *(const int32_t *)v, d);
    case JSON_OP_DECIMAL: {
        const codec_string *s = v;
        if (!codec__decimal_text_valid(s->ptr, s->len) || !(d = room(e, d, s->len)))
            return GIVE_UP;
        json_copy_short(d, s->ptr, s->len);
        return d + s->len;
    }
    case JSON_OP_OPTIONAL: {
        const void *in = codec_optional_get(nd->type, v);
        if (in)
            return node_value(e, nd->elem, in, d, depth);
        memcpy(d, "null", 4);
        return d + 4;
    }
    case JSON_OP_STRUCT:
    case JSON_OP_LIST:
    case JSON_OP_MAP:
        /* The reference walker refuses deeper nesting; it says so. */
        if (depth >= CODEC_JSON_MAX_DEPTH_LIMIT)
            return GIVE_UP;
        if (nd->op == JSON_OP_STRUCT)
            return struct_value(e, nd->st, v, d, depth + 1);
        if (nd->op == JSON_OP_LIST)
            return list_value(e, nd->elem, v, d, depth + 1);
        return map_value(e, nd, v, d, depth + 1);
    case JSON_OP_VALUE:
        return any_value(e, v, d, depth);
    case JSON_OP_OTHER:
        return by_reference(e, nd->type, v, d, depth);
    default:
        return put_scalar(nd->op, v, d);
    }
}

int codec__json_encode_fast(const json_plan *p, const void *v, codec_buf *out, codec_error *err)
{
    fast_enc e = {.out = out, .err = err, .nomem = false};
    size_t base = out->len;
    if (codec_buf_reserve(out, JSON_SCALAR_ROOM))
        return JSON_NOMEM(err);
    e.lim = out->data + out->cap;
    uint8_t *d = node_value(&e, p->root, v, out->data + out->len, 0);
    if (d) {
        out->len = (size_t)(d - out->data);
        return CODEC_OK;
    }
    out->len = base;
    return e.nomem ? JSON_NOMEM(err) : 1;
}
