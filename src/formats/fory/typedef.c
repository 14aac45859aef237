/* typedef.c — compatible mode's TypeDef (a struct's field names and types,
 * written once per message) and consistent mode's struct version hash.
 * Both use MurmurHash3 x64/128 with seed 47, as Fory does. */
#include "formats/fory/fory_internal.h"

#include <stdio.h>
#include <string.h>

static uint64_t rotl64(uint64_t x, int r)
{
    return x << r | x >> (64 - r);
}

static uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

static uint64_t load_le(const uint8_t *p, size_t n)
{
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++)
        x |= (uint64_t)p[i] << (8 * i);
    return x;
}

static void fory_murmur3_x64_128(const void *data, size_t len, uint32_t seed, uint64_t out[2])
{
    const uint8_t *p = data;
    const uint64_t c1 = 0x87c37b91114253d5ull, c2 = 0x4cf5ad432745937full;
    uint64_t h1 = seed, h2 = seed;
    size_t blocks = len / 16;
    for (size_t i = 0; i < blocks; i++) {
        uint64_t k1 = load_le(p + i * 16, 8), k2 = load_le(p + i * 16 + 8, 8);
        h1 ^= rotl64(k1 * c1, 31) * c2;
        h1 = (rotl64(h1, 27) + h2) * 5 + 0x52dce729;
        h2 ^= rotl64(k2 * c2, 33) * c1;
        h2 = (rotl64(h2, 31) + h1) * 5 + 0x38495ab5;
    }
    const uint8_t *tail = p + blocks * 16;
    size_t rest = len & 15;
    if (rest > 8)
        h2 ^= rotl64(load_le(tail + 8, rest - 8) * c2, 33) * c1;
    if (rest)
        h1 ^= rotl64(load_le(tail, rest > 8 ? 8 : rest) * c1, 31) * c2;
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    out[0] = h1;
    out[1] = h2;
}

/* The fingerprint "name,type_id,ref,nullable;" of each field sorted by
 * name (user types count as 0), hashed; the low 32 bits are the version.
 * @return 0, or -1 when out of memory. */
int codec__fory_struct_version(fory_struct *st, uint32_t *version)
{
    size_t cap = 1;
    for (size_t i = 0; i < st->count; i++)
        cap += st->order[i].name_len + 16;   /* ",255,0,1;" and then some */
    const codec_allocator *a = codec_default_allocator();
    char *text = a->alloc(a->ctx, cap);
    if (!text)
        return -1;
    size_t used = 0;
    const char *last = "";
    /* Fields by name without sorting a copy: pick the next larger name. */
    for (size_t k = 0; k < st->count; k++) {
        const fory_field *best = NULL;
        for (size_t i = 0; i < st->count; i++) {
            const fory_field *f = &st->order[i];
            if ((k == 0 || strcmp(f->name, last) > 0) && (!best || strcmp(f->name, best->name) < 0))
                best = f;
        }
        uint8_t tid = best->node->tid;
        if (tid == FT_ENUM || tid == FT_NAMED_ENUM || tid == FT_STRUCT || tid == FT_NAMED_STRUCT)
            tid = 0;
        used += (size_t)snprintf(text + used, cap - used, "%s,%u,0,%d;", best->name, tid,
                                 best->node->nullable ? 1 : 0);
        last = best->name;
    }
    uint64_t h[2];
    fory_murmur3_x64_128(text, used, 47, h);
    a->release(a->ctx, text, cap);
    *version = (uint32_t)h[0];
    return 0;
}

static void put_type(codec_buf *b, const fory_node *n, bool flagged)
{
    uint32_t tid = n->tid;
    fory_put_varu32(b, flagged ? tid << 2 | (n->nullable ? 2u : 0u) : tid);
    if (n->tid == FT_LIST) {
        put_type(b, n->elem, true);
    } else if (n->tid == FT_MAP) {
        put_type(b, n->key, true);
        put_type(b, n->elem, true);
    }
}

