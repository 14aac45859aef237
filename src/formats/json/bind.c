/* bind.c — descriptor-driven JSON: walks a codec_type to write a C value as
 * JSON, and to read JSON tokens straight into a C value (no DOM). */
#include "formats/json/json_internal.h"
#include "formats/json/json_text_internal.h"
#include "types/time_text_internal.h"
#include "types/index_internal.h"
#include "types/xmap_internal.h"
#include "core/number_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Encoding
 * ------------------------------------------------------------------------ */

typedef struct enc {
    codec_json_writer w;
    codec_error *err;
} enc;

static int enc_any(enc *e, const codec_type *t, const void *v);

static int enc_status(enc *e, int rc, const codec_type *t, const char *what)
{
    if (rc == CODEC_E_NOMEM)
        return JSON_NOMEM(e->err);
    if (rc)
        return codec_error_set(e->err, rc, 0, "json", CODEC_NO_OFFSET, "%s value: %s",
                               t->name ? t->name : "?",
                               what[0] ? what : "containers nested too deep");
    return CODEC_OK;
}

static int enc_text(enc *e, const char *s, size_t n)
{
    return codec_json_write_string(&e->w, s, n);
}

/* The text of a map key (JSON object keys are strings). */
static int key_text(const codec_type *k, const void *v, char *tmp, const char **s, size_t *n)
{
    int len;
    switch (k->kind) {
    case CODEC_T_STRING: {
        const codec_string *str = v;
        *s = str->ptr ? str->ptr : "";
        *n = str->len;
        return 0;
    }
    case CODEC_T_BOOL:
        *s = *(const bool *)v ? "true" : "false";
        *n = strlen(*s);
        return 0;
    case CODEC_T_ENUM: {
        const codec_enum_value *ev = codec_enum_by_number(k, *(const int32_t *)v);
        if (!ev)
            return -1;
        *s = ev->name;
        *n = strlen(ev->name);
        return 0;
    }
    case CODEC_T_UUID:
        *s = tmp;
        *n = codec__json_format_uuid(v, tmp);
        return 0;
    case CODEC_T_DATE:
        len = codec__format_date(*(const codec_date *)v, tmp);
        *s = tmp;
        *n = (size_t)len;
        return len < 0 ? -1 : 0;
    default:
        if (codec_kind_is_signed(k->kind))
            len = snprintf(tmp, 24, "%lld", (long long)codec_int_load(k->kind, v));
        else
            len = snprintf(tmp, 24, "%llu", (unsigned long long)codec_uint_load(k->kind, v));
        *s = tmp;
        *n = (size_t)len;
        return 0;
    }
}

static int enc_struct(enc *e, const codec_type *t, const uint8_t *v)
{
    int rc = enc_status(e, codec_json_write_object_start(&e->w), t, "");
    for (size_t i = 0; i < t->count && !rc; i++) {
        const codec_field *f = &t->fields[i];
        const uint8_t *fv = v + f->offset;
        if (codec_field_absent(f, v))
            continue;
        const codec_type *ft = f->type;
        if (codec_union_is_flat(ft)) {   /* the member itself is the entry */
            if (!(f = codec_union_active(ft, fv)))
                return enc_status(e, CODEC_E_INVALID_VALUE, ft, "`which` is past the last member");
            ft = f->type;
            fv += f->offset;
        }
        rc = codec_json_write_key(&e->w, f->name, strlen(f->name));
        if (rc)
            return enc_status(e, rc, t, "field name is not valid UTF-8");
        rc = enc_any(e, ft, fv);
    }
    return rc ? rc : enc_status(e, codec_json_write_object_end(&e->w), t, "");
}

/* {"member": value}, or null when empty. */
static int enc_union(enc *e, const codec_type *t, const uint8_t *v)
{
    if (!codec_union_which(v))
        return enc_status(e, codec_json_write_null(&e->w), t, "");
    const codec_field *f = codec_union_active(t, v);
    if (!f)
        return enc_status(e, CODEC_E_INVALID_VALUE, t, "`which` is past the last member");
    int rc = enc_status(e, codec_json_write_object_start(&e->w), t, "");
    if (!rc && (rc = codec_json_write_key(&e->w, f->name, strlen(f->name))))
        return enc_status(e, rc, t, "member name is not valid UTF-8");
    if (!rc)
        rc = enc_any(e, f->type, v + f->offset);
    return rc ? rc : enc_status(e, codec_json_write_object_end(&e->w), t, "");
}

