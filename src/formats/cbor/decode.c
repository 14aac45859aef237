/* decode.c — descriptor-driven CBOR reading: items straight into a C value
 * (no intermediate tree), every length checked before allocation. */
#include "formats/cbor/cbor_internal.h"
#include "types/value_internal.h"
#include "types/time_text_internal.h"
#include "types/index_internal.h"
#include "types/xmap_internal.h"
#include "core/number_internal.h"

#include <math.h>
#include <stdio.h>

static int dec_item(cbor_rd *r, const codec_type *t, void *v, cbor_head *h);

static int dec_fail(cbor_rd *r, const cbor_head *h, const char *what, const codec_type *t)
{
    return CBOR_FAIL(r->err, CODEC_D_CORRUPT, h->at, "%s (%s)", what,
                     t && t->name ? t->name : "value");
}

static int next_head(cbor_rd *r, cbor_head *h)
{
    int rc = cbor_read_head(r, h);
    /* The self-describe tag only marks the data as CBOR. */
    while (!rc && h->major == CBOR_TAG && h->arg == CBOR_TAG_SELF)
        rc = cbor_read_head(r, h);
    return rc;
}

/* When h is a tag, its number into *tag and h becomes the tagged item's head;
 * otherwise *tag is UINT64_MAX. */
static int untag(cbor_rd *r, cbor_head *h, uint64_t *tag)
{
    *tag = UINT64_MAX;
    if (h->major != CBOR_TAG)
        return CODEC_OK;
    *tag = h->arg;
    return next_head(r, h);
}

static bool is_simple(const cbor_head *h, uint8_t byte)
{
    return h->major == CBOR_SIMPLE && h->ai == (byte & 31);
}

/* The magnitude of a bignum whose byte string head is b (copied to mag,
 * leading zeros dropped); *len set. */
static int read_bignum(cbor_rd *r, const cbor_head *b, uint8_t *mag, size_t *len)
{
    codec_string s;
    int rc;
    if (b->major != CBOR_BYTES)
        return dec_fail(r, b, "a bignum must be a byte string", NULL);
    if ((rc = codec__cbor_read_string(r, b, &s)))
        return rc;
    size_t skip = 0;
    while (skip < s.len && s.ptr[skip] == 0)
        skip++;
    if (s.len - skip > BIN_BIGNUM_MAX_BYTES)
        return CBOR_FAIL(r->err, CODEC_D_LIMIT, b->at, "bignum longer than %d bytes",
                         BIN_BIGNUM_MAX_BYTES);
    if (s.len > skip)
        memcpy(mag, s.ptr + skip, s.len - skip);
    *len = s.len - skip;
    return CODEC_OK;
}

/* An integer item (major 0/1 or a bignum of at most 64 bits) as sign and
 * magnitude - 1 for negatives (the CBOR argument). */
static int read_integer(cbor_rd *r, cbor_head *h, uint64_t tag, bool *neg, uint64_t *arg,
                        const codec_type *t)
{
    if (tag == CBOR_TAG_POSBIG || tag == CBOR_TAG_NEGBIG) {
        uint8_t mag[BIN_BIGNUM_MAX_BYTES];
        size_t len;
        int rc = read_bignum(r, h, mag, &len);
        if (rc)
            return rc;
        if (len > 8)
            return CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at, "bignum beyond 64 bits (%s)",
                             t && t->name ? t->name : "value");
        *neg = tag == CBOR_TAG_NEGBIG;
        *arg = bin_mag_u64(mag, len);
        return CODEC_OK;
    }
    if (tag != UINT64_MAX || (h->major != CBOR_UINT && h->major != CBOR_NEGINT))
        return dec_fail(r, h, "expected an integer", t);
    *neg = h->major == CBOR_NEGINT;
    *arg = h->arg;
    return CODEC_OK;
}

static int dec_int(cbor_rd *r, const codec_type *t, void *v, cbor_head *h, uint64_t tag)
{
    bool neg;
    uint64_t a;
    int rc = read_integer(r, h, tag, &neg, &a, t);
    if (rc)
        return rc;
    int bad = neg ? a > INT64_MAX || codec_int_store(t->kind, v, -1 - (int64_t)a)
                  : codec_uint_store(t->kind, v, a);
    return bad ? CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at, "integer out of range (%s)", t->name)
               : CODEC_OK;
}

