/* decode.c — reads protobuf into a C value, driven by the plan.
 *
 * Every length is checked against the end of its enclosing message before
 * anything is allocated or read. Fields usually arrive in declaration order,
 * so the field after the last one found is tried before the tag table.
 * A list or map is sized once per message: at its first record the rest of
 * the message is scanned (records skipped, not decoded) to count its items,
 * so the array is allocated exactly once and never copied. */
#include "formats/protobuf/pb_internal.h"
#include "types/xmap_internal.h"
#include "core/error_internal.h"

#include <stdarg.h>
#include <stdio.h>

typedef struct codec_pb_dec {
    const uint8_t *base;     /* start of the input, for offsets */
    const uint8_t *in_end;
    uint8_t *pool;           /* where the next string's bytes go */
    size_t pool_left;
    codec_arena *arena;
    codec_error *err;
    size_t max_depth, max_elements;
    codec_protobuf_unknown unknown;
} pb_dec;

static int dec_msg(pb_dec *d, const pb_msg *m, uint8_t *v, const uint8_t *p, const uint8_t *end,
                   size_t depth);

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail(pb_dec *d, int detail, const uint8_t *at, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return codec_error_set(d->err, CODEC_E_INVALID_PAYLOAD, detail, PB_STAGE,
                           (uint64_t)(at - d->base), "%s", what);
}

static int nomem(pb_dec *d)
{
    return codec__nomem(d->err, PB_STAGE);
}

/* ---------------------------------------------------------------------------
 * Primitive reads. They return the position after the item, or NULL.
 * ------------------------------------------------------------------------ */

static const uint8_t *varint_slow(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    return codec_leb128_get(&p, end, 64, out) == 0 ? p : NULL;
}

static inline const uint8_t *get_varint(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    if (p < end && *p < 0x80) {
        *out = *p;
        return p + 1;
    }
    return varint_slow(p, end, out);
}

static int varint_error(pb_dec *d, const uint8_t *p, const uint8_t *end)
{
    size_t n = (size_t)(end - p);
    for (size_t i = 0; i < n && i < 10; i++)
        if (p[i] < 0x80 || i == 9)
            return fail(d, CODEC_D_CORRUPT, p, "varint longer than 10 bytes or over 64 bits");
    return fail(d, CODEC_D_TRUNCATED, p, "input ends inside a varint");
}

/* Reads a length and checks it against the rest of the message. */
static inline int get_len(pb_dec *d, const uint8_t **pp, const uint8_t *end, size_t *len)
{
    uint64_t n;
    const uint8_t *p = get_varint(*pp, end, &n);
    if (!p)
        return varint_error(d, *pp, end);
    if (n > (uint64_t)(end - p))
        return fail(d, CODEC_D_TRUNCATED, *pp, "length %llu runs past the end of its message",
                    (unsigned long long)n);
    *pp = p;
    *len = (size_t)n;
    return CODEC_OK;
}

/* Skips one value of wire type wt; NULL when malformed (any reason). */
static const uint8_t *skip_raw(unsigned wt, const uint8_t *p, const uint8_t *end)
{
    uint64_t n;
    switch (wt) {
    case PB_WT_VARINT: return get_varint(p, end, &n);
    case PB_WT_I64: return end - p >= 8 ? p + 8 : NULL;
    case PB_WT_I32: return end - p >= 4 ? p + 4 : NULL;
    case PB_WT_LEN:
        p = get_varint(p, end, &n);
        return p && n <= (uint64_t)(end - p) ? p + n : NULL;
    default: return NULL;
    }
}

