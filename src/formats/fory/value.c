/* value.c — schemaless Fory: a codec_value written as Fory scalars, LISTs
 * (elements carry their own null flag and type id) and MAPs (string keys;
 * chunks of values of one type; a null value is a chunk of its own), and
 * any such payload read back. Structs and enums need registered types, so
 * they are refused here. */
#include "formats/fory/fory_internal.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------------------
 * Writing
 * ------------------------------------------------------------------------ */

static uint8_t value_tid(const codec_value *v)
{
    switch (v->kind) {
    case CODEC_V_BOOL: return FT_BOOL;
    case CODEC_V_INT: return FT_VARINT64;
    case CODEC_V_UINT: return FT_VAR_UINT64;
    case CODEC_V_DOUBLE: return FT_FLOAT64;
    case CODEC_V_STRING: return FT_STRING;
    case CODEC_V_BYTES: return FT_BINARY;
    case CODEC_V_ARRAY: return FT_LIST;
    case CODEC_V_OBJECT: return FT_MAP;
    default: return FT_UNKNOWN;
    }
}

static int put_bytes(codec_buf *out, uint64_t header, const void *p, size_t n)
{
    if (codec__buf_room(out, n + 10))
        return CODEC_E_NOMEM;
    fory_put_varu64(out, header);
    if (n)
        memcpy(out->data + out->len, p, n);
    out->len += n;
    return CODEC_OK;
}

static int write_data(codec_buf *out, const codec_value *v, size_t depth, codec_error *err);

static int write_list(codec_buf *out, const codec_value *v, size_t depth, codec_error *err)
{
    size_t n = v->as.array.count;
    if (n > UINT32_MAX)
        return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "fory", CODEC_NO_OFFSET,
                               "array too long");
    if (codec__buf_room(out, 6))
        return CODEC_E_NOMEM;
    fory_put_varu32(out, (uint32_t)n);
    if (!n)
        return CODEC_OK;
    fory_put_u8(out, FORY_ELEM_HAS_NULL);
    for (size_t i = 0; i < n; i++) {
        const codec_value *it = &v->as.array.items[i];
        if (codec__buf_room(out, 2))
            return CODEC_E_NOMEM;
        if (it->kind == CODEC_V_NULL) {
            fory_put_u8(out, FORY_NULL);
            continue;
        }
        fory_put_u8(out, FORY_NOT_NULL);
        fory_put_u8(out, value_tid(it));
        int rc = write_data(out, it, depth + 1, err);
        if (rc)
            return rc;
    }
    return CODEC_OK;
}

static int write_map(codec_buf *out, const codec_value *v, size_t depth, codec_error *err)
{
    size_t n = v->as.object.count;
    if (n > UINT32_MAX)
        return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "fory", CODEC_NO_OFFSET,
                               "object too large");
    if (codec__buf_room(out, 5))
        return CODEC_E_NOMEM;
    fory_put_varu32(out, (uint32_t)n);
    for (size_t i = 0; i < n;) {
        const codec_member *m = &v->as.object.members[i];
        int rc;
        if (codec__buf_room(out, 4))
            return CODEC_E_NOMEM;
        if (m->value.kind == CODEC_V_NULL) {
            fory_put_u8(out, FORY_VAL_NULL);
            fory_put_u8(out, FT_STRING);
            if ((rc = put_bytes(out, (uint64_t)m->key.len << 2 | 2, m->key.ptr, m->key.len)))
                return rc;
            i++;
            continue;
        }
        uint8_t tid = value_tid(&m->value);
        size_t run = 1;
        while (i + run < n && run < 255 &&
               v->as.object.members[i + run].value.kind != CODEC_V_NULL &&
               value_tid(&v->as.object.members[i + run].value) == tid)
            run++;
        fory_put_u8(out, 0);
        fory_put_u8(out, (uint8_t)run);
        fory_put_u8(out, FT_STRING);
        fory_put_u8(out, tid);
        for (size_t k = 0; k < run; k++, i++) {
            m = &v->as.object.members[i];
            if ((rc = put_bytes(out, (uint64_t)m->key.len << 2 | 2, m->key.ptr, m->key.len)) ||
                (rc = write_data(out, &m->value, depth + 1, err)))
                return rc;
        }
    }
    return CODEC_OK;
}