static int dec_float(cbor_rd *r, const codec_type *t, void *v, const cbor_head *h)
{
    double d;
    if (h->major == CBOR_SIMPLE && h->ai >= 25 && h->ai <= 27)
        d = cbor_head_double(h);
    else if (h->major == CBOR_UINT)
        d = (double)h->arg;
    else if (h->major == CBOR_NEGINT)
        d = -1.0 - (double)h->arg;
    else
        return dec_fail(r, h, "expected a number", t);
    if (t->kind == CODEC_T_FLOAT) {
        float f = (float)d;
        if (isinf(f) && !isinf(d))
            return CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at, "number out of range (%s)", t->name);
        *(float *)v = f;
    } else {
        *(double *)v = d;
    }
    return CODEC_OK;
}

/* Decimal text of an integer with sign `neg` and argument a (value -1-a). */
static codec_string int_text(cbor_rd *r, bool neg, const uint8_t *mag, size_t len)
{
    uint8_t m[BIN_BIGNUM_MAX_BYTES + 1];
    memcpy(m + 1, mag, len);
    m[0] = 0;
    if (neg) {
        /* -1 - n: the magnitude is n + 1. */
        for (size_t i = len + 1; i-- > 0;)
            if (++m[i])
                break;
    }
    size_t n = m[0] ? len + 1 : len;
    char *p = codec_arena_alloc(r->arena, n * 3 + 24, 1);
    if (!p)
        return (codec_string){NULL, SIZE_MAX};
    return (codec_string){p, codec__bin_bignum_to_text(m + (m[0] ? 0 : 1), n, neg, p)};
}

static int integer_text(cbor_rd *r, cbor_head *h, uint64_t tag, codec_string *out)
{
    uint8_t mag[BIN_BIGNUM_MAX_BYTES];
    size_t len;
    bool neg;
    int rc;
    if (tag == CBOR_TAG_POSBIG || tag == CBOR_TAG_NEGBIG) {
        if ((rc = read_bignum(r, h, mag, &len)))
            return rc;
        neg = tag == CBOR_TAG_NEGBIG;
    } else if (tag == UINT64_MAX && (h->major == CBOR_UINT || h->major == CBOR_NEGINT)) {
        neg = h->major == CBOR_NEGINT;
        codec_store_be64(mag, h->arg);
        len = 8;
    } else {
        return dec_fail(r, h, "expected an integer", NULL);
    }
    *out = int_text(r, neg, mag, len);
    return out->len == SIZE_MAX ? CBOR_NOMEM(r->err) : CODEC_OK;
}

/* Decimal fields take integers, bignums, decimal fractions and floats. */
static int dec_decimal(cbor_rd *r, const codec_type *t, codec_string *v, cbor_head *h,
                       uint64_t tag)
{
    int rc;
    if (tag == CBOR_TAG_DECIMAL) {
        cbor_head e, m;
        bool eneg = false;
        uint64_t ea = 0;
        uint64_t mtag;
        codec_string mant;
        if (h->major != CBOR_ARRAY || h->indefinite || h->arg != 2)
            return dec_fail(r, h, "a decimal fraction is [exponent, mantissa]", t);
        if ((rc = next_head(r, &e)) || (rc = read_integer(r, &e, UINT64_MAX, &eneg, &ea, t)) ||
            (rc = next_head(r, &m)) || (rc = untag(r, &m, &mtag)) ||
            (rc = integer_text(r, &m, mtag, &mant)))
            return rc;
        if (ea > INT64_MAX)
            return CBOR_FAIL(r->err, CODEC_D_LIMIT, e.at, "exponent out of range (%s)", t->name);
        char *p = codec_arena_alloc(r->arena, mant.len + 24, 1);
        if (!p)
            return CBOR_NOMEM(r->err);
        memcpy(p, mant.ptr, mant.len);
        int n = snprintf(p + mant.len, 24, "e%s%llu", eneg ? "-" : "",
                         (unsigned long long)(eneg ? ea + 1 : ea));
        *v = (codec_string){p, mant.len + (size_t)n};
        return CODEC_OK;
    }
    if (tag == UINT64_MAX && h->major == CBOR_SIMPLE && h->ai >= 25 && h->ai <= 27) {
        double d = cbor_head_double(h);
        if (!isfinite(d))
            return dec_fail(r, h, "NaN or infinity is not a decimal", t);
        char *p = codec_arena_alloc(r->arena, CODEC_NUMBER_MAX_CHARS, 1);
        if (!p)
            return CBOR_NOMEM(r->err);
        *v = (codec_string){p, codec__format_double(d, p)};
        return CODEC_OK;
    }
    return integer_text(r, h, tag, v);
}