static int skip_value(pb_dec *d, unsigned wt, const uint8_t **pp, const uint8_t *end,
                      const uint8_t *rec)
{
    const uint8_t *p = skip_raw(wt, *pp, end);
    if (p) {
        *pp = p;
        return CODEC_OK;
    }
    size_t len = 0;
    switch (wt) {
    case PB_WT_VARINT: return varint_error(d, *pp, end);
    case PB_WT_LEN: return get_len(d, pp, end, &len);
    case PB_WT_I64:
    case PB_WT_I32: return fail(d, CODEC_D_TRUNCATED, *pp, "input ends inside a fixed-width value");
    case PB_WT_SGROUP:
    case PB_WT_EGROUP:
        return fail(d, CODEC_D_CORRUPT, rec, "groups (wire types 3 and 4) are not supported");
    default: return fail(d, CODEC_D_CORRUPT, rec, "invalid wire type %u", wt);
    }
}

/* Reads a record key; field numbers are 1..2^29-1. */
static inline int get_key(pb_dec *d, const uint8_t **pp, const uint8_t *end, uint32_t *tag,
                          unsigned *wt)
{
    uint64_t key;
    const uint8_t *p = *pp;
    if (*p < 0x80) {
        key = *p++;
    } else if (!(p = varint_slow(*pp, end, &key))) {
        return varint_error(d, *pp, end);
    }
    if (key >> 32 || key >> 3 == 0)
        return fail(d, CODEC_D_CORRUPT, *pp, "field number %llu is out of range",
                    (unsigned long long)(key >> 3));
    *pp = p;
    *tag = (uint32_t)(key >> 3);
    *wt = (unsigned)(key & 7);
    return CODEC_OK;
}

/* ---------------------------------------------------------------------------
 * Counting ahead: how many items of field f (or unknown bytes) the rest of
 * a message holds. Stops quietly at the first malformed record; decoding
 * reports it when it gets there, before any item beyond the count.
 * ------------------------------------------------------------------------ */

static size_t count_packed(const pb_val *v, const uint8_t *p, size_t len)
{
    if (v->wire == PB_WT_I32)
        return len / 4;
    if (v->wire == PB_WT_I64)
        return len / 8;
    size_t n = 0;   /* every varint ends with exactly one byte below 0x80 */
    for (size_t i = 0; i < len; i++)
        n += p[i] < 0x80;
    return n;
}

static size_t count_items(const pb_field *f, const uint8_t *p, const uint8_t *end)
{
    size_t n = 0;
    while (p < end) {
        uint64_t key;
        if (!(p = get_varint(p, end, &key)))
            break;
        unsigned wt = (unsigned)(key & 7);
        const uint8_t *body = p;
        if (!(p = skip_raw(wt, p, end)))
            break;
        if (key >> 3 != f->tag)
            continue;
        if (f->mode == PB_PACKED && wt == PB_WT_LEN) {
            uint64_t len;
            body = get_varint(body, end, &len);
            n += count_packed(&f->val, body, (size_t)len);
        } else {
            n++;
        }
    }
    return n;
}

static size_t count_unknown(const pb_msg *m, const uint8_t *p, const uint8_t *end)
{
    size_t bytes = 0;
    while (p < end) {
        const uint8_t *rec = p;
        uint64_t key;
        if (!(p = get_varint(p, end, &key)) || !(p = skip_raw((unsigned)(key & 7), p, end)))
            break;
        if (key >> 32 == 0 && !pb_field_by_tag(m, (uint32_t)(key >> 3)))
            bytes += (size_t)(p - rec);
    }
    return bytes;
}

/* ---------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------ */

static bool int_fits(const pb_val *v, uint64_t x)
{
    if (v->is_signed) {
        int64_t s = (int64_t)x;
        switch (v->csize) {
        case 1: return s >= INT8_MIN && s <= INT8_MAX;
        case 2: return s >= INT16_MIN && s <= INT16_MAX;
        case 4: return s >= INT32_MIN && s <= INT32_MAX;
        default: return true;
        }
    }
    switch (v->csize) {
    case 1: return x <= UINT8_MAX;
    case 2: return x <= UINT16_MAX;
    case 4: return x <= UINT32_MAX;
    default: return true;
    }
}

