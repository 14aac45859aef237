/* value.c — schemaless CBOR: codec_value trees to items and back.
 * codec_value has no tags, simple values or non-text keys: tags other than
 * bignums are dropped (their content kept), bignums become integers when
 * they fit 64 bits, and everything else without a codec_value form is an
 * invalid-payload error that says so. */
#include "formats/cbor/cbor_internal.h"
#include "types/value_internal.h"

int codec__cbor_write_value(codec_buf *out, const codec_value *v, const codec_cbor_options *o,
                            codec_error *err)
{
    int rc;
    switch (v->kind) {
    case CODEC_V_NULL: return cbor_out_byte(out, CBOR_NULL, err);
    case CODEC_V_BOOL: return cbor_out_byte(out, v->as.b ? CBOR_TRUE : CBOR_FALSE, err);
    case CODEC_V_INT: return cbor_out_int(out, v->as.i, err);
    case CODEC_V_UINT: return cbor_out_head(out, CBOR_UINT, v->as.u, err);
    case CODEC_V_DOUBLE: return cbor_out_double(out, v->as.d, err);
    case CODEC_V_STRING: return cbor_out_text(out, v->as.s.ptr, v->as.s.len, err);
    case CODEC_V_BYTES:
        return cbor_out_string(out, CBOR_BYTES, v->as.bytes.data, v->as.bytes.len, err);
    case CODEC_V_ARRAY:
        rc = cbor_out_head(out, CBOR_ARRAY, v->as.array.count, err);
        for (size_t i = 0; i < v->as.array.count && !rc; i++)
            rc = codec__cbor_write_value(out, &v->as.array.items[i], o, err);
        return rc;
    case CODEC_V_OBJECT: {
        rc = cbor_out_head(out, CBOR_MAP, v->as.object.count, err);
        size_t start = out->len;
        for (size_t i = 0; i < v->as.object.count && !rc; i++) {
            const codec_member *m = &v->as.object.members[i];
            if (!(rc = cbor_out_text(out, m->key.ptr, m->key.len, err)))
                rc = codec__cbor_write_value(out, &m->value, o, err);
        }
        if (!rc && o->deterministic)
            rc = codec__cbor_sort_map(out, start, v->as.object.count, err);
        return rc;
    }
    default:
        return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "cbor", CODEC_NO_OFFSET,
                               "codec_value of unknown kind %d", (int)v->kind);
    }
}

static int next(cbor_rd *r, cbor_head *h)
{
    return cbor_read_head(r, h);
}

static int read_array(cbor_rd *r, const cbor_head *ah, codec_value *out)
{
    codec_value *items = NULL;
    size_t count = 0, cap = 0;
    cbor_head h;
    int rc;
    if (!ah->indefinite) {
        if ((rc = codec__cbor_check_count(r, ah, 1)))
            return rc;
        cap = (size_t)ah->arg;
        if (cap && !(items = codec_arena_alloc(r->arena, cap * sizeof *items, 0)))
            return CBOR_NOMEM(r->err);
    }
    while (ah->indefinite ? !cbor_at_break(r) : count < cap) {
        if (ah->indefinite) {
            if (count == r->o->max_elements)
                return CBOR_FAIL(r->err, CODEC_D_LIMIT, ah->at, "more items than max-elements");
            if (!(items = codec__array_grow(r->arena, items, count, &cap, sizeof *items)))
                return CBOR_NOMEM(r->err);
        }
        if ((rc = next(r, &h)) || (rc = codec__cbor_read_value(r, &h, &items[count])))
            return rc;
        count++;
    }
    out->kind = CODEC_V_ARRAY;
    out->as.array.items = items;
    out->as.array.count = count;
    return CODEC_OK;
}

static int read_object(cbor_rd *r, const cbor_head *mh, codec_value *out)
{
    codec_member *members = NULL;
    size_t count = 0, cap = 0;
    cbor_head h;
    int rc;
    if (!mh->indefinite) {
        if ((rc = codec__cbor_check_count(r, mh, 2)))
            return rc;
        cap = (size_t)mh->arg;
        if (cap && !(members = codec_arena_alloc(r->arena, cap * sizeof *members, 0)))
            return CBOR_NOMEM(r->err);
    }
    while (mh->indefinite ? !cbor_at_break(r) : count < cap) {
        if (mh->indefinite) {
            if (count == r->o->max_elements)
                return CBOR_FAIL(r->err, CODEC_D_LIMIT, mh->at, "more entries than max-elements");
            if (!(members = codec__array_grow(r->arena, members, count, &cap, sizeof *members)))
                return CBOR_NOMEM(r->err);
        }
        codec_member *m = &members[count];
        if ((rc = next(r, &h)))
            return rc;
        if (h.major != CBOR_TEXT)
            return CBOR_FAIL(r->err, CODEC_D_CORRUPT, h.at,
                             "map key of major type %u: codec_value keys are text strings",
                             (unsigned)h.major);
        if ((rc = codec__cbor_read_string(r, &h, &m->key)) || (rc = next(r, &h)) ||
            (rc = codec__cbor_read_value(r, &h, &m->value)))
            return rc;
        count++;
    }
    if (!r->o->allow_duplicates && (rc = codec__check_unique_members(
                                        members, count, r->arena, "cbor", mh->at, "a map", r->err)))
        return rc;
    out->kind = CODEC_V_OBJECT;
    out->as.object.members = members;
    out->as.object.count = count;
    return CODEC_OK;
}