static int write_data(codec_buf *out, const codec_value *v, size_t depth, codec_error *err)
{
    if (depth > CODEC_FORY_MAX_DEPTH_LIMIT)
        return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "fory", CODEC_NO_OFFSET,
                               "value nests deeper than %d", CODEC_FORY_MAX_DEPTH_LIMIT);
    if (codec__buf_room(out, 10))
        return CODEC_E_NOMEM;
    switch (v->kind) {
    case CODEC_V_BOOL: fory_put_u8(out, v->as.b ? 1 : 0); return CODEC_OK;
    case CODEC_V_INT: fory_put_varu64(out, codec_zigzag64(v->as.i)); return CODEC_OK;
    case CODEC_V_UINT: fory_put_varu64(out, v->as.u); return CODEC_OK;
    case CODEC_V_DOUBLE: {
        uint64_t bits;
        memcpy(&bits, &v->as.d, 8);
        fory_put_le(out, bits, 8);
        return CODEC_OK;
    }
    case CODEC_V_STRING:
        return put_bytes(out, (uint64_t)v->as.s.len << 2 | 2, v->as.s.ptr, v->as.s.len);
    case CODEC_V_BYTES:
        if (v->as.bytes.len > UINT32_MAX)
            return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "fory", CODEC_NO_OFFSET,
                                   "bytes too long");
        return put_bytes(out, v->as.bytes.len, v->as.bytes.data, v->as.bytes.len);
    case CODEC_V_ARRAY: return write_list(out, v, depth, err);
    case CODEC_V_OBJECT: return write_map(out, v, depth, err);
    default:
        return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "fory", CODEC_NO_OFFSET,
                               "value of kind %d has no Fory form", (int)v->kind);
    }
}

int codec__fory_encode_value(const fory_plan *p, const codec_value *v, codec_buf *out,
                             codec_error *err)
{
    (void)p;
    if (codec__buf_room(out, 3))
        return FORY_NOMEM(err);
    fory_put_u8(out, 0x01);
    if (v->kind == CODEC_V_NULL) {
        fory_put_u8(out, FORY_NULL);
        return CODEC_OK;
    }
    fory_put_u8(out, FORY_NOT_NULL);
    fory_put_u8(out, value_tid(v));
    int rc = write_data(out, v, 0, err);
    return rc == CODEC_E_NOMEM ? FORY_NOMEM(err) : rc;
}

/* ---------------------------------------------------------------------------
 * Reading
 * ------------------------------------------------------------------------ */

typedef struct vdec {
    fory_in in;
    codec_arena *arena;
    fory_pool pool;
    codec_error *err;
    size_t depth, max_depth, max_elements;
} vdec;

static int vfail(vdec *d, int detail, const char *what)
{
    return FORY_FAIL(d->err, detail, fory_off(&d->in), "%s", what);
}

static int vtrunc(vdec *d, int r)
{
    return vfail(d, r == -1 ? CODEC_D_TRUNCATED : CODEC_D_CORRUPT,
                 r == -1 ? "input ends early" : "invalid varint");
}

static int read_data(vdec *d, uint32_t tid, codec_value *out);

static int read_tid(vdec *d, uint32_t *tid)
{
    int r = fory_get_varu32(&d->in, tid);
    return r ? vtrunc(d, r) : CODEC_OK;
}

static int read_count(vdec *d, uint32_t *n, size_t min_bytes)
{
    int r = fory_get_varu32(&d->in, n);
    if (r)
        return vtrunc(d, r);
    if (*n > d->max_elements)
        return vfail(d, CODEC_D_LIMIT, "more items than max-elements");
    if (*n > fory_left(&d->in) / min_bytes)
        return vfail(d, CODEC_D_TRUNCATED, "count larger than the input");
    return CODEC_OK;
}