static inline void store_int(const pb_val *v, void *dst, uint64_t x)
{
    switch (v->csize) {
    case 1: *(uint8_t *)dst = (uint8_t)x; break;
    case 2: *(uint16_t *)dst = (uint16_t)x; break;
    case 4: *(uint32_t *)dst = (uint32_t)x; break;
    default: *(uint64_t *)dst = x; break;
    }
}

static inline uint64_t get_le(const uint8_t *p, unsigned n)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < n; i++)
        x |= (uint64_t)p[i] << (8 * i);
    return x;
}

/* A number of wire type v->wire at *pp into dst. */
static inline int dec_number(pb_dec *d, const pb_val *v, void *dst, const uint8_t **pp,
                      const uint8_t *end)
{
    const uint8_t *p = *pp;
    uint64_t x;
    switch (v->op) {
    case PB_OP_FIXED32:
        if (end - p < 4)
            return fail(d, CODEC_D_TRUNCATED, p, "input ends inside a fixed32");
        x = get_le(p, 4);
        if (v->is_signed)
            x = (uint64_t)(int64_t)(int32_t)(uint32_t)x;
        p += 4;
        break;
    case PB_OP_FIXED64:
        if (end - p < 8)
            return fail(d, CODEC_D_TRUNCATED, p, "input ends inside a fixed64");
        x = get_le(p, 8);
        p += 8;
        break;
    default:
        if (!(p = get_varint(p, end, &x)))
            return varint_error(d, *pp, end);
        if (v->op == PB_OP_BOOL)
            x = x != 0;
        else if (v->op == PB_OP_ZIGZAG)
            x = (uint64_t)codec_unzigzag64(x);
        break;
    }
    if (!int_fits(v, x))
        return fail(d, CODEC_D_CORRUPT, *pp, "value out of range for %s", v->type->name);
    store_int(v, dst, x);
    *pp = p;
    return CODEC_OK;
}

static int dec_timestamp(pb_dec *d, codec_timestamp *t, const uint8_t *p, const uint8_t *end)
{
    const uint8_t *start = p;
    while (p < end) {
        uint32_t tag = 0;
        unsigned wt = 0;
        uint64_t x;
        const uint8_t *rec = p;
        int rc = get_key(d, &p, end, &tag, &wt);
        if (rc)
            return rc;
        if (tag > 3) {
            if ((rc = skip_value(d, wt, &p, end, rec)))
                return rc;
            continue;
        }
        if (wt != PB_WT_VARINT)
            return fail(d, CODEC_D_CORRUPT, rec, "timestamp field %u has wire type %u, not varint",
                        tag, wt);
        const uint8_t *at = p;
        if (!(p = get_varint(p, end, &x)))
            return varint_error(d, at, end);
        if (tag == 1)
            t->seconds = (int64_t)x;
        else if (tag == 2)
            t->nanos = (int32_t)x;
        else
            t->offset_minutes = (int32_t)codec_unzigzag64(x);
        if ((tag == 2 && (int64_t)x != t->nanos) || (tag == 3 && x > 0xffffffffu))
            return fail(d, CODEC_D_CORRUPT, at, "timestamp field out of range");
    }
    if (t->seconds < -62135596800LL || t->seconds > 253402300799LL || t->nanos < 0 ||
        t->nanos > 999999999 || t->offset_minutes < -1439 || t->offset_minutes > 1439)
        return fail(d, CODEC_D_CORRUPT, start, "timestamp out of range");
    return CODEC_OK;
}

/* Room for len bytes of text. Strings are copied out of the input, so all
 * the strings after position p fit in end - p bytes: the first string takes
 * that much from the arena once, and every later one is a pointer bump. */
static inline uint8_t *pool_take(pb_dec *d, const uint8_t *p, size_t len)
{
    if (d->pool_left < len) {
        size_t n = (size_t)(d->in_end - p);
        if (!(d->pool = codec_arena_alloc(d->arena, n, 1)))
            return NULL;
        d->pool_left = n;
    }
    uint8_t *r = d->pool;
    d->pool += len;
    d->pool_left -= len;
    return r;
}

