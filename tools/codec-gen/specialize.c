/* specialize.c — `codec-gen --specialize`: per message, a protobuf decode
 * and encode function in straight-line C, carried by the message's type
 * (codec_type.codegen, codec/codegen.h) and called by the protobuf backend
 * instead of walking its tables.
 *
 * Scalars, strings and bytes (plain or proto3 `optional`) are read and
 * written inline: the key is a `case` of a switch (or constant bytes when
 * writing), the value a few instructions. Lists, maps, message fields and
 * oneofs call the backend's own code for that one field
 * (codec_pb_dec_field / codec_pb_enc_field), which calls these functions
 * again for the messages inside. Any record the inline code does not expect
 * in exactly its well-formed shape (an unknown number, another wire type, a
 * truncated or overlong varint, a value out of range, a string that is not
 * UTF-8) is decoded again from its first byte by the backend
 * (codec_pb_dec_record), which applies every check and reports every error
 * as the descriptor path does. So both paths accept the same bytes, fail the
 * same way and write the same bytes (ctest codegen/proto3_differential and
 * fuzz/fuzz_codegen_proto3_spec compare them). */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define out codec__gen_out

static unsigned wire_of(int type)
{
    switch (type) {
    case T_DOUBLE:
    case T_FIXED64:
    case T_SFIXED64: return 1;
    case T_FLOAT:
    case T_FIXED32:
    case T_SFIXED32: return 5;
    case T_STRING:
    case T_BYTES: return 2;
    default: return 0;
    }
}

static bool is_text(int type)
{
    return type == T_STRING || type == T_BYTES;
}

/* The key's varint bytes; returns their count. */
static unsigned key_bytes(uint32_t number, unsigned wire, uint8_t key[5])
{
    uint64_t k = (uint64_t)number << 3 | wire;
    unsigned n = 0;
    while (k >= 0x80) {
        key[n++] = (uint8_t)(k | 0x80);
        k >>= 7;
    }
    key[n++] = (uint8_t)k;
    return n;
}

/* The lvalue of field f's value in `v`. */
static void lvalue(char *buf, size_t cap, const codec__gen_spec_field *f)
{
    snprintf(buf, cap, "v->%s%s", f->member, f->shape == CODEC__GEN_OPTIONAL ? ".value" : "");
}

/* The key of field f's records when the decoder has a `case` for it (keys
 * of one or two bytes), else 0 (the backend's lookup finds it). */
static uint32_t case_key(const codec__gen_spec_field *f)
{
    if (f->members != 1 || !f->number)   /* a oneof */
        return 0;
    unsigned wire = f->shape == CODEC__GEN_CALL ? f->wire : wire_of(f->type);
    uint64_t key = (uint64_t)f->number << 3 | wire;
    return key < 1u << 14 ? (uint32_t)key : 0;
}

/* When the record at p is field `to`'s, straight to its code (no switch). */
static void jump_if(codec_buf *c, const codec__gen_spec_field *to)
{
    uint32_t key = to ? case_key(to) : 0;
    if (!key)
        return;
    uint8_t b[5];
    unsigned n = key_bytes(to->number, to->shape == CODEC__GEN_CALL ? to->wire : wire_of(to->type),
                           b);
    if (n == 1)
        out(c, "            if (p < end && *p == 0x%02x) {\n                rec = p++;\n", b[0]);
    else
        out(c, "            if (end - p >= 2 && p[0] == 0x%02x && p[1] == 0x%02x) {\n"
               "                rec = p;\n                p += 2;\n", b[0], b[1]);
    out(c, "                goto f%zu;\n            }\n", to->index);
}

/* After field f: a list's next item, then the next field in field-number
 * order (the order encoders write), before the switch. */
static void chain(codec_buf *c, const codec__gen_spec_field *f, const codec__gen_spec_field *next)
{
    if (f->repeated)
        jump_if(c, f);
    jump_if(c, next);
    out(c, "            continue;\n");
}

/* A fixed-width value of `bits` into dst: an integer of C type `ctype`, or
 * (ctype NULL) a float or double by its bits. */
static void dec_fixed(codec_buf *c, const char *dst, unsigned bits, const char *ctype)
{
    out(c, "            if (end - p < %u)\n                goto generic;\n", bits / 8);
    if (ctype)
        out(c, "            %s = (%s)codec_pb_le%u(p);\n", dst, ctype, bits);
    else
        out(c, "            { uint%u_t b = codec_pb_le%u(p); memcpy(&%s, &b, %u); }\n", bits, bits,
            dst, bits / 8);
    out(c, "            p += %u;\n", bits / 8);
}

/* Decoding: one `case` reading field f's value into its member (label
 * f<index>), then on to `next`. */
