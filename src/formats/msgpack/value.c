/* value.c — schemaless MessagePack: codec_value trees to items and back.
 * codec_value has no ext kind and only str keys: an ext (the timestamp
 * included) or a non-str map key is an invalid-payload error saying so. */
#include "formats/msgpack/msgpack_internal.h"
#include "types/value_internal.h"

int codec__mp_write_value(codec_buf *out, const codec_value *v, codec_error *err)
{
    int rc;
    switch (v->kind) {
    case CODEC_V_NULL: return mp_out_byte(out, 0xc0, err);
    case CODEC_V_BOOL: return mp_out_byte(out, v->as.b ? 0xc3 : 0xc2, err);
    case CODEC_V_INT: return mp_out_int(out, v->as.i, err);
    case CODEC_V_UINT: return mp_out_uint(out, v->as.u, err);
    case CODEC_V_DOUBLE: return mp_out_double(out, v->as.d, err);
    case CODEC_V_STRING: return codec__mp_out_string(out, true, v->as.s.ptr, v->as.s.len, err);
    case CODEC_V_BYTES:
        return codec__mp_out_string(out, false, v->as.bytes.data, v->as.bytes.len, err);
    case CODEC_V_ARRAY:
        rc = mp_out_array(out, v->as.array.count, err);
        for (size_t i = 0; i < v->as.array.count && !rc; i++)
            rc = codec__mp_write_value(out, &v->as.array.items[i], err);
        return rc;
    case CODEC_V_OBJECT:
        rc = mp_out_map(out, v->as.object.count, err);
        for (size_t i = 0; i < v->as.object.count && !rc; i++) {
            const codec_member *m = &v->as.object.members[i];
            if (!(rc = codec__mp_out_string(out, true, m->key.ptr, m->key.len, err)))
                rc = codec__mp_write_value(out, &m->value, err);
        }
        return rc;
    default:
        return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "msgpack", CODEC_NO_OFFSET,
                               "codec_value of unknown kind %d", (int)v->kind);
    }
}

static int read_array(mp_rd *r, const mp_item *it, codec_value *out)
{
    size_t n = (size_t)it->len;
    codec_value *items = NULL;
    int rc;
    if (n && !(items = codec_arena_alloc(r->arena, n * sizeof *items, 0)))
        return MP_NOMEM(r->err);
    for (size_t i = 0; i < n; i++) {
        mp_item c;
        if ((rc = codec__mp_read(r, &c)) || (rc = codec__mp_read_value(r, &c, &items[i])))
            return rc;
    }
    out->kind = CODEC_V_ARRAY;
    out->as.array.items = items;
    out->as.array.count = n;
    return CODEC_OK;
}

static int read_object(mp_rd *r, const mp_item *it, codec_value *out)
{
    size_t n = (size_t)it->len;
    codec_member *members = NULL;
    int rc;
    if (n && !(members = codec_arena_alloc(r->arena, n * sizeof *members, 0)))
        return MP_NOMEM(r->err);
    for (size_t i = 0; i < n; i++) {
        mp_item k, c;
        if ((rc = codec__mp_read(r, &k)))
            return rc;
        if (k.kind != MP_STR)
            return MP_FAIL(r->err, CODEC_D_CORRUPT, k.at,
                           "map key that is not a str: codec_value keys are strings");
        if ((rc = codec__mp_copy(r, &k, &members[i].key)) || (rc = codec__mp_read(r, &c)) ||
            (rc = codec__mp_read_value(r, &c, &members[i].value)))
            return rc;
    }
    if (!r->o->allow_duplicates && (rc = codec__check_unique_members(
                                        members, n, r->arena, "msgpack", it->at, "a map", r->err)))
        return rc;
    out->kind = CODEC_V_OBJECT;
    out->as.object.members = members;
    out->as.object.count = n;
    return CODEC_OK;
}

int codec__mp_read_value(mp_rd *r, const mp_item *it, codec_value *out)
{
    int rc;
    memset(out, 0, sizeof *out);
    switch (it->kind) {
    case MP_NIL: return CODEC_OK;
    case MP_BOOL: out->kind = CODEC_V_BOOL, out->as.b = it->b; return CODEC_OK;
    case MP_UINT:
        out->kind = it->u > INT64_MAX ? CODEC_V_UINT : CODEC_V_INT;
        out->as.u = it->u;
        return CODEC_OK;
    case MP_INT: out->kind = CODEC_V_INT, out->as.i = it->i; return CODEC_OK;
    case MP_FLOAT: out->kind = CODEC_V_DOUBLE, out->as.d = it->d; return CODEC_OK;
    case MP_STR: out->kind = CODEC_V_STRING; return codec__mp_copy(r, it, &out->as.s);
    case MP_BIN: {
        codec_string s;
        if ((rc = codec__mp_copy(r, it, &s)))
            return rc;
        out->kind = CODEC_V_BYTES;
        out->as.bytes = (codec_bytes){(const uint8_t *)s.ptr, s.len};
        return CODEC_OK;
    }
    case MP_ARRAY:
    case MP_MAP:
        if ((rc = codec__mp_enter(r, it, it->kind == MP_MAP ? 2 : 1)))
            return rc;
        rc = it->kind == MP_ARRAY ? read_array(r, it, out) : read_object(r, it, out);
        r->depth--;
        return rc;
    default:
        return MP_FAIL(r->err, CODEC_D_CORRUPT, it->at,
                       "ext type %d has no codec_value form", (int)it->ext_type);
    }
}