static int enc_list(enc *e, const codec_type *t, const codec_list *l)
{
    int rc = enc_status(e, codec_json_write_array_start(&e->w), t, "");
    const uint8_t *item = l->items;
    for (size_t i = 0; i < l->count && !rc; i++, item += t->elem->size)
        rc = enc_any(e, t->elem, item);
    return rc ? rc : enc_status(e, codec_json_write_array_end(&e->w), t, "");
}

static int enc_map(enc *e, const codec_type *t, const codec_map *m)
{
    int rc = enc_status(e, codec_json_write_object_start(&e->w), t, "");
    const uint8_t *k = m->keys, *v = m->values;
    for (size_t i = 0; i < m->count && !rc; i++, k += t->key->size, v += t->elem->size) {
        char tmp[48];
        const char *s;
        size_t n;
        if (key_text(t->key, k, tmp, &s, &n))
            return enc_status(e, CODEC_E_INVALID_VALUE, t, "map key has no text form");
        if ((rc = codec_json_write_key(&e->w, s, n)))
            return enc_status(e, rc, t, "map key is not valid UTF-8");
        rc = enc_any(e, t->elem, v);
    }
    return rc ? rc : enc_status(e, codec_json_write_object_end(&e->w), t, "");
}

static int enc_xmap(enc *e, const codec_type *t, const void *v)
{
    codec_xmap_frame f;
    if (codec_xmap_to_wire(t, v, &f))
        return enc_status(e, CODEC_E_INVALID_VALUE, t, "rejected by its xmap adapter");
    return enc_any(e, t->xmap->wire, f.wire);
}

static int enc_leaf(enc *e, const codec_type *t, const void *v)
{
    char tmp[CODEC_TIMESTAMP_MAX_CHARS + 13];
    int len;
    switch (t->kind) {
    case CODEC_T_BOOL:
        return enc_status(e, codec_json_write_bool(&e->w, *(const bool *)v), t, "");
    case CODEC_T_FLOAT: {
        float f = *(const float *)v;
        if (!isfinite(f))
            return enc_status(e, CODEC_E_INVALID_VALUE, t, "NaN or infinity");
        char num[CODEC_NUMBER_MAX_CHARS];
        return enc_status(e, codec__json_write_raw_number(&e->w, num, codec__format_float(f, num)),
                          t, "");
    }
    case CODEC_T_DOUBLE:
        return enc_status(e, codec_json_write_double(&e->w, *(const double *)v), t,
                          "NaN or infinity");
    case CODEC_T_STRING: {
        const codec_string *s = v;
        return enc_status(e, enc_text(e, s->ptr ? s->ptr : "", s->len), t,
                          "string is not valid UTF-8");
    }
    case CODEC_T_DECIMAL: {
        const codec_string *s = v;
        if (!codec__decimal_text_valid(s->ptr, s->len))
            return enc_status(e, CODEC_E_INVALID_VALUE, t, "not a decimal number");
        return enc_status(e, codec__json_write_raw_number(&e->w, s->ptr, s->len), t, "");
    }
    case CODEC_T_BYTES:
        return enc_status(e, codec__json_write_base64(&e->w, v), t, "");
    case CODEC_T_UUID:
        return enc_status(e, enc_text(e, tmp, codec__json_format_uuid(v, tmp)), t, "");
    case CODEC_T_DATE:
        len = codec__format_date(*(const codec_date *)v, tmp);
        return enc_status(e, len < 0 ? CODEC_E_INVALID_VALUE : enc_text(e, tmp, (size_t)len),
                          t, "year outside 0..9999");
    case CODEC_T_TIMESTAMP:
        len = codec__format_timestamp(v, tmp);
        return enc_status(e, len < 0 ? CODEC_E_INVALID_VALUE : enc_text(e, tmp, (size_t)len),
                          t, "out of range (years 0..9999, nanos, offset)");
    default:
        if (codec_kind_is_signed(t->kind))
            return enc_status(e, codec_json_write_int64(&e->w, codec_int_load(t->kind, v)), t,
                              "");
        return enc_status(e, codec_json_write_uint64(&e->w, codec_uint_load(t->kind, v)), t, "");
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
        return in ? enc_any(e, t->elem, in)
                  : enc_status(e, codec_json_write_null(&e->w), t, "");
    }
    case CODEC_T_ENUM: {
        const codec_enum_value *ev = codec_enum_by_number(t, *(const int32_t *)v);
        if (!ev)
            return codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, "json", CODEC_NO_OFFSET,
                                   "%s value: %d is not one of its names",
                                   t->name ? t->name : "enum", (int)*(const int32_t *)v);
        return enc_status(e, enc_text(e, ev->name, strlen(ev->name)), t,
                          "enum name is not valid UTF-8");
    }
    case CODEC_T_XMAP: return enc_xmap(e, t, v);
    case CODEC_T_VALUE: return codec__json_write_value(&e->w, v, e->err);
    default: return enc_leaf(e, t, v);
    }
}