static int read_list(vdec *d, codec_value *out)
{
    uint32_t n;
    int rc = read_count(d, &n, 1);
    if (rc)
        return rc;
    codec_value *items = codec_arena_alloc(d->arena, (n ? n : 1) * sizeof *items, 0);
    if (!items)
        return FORY_NOMEM(d->err);
    memset(items, 0, n * sizeof *items);
    out->kind = CODEC_V_ARRAY;
    out->as.array.items = items;
    out->as.array.count = n;
    if (!n)
        return CODEC_OK;
    uint8_t header = 0;
    if (fory_get_u8(&d->in, &header))
        return vtrunc(d, -1);
    if (header & FORY_ELEM_DECL)
        return codec_error_set(d->err, CODEC_E_UNSUPPORTED, 0, "fory", fory_off(&d->in),
                               "a list of a declared element type needs a schema");
    uint32_t tid = 0;
    if ((header & FORY_ELEM_SAME) && (rc = read_tid(d, &tid)))
        return rc;
    for (uint32_t i = 0; i < n; i++) {
        if (header & (FORY_ELEM_HAS_NULL | FORY_ELEM_TRACK_REF)) {
            uint8_t flag = 0;
            if (fory_get_u8(&d->in, &flag))
                return vtrunc(d, -1);
            if (flag == FORY_NULL)
                continue;
            if (flag != FORY_NOT_NULL && flag != FORY_REF_VALUE)
                return vfail(d, CODEC_D_CORRUPT, "shared references are not supported");
        }
        if (!(header & FORY_ELEM_SAME) && (rc = read_tid(d, &tid)))
            return rc;
        if ((rc = read_data(d, tid, &items[i])))
            return rc;
    }
    return CODEC_OK;
}

/* Map keys become object keys: strings as they are, numbers and bools as text. */
static int key_text(vdec *d, const codec_value *k, codec_string *out)
{
    if (k->kind == CODEC_V_STRING) {
        *out = k->as.s;
        return CODEC_OK;
    }
    char tmp[32];
    int n;
    if (k->kind == CODEC_V_INT)
        n = snprintf(tmp, sizeof tmp, "%lld", (long long)k->as.i);
    else if (k->kind == CODEC_V_UINT)
        n = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)k->as.u);
    else if (k->kind == CODEC_V_BOOL)
        n = snprintf(tmp, sizeof tmp, "%s", k->as.b ? "true" : "false");
    else
        return vfail(d, CODEC_D_CORRUPT, "map key is not a string, number or bool");
    char *p = codec_arena_alloc(d->arena, (size_t)n, 1);
    if (!p)
        return FORY_NOMEM(d->err);
    memcpy(p, tmp, (size_t)n);
    *out = (codec_string){p, (size_t)n};
    return CODEC_OK;
}

static int read_map(vdec *d, codec_value *out)
{
    uint32_t n;
    int rc = read_count(d, &n, 2);
    if (rc)
        return rc;
    codec_member *ms = codec_arena_alloc(d->arena, (n ? n : 1) * sizeof *ms, 0);
    if (!ms)
        return FORY_NOMEM(d->err);
    memset(ms, 0, n * sizeof *ms);
    out->kind = CODEC_V_OBJECT;
    out->as.object.members = ms;
    out->as.object.count = n;
    for (uint32_t done = 0; done < n;) {
        uint8_t header = 0, chunk = 1;
        if (fory_get_u8(&d->in, &header))
            return vtrunc(d, -1);
        if (header & (FORY_KEY_NULL | FORY_KEY_TRACK_REF | FORY_VAL_TRACK_REF) ||
            header & (FORY_KEY_DECL | FORY_VAL_DECL))
            return codec_error_set(d->err, CODEC_E_UNSUPPORTED, 0, "fory", fory_off(&d->in) - 1,
                                   "map chunk header 0x%02x needs a schema", header);
        bool null_value = header & FORY_VAL_NULL;
        if (!null_value && fory_get_u8(&d->in, &chunk))
            return vtrunc(d, -1);
        if (chunk == 0 || chunk > n - done)
            return vfail(d, CODEC_D_CORRUPT, "map chunk size is out of range");
        uint32_t ktid, vtid = 0;
        if ((rc = read_tid(d, &ktid)) || (!null_value && (rc = read_tid(d, &vtid))))
            return rc;
        for (uint32_t i = 0; i < chunk; i++, done++) {
            codec_value key;
            memset(&key, 0, sizeof key);
            if ((rc = read_data(d, ktid, &key)) || (rc = key_text(d, &key, &ms[done].key)))
                return rc;
            if (!null_value && (rc = read_data(d, vtid, &ms[done].value)))
                return rc;
        }
    }
    return CODEC_OK;
}

