/* specialize_fory.c — `codec-gen --specialize` for Fory IDL structs: per
 * struct, Fory xlang decode and encode functions in straight-line C,
 * carried by the struct's type (codec_type.codegen->reserved[0],
 * codec/codegen.h) and called by the Fory backend for a root struct. The
 * protobuf half is specialize.c. */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define out codec__gen_out

/* ---------------------------------------------------------------------------
 * Fory (xlang): a struct's fields in Fory's order, read and written inline
 *
 * Only structs whose fields are all scalars and strings (plain or
 * `optional`) get them; the backend uses them for a root struct after its
 * prebuilt prefix (type info, TypeDef), and only when the order and type ids
 * listed with them equal the ones it computes itself (codec/codegen.h). So
 * the order below is a prediction the backend checks, not a second
 * authority: a mismatch costs speed, never bytes.
 * ------------------------------------------------------------------------ */

/* Fory's wire groups: non-nullable primitives, nullable primitives, rest. */
static int fory_group(const codec__gen_fory_field *f)
{
    return f->tid == 21 ? 2 : f->nullable ? 1 : 0;
}

static bool fory_varint(uint8_t tid)
{
    return tid == 5 || tid == 7 || tid == 8 || tid == 12 || tid == 14 || tid == 15;
}

/* Bytes of a primitive's C value: Fory sorts larger ones first. */
static int fory_width(uint8_t tid)
{
    static const uint8_t w[21] = {[1] = 1, [2] = 1, [3] = 2, [4] = 4, [5] = 4, [6] = 8, [7] = 8,
                                  [8] = 8, [9] = 1, [10] = 2, [11] = 4, [12] = 4, [13] = 8,
                                  [14] = 8, [15] = 8, [19] = 4, [20] = 8};
    return tid < 21 ? w[tid] : 0;
}

static int fory_before(const codec__gen_fory_field *a, const codec__gen_fory_field *b)
{
    if (fory_group(a) != fory_group(b))
        return fory_group(a) - fory_group(b);
    if (fory_group(a) < 2) {
        if (fory_varint(a->tid) != fory_varint(b->tid))
            return fory_varint(a->tid) ? 1 : -1;
        if (fory_width(a->tid) != fory_width(b->tid))
            return fory_width(b->tid) - fory_width(a->tid);
        if (a->tid != b->tid)
            return a->tid - b->tid;
    }
    return strcmp(a->wire_name, b->wire_name);
}

/* The value of field f at lvalue `dst` (reading) from p. */
static void fory_read(codec_buf *c, const codec__gen_fory_field *f, const char *dst,
                      const char *ind)
{
    int w = fory_width(f->tid);
    switch (f->tid) {
    case 1:
        out(c, "%sif (p >= end || *p > 1)\n%s    return 0;\n%s%s = *p++ != 0;\n", ind, ind, ind,
            dst);
        break;
    case 5: case 12:
        out(c, "%sif (!(p = codec_fory_get_varu32(p, end, &u)))\n%s    return 0;\n", ind, ind);
        if (f->tid == 5)
            out(c, "%s%s = (int32_t)(u >> 1) ^ -(int32_t)(u & 1);\n", ind, dst);
        else
            out(c, "%s%s = u;\n", ind, dst);
        break;
    case 7: case 14:
        out(c, "%sif (!(p = codec_fory_get_varu64(p, end, &x)))\n%s    return 0;\n", ind, ind);
        if (f->tid == 7)
            out(c, "%s%s = (int64_t)(x >> 1) ^ -(int64_t)(x & 1);\n", ind, dst);
        else
            out(c, "%s%s = x;\n", ind, dst);
        break;
    case 21:
        out(c, "%sif (!(p = codec_fory_get_text(p, end, arena, &pool, &%s)))\n%s    return 0;\n",
            ind, dst, ind);
        break;
    default:   /* fixed width, little-endian */
        out(c, "%sif (end - p < %d)\n%s    return 0;\n", ind, w, ind);
        if (w == 1)
            out(c, "%smemcpy(&%s, p, 1);\n", ind, dst);
        else if (w == 2)
            out(c, "%s{ uint16_t b = (uint16_t)(p[0] | p[1] << 8); memcpy(&%s, &b, 2); }\n", ind,
                dst);
        else
            out(c, "%s{ uint%d_t b = codec_pb_le%d(p); memcpy(&%s, &b, %d); }\n", ind, w * 8,
                w * 8, dst, w);
        out(c, "%sp += %d;\n", ind, w);
    }
}

/* The value of field f at rvalue `src` (writing) at p. */
static void fory_write(codec_buf *c, const codec__gen_fory_field *f, const char *src,
                       const char *ind)
{
    int w = fory_width(f->tid);
    switch (f->tid) {
    case 1: out(c, "%s*p++ = %s ? 1 : 0;\n", ind, src); break;
    case 5:
        out(c, "%sp = codec_fory_put_varu64(p, (uint32_t)((uint32_t)%s << 1 ^ (uint32_t)(%s >> 31)));\n",
            ind, src, src);
        break;
    case 7:
        out(c, "%sp = codec_fory_put_varu64(p, (uint64_t)%s << 1 ^ (uint64_t)(%s >> 63));\n", ind,
            src, src);
        break;
    case 12: case 14: out(c, "%sp = codec_fory_put_varu64(p, %s);\n", ind, src); break;
    case 21: out(c, "%sp = codec_fory_put_string(p, &%s);\n", ind, src); break;
    default:
        if (w == 1)
            out(c, "%smemcpy(p++, &%s, 1);\n", ind, src);
        else if (w == 2)
            out(c, "%s{ uint16_t b; memcpy(&b, &%s, 2); *p++ = (uint8_t)b; *p++ = (uint8_t)(b >> 8); }\n",
                ind, src);
        else
            out(c, "%s{ uint%d_t b; memcpy(&b, &%s, %d); p = codec_pb_put_le%d(p, b); }\n", ind,
                w * 8, src, w, w * 8);
    }
}