int codec__json_encode_one(codec_buf *out, uint32_t depth, const codec_type *t, const void *value,
                           codec_error *err)
{
    enc e = {.err = err};
    codec_json_writer_init(&e.w, out, false);
    e.w.depth = depth;
    return enc_any(&e, t, value);
}

int codec__json_encode_reference(const codec_type *t, const void *value, bool pretty,
                                 codec_buf *out, codec_error *err)
{
    enc e = {.err = err};
    codec_json_writer_init(&e.w, out, pretty);
    return enc_any(&e, t, value);
}

int codec__json_encode_typed(const codec_type *t, const void *value, const codec_json_options *o,
                             const struct json_plan *plan, codec_buf *out, codec_error *err)
{
    if (!o->pretty) {
        int fast = codec__json_encode_fast(plan, value, out, err);
        if (fast != 1)
            return fast;
    }
    return codec__json_encode_reference(t, value, o->pretty, out, err);
}

/* ---------------------------------------------------------------------------
 * Decoding
 * ------------------------------------------------------------------------ */

typedef struct dec {
    codec_json_reader *r;
    const codec_json_options *o;
    codec_arena *arena;
    codec_error *err;
} dec;

static int dec_any(dec *d, const codec_type *t, void *v, codec_json_token tok);

static int dec_fail(dec *d, int detail, const char *what, const codec_type *t)
{
    return JSON_FAIL(d->err, detail, d->r->token_offset, "%s (%s)", what,
                     t && t->name ? t->name : "value");
}

codec_string codec__json_keep_text(codec_json_reader *r, codec_arena *arena, codec_string s)
{
    /* Unescaped strings are already in the arena; in-place ones are copied so
     * the value does not depend on the input buffer. */
    if (s.len && (const uint8_t *)s.ptr >= r->base && (const uint8_t *)s.ptr < r->end) {
        char *p = codec_arena_alloc(arena, s.len, 1);
        if (!p)
            return (codec_string){NULL, SIZE_MAX};
        memcpy(p, s.ptr, s.len);
        s.ptr = p;
    }
    return s;
}

static int dec_string(dec *d, codec_string *out)
{
    codec_string s = codec__json_keep_text(d->r, d->arena, d->r->text);
    if (s.len == SIZE_MAX)
        return JSON_NOMEM(d->err);
    *out = s;
    return CODEC_OK;
}

/* memcmp for the short names keys usually are, without a call. */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
    if (n > 16)
        return memcmp(a, b, n) == 0;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* A key naming a member of one of struct t's flat unions: that member is
 * decoded into its union (null leaves it unset); a second member of the
 * same union is refused. -1 when the key is no such member. */
static int dec_flat_member(dec *d, const codec_type *t, uint8_t *v, codec_string k,
                           size_t key_at, codec_json_token tok, uint64_t *seen)
{
    for (size_t i = 0; i < t->count; i++) {
        const codec_type *u = t->fields[i].type;
        const codec_field *m = codec_union_is_flat(u) ? codec_type_field_by_name(u, k.ptr, k.len)
                                                      : NULL;
        if (!m)
            continue;
        uint8_t *uv = v + t->fields[i].offset;
        if (tok == CODEC_JSON_NULL)
            return CODEC_OK;
        if (codec_union_which(uv))
            return JSON_FAIL(d->err, CODEC_D_CORRUPT, key_at,
                             "a second member '%s' of union '%s' (%s): one only", m->name,
                             t->fields[i].name, t->name);
        seen[i / 64] |= 1ull << (i % 64);
        *(uint32_t *)uv = (uint32_t)codec_type_field_index(u, m) + 1;
        return dec_any(d, m->type, uv + m->offset, tok);
    }
    return -1;
}

