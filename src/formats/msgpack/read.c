/* read.c — MessagePack item heads, bounded: every length is checked against
 * the remaining input (and max-string) before anyone allocates for it. */
#include "formats/msgpack/msgpack_internal.h"

/* Takes n bytes of payload after the head. */
static int payload(mp_rd *r, mp_item *it, uint64_t n)
{
    if (n > (uint64_t)(r->end - r->p))
        return MP_FAIL(r->err, CODEC_D_TRUNCATED, it->at, "%llu bytes declared but %zu remain",
                       (unsigned long long)n, (size_t)(r->end - r->p));
    if (n > r->o->max_string)
        return MP_FAIL(r->err, CODEC_D_LIMIT, it->at, "longer than max-string (%zu)",
                       r->o->max_string);
    it->len = n;
    it->data = r->p;
    r->p += n;
    return CODEC_OK;
}

/* The big-endian unsigned argument of `size` bytes. */
static int arg(mp_rd *r, mp_item *it, unsigned size, uint64_t *v)
{
    if ((size_t)(r->end - r->p) < size)
        return MP_FAIL(r->err, CODEC_D_TRUNCATED, it->at, "input ends inside an item");
    switch (size) {
    case 1: *v = r->p[0]; break;
    case 2: *v = codec_load_be16(r->p); break;
    case 4: *v = codec_load_be32(r->p); break;
    default: *v = codec_load_be64(r->p); break;
    }
    r->p += size;
    return CODEC_OK;
}

static int read_ext(mp_rd *r, mp_item *it, unsigned size_bytes, uint64_t fixed)
{
    uint64_t n = fixed;
    int rc;
    if (size_bytes && (rc = arg(r, it, size_bytes, &n)))
        return rc;
    if (r->p == r->end)
        return MP_FAIL(r->err, CODEC_D_TRUNCATED, it->at, "input ends inside an ext");
    it->kind = MP_EXT;
    it->ext_type = (int8_t)*r->p++;
    return payload(r, it, n);
}

int codec__mp_read(mp_rd *r, mp_item *it)
{
    it->at = (size_t)(r->p - r->base);
    if (r->p == r->end)
        return MP_FAIL(r->err, CODEC_D_TRUNCATED, it->at, "input ends before an item");
    uint8_t b = *r->p++;
    uint64_t v = 0;
    int rc;
    if (b <= 0x7f) {
        it->kind = MP_UINT, it->u = b;
        return CODEC_OK;
    }
    if (b >= 0xe0) {
        it->kind = MP_INT, it->i = (int8_t)b;
        return CODEC_OK;
    }
    if (b <= 0x8f) {
        it->kind = MP_MAP, it->len = b & 15;
        return CODEC_OK;
    }
    if (b <= 0x9f) {
        it->kind = MP_ARRAY, it->len = b & 15;
        return CODEC_OK;
    }
    if (b <= 0xbf) {
        it->kind = MP_STR;
        return payload(r, it, b & 31);
    }
    switch (b) {
    case 0xc0: it->kind = MP_NIL; return CODEC_OK;
    case 0xc2:
    case 0xc3: it->kind = MP_BOOL, it->b = b == 0xc3; return CODEC_OK;
    case 0xc4: case 0xc5: case 0xc6:
        it->kind = MP_BIN;
        return (rc = arg(r, it, 1u << (b - 0xc4), &v)) ? rc : payload(r, it, v);
    case 0xc7: case 0xc8: case 0xc9: return read_ext(r, it, 1u << (b - 0xc7), 0);
    case 0xca:
        if ((rc = arg(r, it, 4, &v)))
            return rc;
        it->kind = MP_FLOAT, it->d = bin_bits_float((uint32_t)v);
        return CODEC_OK;
    case 0xcb:
        if ((rc = arg(r, it, 8, &v)))
            return rc;
        it->kind = MP_FLOAT, it->d = bin_bits_double(v);
        return CODEC_OK;
    case 0xcc: case 0xcd: case 0xce: case 0xcf:
        it->kind = MP_UINT;
        return arg(r, it, 1u << (b - 0xcc), &it->u);
    case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
        unsigned size = 1u << (b - 0xd0);
        if ((rc = arg(r, it, size, &v)))
            return rc;
        int64_t s = size == 1 ? (int8_t)v : size == 2 ? (int16_t)v
                  : size == 4 ? (int32_t)v : (int64_t)v;
        if (s >= 0)
            it->kind = MP_UINT, it->u = (uint64_t)s;
        else
            it->kind = MP_INT, it->i = s;
        return CODEC_OK;
    }
    case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
        return read_ext(r, it, 0, 1u << (b - 0xd4));
    case 0xd9: case 0xda: case 0xdb:
        it->kind = MP_STR;
        return (rc = arg(r, it, 1u << (b - 0xd9), &v)) ? rc : payload(r, it, v);
    case 0xdc: case 0xdd:
        it->kind = MP_ARRAY;
        return arg(r, it, b == 0xdc ? 2 : 4, &it->len);
    case 0xde: case 0xdf:
        it->kind = MP_MAP;
        return arg(r, it, b == 0xde ? 2 : 4, &it->len);
    default:
        return MP_FAIL(r->err, CODEC_D_CORRUPT, it->at, "format byte 0xc1 is never used");
    }
}

