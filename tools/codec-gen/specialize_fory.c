/* specialize_fory.c — `codec-gen --specialize` for Fory IDL structs: per
 * struct, Fory xlang decode and encode functions in straight-line C,
 * carried by the struct's type (codec_type.codegen->reserved[0],
 * codec/codegen.h) and called by the Fory backend for a root struct. The
 * protobuf half is specialize.c.
 *
 * Handled: every scalar (tagged integers too), strings, bytes, enums,
 * structs of the same file held by value (plain or `optional`), list<T>
 * and map<K, V> of those (list items and map keys and values not
 * optional), array<T> of bool and int8..int64, and unions whose cases are
 * scalars, strings or bytes; a struct with any other field (`ref`,
 * date/timestamp/decimal, which the backend does not carry; a union with a
 * struct, list or map case) or holding such a struct gets none, and the
 * backend's own code runs for it.
 *
 * The backend uses them for a root struct after its prebuilt prefix (type
 * info, TypeDef), and only when the order and type ids listed with them
 * equal the ones it computes itself, for the root and every struct it
 * holds (codec/codegen.h). So the order below is a prediction the backend
 * checks, not a second authority: a mismatch costs speed, never bytes.
 * What the descriptor path would refuse or write another way (an enum
 * number that is none of its values, a count over 2^32) is handed back to
 * it: encode returns 1, decode 0. */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define out codec__gen_out

/* List header (same type, declared) and map chunk header (key and value
 * declared), as the backend writes them for these values. */
#define LIST_DECLARED 0x0c
#define LIST_STRUCTS 0x08
#define MAP_DECLARED 0x24

/* Fory type ids beyond the primitives (the backend's fory_internal.h). */
#define TID_TAGGED_INT64 8
#define TID_TAGGED_UINT64 15
#define TID_STRING 21
#define TID_UNION 33
#define TID_BINARY 41
#define TID_BOOL_ARRAY 43
#define TID_INT64_ARRAY 47

/* A string or bytes: a length header, then the length's bytes. */
static bool sized(uint8_t tid)
{
    return tid == TID_STRING || tid == TID_BINARY;
}

static bool is_array(uint8_t tid)
{
    return tid >= TID_BOOL_ARRAY && tid <= TID_INT64_ARRAY;
}

static bool fory_primitive(uint8_t tid)
{
    return tid >= 1 && tid <= 20;
}