static int dec_struct(dec *d, const codec_type *t, uint8_t *v)
{
    uint64_t seen_small[4] = {0, 0, 0, 0};
    uint64_t *seen = seen_small;
    size_t words = (t->count + 63) / 64;
    if (words > 4 && !(seen = codec_arena_alloc(d->arena, words * 8, 8)))
        return JSON_NOMEM(d->err);
    if (words > 4)
        memset(seen, 0, words * 8);
    size_t members = 0, expect = 0;
    const uint32_t *lens = codec__type_name_lengths(t);
    codec_json_token tok;
    int rc;
    codec_string k;
    size_t key_at;
    while (!(rc = codec__json_next_member(d->r, &k, &key_at, &tok, d->err)) &&
           tok != CODEC_JSON_OBJECT_END) {
        if (++members > d->o->max_elements)
            return JSON_FAIL(d->err, CODEC_D_LIMIT, key_at, "more members than max-elements (%s)",
                             t->name);
        /* Keys usually come in declaration order: try the next field first. */
        const codec_field *f =
            expect < t->count && lens && lens[expect] == k.len &&
                    same_bytes(t->fields[expect].name, k.ptr, k.len)
                ? &t->fields[expect]
                : codec__type_field_by_name_hashed(t, k.ptr, k.len, codec_name_hash(k.ptr, k.len));
        if (!f && (rc = dec_flat_member(d, t, v, k, key_at, tok, seen)) != -1) {
            if (rc)
                return rc;
            continue;
        }
        if (!f) {
            if (d->o->reject_unknown)
                return JSON_FAIL(d->err, CODEC_D_CORRUPT, key_at, "unknown field '%.*s' (%s)",
                                 (int)(k.len > 64 ? 64 : k.len), k.ptr, t->name);
            if ((rc = codec_json_skip(d->r, tok, d->err)))
                return rc;
            continue;
        }
        size_t i = codec_type_field_index(t, f);
        expect = i + 1;
        if (seen[i / 64] >> (i % 64) & 1) {
            if (!d->o->allow_duplicates)
                return JSON_FAIL(d->err, CODEC_D_CORRUPT, key_at, "duplicate key '%s' (%s)",
                                 f->name, t->name);
            memset(v + f->offset, 0, f->size);
        }
        seen[i / 64] |= 1ull << (i % 64);
        if ((rc = dec_any(d, f->type, v + f->offset, tok)))
            return rc;
    }
    if (rc)
        return rc;
    for (size_t i = 0; i < t->count; i++) {
        const codec_field *f = &t->fields[i];
        bool required = (f->flags & CODEC_FIELD_REQUIRED) ||
                        (d->o->require_all && !codec_field_may_be_absent(f));
        if (required && !(seen[i / 64] >> (i % 64) & 1))
            return JSON_FAIL(d->err, CODEC_D_CORRUPT, d->r->token_offset,
                             "missing field '%s' (%s)", f->name, t->name);
    }
    return CODEC_OK;
}

/* null (empty) or an object of exactly one member: an unknown member, no
 * member or a second one is refused, never dropped. */
static int dec_union(dec *d, const codec_type *t, uint8_t *v, codec_json_token tok)
{
    memset(v, 0, t->size);
    if (tok == CODEC_JSON_NULL)
        return CODEC_OK;
    if (tok != CODEC_JSON_OBJECT_START)
        return dec_fail(d, CODEC_D_CORRUPT, "expected an object of one member, or null", t);
    codec_string k;
    size_t key_at;
    int rc = codec__json_next_member(d->r, &k, &key_at, &tok, d->err);
    if (rc)
        return rc;
    if (tok == CODEC_JSON_OBJECT_END)
        return dec_fail(d, CODEC_D_CORRUPT, "a union object needs one member, has none", t);
    const codec_field *f = codec_type_field_by_name(t, k.ptr, k.len);
    if (!f)
        return JSON_FAIL(d->err, CODEC_D_CORRUPT, key_at, "unknown union member '%.*s' (%s)",
                         (int)(k.len > 64 ? 64 : k.len), k.ptr, t->name);
    *(uint32_t *)v = (uint32_t)codec_type_field_index(t, f) + 1;
    if ((rc = dec_any(d, f->type, v + f->offset, tok)) ||
        (rc = codec__json_next_member(d->r, &k, &key_at, &tok, d->err)))
        return rc;
    if (tok != CODEC_JSON_OBJECT_END)
        return JSON_FAIL(d->err, CODEC_D_CORRUPT, key_at,
                         "a second member '%.*s' in a union (%s): one only",
                         (int)(k.len > 64 ? 64 : k.len), k.ptr, t->name);
    return CODEC_OK;
}