/* The TypeDef's 8-byte little-endian header: bits 0-7 the body size (0xff:
 * a varuint32 of the rest follows), bit 8 "compressed" (never set here),
 * bits 9-11 reserved, bits 12-63 a hash. The hash is MurmurHash3 x64/128
 * (seed 47) of the body followed by the low 16 header bits (little-endian),
 * its first 64-bit half shifted left by 12 and made non-negative as an
 * int64. That is what Fory C++ at the vectors' commit writes, as do Java's
 * TypeDefEncoder and pyfory's typedef_encoder. `body` must have room for 2
 * more bytes past `len` (they are overwritten). */
static uint64_t typedef_header(uint8_t *body, size_t len)
{
    uint64_t low = len < FORY_TD_SIZE_MASK ? len : FORY_TD_SIZE_MASK;
    body[len] = (uint8_t)low;
    body[len + 1] = (uint8_t)(low >> 8);
    uint64_t h[2];
    fory_murmur3_x64_128(body, len + 2, 47, h);
    uint64_t shifted = h[0] << 12;
    if (shifted >> 63 && shifted != 1ull << 63)
        shifted = 0 - shifted;   /* Java's Math.abs of the signed value */
    return (shifted & ~(uint64_t)0xfff) | low;
}

int codec__fory_typedef_build(fory_plan *p, fory_struct *st, codec_error *err)
{
    codec_buf body;
    codec_buf_init(&body, NULL);
    int rc = CODEC_OK;
    if ((rc = codec_buf_reserve(&body, 16)))
        goto out;
    /* Meta header: a struct kind (0x80), compatible (0x40), registered by
     * id (0x20 clear), then the field count. */
    fory_put_u8(&body, (uint8_t)(FORY_TD_STRUCT | FORY_TD_COMPATIBLE |
                                 (st->count < 31 ? st->count : 31)));
    if (st->count >= 31)
        fory_put_varu32(&body, (uint32_t)(st->count - 31));
    fory_put_varu32(&body, st->user_id);
    for (size_t i = 0; i < st->count && !rc; i++) {
        const fory_field *f = &st->order[i];
        uint8_t name[512];
        int enc;
        if (f->name_len > 256) {
            rc = codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "fory",
                                 CODEC_NO_OFFSET, "field name '%s' is too long", f->name);
            break;
        }
        size_t n = codec__fory_metastring_encode(f->name, f->name_len, name, &enc);
        if ((rc = codec_buf_reserve(&body, n + 64)))
            break;
        size_t sz = n - 1;
        fory_put_u8(&body, (uint8_t)(enc << 6 | (sz < 15 ? sz : 15) << 2 |
                                     (f->node->nullable ? 2 : 0)));
        if (sz >= 15)
            fory_put_varu32(&body, (uint32_t)(sz - 15));
        put_type(&body, f->node, false);
        memcpy(body.data + body.len, name, n);
        body.len += n;
    }
    if (!rc)
        rc = codec_buf_reserve(&body, 2);   /* room for typedef_header's 2 bytes */
    if (!rc) {
        bool big = body.len >= FORY_TD_SIZE_MASK;
        st->type_def_len = 8 + (big ? 5 : 0) + body.len;
        st->type_def = codec_arena_alloc(&p->arena, st->type_def_len, 1);
        if (!st->type_def) {
            rc = CODEC_E_NOMEM;
        } else {
            codec_buf out = {.data = st->type_def, .len = 0, .cap = st->type_def_len};
            st->type_def_header = typedef_header(body.data, body.len);
            fory_put_le(&out, st->type_def_header, 8);
            if (big)
                fory_put_varu32(&out, (uint32_t)(body.len - FORY_TD_SIZE_MASK));
            memcpy(out.data + out.len, body.data, body.len);
            st->type_def_body = out.len;
            st->type_def_len = out.len + body.len;
        }
    }
out:
    codec_buf_free(&body);
    if (rc == CODEC_E_NOMEM)
        return FORY_NOMEM(err);
    return rc;
}