static int read_array(vdec *d, uint32_t tid, codec_value *out)
{
    uint32_t bytes;
    int r = fory_get_varu32(&d->in, &bytes);
    if (r)
        return vtrunc(d, r);
    size_t esz = tid == FT_INT16_ARRAY   ? 2
                 : tid == FT_INT32_ARRAY ? 4
                 : tid == FT_INT64_ARRAY ? 8
                                         : 1;
    if (bytes > fory_left(&d->in) || bytes % esz)
        return vfail(d, CODEC_D_CORRUPT, "array size does not fit");
    size_t n = bytes / esz;
    if (n > d->max_elements)
        return vfail(d, CODEC_D_LIMIT, "more items than max-elements");
    codec_value *items = codec_arena_alloc(d->arena, (n ? n : 1) * sizeof *items, 0);
    if (!items)
        return FORY_NOMEM(d->err);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = 0;
        fory_get_le(&d->in, esz, &x);   /* bounded by the size check above */
        memset(&items[i], 0, sizeof items[i]);
        if (tid == FT_BOOL_ARRAY) {
            items[i].kind = CODEC_V_BOOL;
            items[i].as.b = x != 0;
            continue;
        }
        unsigned shift = (unsigned)(64 - 8 * esz);
        items[i].kind = CODEC_V_INT;
        items[i].as.i = (int64_t)(x << shift) >> shift;
    }
    out->kind = CODEC_V_ARRAY;
    out->as.array.items = items;
    out->as.array.count = n;
    return CODEC_OK;
}

static void set_uint(codec_value *out, uint64_t u)
{
    if (u <= INT64_MAX) {
        out->kind = CODEC_V_INT;
        out->as.i = (int64_t)u;
    } else {
        out->kind = CODEC_V_UINT;
        out->as.u = u;
    }
}

static int read_scalar(vdec *d, uint32_t tid, codec_value *out)
{
    static const uint8_t width[] = {
        [FT_BOOL] = 1, [FT_INT8] = 1, [FT_INT16] = 2, [FT_INT32] = 4, [FT_INT64] = 8,
        [FT_UINT8] = 1, [FT_UINT16] = 2, [FT_UINT32] = 4, [FT_UINT64] = 8,
        [FT_FLOAT32] = 4, [FT_FLOAT64] = 8};
    uint64_t x;
    uint32_t u32;
    int r;
    switch (tid) {
    case FT_VARINT32:
        if ((r = fory_get_varu32(&d->in, &u32)))
            return vtrunc(d, r);
        out->kind = CODEC_V_INT;
        out->as.i = codec_unzigzag32(u32);
        return CODEC_OK;
    case FT_VAR_UINT32:
        if ((r = fory_get_varu32(&d->in, &u32)))
            return vtrunc(d, r);
        set_uint(out, u32);
        return CODEC_OK;
    case FT_VARINT64:
        if ((r = fory_get_varu64(&d->in, &x)))
            return vtrunc(d, r);
        out->kind = CODEC_V_INT;
        out->as.i = codec_unzigzag64(x);
        return CODEC_OK;
    case FT_VAR_UINT64:
        if ((r = fory_get_varu64(&d->in, &x)))
            return vtrunc(d, r);
        set_uint(out, x);
        return CODEC_OK;
    case FT_TAGGED_INT64: case FT_TAGGED_UINT64:
        if (fory_get_le(&d->in, 4, &x))
            return vtrunc(d, -1);
        if (x & 1) {
            d->in.p -= 3;
            if (fory_get_le(&d->in, 8, &x))
                return vtrunc(d, -1);
        } else {
            x = tid == FT_TAGGED_INT64 ? (uint64_t)(int64_t)((int32_t)(uint32_t)x >> 1)
                                       : (uint32_t)x >> 1;
        }
        if (tid == FT_TAGGED_INT64) {
            out->kind = CODEC_V_INT;
            out->as.i = (int64_t)x;
        } else {
            set_uint(out, x);
        }
        return CODEC_OK;
    default:
        break;
    }
    if (tid >= sizeof width || !width[tid])
        return vfail(d, CODEC_D_CORRUPT, "type id has no schemaless form (structs and enums "
                                          "need a registered type)");
    if (fory_get_le(&d->in, width[tid], &x))
        return vtrunc(d, -1);
    unsigned shift = 64 - 8u * width[tid];
    switch (tid) {
    case FT_BOOL:
        if (x > 1)
            return vfail(d, CODEC_D_CORRUPT, "bool is neither 0 nor 1");
        out->kind = CODEC_V_BOOL;
        out->as.b = x != 0;
        break;
    case FT_FLOAT32: {
        float f;
        uint32_t bits = (uint32_t)x;
        memcpy(&f, &bits, 4);
        out->kind = CODEC_V_DOUBLE;
        out->as.d = f;
        break;
    }
    case FT_FLOAT64:
        out->kind = CODEC_V_DOUBLE;
        memcpy(&out->as.d, &x, 8);
        break;
    case FT_INT8: case FT_INT16: case FT_INT32: case FT_INT64:
        out->kind = CODEC_V_INT;
        out->as.i = (int64_t)(x << shift) >> shift;
        break;
    default:
        set_uint(out, x);
    }
    return CODEC_OK;
}