static void dec_case(codec_buf *c, const codec__gen_spec_field *f,
                     const codec__gen_spec_field *next)
{
    char dst[160];
    lvalue(dst, sizeof dst, f);
    unsigned wire = f->shape == CODEC__GEN_CALL ? f->wire : wire_of(f->type);
    uint32_t key = case_key(f);
    if (!key)
        return;
    out(c, "        case %u: /* %s */\n        f%zu: __attribute__((unused));\n", (unsigned)key,
        f->member, f->index);
    if (f->shape == CODEC__GEN_CALL) {
        out(c, "            if ((rc = codec_pb_dec_field(d, m, %zu, v, fields, %u, &p, end, rec, "
               "depth)))\n                return rc;\n",
            f->index, wire);
        chain(c, f, next);
        return;
    }
    const char *has = f->shape == CODEC__GEN_OPTIONAL ? "" : NULL;
    switch (f->type) {
    case T_STRING:
    case T_BYTES:
        out(c, "            if (!(p = codec_pb_dec_text(d, p, end, (codec_bytes *)(void *)&%s, %d)))\n"
               "                goto generic;\n",
            dst, f->type == T_STRING);
        break;
    case T_FLOAT:
    case T_DOUBLE:
        dec_fixed(c, dst, f->type == T_FLOAT ? 32 : 64, NULL);
        break;
    case T_FIXED32:
    case T_SFIXED32:
        dec_fixed(c, dst, 32, f->type == T_FIXED32 ? "uint32_t" : "int32_t");
        break;
    case T_FIXED64:
    case T_SFIXED64:
        dec_fixed(c, dst, 64, f->type == T_FIXED64 ? "uint64_t" : "int64_t");
        break;
    default:
        out(c, "            if (!(p = codec_pb_dec_varint(p, end, &x)))\n                goto generic;\n");
        switch (f->type) {
        case T_INT64: out(c, "            %s = (int64_t)x;\n", dst); break;
        case T_UINT64: out(c, "            %s = x;\n", dst); break;
        case T_BOOL: out(c, "            %s = x != 0;\n", dst); break;
        case T_UINT32:
            out(c, "            if (x > UINT32_MAX)\n                goto generic;\n"
                   "            %s = (uint32_t)x;\n", dst);
            break;
        case T_SINT64:
            out(c, "            %s = (int64_t)(x >> 1) ^ -(int64_t)(x & 1);\n", dst);
            break;
        case T_SINT32:
            out(c, "            x = (uint64_t)((int64_t)(x >> 1) ^ -(int64_t)(x & 1));\n");
            /* fall through */
        default:   /* INT32, ENUM, SINT32: the value must fit an int32 */
            out(c, "            if ((int64_t)x < INT32_MIN || (int64_t)x > INT32_MAX)\n"
                   "                goto generic;\n            %s = (int32_t)x;\n", dst);
            break;
        }
    }
    if (has)
        out(c, "            v->%s.has = true;\n", f->member);
    chain(c, f, next);
}

static void emit_decode(codec_buf *c, const char *cname, const codec__gen_spec_field *f, size_t n)
{
    out(c, "static int %s_pb_decode_(codec_pb_dec *d, const codec_pb_msg *m, void *value,\n"
           "    codec_pb_fields *fields, const uint8_t *p, const uint8_t *end, size_t depth)\n{\n"
           "    %s *v = value;\n    uint64_t x;\n    int rc;\n    (void)x;\n"
           "    while (p < end) {\n        const uint8_t *rec = p;\n        uint32_t k = *p;\n"
           "        if (k < 0x80) {\n            p++;\n"
           "        } else if (end - p >= 2 && p[1] < 0x80) {\n"
           "            k = (k & 0x7f) | (uint32_t)p[1] << 7;\n            p += 2;\n"
           "        } else {\n            goto generic;\n        }\n        switch (k) {\n",
        cname, cname);
    for (size_t i = 0; i < n; i++) {
        const codec__gen_spec_field *next = NULL;
        for (size_t j = i + 1; j < n && !next; j++)
            if (case_key(&f[j]))
                next = &f[j];
        dec_case(c, &f[i], next);
    }
    out(c, "        default: goto generic;\n        }\n    generic:\n        p = rec;\n"
           "        if ((rc = codec_pb_dec_record(d, m, v, fields, &p, end, depth)))\n"
           "            return rc;\n    }\n    return 0;\n}\n\n");
}

/* Encoding: the 64-bit two's complement (or bits) of field f, as x. */
static void enc_load(codec_buf *c, const codec__gen_spec_field *f, const char *src)
{
    switch (f->type) {
    case T_BOOL: out(c, "        { uint8_t b; memcpy(&b, &%s, 1); x = b; }\n", src); break;
    case T_FLOAT: out(c, "        { uint32_t b; memcpy(&b, &%s, 4); x = b; }\n", src); break;
    case T_DOUBLE: out(c, "        memcpy(&x, &%s, 8);\n", src); break;
    case T_INT32:
    case T_ENUM:
    case T_SFIXED32:
    case T_SINT32: out(c, "        x = (uint64_t)(int64_t)%s;\n", src); break;
    default: out(c, "        x = (uint64_t)%s;\n", src); break;
    }
}

