/* decode.c — descriptor-driven MessagePack reading straight into C values. */
#include "formats/msgpack/msgpack_internal.h"
#include "types/index_internal.h"
#include "types/xmap_internal.h"
#include "core/number_internal.h"

#include <math.h>
#include <stdio.h>

static int dec_item(mp_rd *r, const codec_type *t, void *v, const mp_item *it);

static int dec_fail(mp_rd *r, const mp_item *it, const char *what, const codec_type *t)
{
    return MP_FAIL(r->err, CODEC_D_CORRUPT, it->at, "%s (%s)", what,
                   t && t->name ? t->name : "value");
}

static int next_item(mp_rd *r, const codec_type *t, void *v)
{
    mp_item it;
    int rc = codec__mp_read(r, &it);
    return rc ? rc : dec_item(r, t, v, &it);
}

/* Marks field f seen; a repeat is an error unless duplicates are allowed. */
static int see(mp_rd *r, const codec_type *t, const codec_field *f, uint64_t *seen, uint8_t *v,
               size_t at)
{
    size_t fi = codec_type_field_index(t, f);
    if (seen[fi / 64] >> (fi % 64) & 1) {
        if (!r->o->allow_duplicates)
            return MP_FAIL(r->err, CODEC_D_CORRUPT, at, "duplicate key '%s' (%s)", f->name,
                           t->name);
        memset(v + f->offset, 0, f->size);
    }
    seen[fi / 64] |= 1ull << (fi % 64);
    return CODEC_OK;
}

static int unknown_field(mp_rd *r, const codec_type *t, size_t at)
{
    if (r->o->reject_unknown)
        return MP_FAIL(r->err, CODEC_D_CORRUPT, at, "unknown field (%s)", t->name);
    mp_item skip;
    int rc = codec__mp_read(r, &skip);
    return rc ? rc : codec__mp_skip(r, &skip);
}

/* One entry of a struct map: its key (a name as str, or a tag), its value
 * into the field it names, unknown keys skipped or rejected, repeats
 * refused unless duplicates=allow. *expect is the field tried first. */
/* Reads the key of an entry of a struct (or union) map into k and finds
 * its field (NULL when unknown); `expect` is the field tried first. */
static int key_field(mp_rd *r, const codec_type *t, size_t expect, mp_item *kh,
                     const codec_field **out)
{
    mp_item k;
    int rc;
    if ((rc = codec__mp_read(r, &k)))
        return rc;
    const codec_field *f = NULL;
    if (k.kind == MP_STR) {
        const char *name = (const char *)k.data;
        size_t n = (size_t)k.len;
        f = expect < t->count && codec_name_equals(t->fields[expect].name, name, n)
                ? &t->fields[expect]
                : codec__type_field_by_name_hashed(t, name, n, codec_name_hash(name, n));
        if (!f && (rc = codec__mp_skip(r, &k)))
            return rc;
    } else if (k.kind == MP_UINT) {
        f = k.u <= UINT32_MAX ? codec_type_field_by_tag(t, (uint32_t)k.u) : NULL;
    } else if ((rc = codec__mp_skip(r, &k))) {
        return rc;
    }
    *kh = k;
    *out = f;
    return CODEC_OK;
}

static int map_entry(mp_rd *r, const codec_type *t, uint8_t *v, uint64_t *seen, size_t *expect)
{
    mp_item k;
    const codec_field *f;
    int rc;
    if ((rc = key_field(r, t, *expect, &k, &f)))
        return rc;
    if (!f)
        return unknown_field(r, t, k.at);
    *expect = codec_type_field_index(t, f) + 1;
    if ((rc = see(r, t, f, seen, v, k.at)))
        return rc;
    return next_item(r, f->type, v + f->offset);
}

static int struct_map(mp_rd *r, const codec_type *t, uint8_t *v, const mp_item *mh,
                      uint64_t *seen)
{
    size_t expect = 0;
    int rc = CODEC_OK;
    for (uint64_t i = 0; i < mh->len && !rc; i++)
        rc = map_entry(r, t, v, seen, &expect);
    return rc;
}

/* After the entries: the first required field not seen, reported at the
 * struct's first byte. */