static int dec_list(dec *d, const codec_type *t, codec_list *l)
{
    size_t esz = t->elem->size, cap = 0, count = 0;
    uint8_t *items = NULL;
    codec_json_token tok;
    int rc;
    while (!(rc = codec_json_next(d->r, &tok, d->err)) && tok != CODEC_JSON_ARRAY_END) {
        if (count == d->o->max_elements)
            return dec_fail(d, CODEC_D_LIMIT, "more items than max-elements", t);
        if (!(items = codec__array_grow(d->arena, items, count, &cap, esz)))
            return JSON_NOMEM(d->err);
        memset(items + count * esz, 0, esz);
        if ((rc = dec_any(d, t->elem, items + count * esz, tok)))
            return rc;
        count++;
    }
    l->items = items;
    l->count = count;
    return rc;
}

/* Parses the text of a map key into a key of type k. */
static int parse_key(dec *d, const codec_type *k, codec_string s, void *out)
{
    switch (k->kind) {
    case CODEC_T_STRING: {
        codec_string kept = codec__json_keep_text(d->r, d->arena, s);
        if (kept.len == SIZE_MAX)
            return JSON_NOMEM(d->err);
        *(codec_string *)out = kept;
        return 0;
    }
    case CODEC_T_BOOL:
        if (s.len == 4 && memcmp(s.ptr, "true", 4) == 0)
            *(bool *)out = true;
        else if (!(s.len == 5 && memcmp(s.ptr, "false", 5) == 0))
            return -1;
        return 0;
    case CODEC_T_ENUM: {
        const codec_enum_value *ev = codec_enum_by_name(k, s.ptr, s.len);
        if (!ev)
            return -1;
        *(int32_t *)out = ev->number;
        return 0;
    }
    case CODEC_T_UUID: return codec__json_parse_uuid(s.ptr, s.len, out);
    case CODEC_T_DATE: return codec__parse_date(s.ptr, s.len, out);
    default: {
        /* Integer keys: the same grammar and range rules as number values. */
        codec_json_reader kr;
        codec_json_token tok;
        codec_json_reader_init(&kr, (const uint8_t *)s.ptr, s.len, NULL, NULL);
        if (codec_json_next(&kr, &tok, NULL) || tok != CODEC_JSON_NUMBER ||
            codec_json_next(&kr, &tok, NULL) || tok != CODEC_JSON_END)
            return -1;
        int64_t i;
        uint64_t u;
        if (codec_kind_is_signed(k->kind))
            return codec_json_reader_int64(&kr, &i) ? -1 : codec_int_store(k->kind, out, i);
        return codec_json_reader_uint64(&kr, &u) ? -1 : codec_uint_store(k->kind, out, u);
    }
    }
}

static int dec_map(dec *d, const codec_type *t, codec_map *m)
{
    size_t ksz = t->key->size, vsz = t->elem->size, kcap = 0, vcap = 0, count = 0;
    uint8_t *keys = NULL, *values = NULL;
    codec_json_token tok;
    int rc;
    codec_string k;
    size_t key_at;
    while (!(rc = codec__json_next_member(d->r, &k, &key_at, &tok, d->err)) &&
           tok != CODEC_JSON_OBJECT_END) {
        if (count == d->o->max_elements)
            return JSON_FAIL(d->err, CODEC_D_LIMIT, key_at, "more entries than max-elements (%s)",
                             t->name);
        if (!(keys = codec__array_grow(d->arena, keys, count, &kcap, ksz)) ||
            !(values = codec__array_grow(d->arena, values, count, &vcap, vsz)))
            return JSON_NOMEM(d->err);
        memset(keys + count * ksz, 0, ksz);
        memset(values + count * vsz, 0, vsz);
        rc = parse_key(d, t->key, k, keys + count * ksz);
        if (rc == CODEC_E_NOMEM)
            return rc;
        if (rc)
            return JSON_FAIL(d->err, CODEC_D_CORRUPT, key_at, "map key is not a valid key (%s)",
                             t->key->name);
        if ((rc = dec_any(d, t->elem, values + count * vsz, tok)))
            return rc;
        count++;
    }
    if (rc)
        return rc;
    if (!d->o->allow_duplicates) {
        long dup = codec__find_duplicate_map_key(t, keys, count, d->arena);
        if (dup == -2)
            return JSON_NOMEM(d->err);
        if (dup >= 0)
            return dec_fail(d, CODEC_D_CORRUPT, "duplicate map key", t);
    }
    m->keys = keys;
    m->values = values;
    m->count = count;
    return CODEC_OK;
}