/* A string, bytes or decimal of len bytes at p, copied into the arena. */
static inline int dec_text(pb_dec *d, const pb_val *v, codec_bytes *b, const uint8_t *p,
                           size_t len)
{
    if (v->op == PB_OP_DECIMAL && !codec__decimal_text_valid((const char *)p, len))
        return fail(d, CODEC_D_CORRUPT, p, "not a decimal number");
    if (!len) {
        *b = (codec_bytes){NULL, 0};
        return CODEC_OK;
    }
    uint8_t *copy = pool_take(d, p, len);
    if (!copy)
        return nomem(d);
    if (codec_copy_ascii(copy, p, len) && v->op == PB_OP_STRING && !codec__utf8_valid(p, len))
        return fail(d, CODEC_D_CORRUPT, p, "string is not valid UTF-8");
    *b = (codec_bytes){copy, len};
    return CODEC_OK;
}

static int dec_val(pb_dec *d, const pb_val *v, void *dst, const uint8_t **pp,
                   const uint8_t *end, size_t depth);

/* Out of line: its buffer would make every dec_val frame large. */
__attribute__((noinline)) static int dec_xmap(pb_dec *d, const pb_val *v, void *dst,
                                              const uint8_t **pp, const uint8_t *end,
                                              size_t depth)
{
    _Alignas(16) uint8_t wire[CODEC_XMAP_MAX_WIRE];
    const uint8_t *at = *pp;
    codec_xmap_clear_wire(v->type, wire);
    int rc = dec_val(d, v->xwire, wire, pp, end, depth);
    if (rc)
        return rc;
    if (codec_xmap_from_wire(v->type, wire, dst, d->arena))
        return fail(d, CODEC_D_CORRUPT, at, "value rejected by the %s adapter", v->type->name);
    return CODEC_OK;
}

/* One value whose wire type has been checked. */
static int dec_val(pb_dec *d, const pb_val *v, void *dst, const uint8_t **pp,
                   const uint8_t *end, size_t depth)
{
    if (v->wire != PB_WT_LEN)
        return v->op == PB_OP_XMAP ? dec_xmap(d, v, dst, pp, end, depth)
                                   : dec_number(d, v, dst, pp, end);
    const uint8_t *at = *pp;
    size_t len = 0;
    int rc = get_len(d, pp, end, &len);
    if (rc)
        return rc;
    const uint8_t *p = *pp;
    *pp = p + len;
    switch (v->op) {
    case PB_OP_STRING:
    case PB_OP_DECIMAL:
    case PB_OP_BYTES: return dec_text(d, v, dst, p, len);
    case PB_OP_UUID:
        if (len != 16 && len != 0)
            return fail(d, CODEC_D_CORRUPT, at, "a UUID is 16 bytes, not %llu",
                        (unsigned long long)len);
        memcpy(dst, p, len);
        return CODEC_OK;
    case PB_OP_TIMESTAMP: return dec_timestamp(d, dst, p, p + len);
    case PB_OP_MESSAGE:
        if (depth + 1 > d->max_depth)
            return fail(d, CODEC_D_LIMIT, at, "messages nest deeper than max-depth (%llu)",
                        (unsigned long long)d->max_depth);
        return dec_msg(d, v->msg, dst, p, p + len, depth + 1);
    default: {   /* PB_OP_XMAP over a length-delimited wire value */
        *pp = at;
        return dec_xmap(d, v, dst, pp, end, depth);
    }
    }
}

/* ---------------------------------------------------------------------------
 * Fields
 * ------------------------------------------------------------------------ */

/* Per-message decoding state: the capacity of each list/map (0 until its
 * first record) and of the unknown-bytes sink. */