static int check_missing(mp_rd *r, const codec_type *t, const uint64_t *seen, size_t at)
{
    for (size_t i = 0; i < t->count; i++) {
        const codec_field *f = &t->fields[i];
        bool required = (f->flags & CODEC_FIELD_REQUIRED) ||
                        (r->o->require_all && !codec_field_may_be_absent(f));
        if (required && !(seen[i / 64] >> (i % 64) & 1))
            return MP_FAIL(r->err, CODEC_D_CORRUPT, at, "missing field '%s' (%s)", f->name,
                           t->name);
    }
    return CODEC_OK;
}

/* structs=array layout: element i is the field with tag i+1. */
static int struct_array(mp_rd *r, const codec_type *t, uint8_t *v, const mp_item *ah,
                        uint64_t *seen)
{
    int rc;
    for (uint64_t i = 0; i < ah->len; i++) {
        const codec_field *f = i < UINT32_MAX ? codec_type_field_by_tag(t, (uint32_t)i + 1) : NULL;
        mp_item it;
        if ((rc = codec__mp_read(r, &it)))
            return rc;
        if (!f || (it.kind == MP_NIL && f->type->kind != CODEC_T_VALUE)) {
            /* nil marks a gap or an absent field (left unseen, so
             * require=all still reports it). */
            if (!f && it.kind != MP_NIL && r->o->reject_unknown)
                return MP_FAIL(r->err, CODEC_D_CORRUPT, it.at, "unknown field (%s)", t->name);
            if ((rc = codec__mp_skip(r, &it)))
                return rc;
            continue;
        }
        if ((rc = see(r, t, f, seen, v, it.at)) || (rc = dec_item(r, f->type, v + f->offset, &it)))
            return rc;
    }
    return CODEC_OK;
}

static int dec_ext(mp_rd *r, codec_msgpack_ext *x, const mp_item *it)
{
    codec_string s;
    mp_item raw = *it;
    raw.kind = MP_BIN;
    int rc = codec__mp_copy(r, &raw, &s);
    if (rc)
        return rc;
    x->type = it->ext_type;
    x->data = (codec_bytes){(const uint8_t *)s.ptr, s.len};
    return CODEC_OK;
}

static int dec_struct(mp_rd *r, const codec_type *t, uint8_t *v, const mp_item *it)
{
    if (t == &codec_msgpack_ext_type) {
        if (it->kind != MP_EXT)
            return dec_fail(r, it, "expected an ext", t);
        return dec_ext(r, (codec_msgpack_ext *)v, it);
    }
    if (it->kind != MP_MAP && it->kind != MP_ARRAY)
        return dec_fail(r, it, "expected a map or an array", t);
    uint64_t seen_small[BIN_SEEN_SMALL];
    uint64_t *seen = bin_seen_bitmap(r->arena, t->count, seen_small);
    if (!seen)
        return MP_NOMEM(r->err);
    int rc = codec__mp_enter(r, it, it->kind == MP_MAP ? 2 : 1);
    if (!rc)
        rc = it->kind == MP_MAP ? struct_map(r, t, v, it, seen) : struct_array(r, t, v, it, seen);
    if (rc)
        return rc;
    r->depth--;
    return check_missing(r, t, seen, it->at);
}

/* nil (empty) or a map of exactly one entry whose key names a member (by
 * name, or by tag): an unknown member, none or a second is refused. */
static int dec_union(mp_rd *r, const codec_type *t, uint8_t *v, const mp_item *it)
{
    memset(v, 0, t->size);
    if (it->kind == MP_NIL)
        return CODEC_OK;
    if (it->kind != MP_MAP)
        return dec_fail(r, it, "expected a map of one member, or nil", t);
    if (it->len != 1)
        return MP_FAIL(r->err, CODEC_D_CORRUPT, it->at, "a union map holds one member, not %llu (%s)",
                       (unsigned long long)it->len, t->name);
    int rc = codec__mp_enter(r, it, 2);
    mp_item k;
    const codec_field *f;
    if (rc || (rc = key_field(r, t, 0, &k, &f)))
        return rc;
    if (!f)
        return MP_FAIL(r->err, CODEC_D_CORRUPT, k.at, "unknown union member (%s)", t->name);
    *(uint32_t *)v = (uint32_t)codec_type_field_index(t, f) + 1;
    if ((rc = next_item(r, f->type, v + f->offset)))
        return rc;
    r->depth--;
    return CODEC_OK;
}