static int dec_timestamp(cbor_rd *r, const codec_type *t, codec_timestamp *ts, cbor_head *h,
                         uint64_t tag)
{
    memset(ts, 0, sizeof *ts);
    if (h->major == CBOR_TEXT && (tag == UINT64_MAX || tag == CBOR_TAG_DATETIME)) {
        if (h->indefinite)
            return dec_fail(r, h, "expected a definite text", t);
        int rc = codec__cbor_check_string(r, h);
        if (rc)
            return rc;
        const char *s = (const char *)r->p;
        r->p += h->arg;
        return codec__parse_timestamp(s, (size_t)h->arg, ts)
                   ? dec_fail(r, h, "invalid RFC 3339 timestamp", t)
                   : CODEC_OK;
    }
    if (tag != UINT64_MAX && tag != CBOR_TAG_EPOCH)
        return dec_fail(r, h, "unexpected tag for a timestamp", t);
    if (h->major == CBOR_UINT || h->major == CBOR_NEGINT) {
        if (h->arg > INT64_MAX)
            return CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at, "timestamp out of range");
        ts->seconds = h->major == CBOR_UINT ? (int64_t)h->arg : -1 - (int64_t)h->arg;
        return CODEC_OK;
    }
    if (h->major == CBOR_SIMPLE && h->ai >= 25 && h->ai <= 27) {
        /* floor() and llround() without libm, exactly: an integral
         * bound holds for d as for floor(d); the truncation of d is
         * representable, and so is one less below 2^53 (above it d is
         * integral); x - (int64_t)x is exact for 0 <= x < 1e9. */
        double d = cbor_head_double(h);
        if (!(d >= -9.2e18 && d <= 9.2e18))
            return CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at, "timestamp out of range");
        double t = (double)(int64_t)d, s = t > d ? t - 1 : t, x = (d - s) * 1e9;
        int64_t ns = (int64_t)x;
        ns += x - (double)ns >= 0.5;
        ts->seconds = (int64_t)s + (ns >= 1000000000);
        ts->nanos = (int32_t)(ns >= 1000000000 ? 0 : ns);
        return CODEC_OK;
    }
    return dec_fail(r, h, "expected a timestamp", t);
}

static int dec_date(cbor_rd *r, const codec_type *t, codec_date *dt, cbor_head *h, uint64_t tag)
{
    if (h->major == CBOR_TEXT && !h->indefinite &&
        (tag == UINT64_MAX || tag == CBOR_TAG_DATE_TEXT)) {
        int rc = codec__cbor_check_string(r, h);
        if (rc)
            return rc;
        const char *s = (const char *)r->p;
        r->p += h->arg;
        return codec__parse_date(s, (size_t)h->arg, dt) ? dec_fail(r, h, "invalid date", t)
                                                      : CODEC_OK;
    }
    if (tag != UINT64_MAX && tag != CBOR_TAG_DAYS)
        return dec_fail(r, h, "expected a date", t);
    bool neg;
    uint64_t a;
    int rc = read_integer(r, h, UINT64_MAX, &neg, &a, t);
    if (rc)
        return rc;
    if (a > INT32_MAX)
        return CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at, "date out of range (%s)", t->name);
    dt->days = neg ? -1 - (int32_t)a : (int32_t)a;
    return CODEC_OK;
}

/* One entry of a struct map: its key (a name as text, or a tag), its value
 * into the field it names, unknown keys skipped or rejected, repeats
 * refused unless duplicates=allow. *expect is the field tried first. */