static int fory_cmp(const void *a, const void *b)
{
    return fory_before(*(const codec__gen_fory_field *const *)a,
                       *(const codec__gen_fory_field *const *)b);
}

bool codec__gen_specialize_fory(codec_buf *c, const char *cname, const codec__gen_fory_field *f,
                                size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!f[i].tid || f[i].tid == 8 || f[i].tid == 15)   /* tagged: the backend's code */
            return false;
    const codec__gen_fory_field **o = malloc((n ? n : 1) * sizeof *o);
    if (!o) {
        fputs("codec-gen: out of memory\n", stderr);
        exit(2);
    }
    for (size_t i = 0; i < n; i++)
        o[i] = &f[i];
    qsort(o, n, sizeof *o, fory_cmp);
    /* The layout the backend checks. */
    out(c, "static const uint16_t %s_fory_order_[] = {", cname);
    for (size_t i = 0; i < n; i++)
        out(c, "%s%zu", i ? ", " : "", o[i]->index);
    out(c, "%s};\nstatic const uint8_t %s_fory_tids_[] = {", n ? "" : "0", cname);
    for (size_t i = 0; i < n; i++)
        out(c, "%s%u", i ? ", " : "", (unsigned)(o[i]->tid | (o[i]->nullable ? 0x80 : 0)));
    out(c, "%s};\n\n", n ? "" : "0");
    /* Decoding. */
    out(c, "static int %s_fory_decode_(const uint8_t *p, const uint8_t *end, void *value,\n"
           "    codec_arena *arena)\n{\n    %s *v = value;\n    char *pool = NULL;\n"
           "    uint32_t u;\n    uint64_t x;\n    (void)v, (void)pool, (void)u, (void)x, (void)arena;\n",
        cname, cname);
    for (size_t i = 0; i < n; i++) {
        char dst[160];
        if (o[i]->nullable) {
            snprintf(dst, sizeof dst, "v->%s.value", o[i]->member);
            out(c, "    if (p >= end)\n        return 0;\n    if (*p++ != 0xfd) {   /* %s */\n"
                   "        if (p[-1] != 0xff)\n            return 0;\n        v->%s.has = true;\n",
                o[i]->member, o[i]->member);
            fory_read(c, o[i], dst, "        ");
            out(c, "    }\n");
        } else {
            snprintf(dst, sizeof dst, "v->%s", o[i]->member);
            out(c, "    /* %s */\n", o[i]->member);
            fory_read(c, o[i], dst, "    ");
        }
    }
    out(c, "    return p == end;\n}\n\n");
    /* Encoding: the room for every field at once. */
    size_t room = 0;
    for (size_t i = 0; i < n; i++)
        room += 1 + (o[i]->tid == 21 ? 9 : fory_varint(o[i]->tid) ? 9 : (size_t)fory_width(o[i]->tid));
    out(c, "static int %s_fory_encode_(codec_buf *out, const void *value)\n{\n"
           "    const %s *v = value;\n    size_t need = %zu;\n    (void)v;\n", cname, cname, room);
    for (size_t i = 0; i < n; i++) {
        if (o[i]->tid != 21)
            continue;
        if (o[i]->nullable)
            out(c, "    if (v->%s.has && (need += v->%s.value.len) < v->%s.value.len)\n"
                   "        return CODEC_E_NOMEM;\n", o[i]->member, o[i]->member, o[i]->member);
        else
            out(c, "    if ((need += v->%s.len) < v->%s.len)\n        return CODEC_E_NOMEM;\n",
                o[i]->member, o[i]->member);
    }
    out(c, "    if (codec_buf_reserve(out, need))\n        return CODEC_E_NOMEM;\n"
           "    uint8_t *p = out->data + out->len;\n");
    for (size_t i = 0; i < n; i++) {
        char src[160];
        if (o[i]->nullable) {
            snprintf(src, sizeof src, "v->%s.value", o[i]->member);
            out(c, "    if (!v->%s.has) {\n        *p++ = 0xfd;\n    } else {\n"
                   "        *p++ = 0xff;\n", o[i]->member);
            fory_write(c, o[i], src, "        ");
            out(c, "    }\n");
        } else {
            snprintf(src, sizeof src, "v->%s", o[i]->member);
            fory_write(c, o[i], src, "    ");
        }
    }
    out(c, "    out->len = (size_t)(p - out->data);\n    return 0;\n}\n\n"
           "static codec_fory_codegen %s_fory_codegen_ = {\n    .abi = CODEC_FORY_CODEGEN_ABI,\n"
           "    .count = %zu,\n    .order = %s_fory_order_,\n    .tids = %s_fory_tids_,\n"
           "    .decode = %s_fory_decode_,\n    .encode = %s_fory_encode_};\n\n",
        cname, n, cname, cname, cname, cname);
    free(o);
    return true;
}