static int dec_xmap(dec *d, const codec_type *t, void *v, codec_json_token tok)
{
    _Alignas(16) uint8_t wire[CODEC_XMAP_MAX_WIRE];
    size_t at = d->r->token_offset;
    codec_xmap_clear_wire(t, wire);
    int rc = dec_any(d, t->xmap->wire, wire, tok);
    if (rc)
        return rc;
    if (codec_xmap_from_wire(t, wire, v, d->arena))
        return JSON_FAIL(d->err, CODEC_D_CORRUPT, at, "value rejected by the %s adapter",
                         t->name);
    return CODEC_OK;
}

static int dec_number(dec *d, const codec_type *t, void *v)
{
    if (codec_kind_is_signed(t->kind) || codec_kind_is_unsigned(t->kind)) {
        int64_t i;
        uint64_t u;
        if (!d->r->number_is_int)
            return dec_fail(d, CODEC_D_CORRUPT, "expected an integer", t);
        int bad = codec_kind_is_signed(t->kind)
                      ? codec_json_reader_int64(d->r, &i) || codec_int_store(t->kind, v, i)
                      : codec_json_reader_uint64(d->r, &u) || codec_uint_store(t->kind, v, u);
        return bad ? dec_fail(d, CODEC_D_CORRUPT, "integer out of range", t) : CODEC_OK;
    }
    /* A float is rounded once, straight from the decimal text. */
    int bad = t->kind == CODEC_T_FLOAT
                  ? codec__parse_float(d->r->text.ptr, d->r->text.len, v)
                  : codec_json_reader_double(d->r, v);
    return bad ? dec_fail(d, CODEC_D_CORRUPT, "number out of range", t) : CODEC_OK;
}

static int dec_text_leaf(dec *d, const codec_type *t, void *v)
{
    codec_string s = d->r->text;
    switch (t->kind) {
    case CODEC_T_STRING: return dec_string(d, v);
    case CODEC_T_ENUM: {
        const codec_enum_value *ev = codec_enum_by_name(t, s.ptr, s.len);
        if (!ev)
            return dec_fail(d, CODEC_D_CORRUPT, "unknown enum name", t);
        *(int32_t *)v = ev->number;
        return CODEC_OK;
    }
    case CODEC_T_BYTES: {
        uint8_t *p = codec_arena_alloc(d->arena, s.len / 4 * 3 + 1, 1);
        size_t n;
        if (!p)
            return JSON_NOMEM(d->err);
        if (codec__json_base64_decode(s.ptr, s.len, p, &n))
            return dec_fail(d, CODEC_D_CORRUPT, "invalid base64", t);
        *(codec_bytes *)v = (codec_bytes){p, n};
        return CODEC_OK;
    }
    case CODEC_T_UUID:
        return codec__json_parse_uuid(s.ptr, s.len, v)
                   ? dec_fail(d, CODEC_D_CORRUPT, "invalid UUID", t)
                   : CODEC_OK;
    case CODEC_T_DATE:
        return codec__parse_date(s.ptr, s.len, v) ? dec_fail(d, CODEC_D_CORRUPT, "invalid date", t)
                                                 : CODEC_OK;
    case CODEC_T_TIMESTAMP:
        return codec__parse_timestamp(s.ptr, s.len, v)
                   ? dec_fail(d, CODEC_D_CORRUPT, "invalid RFC 3339 timestamp", t)
                   : CODEC_OK;
    default:
        return dec_fail(d, CODEC_D_CORRUPT, "unexpected string", t);
    }
}