/* Reads the key of an entry of a struct (or union) map into k and finds
 * its field (NULL when unknown); *expect is the field tried first. */
static int key_field(cbor_rd *r, const codec_type *t, size_t expect, cbor_head *kh,
                     const codec_field **out)
{
    cbor_head k;
    int rc;
    if ((rc = next_head(r, &k)))
        return rc;
    *kh = k;
    const codec_field *f = NULL;
    if (k.major == CBOR_TEXT) {
        codec_string name;
        if (!k.indefinite) {
            /* Looked up in place: no copy for a key. */
            if ((rc = codec__cbor_check_string(r, &k)))
                return rc;
            name = (codec_string){(const char *)r->p, (size_t)k.arg};
            r->p += k.arg;
        } else if ((rc = codec__cbor_read_string(r, &k, &name))) {
            return rc;
        }
        f = expect < t->count && codec_name_equals(t->fields[expect].name, name.ptr, name.len)
                ? &t->fields[expect]
                : codec__type_field_by_name_hashed(t, name.ptr, name.len,
                                                   codec_name_hash(name.ptr, name.len));
        if (!f && !codec__utf8_valid((const uint8_t *)name.ptr, name.len))
            return CBOR_FAIL(r->err, CODEC_D_CORRUPT, k.at, "text is not valid UTF-8");
    } else if (k.major == CBOR_UINT) {
        f = k.arg <= UINT32_MAX ? codec_type_field_by_tag(t, (uint32_t)k.arg) : NULL;
    } else if ((rc = codec__cbor_skip(r, &k))) {
        return rc;
    }
    *out = f;
    return CODEC_OK;
}

static int dec_entry(cbor_rd *r, const codec_type *t, uint8_t *v, uint64_t *seen, size_t *expect)
{
    cbor_head k, h;
    const codec_field *f;
    int rc;
    if ((rc = key_field(r, t, *expect, &k, &f)) || (rc = next_head(r, &h)))
        return rc;
    if (!f) {
        if (r->o->reject_unknown)
            return CBOR_FAIL(r->err, CODEC_D_CORRUPT, k.at, "unknown field (%s)", t->name);
        return codec__cbor_skip(r, &h);
    }
    size_t fi = codec_type_field_index(t, f);
    *expect = fi + 1;
    if (seen[fi / 64] >> (fi % 64) & 1) {
        if (!r->o->allow_duplicates)
            return CBOR_FAIL(r->err, CODEC_D_CORRUPT, k.at, "duplicate key '%s' (%s)", f->name,
                             t->name);
        memset(v + f->offset, 0, f->size);
    }
    seen[fi / 64] |= 1ull << (fi % 64);
    return dec_item(r, f->type, v + f->offset, &h);
}

/* After the entries: the first required field not seen, reported at the
 * map's head. */
static int check_missing(cbor_rd *r, const codec_type *t, const uint64_t *seen, size_t at)
{
    for (size_t i = 0; i < t->count; i++) {
        const codec_field *f = &t->fields[i];
        bool required = (f->flags & CODEC_FIELD_REQUIRED) ||
                        (r->o->require_all && !codec_field_may_be_absent(f));
        if (required && !(seen[i / 64] >> (i % 64) & 1))
            return CBOR_FAIL(r->err, CODEC_D_CORRUPT, at, "missing field '%s' (%s)", f->name,
                             t->name);
    }
    return CODEC_OK;
}

static int dec_struct(cbor_rd *r, const codec_type *t, uint8_t *v, const cbor_head *mh)
{
    uint64_t seen_small[BIN_SEEN_SMALL];
    uint64_t *seen = bin_seen_bitmap(r->arena, t->count, seen_small);
    if (!seen)
        return CBOR_NOMEM(r->err);
    int rc;
    if (!mh->indefinite && (rc = codec__cbor_check_count(r, mh, 2)))
        return rc;
    size_t expect = 0;
    for (uint64_t i = 0; mh->indefinite || i < mh->arg; i++) {
        if (mh->indefinite && cbor_at_break(r))
            break;
        if (mh->indefinite && i >= r->o->max_elements)
            return CBOR_FAIL(r->err, CODEC_D_LIMIT, mh->at, "more entries than max-elements");
        if ((rc = dec_entry(r, t, v, seen, &expect)))
            return rc;
    }
    return check_missing(r, t, seen, mh->at);
}

