/* binary_checks.h — checks shared by the CBOR and MessagePack unit tests,
 * each run against a backend spec ("cbor", "msgpack:structs=array", ...):
 * Person/Order round trips, a struct with every kind, random codec_values,
 * truncation at every byte, hostile lengths, and allocation-free steady
 * state. Include after check.h. */
#ifndef CODEC_TEST_BINARY_CHECKS_H
#define CODEC_TEST_BINARY_CHECKS_H

#include <float.h>
#include <math.h>

#include "cents_xmap.h"
#include "json_payloads.h"
#include "nomem_checks.h"
#include "value_util.h"

static codec_arena bc_arena;

static inline codec *bc_codec(const char *spec, const codec_type *t)
{
    codec_error err;
    codec *c = codec_parse(spec, t, &err);
    if (!c)
        fprintf(stderr, "%s: %s\n", spec, err.message);
    CHECK(c != NULL);
    return c;
}

/* Decodes hex into a person with `spec`: the status, *p and err filled. */
static inline int bc_person_from(const char *spec, const char *hex, person *p, codec_error *err)
{
    uint8_t in[256];
    long n = vu_hex(hex, strlen(hex), in, sizeof in);
    codec *c = bc_codec(spec, &person_type);
    int rc = codec_decode(c, in, (size_t)n, p, &bc_arena, err);
    codec_free(c);
    return rc;
}

/* A field name longer than the plans' fixed-size key copy (41 bytes). */
typedef struct long_key {
    int32_t a, b;
} long_key;
CODEC_STRUCT(long_key_type, long_key,
             CODEC_FIELD_EX(long_key, a, "a_field_name_longer_than_thirty_two_bytes", 1,
                            CODEC_INT32, 0),
             CODEC_FIELD(long_key, b, 2, CODEC_INT32));