static int read_data(vdec *d, uint32_t tid, codec_value *out)
{
    memset(out, 0, sizeof *out);
    if (++d->depth > d->max_depth)
        return vfail(d, CODEC_D_LIMIT, "nesting deeper than max-depth");
    int rc;
    switch (tid) {
    case FT_STRING:
        out->kind = CODEC_V_STRING;
        rc = codec__fory_read_string(&d->in, &d->pool, &out->as.s, d->err);
        break;
    case FT_BINARY: {
        uint32_t n;
        int r = fory_get_varu32(&d->in, &n);
        if (r)
            return vtrunc(d, r);
        if (n > fory_left(&d->in))
            return vtrunc(d, -1);
        uint8_t *p = codec_arena_alloc(d->arena, n ? n : 1, 1);
        if (!p)
            return FORY_NOMEM(d->err);
        memcpy(p, d->in.p, n);
        d->in.p += n;
        out->kind = CODEC_V_BYTES;
        out->as.bytes = (codec_bytes){p, n};
        rc = CODEC_OK;
        break;
    }
    case FT_LIST: case FT_SET: rc = read_list(d, out); break;
    case FT_MAP: rc = read_map(d, out); break;
    case FT_BOOL_ARRAY: case FT_INT8_ARRAY: case FT_INT16_ARRAY: case FT_INT32_ARRAY:
    case FT_INT64_ARRAY: rc = read_array(d, tid, out); break;
    default: rc = read_scalar(d, tid, out);
    }
    d->depth--;
    return rc;
}

int codec__fory_decode_value(const fory_plan *p, const uint8_t *in, size_t n, codec_value *v,
                             codec_arena *arena, codec_error *err)
{
    vdec d = {.in = {in, in, in + n}, .arena = arena, .pool = {.arena = arena}, .err = err,
              .max_depth = p->o.max_depth, .max_elements = p->o.max_elements};
    memset(v, 0, sizeof *v);
    uint8_t header = 0, flag = 0;
    if (fory_get_u8(&d.in, &header) || fory_get_u8(&d.in, &flag))
        return vtrunc(&d, -1);
    if (header != 0x01)
        return codec_error_set(err, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, "fory", 0,
                               "header 0x%02x: only xlang payloads (0x01) are read", header);
    if (flag != FORY_NULL) {
        if (flag != FORY_NOT_NULL && flag != FORY_REF_VALUE)
            return FORY_FAIL(err, CODEC_D_CORRUPT, 1, "unexpected root reference flag");
        uint32_t tid;
        int rc = read_tid(&d, &tid);
        if (rc || (rc = read_data(&d, tid, v)))
            return rc;
    }
    if (d.in.p != d.in.end)
        return FORY_FAIL(err, CODEC_D_TRAILING, fory_off(&d.in), "%zu bytes after the value",
                         fory_left(&d.in));
    return CODEC_OK;
}