/* A map of exactly one entry whose key names a member (by name, or by tag
 * as keys=tags writes it): an unknown member, none or a second is refused. */
static int dec_union(cbor_rd *r, const codec_type *t, uint8_t *v, const cbor_head *mh)
{
    int rc;
    if (!mh->indefinite && (rc = codec__cbor_check_count(r, mh, 2)))
        return rc;
    for (uint64_t i = 0; mh->indefinite || i < mh->arg; i++) {
        if (mh->indefinite && cbor_at_break(r))
            break;
        cbor_head k, h;
        const codec_field *f;
        if ((rc = key_field(r, t, 0, &k, &f)))
            return rc;
        if (i)
            return CBOR_FAIL(r->err, CODEC_D_CORRUPT, k.at, "a second member in a union (%s)",
                             t->name);
        if (!f)
            return CBOR_FAIL(r->err, CODEC_D_CORRUPT, k.at, "unknown union member (%s)",
                             t->name);
        *(uint32_t *)v = (uint32_t)codec_type_field_index(t, f) + 1;
        if ((rc = next_head(r, &h)) || (rc = dec_item(r, f->type, v + f->offset, &h)))
            return rc;
    }
    if (!codec_union_which(v))
        return CBOR_FAIL(r->err, CODEC_D_CORRUPT, mh->at, "a union map needs one member (%s)",
                         t->name);
    return CODEC_OK;
}

static int dec_list(cbor_rd *r, const codec_type *t, codec_list *l, const cbor_head *ah)
{
    size_t esz = t->elem->size, cap = 0, count = 0;
    uint8_t *items = NULL;
    cbor_head h;
    int rc;
    if (!ah->indefinite) {
        if ((rc = codec__cbor_check_count(r, ah, 1)))
            return rc;
        cap = (size_t)ah->arg;
        if (cap) {
            if (!(items = codec_arena_alloc(r->arena, cap * esz, t->elem->align)))
                return CBOR_NOMEM(r->err);
            memset(items, 0, cap * esz);
        }
    }
    while (ah->indefinite ? !cbor_at_break(r) : count < cap) {
        if (ah->indefinite) {
            if (count == r->o->max_elements)
                return CBOR_FAIL(r->err, CODEC_D_LIMIT, ah->at, "more items than max-elements");
            if (!(items = codec__array_grow(r->arena, items, count, &cap, esz)))
                return CBOR_NOMEM(r->err);
            memset(items + count * esz, 0, esz);
        }
        if ((rc = next_head(r, &h)) || (rc = dec_item(r, t->elem, items + count * esz, &h)))
            return rc;
        count++;
    }
    l->items = items;
    l->count = count;
    return CODEC_OK;
}

static int dec_map(cbor_rd *r, const codec_type *t, codec_map *m, const cbor_head *mh)
{
    size_t ksz = t->key->size, vsz = t->elem->size, kcap = 0, vcap = 0, count = 0;
    uint8_t *keys = NULL, *values = NULL;
    cbor_head h;
    int rc;
    if (!mh->indefinite) {
        if ((rc = codec__cbor_check_count(r, mh, 2)))
            return rc;
        kcap = vcap = (size_t)mh->arg;
        if (kcap) {
            if (!(keys = codec_arena_alloc(r->arena, kcap * ksz, t->key->align)) ||
                !(values = codec_arena_alloc(r->arena, vcap * vsz, t->elem->align)))
                return CBOR_NOMEM(r->err);
            memset(keys, 0, kcap * ksz);
            memset(values, 0, vcap * vsz);
        }
    }
    while (mh->indefinite ? !cbor_at_break(r) : count < kcap) {
        if (mh->indefinite) {
            if (count == r->o->max_elements)
                return CBOR_FAIL(r->err, CODEC_D_LIMIT, mh->at, "more entries than max-elements");
            if (!(keys = codec__array_grow(r->arena, keys, count, &kcap, ksz)) ||
                !(values = codec__array_grow(r->arena, values, count, &vcap, vsz)))
                return CBOR_NOMEM(r->err);
            memset(keys + count * ksz, 0, ksz);
            memset(values + count * vsz, 0, vsz);
        }
        if ((rc = next_head(r, &h)) || (rc = dec_item(r, t->key, keys + count * ksz, &h)) ||
            (rc = next_head(r, &h)) || (rc = dec_item(r, t->elem, values + count * vsz, &h)))
            return rc;
        count++;
    }
    if (!r->o->allow_duplicates) {
        long dup = codec__find_duplicate_map_key(t, keys, count, r->arena);
        if (dup == -2)
            return CBOR_NOMEM(r->err);
        if (dup >= 0)
            return dec_fail(r, mh, "duplicate map key", t);
    }
    m->keys = keys;
    m->values = values;
    m->count = count;
    return CODEC_OK;
}