static int dec_list(mp_rd *r, const codec_type *t, codec_list *l, const mp_item *it)
{
    if (it->kind != MP_ARRAY)
        return dec_fail(r, it, "expected an array", t);
    int rc = codec__mp_enter(r, it, 1);
    if (rc)
        return rc;
    size_t esz = t->elem->size, n = (size_t)it->len;
    uint8_t *items = NULL;
    if (n) {
        if (!(items = codec_arena_alloc(r->arena, n * esz, t->elem->align)))
            return MP_NOMEM(r->err);
        memset(items, 0, n * esz);
    }
    for (size_t i = 0; i < n; i++)
        if ((rc = next_item(r, t->elem, items + i * esz)))
            return rc;
    r->depth--;
    l->items = items;
    l->count = n;
    return CODEC_OK;
}

static int dec_map(mp_rd *r, const codec_type *t, codec_map *m, const mp_item *it)
{
    if (it->kind != MP_MAP)
        return dec_fail(r, it, "expected a map", t);
    int rc = codec__mp_enter(r, it, 2);
    if (rc)
        return rc;
    size_t ksz = t->key->size, vsz = t->elem->size, n = (size_t)it->len;
    uint8_t *keys = NULL, *values = NULL;
    if (n) {
        if (!(keys = codec_arena_alloc(r->arena, n * ksz, t->key->align)) ||
            !(values = codec_arena_alloc(r->arena, n * vsz, t->elem->align)))
            return MP_NOMEM(r->err);
        memset(keys, 0, n * ksz);
        memset(values, 0, n * vsz);
    }
    for (size_t i = 0; i < n; i++)
        if ((rc = next_item(r, t->key, keys + i * ksz)) ||
            (rc = next_item(r, t->elem, values + i * vsz)))
            return rc;
    r->depth--;
    if (!r->o->allow_duplicates) {
        long dup = codec__find_duplicate_map_key(t, keys, n, r->arena);
        if (dup == -2)
            return MP_NOMEM(r->err);
        if (dup >= 0)
            return dec_fail(r, it, "duplicate map key", t);
    }
    m->keys = keys;
    m->values = values;
    m->count = n;
    return CODEC_OK;
}

static int dec_int(mp_rd *r, const codec_type *t, void *v, const mp_item *it)
{
    int bad;
    if (it->kind == MP_UINT)
        bad = codec_uint_store(t->kind, v, it->u);
    else if (it->kind == MP_INT)
        bad = codec_int_store(t->kind, v, it->i);
    else
        return dec_fail(r, it, "expected an integer", t);
    return bad ? MP_FAIL(r->err, CODEC_D_LIMIT, it->at, "integer out of range (%s)", t->name)
               : CODEC_OK;
}

static int dec_float(mp_rd *r, const codec_type *t, void *v, const mp_item *it)
{
    double d;
    if (it->kind == MP_FLOAT)
        d = it->d;
    else if (it->kind == MP_UINT)
        d = (double)it->u;
    else if (it->kind == MP_INT)
        d = (double)it->i;
    else
        return dec_fail(r, it, "expected a number", t);
    if (t->kind == CODEC_T_FLOAT) {
        float f = (float)d;
        if (isinf(f) && !isinf(d))
            return MP_FAIL(r->err, CODEC_D_LIMIT, it->at, "number out of range (%s)", t->name);
        *(float *)v = f;
    } else {
        *(double *)v = d;
    }
    return CODEC_OK;
}