typedef struct codec_pb_fields {
    size_t *caps;
    size_t unknown_cap;
    bool unknown_counted;
} msg_state;

/* Grows `arr` (count items of esz bytes) to cap items, in the arena. */
static void *resize_items(pb_dec *d, void *arr, size_t count, size_t cap, size_t esz)
{
    if (cap > SIZE_MAX / esz)
        return NULL;
    uint8_t *p = codec_arena_alloc(d->arena, cap * esz, 16);
    if (!p)
        return NULL;
    if (count)
        memcpy(p, arr, count * esz);
    memset(p + count * esz, 0, (cap - count) * esz);
    return p;
}

/* Makes sure list/map field f has room for one more item; the first time in
 * this message, counts the rest of the message to size it. */
static int room(pb_dec *d, const pb_field *f, msg_state *ms, size_t count, void **items,
                void **values, const uint8_t *rec, const uint8_t *end)
{
    size_t *cap = &ms->caps[f->rep_slot];
    if (count < *cap)
        return CODEC_OK;
    if (*cap == 0) {
        size_t more = count_items(f, rec, end);
        if (more > d->max_elements || count > d->max_elements - more)
            return fail(d, CODEC_D_LIMIT, rec, "field '%s' has more than %llu items", f->name,
                        (unsigned long long)d->max_elements);
        size_t ncap = count + (more ? more : 1);
        void *a =
            resize_items(d, *items, count, ncap, f->mode == PB_MAP ? f->key_size : f->elem_size);
        if (!a)
            return nomem(d);
        *items = a;
        if (values) {
            if (!(a = resize_items(d, *values, count, ncap, f->elem_size)))
                return nomem(d);
            *values = a;
        }
        *cap = ncap;
        return CODEC_OK;
    }
    return fail(d, CODEC_D_CORRUPT, rec, "field '%s': more items than counted", f->name);
}

static int wire_mismatch(pb_dec *d, const pb_field *f, const uint8_t *rec, unsigned wt)
{
    return fail(d, CODEC_D_CORRUPT, rec, "field '%s' has wire type %u, not its declared one",
                f->name, wt);
}

static int dec_packed(pb_dec *d, const pb_field *f, codec_list *l, msg_state *ms, unsigned wt,
                      const uint8_t **pp, const uint8_t *end, const uint8_t *rec)
{
    const pb_val *v = &f->val;
    int rc;
    if (wt == v->wire) {   /* one unpacked item */
        if ((rc = room(d, f, ms, l->count, &l->items, NULL, rec, end)))
            return rc;
        rc = dec_val(d, v, (uint8_t *)l->items + l->count * f->elem_size, pp, end, 0);
        l->count += !rc;
        return rc;
    }
    if (wt != PB_WT_LEN)
        return wire_mismatch(d, f, rec, wt);
    size_t len = 0;
    if ((rc = get_len(d, pp, end, &len)))
        return rc;
    const uint8_t *p = *pp, *stop = p + len;
    unsigned width = v->wire == PB_WT_I32 ? 4 : v->wire == PB_WT_I64 ? 8 : 0;
    if (width && len % width)
        return fail(d, CODEC_D_CORRUPT, p, "packed field '%s' is not a whole number of items",
                    f->name);
    if (!len)
        return CODEC_OK;
    if ((rc = room(d, f, ms, l->count, &l->items, NULL, rec, end)))
        return rc;
    if (l->count + count_packed(v, p, len) > ms->caps[f->rep_slot])
        return fail(d, CODEC_D_CORRUPT, rec, "field '%s': more items than counted", f->name);
    uint8_t *item = (uint8_t *)l->items + l->count * f->elem_size;
    if (width && v->csize == width && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&
        v->op != PB_OP_XMAP) {
        memcpy(item, p, len);   /* floats, doubles, same-width fixed ints */
        l->count += len / width;
        *pp = stop;
        return CODEC_OK;
    }
    while (p < stop) {
        if ((rc = dec_val(d, v, item, &p, stop, 0)))
            return rc;
        item += f->elem_size;
        l->count++;
    }
    *pp = stop;
    return CODEC_OK;
}