static int dec_xmap(cbor_rd *r, const codec_type *t, void *v, cbor_head *h)
{
    _Alignas(16) uint8_t wire[CODEC_XMAP_MAX_WIRE];
    size_t at = h->at;
    codec_xmap_clear_wire(t, wire);
    int rc = dec_item(r, t->xmap->wire, wire, h);
    if (rc)
        return rc;
    if (codec_xmap_from_wire(t, wire, v, r->arena))
        return CBOR_FAIL(r->err, CODEC_D_CORRUPT, at, "value rejected by the %s adapter",
                         t->name);
    return CODEC_OK;
}

static int dec_enum(cbor_rd *r, const codec_type *t, int32_t *v, cbor_head *h)
{
    const codec_enum_value *ev = NULL;
    if (h->major == CBOR_TEXT && !h->indefinite) {
        int rc = codec__cbor_check_string(r, h);
        if (rc)
            return rc;
        ev = codec_enum_by_name(t, (const char *)r->p, (size_t)h->arg);
        r->p += h->arg;
    } else if (h->major == CBOR_UINT || h->major == CBOR_NEGINT) {
        if (h->arg <= INT32_MAX)
            ev = codec_enum_by_number(t, h->major == CBOR_UINT ? (int32_t)h->arg
                                                                : -1 - (int32_t)h->arg);
    } else {
        return dec_fail(r, h, "expected an enum number or name", t);
    }
    if (!ev)
        return dec_fail(r, h, "unknown enum value", t);
    *v = ev->number;
    return CODEC_OK;
}

/* Kinds whose item is a container: they nest (depth) and cannot be tagged. */
static int dec_container(cbor_rd *r, const codec_type *t, void *v, cbor_head *h)
{
    int rc;
    unsigned want = t->kind == CODEC_T_LIST ? CBOR_ARRAY : CBOR_MAP;
    if (h->major != want)
        return dec_fail(r, h, want == CBOR_ARRAY ? "expected an array" : "expected a map", t);
    if ((rc = cbor_enter(r, h)))
        return rc;
    rc = t->kind == CODEC_T_STRUCT  ? dec_struct(r, t, v, h)
         : t->kind == CODEC_T_UNION ? dec_union(r, t, v, h)
         : t->kind == CODEC_T_LIST  ? dec_list(r, t, v, h)
                                    : dec_map(r, t, v, h);
    r->depth--;
    return rc;
}