static int dec_timestamp(mp_rd *r, const codec_type *t, codec_timestamp *ts, const mp_item *it)
{
    if (it->kind != MP_EXT || it->ext_type != MP_TIMESTAMP)
        return dec_fail(r, it, "expected a timestamp (ext -1)", t);
    memset(ts, 0, sizeof *ts);
    const uint8_t *p = it->data;
    if (it->len == 4) {
        ts->seconds = codec_load_be32(p);
    } else if (it->len == 8) {
        uint64_t x = codec_load_be64(p);
        ts->nanos = (int32_t)(x >> 34);
        ts->seconds = (int64_t)(x & ((1ull << 34) - 1));
    } else if (it->len == 12) {
        uint32_t ns = codec_load_be32(p);
        ts->nanos = (int32_t)ns;
        ts->seconds = (int64_t)codec_load_be64(p + 4);
        if (ns > 999999999)
            return dec_fail(r, it, "timestamp nanoseconds above 999999999", t);
    } else {
        return dec_fail(r, it, "a timestamp has 4, 8 or 12 bytes", t);
    }
    if (ts->nanos > 999999999)
        return dec_fail(r, it, "timestamp nanoseconds above 999999999", t);
    return CODEC_OK;
}

static int dec_decimal(mp_rd *r, const codec_type *t, codec_string *v, const mp_item *it)
{
    char tmp[CODEC_NUMBER_MAX_CHARS];
    size_t n;
    switch (it->kind) {
    case MP_STR:
        if (!codec__decimal_text_valid((const char *)it->data, (size_t)it->len))
            return dec_fail(r, it, "str is not a decimal number", t);
        return codec__mp_copy(r, it, v);
    case MP_UINT: n = (size_t)snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)it->u); break;
    case MP_INT: n = (size_t)snprintf(tmp, sizeof tmp, "%lld", (long long)it->i); break;
    case MP_FLOAT:
        if (!isfinite(it->d))
            return dec_fail(r, it, "NaN or infinity is not a decimal", t);
        n = codec__format_double(it->d, tmp);
        break;
    default: return dec_fail(r, it, "expected a decimal", t);
    }
    char *p = codec_arena_alloc(r->arena, n, 1);
    if (!p)
        return MP_NOMEM(r->err);
    memcpy(p, tmp, n);
    *v = (codec_string){p, n};
    return CODEC_OK;
}

static int dec_enum(mp_rd *r, const codec_type *t, int32_t *v, const mp_item *it)
{
    const codec_enum_value *ev = NULL;
    if (it->kind == MP_STR)
        ev = codec_enum_by_name(t, (const char *)it->data, (size_t)it->len);
    else if (it->kind == MP_UINT && it->u <= INT32_MAX)
        ev = codec_enum_by_number(t, (int32_t)it->u);
    else if (it->kind == MP_INT && it->i >= INT32_MIN)
        ev = codec_enum_by_number(t, (int32_t)it->i);
    if (!ev)
        return dec_fail(r, it, "unknown enum value", t);
    *v = ev->number;
    return CODEC_OK;
}

static int dec_xmap(mp_rd *r, const codec_type *t, void *v, const mp_item *it)
{
    _Alignas(16) uint8_t wire[CODEC_XMAP_MAX_WIRE];
    codec_xmap_clear_wire(t, wire);
    int rc = dec_item(r, t->xmap->wire, wire, it);
    if (rc)
        return rc;
    if (codec_xmap_from_wire(t, wire, v, r->arena))
        return MP_FAIL(r->err, CODEC_D_CORRUPT, it->at, "value rejected by the %s adapter",
                       t->name);
    return CODEC_OK;
}