static int dec_map_entry(pb_dec *d, const pb_field *f, codec_map *m, msg_state *ms, unsigned wt,
                         const uint8_t **pp, const uint8_t *end, const uint8_t *rec,
                         size_t depth)
{
    if (wt != PB_WT_LEN)
        return wire_mismatch(d, f, rec, wt);
    int rc = room(d, f, ms, m->count, &m->keys, &m->values, rec, end);
    size_t len = 0;
    if (rc || (rc = get_len(d, pp, end, &len)))
        return rc;
    if (depth + 1 > d->max_depth)
        return fail(d, CODEC_D_LIMIT, rec, "messages nest deeper than max-depth (%llu)",
                    (unsigned long long)d->max_depth);
    const uint8_t *p = *pp, *stop = p + len;
    uint8_t *key = (uint8_t *)m->keys + m->count * f->key_size;
    uint8_t *val = (uint8_t *)m->values + m->count * f->elem_size;
    while (p < stop) {
        uint32_t tag = 0;
        unsigned ewt = 0;
        const uint8_t *erec = p;
        if ((rc = get_key(d, &p, stop, &tag, &ewt)))
            return rc;
        const pb_val *v = tag == 1 ? &f->mkey : tag == 2 ? &f->val : NULL;
        if (!v)
            rc = skip_value(d, ewt, &p, stop, erec);
        else if (ewt != v->wire)
            rc = wire_mismatch(d, f, erec, ewt);
        else
            rc = dec_val(d, v, tag == 1 ? key : val, &p, stop, depth + 1);
        if (rc)
            return rc;
    }
    *pp = stop;
    m->count++;
    return CODEC_OK;
}

static int dec_unknown(pb_dec *d, const pb_msg *m, uint8_t *v, msg_state *ms, unsigned wt,
                       uint32_t tag, const uint8_t **pp, const uint8_t *end, const uint8_t *rec)
{
    int rc = skip_value(d, wt, pp, end, rec);
    if (rc)
        return rc;
    if (d->unknown == CODEC_PROTOBUF_UNKNOWN_REJECT)
        return fail(d, CODEC_D_CORRUPT, rec, "unknown field number %u", tag);
    if (d->unknown == CODEC_PROTOBUF_UNKNOWN_SKIP || !m->unknown)
        return CODEC_OK;
    codec_bytes *u = (codec_bytes *)(v + m->unknown->offset);
    size_t n = (size_t)(*pp - rec);
    if (!ms->unknown_counted) {
        size_t cap = u->len + count_unknown(m, rec, end);
        uint8_t *a = resize_items(d, (void *)u->data, u->len, cap, 1);
        if (!a)
            return nomem(d);
        u->data = a;
        ms->unknown_cap = cap;
        ms->unknown_counted = true;
    }
    if (n > ms->unknown_cap - u->len)
        return fail(d, CODEC_D_CORRUPT, rec, "unknown fields longer than counted");
    memcpy((uint8_t *)u->data + u->len, rec, n);
    u->len += n;
    return CODEC_OK;
}

/* A message behind a pointer, allocated at its first occurrence; a second
 * occurrence merges into the same message. */
static int dec_boxed(pb_dec *d, const pb_field *f, void **target, const uint8_t **pp,
                     const uint8_t *end, size_t depth)
{
    if (!*target && !(*target = resize_items(d, NULL, 0, 1, f->elem_size)))
        return nomem(d);
    return dec_val(d, &f->val, *target, pp, end, depth);
}