int codec__mp_enter(mp_rd *r, const mp_item *it, uint64_t per)
{
    if (it->len > (uint64_t)(r->end - r->p) / per)
        return MP_FAIL(r->err, CODEC_D_TRUNCATED, it->at,
                       "%llu items declared but only %zu bytes remain",
                       (unsigned long long)it->len, (size_t)(r->end - r->p));
    if (it->len > r->o->max_elements)
        return MP_FAIL(r->err, CODEC_D_LIMIT, it->at, "more items than max-elements (%zu)",
                       r->o->max_elements);
    if (++r->depth > r->o->max_depth)
        return MP_FAIL(r->err, CODEC_D_LIMIT, it->at, "nesting deeper than max-depth (%zu)",
                       r->o->max_depth);
    return CODEC_OK;
}

int codec__mp_skip(mp_rd *r, const mp_item *it)
{
    if (it->kind == MP_STR && !codec__utf8_valid(it->data, (size_t)it->len))
        return MP_FAIL(r->err, CODEC_D_CORRUPT, it->at, "str is not valid UTF-8");
    if (it->kind != MP_ARRAY && it->kind != MP_MAP)
        return CODEC_OK;
    uint64_t per = it->kind == MP_MAP ? 2 : 1;
    int rc = codec__mp_enter(r, it, per);
    for (uint64_t i = 0; !rc && i < it->len * per; i++) {
        mp_item c;
        if (!(rc = codec__mp_read(r, &c)))
            rc = codec__mp_skip(r, &c);
    }
    r->depth--;
    return rc;
}

int codec__mp_copy(mp_rd *r, const mp_item *it, codec_string *out)
{
    size_t n = (size_t)it->len;
    if (it->kind == MP_STR && !codec__utf8_valid(it->data, n))
        return MP_FAIL(r->err, CODEC_D_CORRUPT, it->at, "str is not valid UTF-8");
    char *p = NULL;
    if (n && !(p = codec_arena_alloc(r->arena, n, 1)))
        return MP_NOMEM(r->err);
    if (n)
        memcpy(p, it->data, n);
    *out = (codec_string){p, n};
    return CODEC_OK;
}

int codec__mp_out_string(codec_buf *out, bool text, const void *p, size_t n, codec_error *err)
{
    if (text && !codec__utf8_valid(p, n))
        return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "msgpack", CODEC_NO_OFFSET,
                               "string is not valid UTF-8");
    if (n > UINT32_MAX)
        return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "msgpack", CODEC_NO_OFFSET,
                               "%s of %zu bytes (at most 2^32-1)", text ? "str" : "bin", n);
    if (mp_room(out, n + 5, err))
        return CODEC_E_NOMEM;
    uint8_t *d = text ? mp_put_len(out->data + out->len, n, 0xa0, 32, 0xd9, 0xda)
                      : mp_put_len(out->data + out->len, n, 0, 0, 0xc4, 0xc5);
    if (n)
        memcpy(d, p, n);
    out->len = (size_t)(d + n - out->data);
    return CODEC_OK;
}

int codec__mp_out_ext(codec_buf *out, int8_t type, const void *p, size_t n, codec_error *err)
{
    if (n > UINT32_MAX)
        return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "msgpack", CODEC_NO_OFFSET,
                               "ext of %zu bytes (at most 2^32-1)", n);
    if (mp_room(out, n + 6, err))
        return CODEC_E_NOMEM;
    uint8_t *d = out->data + out->len;
    switch (n) {
    case 1: *d++ = 0xd4; break;
    case 2: *d++ = 0xd5; break;
    case 4: *d++ = 0xd6; break;
    case 8: *d++ = 0xd7; break;
    case 16: *d++ = 0xd8; break;
    default:
        if (n <= 0xff)
            d[0] = 0xc7, d[1] = (uint8_t)n, d += 2;
        else if (n <= 0xffff)
            d[0] = 0xc8, codec_store_be16(d + 1, (uint16_t)n), d += 3;
        else
            d[0] = 0xc9, codec_store_be32(d + 1, (uint32_t)n), d += 5;
    }
    *d++ = (uint8_t)type;
    if (n)
        memcpy(d, p, n);
    out->len = (size_t)(d + n - out->data);
    return CODEC_OK;
}