static int dec_item(mp_rd *r, const codec_type *t, void *v, const mp_item *it)
{
    switch (t->kind) {
    case CODEC_T_STRUCT: return dec_struct(r, t, v, it);
    case CODEC_T_UNION: return dec_union(r, t, v, it);
    case CODEC_T_LIST: return dec_list(r, t, v, it);
    case CODEC_T_MAP: return dec_map(r, t, v, it);
    case CODEC_T_OPTIONAL:
        if (it->kind == MP_NIL) {
            memset(v, 0, t->size);
            return CODEC_OK;
        }
        *(bool *)v = true;
        return dec_item(r, t->elem, (uint8_t *)v + t->value_offset, it);
    case CODEC_T_XMAP: return dec_xmap(r, t, v, it);
    case CODEC_T_VALUE: return codec__mp_read_value(r, it, v);
    case CODEC_T_BOOL:
        if (it->kind != MP_BOOL)
            return dec_fail(r, it, "expected true or false", t);
        *(bool *)v = it->b;
        return CODEC_OK;
    case CODEC_T_FLOAT:
    case CODEC_T_DOUBLE: return dec_float(r, t, v, it);
    case CODEC_T_STRING:
        if (it->kind != MP_STR)
            return dec_fail(r, it, "expected a str", t);
        return codec__mp_copy(r, it, v);
    case CODEC_T_BYTES:
        if (it->kind != MP_BIN)
            return dec_fail(r, it, "expected a bin", t);
        return codec__mp_copy(r, it, v);
    case CODEC_T_ENUM: return dec_enum(r, t, v, it);
    case CODEC_T_UUID:
        if (it->kind != MP_BIN || it->len != 16)
            return dec_fail(r, it, "expected a bin of 16 bytes", t);
        memcpy(v, it->data, 16);
        return CODEC_OK;
    case CODEC_T_DATE: {
        int32_t days;
        if (it->kind == MP_UINT && it->u <= INT32_MAX)
            days = (int32_t)it->u;
        else if (it->kind == MP_INT && it->i >= INT32_MIN)
            days = (int32_t)it->i;
        else
            return dec_fail(r, it, "expected days since 1970-01-01", t);
        ((codec_date *)v)->days = days;
        return CODEC_OK;
    }
    case CODEC_T_TIMESTAMP: return dec_timestamp(r, t, v, it);
    case CODEC_T_DECIMAL: return dec_decimal(r, t, v, it);
    default: return dec_int(r, t, v, it);
    }
}

/* ---------------------------------------------------------------------------
 * The planned walk (formats/binary/plan_internal.h). Each value is first tried in
 * the forms an encoder usually writes, and only when it is one of them and
 * every bound holds is anything stored; everything else (other forms,
 * truncation, limits, invalid UTF-8, out-of-range numbers) is read again
 * from its first byte by the generic walker above, which accepts it or
 * reports the exact error and offset.
 * ------------------------------------------------------------------------ */

/* An integer in any of its forms that fits int64 (consumed), or false with
 * nothing consumed. */
static inline bool fast_int(mp_rd *r, int64_t *out)
{
    const uint8_t *p = r->p;
    size_t left = (size_t)(r->end - p);
    if (!left)
        return false;
    uint8_t b = p[0];
    if (b < 0x80 || b >= 0xe0) {
        *out = b < 0x80 ? (int64_t)b : (int64_t)(int8_t)b;
        r->p = p + 1;
        return true;
    }
    unsigned size;
    if (b >= 0xcc && b <= 0xcf)
        size = 1u << (b - 0xcc);
    else if (b >= 0xd0 && b <= 0xd3)
        size = 1u << (b - 0xd0);
    else
        return false;
    if (left <= size)
        return false;
    uint64_t u;
    switch (size) {
    case 1: u = p[1]; break;
    case 2: u = codec_load_be16(p + 1); break;
    case 4: u = codec_load_be32(p + 1); break;
    default: u = codec_load_be64(p + 1); break;
    }
    if (b <= 0xcf) {
        if (u > INT64_MAX)
            return false;
        *out = (int64_t)u;
    } else {
        *out = size == 1 ? (int8_t)u : size == 2 ? (int16_t)u : size == 4 ? (int32_t)u
                                                                          : (int64_t)u;
    }
    r->p = p + 1 + size;
    return true;
}

/* A str in its fix, 8 or 16-bit form copied into the arena; false with
 * nothing consumed for any other form or when a check fails. */
static inline bool fast_str(mp_rd *r, codec_string *out)
{
    const uint8_t *p = r->p;
    size_t left = (size_t)(r->end - p), n, head;
    if (!left)
        return false;
    uint8_t b = p[0];
    if (b >= 0xa0 && b <= 0xbf)
        n = b & 31, head = 1;
    else if (b == 0xd9 && left >= 2)
        n = p[1], head = 2;
    else if (b == 0xda && left >= 3)
        n = codec_load_be16(p + 1), head = 3;
    else
        return false;
    if (n > left - head || n > r->o->max_string)
        return false;
    if (!n) {
        *out = (codec_string){NULL, 0};
        r->p = p + head;
        return true;
    }
    char *d = codec_text_pool_take(&r->pool, r->arena, left, n);
    if (!d || (codec_copy_ascii((uint8_t *)d, p + head, n) && !codec__utf8_valid(p + head, n)))
        return false;
    *out = (codec_string){d, n};
    r->p = p + head + n;
    return true;
}