__attribute__((always_inline)) static inline int
dec_field(pb_dec *d, const pb_field *f, uint8_t *fv, msg_state *ms, unsigned wt, const uint8_t **pp,
          const uint8_t *end, const uint8_t *rec, size_t depth)
{
    switch (f->mode) {
    case PB_SINGLE:
        if (wt != f->val.wire)
            return wire_mismatch(d, f, rec, wt);
        return dec_val(d, &f->val, fv, pp, end, depth);
    case PB_OPTIONAL:
        if (wt != f->val.wire)
            return wire_mismatch(d, f, rec, wt);
        *(bool *)fv = true;
        return dec_val(d, &f->val, fv + f->value_offset, pp, end, depth);
    case PB_ONEOF:
        if (wt != f->val.wire)
            return wire_mismatch(d, f, rec, wt);
        /* The last member seen wins; the same member again merges, as for
         * any message field. */
        if (codec_union_which(fv) != f->case_index) {
            memset(fv, 0, f->union_size);
            *(uint32_t *)fv = f->case_index;
        }
        if (f->boxed)
            return dec_boxed(d, f, (void **)(fv + f->value_offset), pp, end, depth);
        return dec_val(d, &f->val, fv + f->value_offset, pp, end, depth);
    case PB_PACKED: return dec_packed(d, f, (codec_list *)fv, ms, wt, pp, end, rec);
    case PB_POINTER:
        if (wt != PB_WT_LEN)
            return wire_mismatch(d, f, rec, wt);
        return dec_boxed(d, f, (void **)fv, pp, end, depth);
    case PB_REPEATED: {
        codec_list *l = (codec_list *)fv;
        if (wt != PB_WT_LEN)
            return wire_mismatch(d, f, rec, wt);
        int rc = room(d, f, ms, l->count, &l->items, NULL, rec, end);
        if (!rc)
            rc = dec_val(d, &f->val, (uint8_t *)l->items + l->count * f->elem_size, pp, end, depth);
        l->count += !rc;
        return rc;
    }
    default: return dec_map_entry(d, f, (codec_map *)fv, ms, wt, pp, end, rec, depth);
    }
}

/* A required oneof is satisfied by any of its members. */
static int check_required(pb_dec *d, const pb_msg *m, const uint8_t *v, const uint64_t *seen,
                          const uint8_t *end)
{
    for (size_t i = 0; i < m->count; i++)
        if (m->fields[i].required && !(seen[i / 64] >> (i % 64) & 1) &&
            !(m->fields[i].mode == PB_ONEOF && codec_union_which(v + m->fields[i].offset)))
            return fail(d, CODEC_D_CORRUPT, end, "missing required field '%s'%s",
                        m->fields[i].name,
                        m->fields[i].mode == PB_ONEOF ? " (or another member of its oneof)" : "");
    return CODEC_OK;
}

#define SMALL_REPS 16
#define SMALL_SEEN 4

/* One record at *pp: the field its key names (tried first: `*next`, the
 * field after the last one found, and the one before it, for a repeated
 * field), or an unknown field. */
/* Always inlined (as dec_field): the descriptor path's loop stays what it
 * was before specialized code shared these with it. */
__attribute__((always_inline)) static inline int
dec_record(pb_dec *d, const pb_msg *m, uint8_t *v, msg_state *ms, uint64_t *seen, size_t *next,
           const uint8_t **pp, const uint8_t *end, size_t depth)
{
    const uint8_t *rec = *pp;
    uint32_t tag = 0;
    unsigned wt = 0;
    int rc = get_key(d, pp, end, &tag, &wt);
    if (rc)
        return rc;
    const pb_field *f;
    size_t n = *next;
    if (n < m->count && m->fields[n].tag == tag && m->fields[n].mode != PB_UNKNOWN)
        f = &m->fields[n];
    else if (n && m->fields[n - 1].tag == tag)
        f = &m->fields[n - 1];
    else
        f = pb_field_by_tag(m, tag);
    if (!f)
        return dec_unknown(d, m, v, ms, wt, tag, pp, end, rec);
    size_t i = (size_t)(f - m->fields);
    *next = i + 1;
    if ((rc = dec_field(d, f, v + f->offset, ms, wt, pp, end, rec, depth)))
        return rc;
    if (seen)
        seen[i / 64] |= 1ull << (i % 64);
    return CODEC_OK;
}