static int dec_item(cbor_rd *r, const codec_type *t, void *v, cbor_head *h)
{
    uint64_t tag;
    int rc;
    switch (t->kind) {
    case CODEC_T_UNION:
        /* Cleared first: no byte of a previous member survives. */
        memset(v, 0, t->size);
        if (is_simple(h, CBOR_NULL))
            return CODEC_OK;
        return dec_container(r, t, v, h);
    case CODEC_T_STRUCT:
    case CODEC_T_LIST:
    case CODEC_T_MAP: return dec_container(r, t, v, h);
    case CODEC_T_OPTIONAL:
        if (is_simple(h, CBOR_NULL)) {
            memset(v, 0, t->size);
            return CODEC_OK;
        }
        *(bool *)v = true;
        return dec_item(r, t->elem, (uint8_t *)v + t->value_offset, h);
    case CODEC_T_XMAP: return dec_xmap(r, t, v, h);
    case CODEC_T_VALUE: return codec__cbor_read_value(r, h, v);
    case CODEC_T_BOOL:
        if (!is_simple(h, CBOR_TRUE) && !is_simple(h, CBOR_FALSE))
            return dec_fail(r, h, "expected true or false", t);
        *(bool *)v = is_simple(h, CBOR_TRUE);
        return CODEC_OK;
    case CODEC_T_FLOAT:
    case CODEC_T_DOUBLE: return dec_float(r, t, v, h);
    case CODEC_T_STRING:
    case CODEC_T_BYTES:
        if (h->major != (t->kind == CODEC_T_STRING ? CBOR_TEXT : CBOR_BYTES))
            return dec_fail(r, h, t->kind == CODEC_T_STRING ? "expected a text string"
                                                             : "expected a byte string", t);
        return codec__cbor_read_string(r, h, v);
    case CODEC_T_ENUM: return dec_enum(r, t, v, h);
    default: break;
    }
    if ((rc = untag(r, h, &tag)))
        return rc;
    switch (t->kind) {
    case CODEC_T_UUID:
        if ((tag != UINT64_MAX && tag != CBOR_TAG_UUID) || h->major != CBOR_BYTES ||
            h->indefinite || h->arg != 16)
            return dec_fail(r, h, "expected 37(h'<16 bytes>')", t);
        if ((rc = codec__cbor_check_string(r, h)))
            return rc;
        memcpy(v, r->p, 16);
        r->p += 16;
        return CODEC_OK;
    case CODEC_T_DATE: return dec_date(r, t, v, h, tag);
    case CODEC_T_TIMESTAMP: return dec_timestamp(r, t, v, h, tag);
    case CODEC_T_DECIMAL: return dec_decimal(r, t, v, h, tag);
    default: return dec_int(r, t, v, h, tag);
    }
}

/* ---------------------------------------------------------------------------
 * The planned walk (formats/binary/plan_internal.h). Each value is first tried in
 * the forms an encoder usually writes (definite lengths, no tags), and only
 * when it is one of them and every bound holds is anything stored;
 * everything else (indefinite lengths, tags, other forms, truncation,
 * limits, invalid UTF-8, out-of-range numbers, repeated keys) is read again
 * from its first byte by the generic walker above, which accepts it or
 * reports the exact error and offset.
 * ------------------------------------------------------------------------ */

/* The generic walker from the item at r->p. */
static int fmt_generic(cbor_rd *r, const codec_type *t, void *v)
{
    cbor_head h;
    int rc = next_head(r, &h);
    return rc ? rc : dec_item(r, t, v, &h);
}

/* The definite head at p (major, argument, its size) when it is complete;
 * false for ai 28..31. */
static inline bool fast_head(const uint8_t *p, const uint8_t *end, unsigned *major,
                             uint64_t *arg, size_t *size)
{
    if (p == end)
        return false;
    unsigned ai = p[0] & 31;
    *major = p[0] >> 5;
    if (ai < 24) {
        *arg = ai, *size = 1;
        return true;
    }
    if (ai > 27)
        return false;
    size_t n = (size_t)1 << (ai - 24);
    if ((size_t)(end - p) <= n)
        return false;
    *arg = n == 1 ? p[1] : n == 2 ? codec_load_be16(p + 1) : n == 4 ? codec_load_be32(p + 1)
                                                             : codec_load_be64(p + 1);
    *size = 1 + n;
    return true;
}

/* A definite text string copied into the arena pool. */
static inline bool fast_text(cbor_rd *r, codec_string *out)
{
    unsigned major;
    uint64_t n;
    size_t head;
    if (!fast_head(r->p, r->end, &major, &n, &head) || major != CBOR_TEXT ||
        n > (uint64_t)(r->end - r->p) - head || n > r->o->max_string)
        return false;
    const uint8_t *src = r->p + head;
    if (!n) {
        *out = (codec_string){NULL, 0};
        r->p = src;
        return true;
    }
    char *d = codec_text_pool_take(&r->pool, r->arena, (size_t)(r->end - r->p), (size_t)n);
    if (!d ||
        (codec_copy_ascii((uint8_t *)d, src, (size_t)n) && !codec__utf8_valid(src, (size_t)n)))
        return false;
    *out = (codec_string){d, (size_t)n};
    r->p = src + n;
    return true;
}