/* The scalars and strings in the forms an encoder usually writes, without
 * a call: true when v was filled; false with nothing consumed otherwise. */
static inline __attribute__((always_inline)) bool fmt_inline(mp_rd *r, const bin_val *val,
                                                             uint8_t *v)
{
    const uint8_t *p = r->p;
    int64_t x;
    switch (val->op) {
    case BIN_OP_STRING: return fast_str(r, (codec_string *)v);
    case BIN_OP_BOOL:
        if (p == r->end || (*p != 0xc2 && *p != 0xc3))
            return false;
        *(bool *)v = *p == 0xc3;
        r->p = p + 1;
        return true;
    case BIN_OP_F64:
        if (r->end - p >= 9 && *p == 0xcb) {
            *(double *)v = bin_bits_double(codec_load_be64(p + 1));
            r->p = p + 9;
            return true;
        }
        if (r->end - p < 5 || *p != 0xca)
            return false;
        *(double *)v = bin_bits_float(codec_load_be32(p + 1));
        r->p = p + 5;
        return true;
    case BIN_OP_F32:
        if (r->end - p < 5 || *p != 0xca)
            return false;
        *(float *)v = bin_bits_float(codec_load_be32(p + 1));
        r->p = p + 5;
        return true;
    case BIN_OP_I8: case BIN_OP_I16: case BIN_OP_I32: case BIN_OP_I64:
    case BIN_OP_U8: case BIN_OP_U16: case BIN_OP_U32: case BIN_OP_U64:
        if (!fast_int(r, &x))
            return false;
        if (bin_store_int(val->op, v, x))
            return true;
        r->p = p;
        return false;
    case BIN_OP_ENUM:
        /* A positive fixint that is one of the enum's small numbers (what
         * the encoder writes); names and other numbers go the generic way. */
        if (p == r->end || *p >= 64 || !(val->enum_small >> *p & 1))
            return false;
        *(int32_t *)v = *p;
        r->p = p + 1;
        return true;
    default: return false;
    }
}

/* A fixmap/map16 or fixarray/array16 head, entered as the generic walker
 * enters it. */
static inline int fmt_open(mp_rd *r, bool map, uint64_t *count, size_t *at)
{
    const uint8_t *p = r->p;
    uint8_t fix = map ? 0x80 : 0x90, wide = map ? 0xde : 0xdc;
    mp_item h = {.kind = map ? MP_MAP : MP_ARRAY, .at = (size_t)(p - r->base)};
    if (p < r->end && (p[0] & 0xf0) == fix)
        h.len = p[0] & 15, r->p = p + 1;
    else if (p < r->end && p[0] == wide && r->end - p >= 3)
        h.len = codec_load_be16(p + 1), r->p = p + 3;
    else
        return PLAN_OTHER_FORM;
    *count = h.len;
    *at = h.at;
    return codec__mp_enter(r, &h, map ? 2 : 1);
}

static int fmt_generic(mp_rd *r, const codec_type *t, void *v)
{
    return next_item(r, t, v);
}

static inline bool fmt_present(const mp_rd *r)
{
    return r->p < r->end && *r->p != 0xc0;
}

/* The ext struct has its own layout. */
static inline bool fmt_planned(const bin_struct *s)
{
    return s->type != &codec_msgpack_ext_type;
}

#define FMT_RD mp_rd
#define FMT_NOMEM MP_NOMEM
#define FMT_FAIL MP_FAIL
#define fmt_entry map_entry
#define fmt_missing check_missing
#include "formats/binary/plan_decode_internal.h"

int codec__mp_decode_typed(const mp_state *st, const codec_type *t, const uint8_t *in, size_t n,
                           void *value, codec_arena *arena, codec_error *err)
{
    mp_rd r = {.base = in, .p = in, .end = in + n, .o = &st->o, .arena = arena, .err = err};
    return plan_decode(&r, &st->plan, t, value);
}