/* Fory's wire groups: non-nullable primitives, nullable primitives, rest. */
static int fory_group(const codec__gen_fory_field *f)
{
    return !fory_primitive(f->tid) ? 2 : f->nullable ? 1 : 0;
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

/* An enum numbered 0..count-1 in order, under 128 values: its ordinal is
 * its number, in one byte (the backend's fast path; the bytes are the
 * same either way). */
static bool enum_direct(const codec__gen_fory_val *v)
{
    if (v->count >= 128)
        return false;
    for (size_t i = 0; i < v->count; i++)
        if (v->numbers[i] != (int32_t)i)
            return false;
    return true;
}

/* The most bytes value v takes besides a string's text (0: a struct,
 * whose code makes its own room). */
static size_t room_of(const codec__gen_fory_val *v)
{
    if (v->tid == 27)
        return 0;
    if (v->tid == 21 || v->tid == 25 || fory_varint(v->tid))
        return 9;
    if (v->tid == TID_BINARY)
        return 5;
    return (size_t)fory_width(v->tid);
}

/* The value v at lvalue `dst` (reading) from p; NULL on anything else. */
static void fory_read(codec_buf *c, const codec__gen_fory_val *v, const char *dst,
                      const char *ind)
{
    int w = fory_width(v->tid);
    switch (v->tid) {
    case 1:
        out(c, "%sif (p >= end || *p > 1)\n%s    return NULL;\n%s%s = *p++ != 0;\n", ind, ind,
            ind, dst);
        break;
    case 5: case 12:
        out(c, "%sif (!(p = codec_fory_get_varu32(p, end, &u)))\n%s    return NULL;\n", ind, ind);
        if (v->tid == 5)
            out(c, "%s%s = (int32_t)(u >> 1) ^ -(int32_t)(u & 1);\n", ind, dst);
        else
            out(c, "%s%s = u;\n", ind, dst);
        break;
    case 7: case 14:
        out(c, "%sif (!(p = codec_fory_get_varu64(p, end, &x)))\n%s    return NULL;\n", ind, ind);
        if (v->tid == 7)
            out(c, "%s%s = (int64_t)(x >> 1) ^ -(int64_t)(x & 1);\n", ind, dst);
        else
            out(c, "%s%s = x;\n", ind, dst);
        break;
    case 21:
        out(c, "%sif (!(p = codec_fory_get_text(p, end, g->arena, &g->pool, &%s)))\n"
               "%s    return NULL;\n", ind, dst, ind);
        break;
    case TID_BINARY:   /* into the strings' pool (it has room for all the input) */
        out(c, "%sif (!(p = codec_fory_get_varu32(p, end, &u)) || u > (size_t)(end - p))\n"
               "%s    return NULL;\n"
               "%sif (u) {\n"
               "%s    if (!g->pool && !(g->pool = codec_arena_alloc(g->arena, (size_t)(end - p), 1)))\n"
               "%s        return NULL;\n"
               "%s    memcpy(g->pool, p, u);\n"
               "%s    %s.data = (const uint8_t *)g->pool;\n"
               "%s    g->pool += u;\n"
               "%s    p += u;\n"
               "%s}\n"
               "%s%s.len = u;\n",
            ind, ind, ind, ind, ind, ind, ind, dst, ind, ind, ind, ind, dst);
        break;
    case TID_TAGGED_INT64: case TID_TAGGED_UINT64:   /* 4 bytes (value << 1), or 1 + 8 */
        out(c, "%sif (end - p < 4)\n%s    return NULL;\n"
               "%sif (*p & 1) {\n"
               "%s    if (end - p < 9)\n%s        return NULL;\n"
               "%s    { uint64_t b = codec_pb_le64(p + 1); memcpy(&%s, &b, 8); }\n"
               "%s    p += 9;\n"
               "%s} else {\n"
               "%s    %s = %s;\n"
               "%s    p += 4;\n"
               "%s}\n",
            ind, ind, ind, ind, ind, ind, dst, ind, ind, ind, dst,
            v->tid == TID_TAGGED_INT64 ? "(int64_t)((int32_t)codec_pb_le32(p) >> 1)"
                                       : "(uint64_t)(codec_pb_le32(p) >> 1)",
            ind, ind);
        break;
    case 25:   /* the ordinal, to the number */
        if (enum_direct(v)) {
            out(c, "%sif (p >= end || *p >= %zu)\n%s    return NULL;\n%s%s = *p++;\n", ind,
                v->count, ind, ind, dst);
            break;
        }
        out(c, "%sif (!(p = codec_fory_get_varu32(p, end, &u)))\n%s    return NULL;\n"
               "%sswitch (u) {\n", ind, ind, ind);
        for (size_t i = 0; i < v->count; i++)
            out(c, "%scase %zu: %s = %d; break;\n", ind, i, dst, (int)v->numbers[i]);
        out(c, "%sdefault: return NULL;\n%s}\n", ind, ind);
        break;
    case 27:
        out(c, "%sif (!(p = %s_fory_read_(p, end, &%s, g)))\n%s    return NULL;\n", ind, v->cname,
            dst, ind);
        break;
    default:   /* fixed width, little-endian */
        out(c, "%sif (end - p < %d)\n%s    return NULL;\n", ind, w, ind);
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

/* The ordinal the backend writes for enum number k (its own fast path
 * first: values[k] numbered k; else the first value numbered k). */
static size_t enum_ordinal(const codec__gen_fory_val *v, int32_t k)
{
    if (k >= 0 && (size_t)k < v->count && v->numbers[k] == k)
        return (size_t)k;
    size_t i = 0;
    while (v->numbers[i] != k)
        i++;
    return i;
}

/* The value v at rvalue `src` (writing) at p; its room is made (a struct's
 * by its own code). */
static void fory_write(codec_buf *c, const codec__gen_fory_val *v, const char *src,
                       const char *ind)
{
    int w = fory_width(v->tid);
    switch (v->tid) {
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
    case TID_BINARY:   /* longer than 2^32 - 1: the backend's error */
        out(c, "%sif (%s.len > UINT32_MAX)\n%s    return 1;\n"
               "%sp = codec_fory_put_varu64(p, %s.len);\n"
               "%sif (%s.len)\n%s    memcpy(p, %s.data, %s.len);\n"
               "%sp += %s.len;\n",
            ind, src, ind, ind, src, ind, src, ind, src, src, ind, src);
        break;
    case TID_TAGGED_INT64:
        out(c, "%sif (%s >= -((int64_t)1 << 30) && %s < ((int64_t)1 << 30)) {\n"
               "%s    p = codec_pb_put_le32(p, (uint32_t)((uint64_t)%s << 1));\n"
               "%s} else {\n%s    *p++ = 1;\n%s    p = codec_pb_put_le64(p, (uint64_t)%s);\n%s}\n",
            ind, src, src, ind, src, ind, ind, ind, src, ind);
        break;
    case TID_TAGGED_UINT64:
        out(c, "%sif (%s <= INT32_MAX) {\n"
               "%s    p = codec_pb_put_le32(p, (uint32_t)(%s << 1));\n"
               "%s} else {\n%s    *p++ = 1;\n%s    p = codec_pb_put_le64(p, %s);\n%s}\n",
            ind, src, ind, src, ind, ind, ind, src, ind);
        break;
    case 25:   /* the number, to the ordinal; another number: the backend's error */
        if (enum_direct(v)) {
            out(c, "%sif ((uint32_t)%s >= %zu)\n%s    return 1;\n%s*p++ = (uint8_t)%s;\n", ind,
                src, v->count, ind, ind, src);
            break;
        }
        out(c, "%sswitch (%s) {\n", ind, src);
        for (size_t i = 0; i < v->count; i++) {
            bool first = true;   /* a number once (aliases share it) */
            for (size_t j = 0; j < i; j++)
                first &= v->numbers[j] != v->numbers[i];
            if (first)
                out(c, "%scase %d: p = codec_fory_put_varu64(p, %zu); break;\n", ind,
                    (int)v->numbers[i], enum_ordinal(v, v->numbers[i]));
        }
        out(c, "%sdefault: return 1;\n%s}\n", ind, ind);
        break;
    case 27:
        out(c, "%sif ((rc = %s_fory_write_(out, &p, &%s, g)))\n%s    return rc;\n", ind, v->cname,
            src, ind);
        break;
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

/* `need` for one value of v at `src` (a string: its length added). */
static void need_of(codec_buf *c, const codec__gen_fory_val *v, const char *src, const char *ind)
{
    if (sized(v->tid))
        out(c, "%sif ((need += %s.len) < %s.len)\n%s    return CODEC_E_NOMEM;\n", ind, src, src,
            ind);
}

static void make_room(codec_buf *c, const char *n, const char *ind)
{
    out(c, "%sif (!(p = codec_fory_need(out, p, %s)))\n%s    return CODEC_E_NOMEM;\n", ind, n, ind);
}

/* The field's value lvalue (after its null flag). */
static void value_of(char *buf, size_t cap, const codec__gen_fory_field *f)
{
    snprintf(buf, cap, "v->%s%s", f->member, f->nullable ? ".value" : "");
}

static bool inline_field(const codec__gen_fory_field *f)
{
    return f->tid != 22 && f->tid != 24 && f->tid != 27 && f->tid != TID_UNION &&
           !is_array(f->tid);
}

/* Reading union field f at lvalue `m`: its null flag (`which` 0), else
 * the case id, the case value's ref flag (ff) and type id, the value. */
static void read_union(codec_buf *c, const codec__gen_fory_field *f, const char *m)
{
    out(c, "    if (p >= end)\n        return NULL;\n    if (*p++ != 0xfd) {   /* %s */\n"
           "        if (p[-1] != 0xff || !(p = codec_fory_get_varu32(p, end, &u)))\n"
           "            return NULL;\n        switch (u) {\n",
        f->member);
    for (size_t i = 0; i < f->val.count; i++) {
        const codec__gen_fory_case *k = &f->val.cases[i];
        codec__gen_fory_val cv = {.tid = k->tid};
        char dst[200];
        snprintf(dst, sizeof dst, "%s.%s", m, k->member);
        out(c, "        case %u:\n"
               "            if (end - p < 2 || p[0] != 0xff || p[1] != %u)\n"
               "                return NULL;\n            p += 2;\n            %s.which = %zu;\n",
            (unsigned)k->tag, (unsigned)k->tid, m, i + 1);
        fory_read(c, &cv, dst, "            ");
        out(c, "            break;\n");
    }
    out(c, "        default:\n            return NULL;\n        }\n    }\n");
}

/* Writing union field f at lvalue `m` (a `which` past its cases: the
 * backend's error). */
static void write_union(codec_buf *c, const codec__gen_fory_field *f, const char *m)
{
    out(c, "    switch (%s.which) {   /* %s */\n    case 0:\n", m, f->member);
    make_room(c, "1", "        ");
    out(c, "        *p++ = 0xfd;\n        break;\n");
    for (size_t i = 0; i < f->val.count; i++) {
        const codec__gen_fory_case *k = &f->val.cases[i];
        codec__gen_fory_val cv = {.tid = k->tid};
        char src[200];
        snprintf(src, sizeof src, "%s.%s", m, k->member);
        out(c, "    case %zu:\n        need = %zu;\n", i + 1, 8 + room_of(&cv));
        need_of(c, &cv, src, "        ");
        make_room(c, "need", "        ");
        out(c, "        *p++ = 0xff;\n        p = codec_fory_put_varu64(p, %u);\n"
               "        *p++ = 0xff;\n        *p++ = %u;\n",
            (unsigned)k->tag, (unsigned)k->tid);
        fory_write(c, &cv, src, "        ");
        out(c, "        break;\n");
    }
    out(c, "    default:\n        return 1;\n    }\n");
}

/* The bytes of an array of ESZ-byte items: copied as they are on
 * little-endian hosts (big-endian ones leave them to the backend, which
 * swaps each item). */
static void big_endian_falls_back(codec_buf *c, int esz, const char *ret, const char *ind)
{
    if (esz > 1)
        out(c, "#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__\n"
               "%sreturn %s;\n#endif\n", ind, ret);
}

/* Reading array field f (bytes count, then the items) at lvalue `m`. */
static void read_array(codec_buf *c, const codec__gen_fory_field *f, const char *m,
                       const char *ind)
{
    int esz = fory_width(f->val.tid);
    big_endian_falls_back(c, esz, "NULL", ind);
    char whole[32] = "", count[32] = "n";   /* a whole number of items; their count */
    if (esz > 1) {
        snprintf(whole, sizeof whole, "n %% %d || ", esz);
        snprintf(count, sizeof count, "n / %d", esz);
    }
    out(c, "%s{\n%s    uint32_t n;\n"
           "%s    if (!(p = codec_fory_get_varu32(p, end, &n)) || %sn > (size_t)(end - p) ||\n"
           "%s        %s > g->max_elements)\n%s        return NULL;\n"
           "%s    void *items = codec_arena_alloc(g->arena, n ? n : 1, 0);\n"
           "%s    if (!items)\n%s        return NULL;\n",
        ind, ind, ind, whole, ind, count, ind, ind, ind, ind);
    if (f->tid == TID_BOOL_ARRAY)
        out(c, "%s    for (uint32_t i = 0; i < n; i++)\n%s        if (p[i] > 1)\n"
               "%s            return NULL;\n", ind, ind, ind);
    out(c, "%s    memcpy(items, p, n);\n%s    p += n;\n%s    %s.items = items;\n"
           "%s    %s.count = %s;\n%s}\n",
        ind, ind, ind, m, ind, m, count, ind);
}

/* Writing array field f at lvalue `m` (over 2^32 - 1 bytes: the backend's
 * error). */
static void write_array(codec_buf *c, const codec__gen_fory_field *f, const char *m,
                        const char *ind)
{
    int esz = fory_width(f->val.tid);
    big_endian_falls_back(c, esz, "1", ind);
    out(c, "%s{\n%s    if (%s.count > UINT32_MAX / %d)\n%s        return 1;\n"
           "%s    size_t n = %s.count * %d;\n",
        ind, ind, m, esz, ind, ind, m, esz);
    char in2[96];
    snprintf(in2, sizeof in2, "%s    ", ind);
    make_room(c, "n + 5", in2);
    out(c, "%s    p = codec_fory_put_varu64(p, n);\n%s    if (n)\n"
           "%s        memcpy(p, %s.items, n);\n%s    p += n;\n%s}\n",
        ind, ind, ind, m, ind, ind);
}

/* Reading a list (22) or map (24) field at lvalue `m`. */
static void read_container(codec_buf *c, const codec__gen_fory_field *f, const char *m,
                           const char *ind)
{
    char item[200], key[200];
    out(c, "%s{\n%s    uint32_t count;\n"
           "%s    if (!(p = codec_fory_get_varu32(p, end, &count)) || count > g->max_elements ||\n"
           "%s        count > (size_t)(end - p)%s)\n%s        return NULL;\n",
        ind, ind, ind, ind, f->tid == 24 ? " / 2" : "", ind);
    char inb[96];
    snprintf(inb, sizeof inb, "%s    ", ind);
    ind = inb;
    if (f->tid == 22) {
        out(c, "%sif (count) {\n", ind);
        if (f->val.tid == 27)
            out(c, "%s    uint32_t id;\n%s    if (*p++ != 0x%02x || p >= end || *p++ != 27 ||\n"
                   "%s        !(p = codec_fory_get_varu32(p, end, &id)) ||\n"
                   "%s        id != g->user_id(g->plan, &%s_type))\n%s        return NULL;\n",
                ind, ind, LIST_STRUCTS, ind, ind, f->val.cname, ind);
        else
            out(c, "%s    if (*p++ != 0x%02x)\n%s        return NULL;\n", ind, LIST_DECLARED, ind);
        out(c, "%s    if (!(%s.items = codec_arena_alloc(g->arena, (size_t)count * sizeof *%s.items, 0)))\n"
               "%s        return NULL;\n%s    memset(%s.items, 0, (size_t)count * sizeof *%s.items);\n"
               "%s    for (uint32_t i = 0; i < count; i++) {\n",
            ind, m, m, ind, ind, m, m, ind);
        snprintf(item, sizeof item, "%s.items[i]", m);
        char in2[128];
        snprintf(in2, sizeof in2, "%s        ", ind);
        fory_read(c, &f->val, item, in2);
        out(c, "%s    }\n%s}\n%s%s.count = count;\n%.*s}\n", ind, ind, ind, m,
            (int)strlen(ind) - 4, ind);
        return;
    }
    out(c, "%sif (!(%s.keys = codec_arena_alloc(g->arena, count ? (size_t)count * sizeof *%s.keys : 1, 0)) ||\n"
           "%s    !(%s.values = codec_arena_alloc(g->arena, count ? (size_t)count * sizeof *%s.values : 1, 0)))\n"
           "%s    return NULL;\n"
           "%smemset(%s.keys, 0, (size_t)count * sizeof *%s.keys);\n"
           "%smemset(%s.values, 0, (size_t)count * sizeof *%s.values);\n"
           "%sfor (uint32_t i = 0; i < count;) {\n"
           "%s    if (end - p < 2 || p[0] != 0x%02x || !p[1] || p[1] > count - i)\n"
           "%s        return NULL;\n"
           "%s    uint32_t stop = i + p[1];\n%s    p += 2;\n"
           "%s    for (; i < stop; i++) {\n",
        ind, m, m, ind, m, m, ind, ind, m, m, ind, m, m, ind, ind, MAP_DECLARED, ind, ind, ind,
        ind);
    char in2[128];
    snprintf(in2, sizeof in2, "%s        ", ind);
    snprintf(key, sizeof key, "%s.keys[i]", m);
    snprintf(item, sizeof item, "%s.values[i]", m);
    fory_read(c, &f->key, key, in2);
    fory_read(c, &f->val, item, in2);
    out(c, "%s    }\n%s}\n%s%s.count = count;\n%.*s}\n", ind, ind, ind, m, (int)strlen(ind) - 4,
        ind);
}

/* Writing a list (22) or map (24) field at lvalue `m`. */
static void write_container(codec_buf *c, const codec__gen_fory_field *f, const char *m,
                            const char *ind)
{
    char item[200], key[200], in2[96], in3[128], n[240];
    snprintf(in2, sizeof in2, "%s    ", ind);
    snprintf(in3, sizeof in3, "%s        ", ind);
    out(c, "%s{\n%s    size_t count = %s.count;\n"
           "%s    if (count > UINT32_MAX || count > SIZE_MAX / 16)\n%s        return 1;\n",
        ind, ind, m, ind, ind);
    if (f->tid == 22) {
        size_t w = room_of(&f->val);
        if (!sized(f->val.tid) && w)
            snprintf(n, sizeof n, "6 + count * %zu", w);
        else
            snprintf(n, sizeof n, "%d", f->val.tid == 27 ? 12 : 6);
        make_room(c, n, in2);
        out(c, "%s    p = codec_fory_put_varu64(p, count);\n%s    if (count) {\n", ind, ind);
        if (f->val.tid == 27)
            out(c, "%s        *p++ = 0x%02x;\n%s        *p++ = 27;\n"
                   "%s        p = codec_fory_put_varu64(p, g->user_id(g->plan, &%s_type));\n",
                ind, LIST_STRUCTS, ind, ind, f->val.cname);
        else
            out(c, "%s        *p++ = 0x%02x;\n", ind, LIST_DECLARED);
        out(c, "%s    }\n%s    for (size_t i = 0; i < count; i++) {\n", ind, ind);
        snprintf(item, sizeof item, "%s.items[i]", m);
        if (sized(f->val.tid)) {
            snprintf(n, sizeof n, "%s.len + 10", item);
            make_room(c, n, in3);
        }
        fory_write(c, &f->val, item, in3);
        out(c, "%s    }\n%s}\n", ind, ind);
        return;
    }
    make_room(c, "6", in2);
    out(c, "%s    p = codec_fory_put_varu64(p, count);\n"
           "%s    for (size_t i = 0; i < count;) {\n"
           "%s        size_t stop = count - i < 255 ? count : i + 255;\n",
        ind, ind, ind);
    make_room(c, "2", in3);
    out(c, "%s        *p++ = 0x%02x;\n%s        *p++ = (uint8_t)(stop - i);\n"
           "%s        for (; i < stop; i++) {\n",
        ind, MAP_DECLARED, ind, ind);
    char in4[160];
    snprintf(in4, sizeof in4, "%s            ", ind);
    snprintf(key, sizeof key, "%s.keys[i]", m);
    snprintf(item, sizeof item, "%s.values[i]", m);
    out(c, "%ssize_t need = %zu;\n", in4, room_of(&f->key) + room_of(&f->val));
    need_of(c, &f->key, key, in4);
    need_of(c, &f->val, item, in4);
    make_room(c, "need", in4);
    fory_write(c, &f->key, key, in4);
    fory_write(c, &f->val, item, in4);
    out(c, "%s        }\n%s    }\n%s}\n", ind, ind, ind);
}

static int fory_cmp(const void *a, const void *b)
{
    return fory_before(*(const codec__gen_fory_field *const *)a,
                       *(const codec__gen_fory_field *const *)b);
}

void codec__gen_specialize_fory_decl(codec_buf *c, const char *cname)
{
    out(c, "static const uint8_t *%s_fory_read_(const uint8_t *p, const uint8_t *end, %s *v,\n"
           "    codec_fory_gen_ctx *g);\n"
           "static int %s_fory_write_(codec_buf *out, uint8_t **pp, const %s *v,\n"
           "    const codec_fory_gen_ctx *g);\n",
        cname, cname, cname, cname);
}

static void emit_read(codec_buf *c, const char *cname, const codec__gen_fory_field *const *o,
                      size_t n)
{
    out(c, "static const uint8_t *%s_fory_read_(const uint8_t *p, const uint8_t *end, %s *v,\n"
           "    codec_fory_gen_ctx *g)\n{\n    uint32_t u;\n    uint64_t x;\n"
           "    (void)v, (void)u, (void)x, (void)g;\n",
        cname, cname);
    for (size_t i = 0; i < n; i++) {
        char dst[160];
        value_of(dst, sizeof dst, o[i]);
        const char *ind = "    ";
        if (o[i]->tid == TID_UNION) {   /* its own null flag */
            read_union(c, o[i], dst);
            continue;
        }
        if (o[i]->nullable) {
            out(c, "    if (p >= end)\n        return NULL;\n    if (*p++ != 0xfd) {   /* %s */\n"
                   "        if (p[-1] != 0xff)\n            return NULL;\n        v->%s.has = true;\n",
                o[i]->member, o[i]->member);
            ind = "        ";
        } else {
            out(c, "    /* %s */\n", o[i]->member);
        }
        if (o[i]->tid == 22 || o[i]->tid == 24)
            read_container(c, o[i], dst, ind);
        else if (is_array(o[i]->tid))
            read_array(c, o[i], dst, ind);
        else
            fory_read(c, &o[i]->val, dst, ind);
        if (o[i]->nullable)
            out(c, "    }\n");
    }
    out(c, "    return p;\n}\n\n");
}

static void emit_write(codec_buf *c, const char *cname, const codec__gen_fory_field *const *o,
                       size_t n)
{
    out(c, "static int %s_fory_write_(codec_buf *out, uint8_t **pp, const %s *v,\n"
           "    const codec_fory_gen_ctx *g)\n{\n    uint8_t *p = *pp;\n    size_t need;\n"
           "    int rc;\n    (void)v, (void)g, (void)need, (void)rc;\n",
        cname, cname);
    for (size_t i = 0; i < n;) {
        char src[160];
        if (!inline_field(o[i])) {   /* a struct, list or map: it makes its room */
            value_of(src, sizeof src, o[i]);
            if (o[i]->tid == TID_UNION) {   /* its own null flag */
                write_union(c, o[i], src);
                i++;
                continue;
            }
            const char *ind = "    ";
            if (o[i]->nullable) {
                make_room(c, "1", "    ");
                out(c, "    if (!v->%s.has) {\n        *p++ = 0xfd;\n    } else {\n"
                       "        *p++ = 0xff;\n", o[i]->member);
                ind = "        ";
            }
            if (o[i]->tid == 27)
                fory_write(c, &o[i]->val, src, ind);
            else if (is_array(o[i]->tid))
                write_array(c, o[i], src, ind);
            else
                write_container(c, o[i], src, ind);
            if (o[i]->nullable)
                out(c, "    }\n");
            i++;
            continue;
        }
        /* A run of scalars, strings and enums: the room for all of them at once. */
        size_t j = i, room = 0;
        for (; j < n && inline_field(o[j]); j++)
            room += 1 + room_of(&o[j]->val);
        out(c, "    need = %zu;\n", room);
        for (size_t k = i; k < j; k++) {
            if (!sized(o[k]->val.tid))
                continue;
            value_of(src, sizeof src, o[k]);
            if (o[k]->nullable)
                out(c, "    if (v->%s.has && (need += %s.len) < %s.len)\n"
                       "        return CODEC_E_NOMEM;\n", o[k]->member, src, src);
            else
                need_of(c, &o[k]->val, src, "    ");
        }
        make_room(c, "need", "    ");
        for (; i < j; i++) {
            value_of(src, sizeof src, o[i]);
            if (o[i]->nullable) {
                out(c, "    if (!v->%s.has) {\n        *p++ = 0xfd;\n    } else {\n"
                       "        *p++ = 0xff;\n", o[i]->member);
                fory_write(c, &o[i]->val, src, "        ");
                out(c, "    }\n");
            } else {
                fory_write(c, &o[i]->val, src, "    ");
            }
        }
    }
    out(c, "    *pp = p;\n    return 0;\n}\n\n");
}

bool codec__gen_specialize_fory(codec_buf *c, const char *cname, const codec__gen_fory_field *f,
                                size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const codec__gen_fory_field *x = &f[i];
        if (!x->tid || !x->val.tid || (x->tid == 24 && (!x->key.tid || x->key.tid == 27)))
            return false;
    }
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
        out(c, "%s%u", i ? ", " : "",   /* a union is nullable (`which` 0) */
            (unsigned)(o[i]->tid | (o[i]->nullable || o[i]->tid == TID_UNION ? 0x80 : 0)));
    out(c, "%s};\n\n", n ? "" : "0");
    emit_read(c, cname, o, n);
    emit_write(c, cname, o, n);
    out(c, "static int %s_fory_decode_(const uint8_t *p, const uint8_t *end, void *value,\n"
           "    codec_fory_gen_ctx *g)\n{\n"
           "    return (p = %s_fory_read_(p, end, value, g)) != NULL && p == end;\n}\n\n"
           "static int %s_fory_encode_(codec_buf *out, const void *value,\n"
           "    const codec_fory_gen_ctx *g)\n{\n    uint8_t *p = out->data + out->len;\n"
           "    int rc = %s_fory_write_(out, &p, value, g);\n"
           "    if (!rc)\n        out->len = (size_t)(p - out->data);\n    return rc;\n}\n\n"
           "static codec_fory_codegen %s_fory_codegen_ = {\n    .abi = CODEC_FORY_CODEGEN_ABI,\n"
           "    .count = %zu,\n    .order = %s_fory_order_,\n    .tids = %s_fory_tids_,\n"
           "    .decode = %s_fory_decode_,\n    .encode = %s_fory_encode_};\n\n",
        cname, cname, cname, cname, cname, n, cname, cname, cname, cname);
    free(o);
    return true;
}