static inline bool bc_same_string(codec_string a, codec_string b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* c encodes v to exactly the bytes in hex. */
static inline void bc_check_bytes(const char *spec, const codec_type *t, const void *v,
                                  const char *hex)
{
    codec *c = bc_codec(spec, t);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    uint8_t want[512];
    long n = vu_hex(hex, strlen(hex), want, sizeof want);
    CHECK_INT(codec_encode(c, v, &out, &err), 0);
    CHECK_MEM(out.data, out.len, want, (size_t)n);
    codec_buf_free(&out);
    codec_free(c);
}

/* Every kind in one struct. */
typedef enum color { RED = 1, GREEN = 2, BLUE = -7 } color;
CODEC_ENUM(color_type, {"RED", RED}, {"GREEN", GREEN}, {"BLUE", BLUE});
typedef struct every {
    bool b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f;
    double d;
    codec_string s;
    codec_bytes raw;
    int32_t color;
    CODEC_LIST_OF(int64_t) ids;
    CODEC_MAP_OF(int32_t, codec_string) names;
    CODEC_OPTIONAL_OF(double) maybe;
    CODEC_OPTIONAL_OF(int32_t) absent;
    codec_uuid id;
    codec_date day;
    codec_timestamp at;
    codec_timestamp at_local;
    codec_string big;
    codec_string frac;
    codec_value any;
} every;
CODEC_LIST(bc_ids_type, CODEC_INT64);
CODEC_MAP(bc_names_type, CODEC_INT32, CODEC_STRING);
CODEC_OPTIONAL(bc_maybe_type, double, CODEC_DOUBLE);
CODEC_OPTIONAL(bc_absent_type, int32_t, CODEC_INT32);
CODEC_STRUCT(every_type, every,
             CODEC_FIELD(every, b, 1, CODEC_BOOL), CODEC_FIELD(every, i8, 2, CODEC_INT8),
             CODEC_FIELD(every, i16, 3, CODEC_INT16), CODEC_FIELD(every, i32, 4, CODEC_INT32),
             CODEC_FIELD(every, i64, 5, CODEC_INT64), CODEC_FIELD(every, u8, 6, CODEC_UINT8),
             CODEC_FIELD(every, u16, 7, CODEC_UINT16), CODEC_FIELD(every, u32, 8, CODEC_UINT32),
             CODEC_FIELD(every, u64, 9, CODEC_UINT64), CODEC_FIELD(every, f, 10, CODEC_FLOAT),
             CODEC_FIELD(every, d, 11, CODEC_DOUBLE), CODEC_FIELD(every, s, 12, CODEC_STRING),
             CODEC_FIELD(every, raw, 13, CODEC_BYTES),
             CODEC_FIELD(every, color, 14, &color_type),
             CODEC_FIELD(every, ids, 15, &bc_ids_type),
             CODEC_FIELD(every, names, 16, &bc_names_type),
             CODEC_FIELD(every, maybe, 17, &bc_maybe_type),
             CODEC_FIELD(every, absent, 18, &bc_absent_type),
             CODEC_FIELD(every, id, 19, CODEC_UUID), CODEC_FIELD(every, day, 20, CODEC_DATE),
             CODEC_FIELD(every, at, 21, CODEC_TIMESTAMP),
             CODEC_FIELD(every, at_local, 22, CODEC_TIMESTAMP),
             CODEC_FIELD(every, big, 23, CODEC_DECIMAL),
             CODEC_FIELD(every, frac, 24, CODEC_DECIMAL),
             CODEC_FIELD(every, any, 25, CODEC_VALUE));

static inline every bc_every(void)
{
    static int64_t ids[] = {0, -1, INT64_MIN, INT64_MAX, 1 << 20};
    static int32_t keys[] = {3, -4};
    static codec_string names[] = {CODEC_STR("three"), CODEC_STR("min\xc3\xbas")};
    static const uint8_t raw[] = {0, 1, 2, 0xff};
    static codec_member members[] = {{CODEC_STR("k"), {.kind = CODEC_V_INT, .as.i = -5}}};
    every e = {true, -128, -32768, INT32_MIN, INT64_MIN, 255, 65535, UINT32_MAX, UINT64_MAX,
               0.1f, 1.1, CODEC_STR("h\xc3\xa9llo"), {raw, 4}, BLUE, {ids, 5},
               {keys, names, 2}, {true, 2.5}, {false, 0},
               {{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 1, 2, 3, 4, 5, 6, 7, 8}},
               {-719162}, {1700000000, 0, 0}, {1700000000, 123456789, 330},
               CODEC_STR("-123456789012345678901234567890"), CODEC_STR("273.15"),
               {.kind = CODEC_V_OBJECT, .as.object = {members, 1}}};
    return e;
}

/* keeps_offset: the format carries the UTC offset of a timestamp. */
static inline void bc_check_every(const every *a, const every *b, bool keeps_offset)
{
    CHECK(a->b == b->b && a->i8 == b->i8 && a->i16 == b->i16 && a->i32 == b->i32 &&
          a->i64 == b->i64 && a->u8 == b->u8 && a->u16 == b->u16 && a->u32 == b->u32 &&
          a->u64 == b->u64 && a->f == b->f && a->d == b->d && a->color == b->color);
    CHECK(bc_same_string(a->s, b->s));
    CHECK_MEM(a->raw.data, a->raw.len, b->raw.data, b->raw.len);
    CHECK_MEM(a->ids.items, a->ids.count * 8, b->ids.items, b->ids.count * 8);
    CHECK_INT(b->names.count, 2);
    CHECK(b->names.count == 2 && b->names.keys[1] == -4 &&
          bc_same_string(a->names.values[1], b->names.values[1]));
    CHECK(b->maybe.has && b->maybe.value == 2.5 && !b->absent.has);
    CHECK_MEM(a->id.bytes, 16, b->id.bytes, 16);
    CHECK_INT(b->day.days, a->day.days);
    CHECK(b->at.seconds == a->at.seconds && b->at.nanos == 0);
    CHECK(b->at_local.seconds == a->at_local.seconds && b->at_local.nanos == 123456789 &&
          b->at_local.offset_minutes == (keeps_offset ? 330 : 0));
    CHECK(bc_same_string(a->big, b->big));
    /* 273.15 is written as 27315 x 10^-2 and read back as that text. */
    char frac[32];
    snprintf(frac, sizeof frac, "%.*s", (int)b->frac.len, b->frac.ptr ? b->frac.ptr : "");
    CHECK(b->frac.len > 0 && strtod(frac, NULL) == 273.15);
    CHECK(vu_equal(&a->any, &b->any));
}

/* The planned decoder's list bounds for format fmt: `huge` is an Order
 * whose items head declares more items than bytes remain, `one` an Order
 * with one item; the first is truncated and the second, with max-depth=1,
 * too deep, both reported at the head's byte (7) before anything is
 * allocated or read. */
static inline void bc_check_list_bounds(const char *fmt, const uint8_t *huge, size_t huge_n,
                                        const uint8_t *one, size_t one_n)
{
    char spec[64];
    snprintf(spec, sizeof spec, "%s:max-depth=1", fmt);
    codec *oc = bc_codec(fmt, &order_type), *shallow = bc_codec(spec, &order_type);
    order o;
    codec_error err;
    CHECK_INT(codec_decode(oc, huge, huge_n, &o, &bc_arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRUNCATED);
    CHECK_INT(err.offset, 7);
    CHECK_INT(codec_decode(shallow, one, one_n, &o, &bc_arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK_INT(err.offset, 7);
    codec_free(oc);
    codec_free(shallow);
}

/* Encodes v with c and decodes it into back (arena bc_arena). */
static inline int bc_round(const codec *c, const void *v, void *back, codec_buf *out)
{
    codec_error err;
    codec_buf_clear(out);
    int rc = codec_encode(c, v, out, &err);
    if (!rc)
        rc = codec_decode(c, out->data, out->len, back, &bc_arena, &err);
    if (rc)
        fprintf(stderr, "%s: %s\n", codec_spec(c), err.message);
    return rc;
}

static inline void bc_check_typed(const char *spec, bool keeps_offset)
{
    codec *pc = bc_codec(spec, &person_type), *oc = bc_codec(spec, &order_type),
          *ec = bc_codec(spec, &every_type);
    codec_buf out;
    codec_buf_init(&out, NULL);
    person p = payload_person(), pb;
    CHECK_INT(bc_round(pc, &p, &pb, &out), 0);
    CHECK(bc_same_string(p.name, pb.name) && p.age == pb.age && p.active == pb.active &&
          bc_same_string(p.email, pb.email));
    line_item items[100];
    char text[100 * 64];
    order o = payload_order(items, text), ob;
    CHECK_INT(bc_round(oc, &o, &ob, &out), 0);
    CHECK_INT(ob.items.count, 100);
    bool same = bc_same_string(o.id, ob.id) && o.paid == ob.paid;
    for (size_t i = 0; i < 100 && ob.items.count == 100; i++)
        same = same && bc_same_string(items[i].sku, ob.items.items[i].sku) &&
               bc_same_string(items[i].description, ob.items.items[i].description) &&
               items[i].quantity == ob.items.items[i].quantity &&
               items[i].unit_price == ob.items.items[i].unit_price;
    CHECK(same);
    every e = bc_every(), eb;
    CHECK_INT(bc_round(ec, &e, &eb, &out), 0);
    bc_check_every(&e, &eb, keeps_offset);
    /* A recursive type (the plans share one table per struct type). */
    codec *nc = bc_codec(spec, &node_type);
    node leaves[2] = {{2, {NULL, 0}}, {3, {NULL, 0}}}, mid = {1, {leaves, 2}}, root = {0, {&mid, 1}},
         nb;
    CHECK_INT(bc_round(nc, &root, &nb, &out), 0);
    CHECK(nb.value == 0 && nb.children.count == 1 && nb.children.items[0].value == 1 &&
          nb.children.items[0].children.count == 2 &&
          nb.children.items[0].children.items[1].value == 3 &&
          nb.children.items[0].children.items[1].children.count == 0);
    codec_free(nc);
    codec_buf_free(&out);
    codec_free(pc);
    codec_free(oc);
    codec_free(ec);
}

/* ---------------------------------------------------------------------------
 * Random values
 * ------------------------------------------------------------------------ */

static inline double bc_random_double(uint64_t *rng)
{
    static const double special[] = {0.0, -0.0, 5e-324, 2.2250738585072014e-308, DBL_MAX,
                                     -DBL_MAX, 1.5, 65504.0, 100000.0, 0.1, INFINITY,
                                     -INFINITY, 5.960464477539063e-08, 3.4028234663852886e+38};
    uint64_t r = check_rand(rng);
    if (r % 2)
        return special[(r >> 8) % (sizeof special / sizeof special[0])];
    double d;
    uint64_t bits = check_rand(rng);
    memcpy(&d, &bits, 8);
    return isnan(d) ? 2.0 : d;
}

static inline codec_string bc_random_text(uint64_t *rng, size_t salt)
{
    static const char *const parts[] = {"a", "\"", "\xc3\xa9", "\xe2\x82\xac",
                                        "\xf0\x9f\x98\x80", "\x01", "key", "\xef\xbf\xbf"};
    size_t n = check_rand(rng) % 40;
    char *p = codec_arena_alloc(&bc_arena, n * 4 + 24, 1), *q = p;
    q += sprintf(q, "%zu", salt);   /* keeps object keys unique */
    for (size_t i = 0; i < n; i++) {
        const char *part = parts[check_rand(rng) % 8];
        memcpy(q, part, strlen(part));
        q += strlen(part);
    }
    return (codec_string){p, (size_t)(q - p)};
}

static inline void bc_random_value(codec_value *v, uint64_t *rng, int depth)
{
    uint64_t r = check_rand(rng);
    memset(v, 0, sizeof *v);
    switch (depth > 3 ? r % 7 : r % 9) {
    case 0: break;
    case 1: v->kind = CODEC_V_BOOL, v->as.b = r >> 10 & 1; break;
    case 2: v->kind = CODEC_V_INT, v->as.i = (int64_t)check_rand(rng) >> (r >> 10) % 64; break;
    case 3: v->kind = CODEC_V_UINT, v->as.u = (uint64_t)INT64_MAX + 1 + (check_rand(rng) >> 1); break;
    case 4: v->kind = CODEC_V_DOUBLE, v->as.d = bc_random_double(rng); break;
    case 5: v->kind = CODEC_V_STRING, v->as.s = bc_random_text(rng, 0); break;
    case 6: {
        size_t n = check_rand(rng) % 300;
        uint8_t *p = codec_arena_alloc(&bc_arena, n + 1, 1);
        for (size_t i = 0; i < n; i++)
            p[i] = (uint8_t)check_rand(rng);
        v->kind = CODEC_V_BYTES, v->as.bytes = (codec_bytes){p, n};
        break;
    }
    case 7: {
        size_t n = r >> 20 & 7;
        v->kind = CODEC_V_ARRAY;
        v->as.array.items = codec_arena_alloc(&bc_arena, (n + 1) * sizeof(codec_value), 0);
        v->as.array.count = n;
        for (size_t i = 0; i < n; i++)
            bc_random_value(&v->as.array.items[i], rng, depth + 1);
        break;
    }
    default: {
        size_t n = r >> 20 & 7;
        v->kind = CODEC_V_OBJECT;
        v->as.object.members = codec_arena_alloc(&bc_arena, (n + 1) * sizeof(codec_member), 0);
        v->as.object.count = n;
        for (size_t i = 0; i < n; i++) {
            v->as.object.members[i].key = bc_random_text(rng, i);
            bc_random_value(&v->as.object.members[i].value, rng, depth + 1);
        }
    }
    }
}

/* Random values round trip; every proper prefix of each encoding fails
 * with an invalid-payload error (truncation at every byte). */
static inline void bc_check_random(const char *spec, int rounds)
{
    codec *c = bc_codec(spec, codec_value_type());
    codec_buf out;
    codec_buf_init(&out, NULL);
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    int bad = 0, truncated_ok = 0, truncated = 0;
    for (int i = 0; i < rounds; i++) {
        codec_value v, back;
        codec_arena_reset(&bc_arena);
        bc_random_value(&v, &rng, 0);
        if (bc_round(c, &v, &back, &out) || !vu_equal(&v, &back))
            bad++;
        for (size_t cut = 0; cut < out.len && i < 40; cut++) {
            codec_error err;
            truncated++;
            truncated_ok += codec_decode(c, out.data, cut, &back, &bc_arena, &err) ==
                                CODEC_E_INVALID_PAYLOAD;
        }
    }
    CHECK_INT(bad, 0);
    CHECK_INT(truncated_ok, truncated);
    CHECK(truncated > 100);
    /* Typed truncation too: Order at every byte. */
    codec *oc = bc_codec(spec, &order_type);
    line_item items[100];
    char text[100 * 64];
    order o = payload_order(items, text), ob;
    codec_error err;
    codec_buf_clear(&out);
    CHECK_INT(codec_encode(oc, &o, &out, &err), 0);
    int fails = 0;
    for (size_t cut = 0; cut < out.len; cut++)
        fails += codec_decode(oc, out.data, cut, &ob, &bc_arena, &err) == CODEC_E_INVALID_PAYLOAD;
    CHECK_INT(fails, (long long)out.len);
    codec_buf_free(&out);
    codec_free(c);
    codec_free(oc);
}

/* ---------------------------------------------------------------------------
 * Allocation-free steady state
 * ------------------------------------------------------------------------ */

typedef struct bc_counts {
    size_t calls;
} bc_counts;
static inline void *bc_alloc(void *ctx, size_t n)
{
    ((bc_counts *)ctx)->calls++;
    return malloc(n);
}
static inline void *bc_resize(void *ctx, void *p, size_t old, size_t n)
{
    (void)old;
    ((bc_counts *)ctx)->calls++;
    return realloc(p, n);
}
static inline void bc_release(void *ctx, void *p, size_t n)
{
    (void)ctx, (void)n;
    free(p);
}

/* value_too: the typed encoding also decodes as a codec_value (not so for
 * integer struct keys). */
static inline void bc_check_no_alloc(const char *spec, bool value_too)
{
    bc_counts n = {0};
    codec_allocator a = {bc_alloc, bc_resize, bc_release, &n};
    codec *c = bc_codec(spec, &order_type), *vc = bc_codec(spec, codec_value_type());
    line_item items[100];
    char text[100 * 64];
    order o = payload_order(items, text), back;
    codec_value v;
    codec_buf out, vout;
    codec_buf_init(&out, &a);
    codec_buf_init(&vout, &a);
    codec_arena arena;
    codec_arena_init(&arena, &a, 0);
    codec_error err;
    size_t before = 0;
    for (int round = 0; round < 20; round++) {
        if (round == 3)
            before = n.calls;
        codec_arena_reset(&arena);
        codec_buf_clear(&out);
        codec_buf_clear(&vout);
        CHECK_INT(codec_encode(c, &o, &out, &err), 0);
        CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
        if (value_too) {
            CHECK_INT(codec_decode(vc, out.data, out.len, &v, &arena, &err), 0);
            CHECK_INT(codec_encode(vc, &v, &vout, &err), 0);
        }
    }
    CHECK_INT(n.calls, before);
    CHECK_INT(back.items.count, 100);
    codec_buf_free(&out);
    codec_buf_free(&vout);
    codec_arena_free(&arena);
    codec_free(c);
    codec_free(vc);
}

/* Decodes the bytes with spec into a codec_value: the status, and the
 * error detail in *detail. */
static inline int bc_decode_value(const char *spec, const uint8_t *in, size_t n, int *detail)
{
    codec *c = bc_codec(spec, codec_value_type());
    codec_value v;
    codec_error err = {0};
    size_t used = codec_arena_used(&bc_arena);
    int rc = codec_decode(c, in, n, &v, &bc_arena, &err);
    /* Hostile lengths are refused before anything big is allocated. */
    CHECK(codec_arena_used(&bc_arena) - used < 4096 + n * 64);
    *detail = err.detail;
    codec_free(c);
    return rc;
}

/* Out of memory at each allocation of a decode (nomem_checks.h): an every,
 * an Order of 100 items and a random value; each fails with CODEC_E_NOMEM
 * at least once before it fits. */
static inline void bc_check_nomem(const char *spec)
{
    codec *ec = bc_codec(spec, &every_type), *oc = bc_codec(spec, &order_type),
          *vc = bc_codec(spec, codec_value_type());
    every e = bc_every();
    CHECK(nomem_check_value(ec, &e, sizeof e) > 0);
    line_item items[100];
    char text[100 * 64];
    order o = payload_order(items, text);
    CHECK(nomem_check_value(oc, &o, sizeof o) > 0);
    uint64_t rng = 0x2545F4914F6CDD1Dull;
    for (int i = 0; i < 8; i++) {
        codec_value v;
        bc_random_value(&v, &rng, 0);
        CHECK(nomem_check_value(vc, &v, sizeof v) >= 0);
    }
    codec_free(ec);
    codec_free(oc);
    codec_free(vc);
}

/* ---------------------------------------------------------------------------
 * Other forms: items the planned decoder leaves to the generic walker
 * (numbers of another kind, tags, names, text dates, adapters, wrong kinds),
 * each with the value it decodes to (rendered as text) or its error.
 * ------------------------------------------------------------------------ */

CODEC_LIST(bc_cents_list_type, &bc_cents_type);

typedef struct bc_form {
    const codec_type *t;
    const char *hex;
    int status;        /* 0, or the family of the error */
    int detail;        /* its detail */
    const char *want;  /* on success: the value as bc_render writes it */
} bc_form;

/* The decoded value as text: numbers, decimals, times, dates, enums, cents,
 * strings, and a list's or map's count. */
static inline void bc_render(const codec_type *t, const void *v, char *out, size_t cap)
{
    switch (t->kind) {
    case CODEC_T_BOOL: snprintf(out, cap, "%s", *(const bool *)v ? "true" : "false"); break;
    case CODEC_T_INT8: snprintf(out, cap, "%d", *(const int8_t *)v); break;
    case CODEC_T_INT32:
    case CODEC_T_ENUM: snprintf(out, cap, "%d", *(const int32_t *)v); break;
    case CODEC_T_INT64: snprintf(out, cap, "%lld", (long long)*(const int64_t *)v); break;
    case CODEC_T_UINT64: snprintf(out, cap, "%llu", (unsigned long long)*(const uint64_t *)v); break;
    case CODEC_T_FLOAT: snprintf(out, cap, "%.9g", *(const float *)v); break;
    case CODEC_T_DOUBLE: snprintf(out, cap, "%.17g", *(const double *)v); break;
    case CODEC_T_DATE: snprintf(out, cap, "%d", ((const codec_date *)v)->days); break;
    case CODEC_T_TIMESTAMP: {
        const codec_timestamp *ts = v;
        snprintf(out, cap, "%lld.%09d", (long long)ts->seconds, ts->nanos);
        break;
    }
    case CODEC_T_XMAP: snprintf(out, cap, "%lld", (long long)((const bc_cents *)v)->v); break;
    case CODEC_T_LIST: snprintf(out, cap, "[%zu]", ((const codec_list *)v)->count); break;
    case CODEC_T_MAP: snprintf(out, cap, "{%zu}", ((const codec_map *)v)->count); break;
    default: {   /* STRING, BYTES, DECIMAL */
        const codec_string *s = v;
        snprintf(out, cap, "%.*s", (int)s->len, s->ptr ? s->ptr : "");
    }
    }
}

static inline void bc_check_forms(const char *spec, const bc_form *forms, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const bc_form *f = &forms[i];
        codec *c = bc_codec(spec, f->t);
        uint8_t in[600];
        long len = vu_hex(f->hex, strlen(f->hex), in, sizeof in);
        _Alignas(16) uint8_t value[256] = {0};
        codec_error err = {0};
        int rc = codec_decode(c, in, (size_t)len, value, &bc_arena, &err);
        char got[128] = "";
        if (rc == CODEC_OK)
            bc_render(f->t, value, got, sizeof got);
        if (rc != f->status || (rc && (int)err.detail != f->detail) ||
            (!rc && strcmp(got, f->want) != 0) || (rc && err.offset > (size_t)len))
            fprintf(stderr, "%s %s: status %d detail %d (%s) value '%s'\n", spec, f->hex, rc,
                    (int)err.detail, rc ? err.message : "", got);
        CHECK_INT(rc, f->status);
        if (rc) {
            CHECK_INT(err.detail, f->detail);
            CHECK(err.offset <= (size_t)len);
        } else {
            CHECK_STR(got, f->want);
        }
        codec_free(c);
    }
}

#endif