static bool wants_string(codec_type_kind k)
{
    return k == CODEC_T_STRING || k == CODEC_T_ENUM || k == CODEC_T_BYTES || k == CODEC_T_UUID ||
           k == CODEC_T_DATE || k == CODEC_T_TIMESTAMP;
}

static int dec_any(dec *d, const codec_type *t, void *v, codec_json_token tok)
{
    switch (t->kind) {
    case CODEC_T_STRUCT:
        if (tok != CODEC_JSON_OBJECT_START)
            return dec_fail(d, CODEC_D_CORRUPT, "expected an object", t);
        return dec_struct(d, t, v);
    case CODEC_T_UNION: return dec_union(d, t, v, tok);
    case CODEC_T_LIST:
        if (tok != CODEC_JSON_ARRAY_START)
            return dec_fail(d, CODEC_D_CORRUPT, "expected an array", t);
        return dec_list(d, t, v);
    case CODEC_T_MAP:
        if (tok != CODEC_JSON_OBJECT_START)
            return dec_fail(d, CODEC_D_CORRUPT, "expected an object", t);
        return dec_map(d, t, v);
    case CODEC_T_OPTIONAL:
        if (tok == CODEC_JSON_NULL) {
            memset(v, 0, t->size);
            return CODEC_OK;
        }
        *(bool *)v = true;
        return dec_any(d, t->elem, (uint8_t *)v + t->value_offset, tok);
    case CODEC_T_XMAP: return dec_xmap(d, t, v, tok);
    case CODEC_T_VALUE: return codec__json_read_value(d->r, tok, v, d->o, d->err);
    case CODEC_T_BOOL:
        if (tok != CODEC_JSON_TRUE && tok != CODEC_JSON_FALSE)
            return dec_fail(d, CODEC_D_CORRUPT, "expected true or false", t);
        *(bool *)v = tok == CODEC_JSON_TRUE;
        return CODEC_OK;
    case CODEC_T_DECIMAL: {
        if (tok != CODEC_JSON_NUMBER)
            return dec_fail(d, CODEC_D_CORRUPT, "expected a number", t);
        return dec_string(d, v);
    }
    default:
        if (wants_string(t->kind)) {
            if (tok != CODEC_JSON_STRING)
                return dec_fail(d, CODEC_D_CORRUPT, "expected a string", t);
            return dec_text_leaf(d, t, v);
        }
        if (tok != CODEC_JSON_NUMBER)
            return dec_fail(d, CODEC_D_CORRUPT, "expected a number", t);
        return dec_number(d, t, v);
    }
}

int codec__json_decode_one(codec_json_reader *r, const codec_type *t, void *v,
                           const codec_json_options *o, codec_arena *arena, codec_error *err)
{
    dec d = {.r = r, .o = o, .arena = arena, .err = err};
    codec_json_token tok;
    int rc = codec_json_next(r, &tok, err);
    if (!rc)
        rc = t ? dec_any(&d, t, v, tok) : codec_json_skip(r, tok, err);
    return rc;
}

int codec__json_decode_reference(const codec_type *t, const uint8_t *in, size_t n, void *value,
                                 const codec_json_options *o, codec_arena *arena, codec_error *err)
{
    memset(value, 0, t->size);
    codec_json_reader r;
    codec_json_reader_init(&r, in, n, arena, o);
    dec d = {.r = &r, .o = o, .arena = arena, .err = err};
    codec_json_token tok;
    int rc = codec_json_next(&r, &tok, err);
    if (!rc)
        rc = dec_any(&d, t, value, tok);
    if (!rc)
        rc = codec_json_next(&r, &tok, err);
    return rc;
}

int codec__json_decode_typed(const codec_type *t, const uint8_t *in, size_t n, void *value,
                             const codec_json_options *o, bool plain_names, codec_arena *arena,
                             codec_error *err)
{
    if (n > o->max_size)
        return JSON_FAIL(err, CODEC_D_LIMIT, 0, "document of %zu bytes exceeds max-size (%zu)",
                         n, o->max_size);
    memset(value, 0, t->size);
    int fast = codec__json_decode_fast(t, in, n, value, o, plain_names, arena, err);
    if (fast != 1)
        return fast;
    return codec__json_decode_reference(t, in, n, value, o, arena, err);
}