/* A bignum tag's content as INT/UINT when it fits 64 bits. */
static int read_bignum(cbor_rd *r, const cbor_head *th, codec_value *out)
{
    cbor_head h;
    codec_string s;
    int rc;
    if ((rc = next(r, &h)))
        return rc;
    if (h.major != CBOR_BYTES)
        return CBOR_FAIL(r->err, CODEC_D_CORRUPT, h.at, "a bignum must be a byte string");
    if ((rc = codec__cbor_read_string(r, &h, &s)))
        return rc;
    size_t skip = 0;
    while (skip < s.len && s.ptr[skip] == 0)
        skip++;
    uint64_t a =
        s.len - skip > 8 || !s.len ? 0 : bin_mag_u64((const uint8_t *)s.ptr + skip, s.len - skip);
    bool neg = th->arg == CBOR_TAG_NEGBIG;
    if (s.len - skip > 8 || (neg && a > INT64_MAX))
        return CBOR_FAIL(r->err, CODEC_D_LIMIT, th->at,
                         "bignum beyond 64 bits: codec_value holds int64 and uint64");
    if (neg) {
        out->kind = CODEC_V_INT;
        out->as.i = -1 - (int64_t)a;
    } else {
        out->kind = a > INT64_MAX ? CODEC_V_UINT : CODEC_V_INT;
        out->as.u = a;
    }
    return CODEC_OK;
}

static int read_simple(cbor_rd *r, const cbor_head *h, codec_value *out)
{
    if (h->ai >= 25 && h->ai <= 27) {
        out->kind = CODEC_V_DOUBLE;
        out->as.d = cbor_head_double(h);
        return CODEC_OK;
    }
    switch (h->arg) {
    case 20:
    case 21:
        out->kind = CODEC_V_BOOL;
        out->as.b = h->arg == 21;
        return CODEC_OK;
    case 22: return CODEC_OK;
    default:
        return CBOR_FAIL(r->err, CODEC_D_CORRUPT, h->at,
                         h->arg == 23 ? "undefined has no codec_value form%s"
                                      : "simple value has no codec_value form%s", "");
    }
}

int codec__cbor_read_value(cbor_rd *r, const cbor_head *h, codec_value *out)
{
    int rc;
    memset(out, 0, sizeof *out);
    switch (h->major) {
    case CBOR_UINT:
        out->kind = h->arg > INT64_MAX ? CODEC_V_UINT : CODEC_V_INT;
        out->as.u = h->arg;
        return CODEC_OK;
    case CBOR_NEGINT:
        if (h->arg > INT64_MAX)
            return CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at,
                             "integer below -2^63: codec_value holds int64");
        out->kind = CODEC_V_INT;
        out->as.i = -1 - (int64_t)h->arg;
        return CODEC_OK;
    case CBOR_BYTES:
    case CBOR_TEXT: {
        codec_string s;
        if ((rc = codec__cbor_read_string(r, h, &s)))
            return rc;
        if (h->major == CBOR_TEXT) {
            out->kind = CODEC_V_STRING;
            out->as.s = s;
        } else {
            out->kind = CODEC_V_BYTES;
            out->as.bytes = (codec_bytes){(const uint8_t *)s.ptr, s.len};
        }
        return CODEC_OK;
    }
    case CBOR_ARRAY:
    case CBOR_MAP:
        if ((rc = cbor_enter(r, h)))
            return rc;
        rc = h->major == CBOR_ARRAY ? read_array(r, h, out) : read_object(r, h, out);
        r->depth--;
        return rc;
    case CBOR_TAG: {
        if (h->arg == CBOR_TAG_POSBIG || h->arg == CBOR_TAG_NEGBIG)
            return read_bignum(r, h, out);
        cbor_head c;
        if ((rc = cbor_enter(r, h)) || (rc = next(r, &c)) ||
            (rc = codec__cbor_read_value(r, &c, out)))
            return rc;
        r->depth--;
        return CODEC_OK;
    }
    default: return read_simple(r, h, out);
    }
}