/* The scalars and strings in their usual forms, without a call: true when
 * v was filled; false with nothing consumed otherwise. */
static inline __attribute__((always_inline)) bool fmt_inline(cbor_rd *r, const bin_val *val,
                                                             uint8_t *v)
{
    const uint8_t *p = r->p;
    unsigned major;
    uint64_t arg;
    size_t head;
    switch (val->op) {
    case BIN_OP_STRING: return fast_text(r, (codec_string *)v);
    case BIN_OP_BOOL:
        if (p == r->end || (*p != CBOR_FALSE && *p != CBOR_TRUE))
            return false;
        *(bool *)v = *p == CBOR_TRUE;
        r->p = p + 1;
        return true;
    case BIN_OP_F64:
    case BIN_OP_F32: {
        double d;
        if (p == r->end)
            return false;
        if (*p == 0xfb && r->end - p >= 9 && val->op == BIN_OP_F64)
            d = bin_bits_double(codec_load_be64(p + 1)), r->p = p + 9;
        else if (*p == 0xfa && r->end - p >= 5)
            d = bin_bits_float(codec_load_be32(p + 1)), r->p = p + 5;
        else if (*p == 0xf9 && r->end - p >= 3)
            d = codec__bin_half_to_double(codec_load_be16(p + 1)), r->p = p + 3;
        else
            return false;
        if (val->op == BIN_OP_F32)
            *(float *)v = (float)d;
        else
            *(double *)v = d;
        return true;
    }
    case BIN_OP_I8: case BIN_OP_I16: case BIN_OP_I32: case BIN_OP_I64:
    case BIN_OP_U8: case BIN_OP_U16: case BIN_OP_U32: case BIN_OP_U64:
        if (!fast_head(p, r->end, &major, &arg, &head) || major > CBOR_NEGINT ||
            arg > INT64_MAX ||
            !bin_store_int(val->op, v, major == CBOR_UINT ? (int64_t)arg : -1 - (int64_t)arg))
            return false;
        r->p = p + head;
        return true;
    case BIN_OP_ENUM:
        /* An unsigned integer of one byte (0..23) that is one of the enum's
         * small numbers (what the encoder writes); names and other numbers
         * go the generic way. */
        if (p == r->end || *p > 23 || !(val->enum_small >> *p & 1))
            return false;
        *(int32_t *)v = *p;
        r->p = p + 1;
        return true;
    default: return false;
    }
}

/* A definite map or array head, entered as the generic walker enters it. */
static inline int fmt_open(cbor_rd *r, bool map, uint64_t *count, size_t *at)
{
    unsigned major;
    size_t size;
    cbor_head h = {.major = map ? CBOR_MAP : CBOR_ARRAY, .at = (size_t)(r->p - r->base)};
    if (!fast_head(r->p, r->end, &major, &h.arg, &size) || major != h.major)
        return PLAN_OTHER_FORM;
    h.ai = r->p[0] & 31;
    r->p += size;
    *count = h.arg;
    *at = h.at;
    int rc = cbor_enter(r, &h);
    return rc ? rc : codec__cbor_check_count(r, &h, map ? 2 : 1);
}

/* Not null, not tagged (the generic walker looks through tags first). */
static inline bool fmt_present(const cbor_rd *r)
{
    return r->p < r->end && *r->p != CBOR_NULL && *r->p >> 5 != CBOR_TAG;
}

static inline bool fmt_planned(const bin_struct *s)
{
    (void)s;
    return true;
}

#define FMT_RD cbor_rd
#define FMT_NOMEM CBOR_NOMEM
#define FMT_FAIL CBOR_FAIL
#define fmt_entry dec_entry
#define fmt_missing check_missing
#include "formats/binary/plan_decode_internal.h"

int codec__cbor_decode_typed(const cbor_state *st, const codec_type *t, const uint8_t *in, size_t n,
                             void *value, codec_arena *arena, codec_error *err)
{
    cbor_rd r = {.base = in, .p = in, .end = in + n, .o = &st->o, .arena = arena, .err = err};
    return plan_decode(&r, &st->plan, t, value);
}