static int dec_msg(pb_dec *d, const pb_msg *m, uint8_t *v, const uint8_t *p, const uint8_t *end,
                   size_t depth)
{
    size_t caps_small[SMALL_REPS];
    uint64_t seen_small[SMALL_SEEN];
    msg_state ms = {.caps = caps_small};
    uint64_t *seen = NULL;
    if (m->nrep > SMALL_REPS &&
        !(ms.caps = codec_arena_alloc(d->arena, m->nrep * sizeof(size_t), 0)))
        return nomem(d);
    memset(ms.caps, 0, m->nrep * sizeof(size_t));
    if (m->gen)   /* specialized code (never for messages with required fields) */
        return m->gen->pb_decode(d, m, v, &ms, p, end, depth);
    size_t words = (m->count + 63) / 64;
    if (m->has_required) {
        seen = seen_small;
        if (words > SMALL_SEEN && !(seen = codec_arena_alloc(d->arena, words * 8, 8)))
            return nomem(d);
        memset(seen, 0, words * 8);
    }
    size_t next = 0;
    while (p < end) {
        int rc = dec_record(d, m, v, &ms, seen, &next, &p, end, depth);
        if (rc)
            return rc;
    }
    return m->has_required ? check_required(d, m, v, seen, end) : CODEC_OK;
}

/* ---------------------------------------------------------------------------
 * What specialized code calls (codec/codegen.h)
 * ------------------------------------------------------------------------ */

int codec_pb_dec_record(codec_pb_dec *d, const codec_pb_msg *m, void *value,
                        codec_pb_fields *fields, const uint8_t **pp, const uint8_t *end,
                        size_t depth)
{
    size_t next = 0;
    return dec_record(d, m, value, fields, NULL, &next, pp, end, depth);
}

int codec_pb_dec_field(codec_pb_dec *d, const codec_pb_msg *m, size_t index, void *value,
                       codec_pb_fields *fields, unsigned wt, const uint8_t **pp,
                       const uint8_t *end, const uint8_t *rec, size_t depth)
{
    const pb_field *f = &m->fields[index];
    return dec_field(d, f, (uint8_t *)value + f->offset, fields, wt, pp, end, rec, depth);
}

const uint8_t *codec_pb_dec_varint_slow(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    return varint_slow(p, end, out);
}

const uint8_t *codec_pb_dec_text(codec_pb_dec *d, const uint8_t *p, const uint8_t *end,
                                 codec_bytes *out, int utf8)
{
    uint64_t n;
    if (!(p = get_varint(p, end, &n)) || n > (uint64_t)(end - p))
        return NULL;
    size_t len = (size_t)n;
    if (!len) {
        *out = (codec_bytes){NULL, 0};
        return p;
    }
    uint8_t *copy = pool_take(d, p, len);
    if (!copy || (codec_copy_ascii(copy, p, len) && utf8 && !codec__utf8_valid(p, len)))
        return NULL;
    *out = (codec_bytes){copy, len};
    return p + len;
}

int codec__pb_decode(const pb_state *st, const uint8_t *in, size_t n, void *value,
                     codec_arena *arena, codec_error *err)
{
    pb_dec d = {.base = in,
                .in_end = in + n,
                .arena = arena,
                .err = err,
                .max_depth = st->o.max_depth,
                .max_elements = st->o.max_elements,
                .unknown = st->o.unknown};
    if (n > st->o.max_size)
        return fail(&d, CODEC_D_LIMIT, in, "input of %llu bytes exceeds max-size",
                    (unsigned long long)n);
    memset(value, 0, st->root->type->size);
    return dec_msg(&d, st->root, value, in, in + n, 0);
}