static void enc_scalar(codec_buf *c, const codec__gen_spec_field *f)
{
    char src[160];
    lvalue(src, sizeof src, f);
    if (f->shape == CODEC__GEN_OPTIONAL) {   /* written when set, even as 0 */
        out(c, "        if (v->%s.has) {\n", f->member);
        enc_load(c, f, src);
    } else {                                 /* written when not 0 (bits, for floats) */
        enc_load(c, f, src);
        out(c, "        if (x) {\n");
    }
    uint8_t key[5];
    unsigned kn = key_bytes(f->number, wire_of(f->type), key);
    out(c, "           ");
    for (unsigned i = 0; i < kn; i++)
        out(c, " *p++ = 0x%02x;", key[i]);
    out(c, "\n");
    switch (wire_of(f->type)) {
    case 1: out(c, "            p = codec_pb_put_le64(p, x);\n"); break;
    case 5: out(c, "            p = codec_pb_put_le32(p, (uint32_t)x);\n"); break;
    default:
        if (f->type == T_SINT32 || f->type == T_SINT64)
            out(c, "            p = codec_pb_put_varint(p, x << 1 ^ (0 - (x >> 63)));\n");
        else
            out(c, "            p = codec_pb_put_varint(p, x);\n");
    }
    out(c, "        }\n");
}

/* Writing string or bytes field f's value at `src` (a codec_string or
 * codec_bytes lvalue) with its key: inline (codec_pb_put_text) for keys of
 * one or two bytes, else the backend's codec_pb_enc_text. `ind`: the
 * statement's indentation. */
static void enc_text(codec_buf *c, const codec__gen_spec_field *f, const char *cond,
                     const char *src, const char *ind)
{
    uint8_t key[5];
    unsigned kn = key_bytes(f->number, 2, key);
    out(c, "%sif (%s!(p = ", ind, cond);
    if (kn <= 2)
        out(c, "codec_pb_put_text(e, p, m, %zu, 0x%0*x, %u, ", f->index, kn * 2,
            (unsigned)(key[0] | (kn > 1 ? key[1] << 8 : 0)), kn);
    else
        out(c, "codec_pb_enc_text(e, p, m, %zu, ", f->index);
    out(c, "(const codec_bytes *)(const void *)&%s%s)))\n%s    return NULL;\n", src,
        kn <= 2 ? (f->type == T_STRING ? ", 1" : ", 0") : "", ind);
}

static void emit_encode(codec_buf *c, const char *cname, const codec__gen_spec_field *f, size_t n)
{
    out(c, "static uint8_t *%s_pb_encode_(codec_pb_enc *e, uint8_t *p, const codec_pb_msg *m,\n"
           "    const void *value, size_t depth)\n{\n    const %s *v = value;\n"
           "    uint64_t x;\n    (void)x;\n    (void)m;\n    (void)depth;\n",
        cname, cname);
    for (size_t i = 0; i < n;) {
        if (f[i].shape == CODEC__GEN_CALL && f[i].repeated && f[i].members == 1 &&
            is_text(f[i].type)) {   /* a list of strings: every item, even empty */
            char src[160];
            snprintf(src, sizeof src, "v->%s.items[i]", f[i].member);
            out(c, "    for (size_t i = 0; i < v->%s.count; i++)\n", f[i].member);
            enc_text(c, &f[i], "", src, "        ");
            i++;
            continue;
        }
        if (f[i].shape == CODEC__GEN_CALL) {
            for (size_t j = 0; j < f[i].members; j++)
                out(c, "    if (!(p = codec_pb_enc_field(e, p, m, %zu, v, depth)))\n"
                       "        return NULL;\n", f[i].index + j);
            i++;
            continue;
        }
        if (is_text(f[i].type)) {
            char src[160], cond[200];
            lvalue(src, sizeof src, &f[i]);
            if (f[i].shape == CODEC__GEN_OPTIONAL)
                snprintf(cond, sizeof cond, "v->%s.has && ", f[i].member);
            else
                snprintf(cond, sizeof cond, "%s.len && ", src);
            enc_text(c, &f[i], cond, src, "    ");
            i++;
            continue;
        }
        /* A run of numbers: room for all of them at once. */
        size_t j = i, room = 0;
        for (; j < n && f[j].shape != CODEC__GEN_CALL && !is_text(f[j].type); j++) {
            uint8_t key[5];
            room += key_bytes(f[j].number, wire_of(f[j].type), key) + 10;
        }
        out(c, "    if (!(p = codec_pb_need(e, p, %zu)))\n        return NULL;\n    {\n", room);
        for (; i < j; i++)
            enc_scalar(c, &f[i]);
        out(c, "    }\n");
    }
    out(c, "    return codec_pb_put_unknown(e, p, &v->codec_unknown);\n}\n\n");
}

void codec__gen_specialize(codec_buf *c, const char *cname, const codec__gen_spec_field *f,
                           size_t n)
{
    emit_decode(c, cname, f, n);
    emit_encode(c, cname, f, n);
    out(c, "static const codec_codegen %s_codegen_ = {\n    .abi = CODEC_CODEGEN_ABI,\n"
           "    .pb_decode = %s_pb_decode_,\n    .pb_encode = %s_pb_encode_};\n\n",
        cname, cname, cname);
}
