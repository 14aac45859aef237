/* test_fory.c — the Fory backend beyond the interop vectors: schemaless
 * values (Fory C++ bytes read as codec_value, round trips), schema
 * evolution in compatible mode (a reader with fewer and with more fields),
 * the schema hash, the spec form, tagged/fixed integers, and corruption. */
#include "check.h"
#include "codec/codec.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static size_t unhex(const char *s, uint8_t *out)
{
    size_t n = strlen(s) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(s + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
    return n;
}

static void schemaless(void)
{
    codec_error err;
    codec *f = codec_parse("fory", codec_value_type(), &err);
    codec *j = codec_json(codec_value_type(), NULL, &err);
    CHECK(f && j);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    /* Fory C++ payloads (from the interop vectors) read as schemaless values. */
    static const struct { const char *hex, *json; } cases[] = {
        {"01ff180300031515066116616c706861066212626574610ac3a702",
         "{\"a\":\"alpha\",\"b\":\"beta\",\"\xc3\xa7\":\"\"}"},
        {"01ff160308150678020ac3bc", "[\"x\",\"\",\"\xc3\xbc\"]"},
        {"01ff2e140000000001000000ffffffffffffff7f00000080", "[0,1,-1,2147483647,-2147483648]"},
        {"01ff154a48656c6c6f2c20466f72792120c3a9e4b8ad", "\"Hello, Fory! \xc3\xa9\xe4\xb8\xad\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t in[128];
        size_t n = unhex(cases[i].hex, in);
        codec_value v;
        CHECK_INT(codec_decode(f, in, n, &v, &arena, &err), 0);
        codec_buf text;
        codec_buf_init(&text, NULL);
        CHECK_INT(codec_encode(j, &v, &text, &err), 0);
        CHECK_MEM(text.data, text.len, cases[i].json, strlen(cases[i].json));
        codec_buf_free(&text);
    }
    /* JSON -> Fory -> JSON keeps every kind, nulls in lists and maps included. */
    const char *doc = "{\"a\":[1,2.5,\"x\",null,true,-7],\"b\":{\"c\":-3,\"d\":null,\"e\":\"f\"},"
                      "\"big\":18446744073709551615,\"s\":\"\"}";
    codec_value v, back;
    CHECK_INT(codec_decode(j, (const uint8_t *)doc, strlen(doc), &v, &arena, &err), 0);
    codec_buf bin, text;
    codec_buf_init(&bin, NULL);
    codec_buf_init(&text, NULL);
    CHECK_INT(codec_encode(f, &v, &bin, &err), 0);
    CHECK_INT(codec_decode(f, bin.data, bin.len, &back, &arena, &err), 0);
    CHECK_INT(codec_encode(j, &back, &text, &err), 0);
    CHECK_MEM(text.data, text.len, doc, strlen(doc));
    /* Truncation of the schemaless payload at every byte. */
    for (size_t cut = 0; cut < bin.len; cut++)
        CHECK(codec_decode(f, bin.data, cut, &back, &arena, &err) != 0);
    codec_buf_free(&bin);
    codec_buf_free(&text);
    codec_arena_free(&arena);
    codec_free(f);
    codec_free(j);
}

/* Version 1 and version 2 of one struct (same user id) for evolution. */
typedef struct v1 { int32_t id; codec_string name; } v1;
CODEC_STRUCT(v1_type, v1, CODEC_FIELD(v1, id, 1, CODEC_INT32), CODEC_FIELD(v1, name, 2, CODEC_STRING));
typedef struct inner { int32_t id; } inner;
CODEC_STRUCT(inner_type, inner, CODEC_FIELD(inner, id, 1, CODEC_INT32));
CODEC_LIST(tags_type, CODEC_STRING);
CODEC_LIST(inners_type, &inner_type);
CODEC_MAP(by_name_type, CODEC_STRING, &inner_type);
CODEC_MAP(scores_type, CODEC_STRING, CODEC_INT64);
CODEC_OPTIONAL(opt_i64_type, int64_t, CODEC_INT64);
typedef struct v2 {
    int32_t id; codec_string name; double weight; CODEC_LIST_OF(codec_string) tags;
    CODEC_MAP_OF(codec_string, int64_t) scores; CODEC_OPTIONAL_OF(int64_t) extra; inner in;
    int64_t tagged; uint32_t fixed; CODEC_LIST_OF(inner) ins;
    CODEC_MAP_OF(codec_string, inner) by_name;
} v2;
CODEC_STRUCT(v2_type, v2, CODEC_FIELD(v2, id, 1, CODEC_INT32),
             CODEC_FIELD(v2, name, 2, CODEC_STRING), CODEC_FIELD(v2, weight, 3, CODEC_DOUBLE),
             CODEC_FIELD(v2, tags, 4, &tags_type), CODEC_FIELD(v2, scores, 5, &scores_type),
             CODEC_FIELD(v2, extra, 6, &opt_i64_type), CODEC_FIELD(v2, in, 7, &inner_type),
             CODEC_FIELD_EX(v2, tagged, "tagged", 8, CODEC_INT64, CODEC_FIELD_TAGGED),
             CODEC_FIELD_EX(v2, fixed, "fixed", 9, CODEC_UINT32, CODEC_FIELD_FIXED),
             CODEC_FIELD(v2, ins, 10, &inners_type), CODEC_FIELD(v2, by_name, 11, &by_name_type));

/* A codec for `root` registered as `id` (inner_type as 201). */
static codec *make_as(const codec_type *root, uint32_t id, int mode, bool hash, bool ref)
{
    codec_fory_registry *r = codec_fory_registry_new(NULL);
    CHECK_INT(codec_fory_register(r, root, id, NULL), 0);
    CHECK_INT(codec_fory_register(r, &inner_type, 201, NULL), 0);
    codec_fory_options o = {.mode = mode ? CODEC_FORY_COMPATIBLE : CODEC_FORY_CONSISTENT,
                            .schema_hash = hash, .track_ref = ref};
    codec_error err;
    codec *c = codec_fory(r, root, &o, &err);
    codec_fory_registry_free(r);
    CHECK(c != NULL);
    return c;
}

static codec *make(const codec_type *root, int mode, bool hash)
{
    return make_as(root, 200, mode, hash, false);
}

/* A version-2 value with every field set. */
static v2 v2_big(void)
{
    static codec_string tags[] = {CODEC_STR("a"), CODEC_STR("b")};
    static codec_string keys[] = {CODEC_STR("k")};
    static int64_t vals[] = {-5};
    static inner ins[] = {{1}, {2}};
    return (v2){.id = 7, .name = CODEC_STR("seven"), .weight = 1.5, .tags = {tags, 2},
                .scores = {keys, vals, 1}, .extra = {true, 1ll << 40}, .in = {9},
                .tagged = -(1ll << 40), .fixed = 0xdeadbeef, .ins = {ins, 2},
                .by_name = {keys, ins, 1}};
}

static void evolution(void)
{
    codec *w2 = make(&v2_type, 1, false), *r1 = make(&v1_type, 1, false);
    v2 big = v2_big();
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    CHECK_INT(codec_encode(w2, &big, &out, &err), 0);
    /* An older reader skips the fields it lacks (list, map, optional, struct...). */
    v1 small;
    CHECK_INT(codec_decode(r1, out.data, out.len, &small, &arena, &err), 0);
    CHECK_INT(small.id, 7);
    CHECK_MEM(small.name.ptr, small.name.len, "seven", 5);
    /* A newer reader leaves what an older writer lacks zero / absent. */
    codec_buf old;
    codec_buf_init(&old, NULL);
    CHECK_INT(codec_encode(r1, &small, &old, &err), 0);
    v2 got;
    CHECK_INT(codec_decode(w2, old.data, old.len, &got, &arena, &err), 0);
    CHECK_INT(got.id, 7);
    CHECK(!got.extra.has && got.tags.count == 0 && got.weight == 0);
    /* Same schema: everything comes back, tagged and fixed integers included. */
    CHECK_INT(codec_decode(w2, out.data, out.len, &got, &arena, &err), 0);
    CHECK(got.extra.has && got.extra.value == 1ll << 40 && got.tagged == -(1ll << 40) &&
          got.fixed == 0xdeadbeef && got.scores.count == 1 && got.scores.values[0] == -5 &&
          got.in.id == 9 && got.ins.count == 2 && got.ins.items[1].id == 2 &&
          got.by_name.count == 1 && got.by_name.values[0].id == 1);
    /* Consistent mode with the schema hash: a different struct is refused. */
    codec *h2 = make(&v2_type, 0, true), *h1 = make(&v1_type, 0, true);
    codec_buf_clear(&out);
    CHECK_INT(codec_encode(h2, &big, &out, &err), 0);
    CHECK_INT(codec_decode(h2, out.data, out.len, &got, &arena, &err), 0);
    CHECK_INT(got.tagged, -(1ll << 40));
    CHECK_INT(codec_decode(h1, out.data, out.len, &small, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    /* Corruption: every single-byte change decodes or fails cleanly. */
    for (size_t i = 0; i < out.len; i++) {
        uint8_t saved = out.data[i];
        out.data[i] ^= 0xff;
        codec_arena_reset(&arena);
        int rc = codec_decode(h2, out.data, out.len, &got, &arena, &err);
        CHECK(rc == 0 || rc == CODEC_E_INVALID_PAYLOAD || rc == CODEC_E_UNSUPPORTED);
        out.data[i] = saved;
    }
    /* A huge declared count is refused before anything is allocated. */
    static const uint8_t huge[] = {0x01, 0xff, 0x16, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x08, 0x15};
    codec_error e2;
    codec *lst = codec_parse("fory", &tags_type, &e2);
    codec_list l;
    CHECK_INT(codec_decode(lst, huge, sizeof huge, &l, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strcmp(codec_spec(lst), "fory") == 0);
    codec_free(lst);
    codec_buf_free(&out);
    codec_buf_free(&old);
    codec_arena_free(&arena);
    codec_free(w2);
    codec_free(r1);
    codec_free(h2);
    codec_free(h1);
}

/* Version 2's field names with other types: a reader skips each of them. */
CODEC_LIST(other_tags_type, CODEC_INT64);
CODEC_MAP(other_scores_type, CODEC_STRING, CODEC_STRING);
CODEC_MAP(other_by_name_type, CODEC_INT32, &inner_type);
typedef struct v2_other {
    int32_t id; CODEC_LIST_OF(int64_t) tags; CODEC_MAP_OF(codec_string, codec_string) scores;
    CODEC_MAP_OF(int32_t, inner) by_name; codec_string weight;
} v2_other;
CODEC_STRUCT(v2_other_type, v2_other, CODEC_FIELD(v2_other, id, 1, CODEC_INT32),
             CODEC_FIELD(v2_other, tags, 4, &other_tags_type),
             CODEC_FIELD(v2_other, scores, 5, &other_scores_type),
             CODEC_FIELD(v2_other, by_name, 11, &other_by_name_type),
             CODEC_FIELD(v2_other, weight, 3, CODEC_STRING));

/* Compatible mode: a reader whose fields share v2's names but not their
 * types skips them; every byte of v2's TypeDef and value, changed, and
 * every truncation, decodes or fails cleanly for each reader. */
static void compatible_mismatch(void)
{
    codec *w2 = make(&v2_type, 1, false), *r1 = make(&v1_type, 1, false),
          *ro = make(&v2_other_type, 1, false);
    v2 big = v2_big();
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    CHECK_INT(codec_encode(w2, &big, &out, &err), 0);
    v2_other other;
    CHECK_INT(codec_decode(ro, out.data, out.len, &other, &arena, &err), 0);
    CHECK(other.id == 7 && other.tags.count == 0 && other.scores.count == 0 &&
          other.by_name.count == 0 && other.weight.len == 0);
    codec *readers[] = {w2, r1, ro};
    _Alignas(16) uint8_t value[sizeof(v2)];
    static const uint8_t masks[] = {0xff, 0x01, 0x80, 0x7c};
    int decoded = 0, failed = 0;
    for (size_t k = 0; k < 3; k++) {
        for (size_t i = 0; i < out.len; i++) {
            for (size_t m = 0; m < sizeof masks; m++) {
                out.data[i] ^= masks[m];
                codec_arena_reset(&arena);
                int rc = codec_decode(readers[k], out.data, out.len, value, &arena, &err);
                CHECK(rc == 0 || ((rc == CODEC_E_INVALID_PAYLOAD || rc == CODEC_E_UNSUPPORTED) &&
                                  err.offset <= out.len));
                rc ? failed++ : decoded++;
                out.data[i] ^= masks[m];
            }
        }
        for (size_t cut = 0; cut < out.len; cut++)
            CHECK_INT(codec_decode(readers[k], out.data, cut, value, &arena, &err),
                      CODEC_E_INVALID_PAYLOAD);
    }
    CHECK(decoded > 0 && failed > 0);
    codec_buf_free(&out);
    codec_arena_free(&arena);
    codec_free(w2);
    codec_free(r1);
    codec_free(ro);
}

static size_t allocations;
static void *count_alloc(void *ctx, size_t n)
{
    (void)ctx;
    allocations++;
    return malloc(n);
}
static void *count_resize(void *ctx, void *p, size_t old, size_t n)
{
    (void)ctx;
    (void)old;
    allocations++;
    return realloc(p, n);
}
static void count_release(void *ctx, void *p, size_t n)
{
    (void)ctx;
    (void)n;
    free(p);
}

/* 33 fields with long names: the TypeDef body passes 255 bytes (the size
 * goes on in a varuint32 after the header) and the field count passes 31. */
typedef struct wide {
    int8_t a_long_field_name_number_00;
    int8_t a_long_field_name_number_01;
    int8_t a_long_field_name_number_02;
    int8_t a_long_field_name_number_03;
    int8_t a_long_field_name_number_04;
    int8_t a_long_field_name_number_05;
    int8_t a_long_field_name_number_06;
    int8_t a_long_field_name_number_07;
    int8_t a_long_field_name_number_08;
    int8_t a_long_field_name_number_09;
    int8_t a_long_field_name_number_10;
    int8_t a_long_field_name_number_11;
    int8_t a_long_field_name_number_12;
    int8_t a_long_field_name_number_13;
    int8_t a_long_field_name_number_14;
    int8_t a_long_field_name_number_15;
    int8_t a_long_field_name_number_16;
    int8_t a_long_field_name_number_17;
    int8_t a_long_field_name_number_18;
    int8_t a_long_field_name_number_19;
    int8_t a_long_field_name_number_20;
    int8_t a_long_field_name_number_21;
    int8_t a_long_field_name_number_22;
    int8_t a_long_field_name_number_23;
    int8_t a_long_field_name_number_24;
    int8_t a_long_field_name_number_25;
    int8_t a_long_field_name_number_26;
    int8_t a_long_field_name_number_27;
    int8_t a_long_field_name_number_28;
    int8_t a_long_field_name_number_29;
    int8_t a_long_field_name_number_30;
    int8_t a_long_field_name_number_31;
    int8_t a_long_field_name_number_32;
} wide;
#define W(n) CODEC_FIELD(wide, a_long_field_name_number_##n, 1##n, CODEC_INT8)
CODEC_STRUCT(wide_type, wide, W(00), W(01), W(02), W(03), W(04), W(05), W(06), W(07), W(08), W(09), W(10), W(11), W(12), W(13), W(14), W(15), W(16), W(17), W(18), W(19), W(20), W(21), W(22), W(23), W(24), W(25), W(26), W(27), W(28), W(29), W(30), W(31), W(32));
#undef W

static void wide_typedef(void)
{
    codec *c = make(&wide_type, 1, false);
    wide w = {.a_long_field_name_number_32 = 7};
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    CHECK_INT(codec_encode(c, &w, &out, &err), 0);
    /* 01 ff 1c 00, header, varuint32(body - 255) in 2 bytes, body: 0xdf,
     * varuint32(33 - 31), user id 200. */
    const uint8_t *td = out.data + 4;
    uint64_t header = 0;
    for (int i = 0; i < 8; i++)
        header |= (uint64_t)td[i] << (8 * i);
    CHECK_INT(header & 0xfff, 0xff);
    CHECK(td[8] >= 0x80 && td[9] < 0x80);
    size_t body = 255 + (td[8] & 0x7fu) + ((size_t)td[9] << 7);
    CHECK_INT(td[10], 0xdf);
    CHECK_INT(td[11], 2);
    CHECK_MEM(td + 12, 2, "\xc8\x01", 2);
    CHECK_INT(out.len, 4 + 10 + body + 33);
    /* The hash bits as computed by an independent implementation (Python,
     * the script that reproduces every TypeDef header of the vectors). */
    CHECK(header == 0x76a3a467946150ffull);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    wide back;
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
    CHECK_INT(back.a_long_field_name_number_32, 7);
    /* A compressed TypeDef (header bit 8) and one that is not a struct's
     * are refused. */
    out.data[5] |= 0x01;
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), CODEC_E_UNSUPPORTED);
    out.data[5] &= 0xfe;
    out.data[14] = 0x1f;
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), CODEC_E_UNSUPPORTED);
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
}

/* Hostile bytes on the decoder's fast paths (primitives read without
 * per-field checks, strings carved from the pool), from Fory C++'s Person:
 * 01 00 1b 64, active 01, age 48 (36), email 3e "ada@example.com",
 * name 32 "Ada Lovelace". */
typedef struct person { codec_string name; int32_t age; bool active; codec_string email; } person;
CODEC_STRUCT(person_type, person, CODEC_FIELD(person, name, 1, CODEC_STRING),
             CODEC_FIELD(person, age, 2, CODEC_INT32), CODEC_FIELD(person, active, 3, CODEC_BOOL),
             CODEC_FIELD(person, email, 4, CODEC_STRING));

/* Person's evolution in compatible mode. The writer's own TypeDef and type
 * info are copied from the plan and, when a reader finds them byte for byte
 * at the root, it reads the fields in local order; any other TypeDef (fields
 * removed, added, retyped, or the same fields with other hash bits) is
 * matched by name. Both must give the same values. */
typedef struct person_less { codec_string email, name; } person_less;
CODEC_STRUCT(person_less_type, person_less, CODEC_FIELD(person_less, email, 4, CODEC_STRING),
             CODEC_FIELD(person_less, name, 1, CODEC_STRING));
CODEC_OPTIONAL(opt_str_type, codec_string, CODEC_STRING);
typedef struct person_more {
    CODEC_OPTIONAL_OF(codec_string) nick; bool active; codec_string email; double score;
    int32_t age; codec_string name; CODEC_OPTIONAL_OF(codec_string) alias;
} person_more;
CODEC_STRUCT(person_more_type, person_more, CODEC_FIELD(person_more, nick, 5, &opt_str_type),
             CODEC_FIELD(person_more, active, 3, CODEC_BOOL),
             CODEC_FIELD(person_more, email, 4, CODEC_STRING),
             CODEC_FIELD(person_more, score, 6, CODEC_DOUBLE),
             CODEC_FIELD(person_more, age, 2, CODEC_INT32),
             CODEC_FIELD(person_more, name, 1, CODEC_STRING),
             CODEC_FIELD(person_more, alias, 7, &opt_str_type));
typedef struct person_retyped { codec_string name, age; bool active; codec_string email; } person_retyped;
CODEC_STRUCT(person_retyped_type, person_retyped, CODEC_FIELD(person_retyped, name, 1, CODEC_STRING),
             CODEC_FIELD(person_retyped, age, 2, CODEC_STRING),
             CODEC_FIELD(person_retyped, active, 3, CODEC_BOOL),
             CODEC_FIELD(person_retyped, email, 4, CODEC_STRING));

static codec *make_id100(const codec_type *t, int mode, bool ref)
{
    return make_as(t, 100, mode, false, ref);
}

static void person_evolution(void)
{
    codec *w = make_id100(&person_type, 1, false), *less = make_id100(&person_less_type, 1, false),
          *more = make_id100(&person_more_type, 1, false),
          *retyped = make_id100(&person_retyped_type, 1, false);
    person ada = {CODEC_STR("Ada Lovelace"), 36, true, CODEC_STR("ada@example.com")}, p;
    codec_buf out, again;
    codec_buf_init(&out, NULL);
    codec_buf_init(&again, NULL);
    codec_error err;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    CHECK_INT(codec_encode(w, &ada, &out, &err), 0);
    CHECK_INT(out.len, 66);   /* Fory C++'s person_ada without ref: see the vectors */
    /* Fields removed: the reader skips age and active. */
    person_less pl;
    CHECK_INT(codec_decode(less, out.data, out.len, &pl, &arena, &err), 0);
    CHECK_MEM(pl.name.ptr, pl.name.len, "Ada Lovelace", 12);
    CHECK_MEM(pl.email.ptr, pl.email.len, "ada@example.com", 15);
    /* ... and its own message leaves them zero for the full reader. */
    CHECK_INT(codec_encode(less, &pl, &again, &err), 0);
    memset(&p, 0x55, sizeof p);
    CHECK_INT(codec_decode(w, again.data, again.len, &p, &arena, &err), 0);
    CHECK(p.age == 0 && !p.active && p.name.len == 12 && p.email.len == 15);
    /* Fields added (optional strings, a double), declared in another order. */
    person_more pm;
    memset(&pm, 0x55, sizeof pm);
    CHECK_INT(codec_decode(more, out.data, out.len, &pm, &arena, &err), 0);
    CHECK(!pm.nick.has && !pm.alias.has && pm.score == 0 && pm.age == 36 && pm.active);
    CHECK_MEM(pm.name.ptr, pm.name.len, "Ada Lovelace", 12);
    pm.nick.has = true;
    pm.nick.value = CODEC_STR("AL");
    pm.score = 2.5;
    codec_buf_clear(&again);
    CHECK_INT(codec_encode(more, &pm, &again, &err), 0);
    CHECK_INT(codec_decode(w, again.data, again.len, &p, &arena, &err), 0);
    CHECK(p.age == 36 && p.active);
    CHECK_MEM(p.email.ptr, p.email.len, "ada@example.com", 15);
    /* The wider struct against itself (its own fast path): optionals kept. */
    person_more pm2;
    CHECK_INT(codec_decode(more, again.data, again.len, &pm2, &arena, &err), 0);
    CHECK(pm2.nick.has && !pm2.alias.has && pm2.score == 2.5);
    CHECK_MEM(pm2.nick.value.ptr, pm2.nick.value.len, "AL", 2);
    /* Same name, another type: skipped, the rest read. */
    person_retyped pr;
    CHECK_INT(codec_decode(retyped, out.data, out.len, &pr, &arena, &err), 0);
    CHECK(pr.age.len == 0 && pr.active);
    CHECK_MEM(pr.name.ptr, pr.name.len, "Ada Lovelace", 12);
    /* The same TypeDef with other hash bits (another Fory version's) takes
     * the by-name path and reads the same value; so does a ref flag 00. */
    codec_buf_clear(&again);
    CHECK_INT(codec_buf_append(&again, out.data, out.len), 0);
    again.data[7] ^= 0x5a;   /* header bits 24-31: hash */
    again.data[1] = 0x00;
    memset(&p, 0, sizeof p);
    CHECK_INT(codec_decode(w, again.data, again.len, &p, &arena, &err), 0);
    CHECK(p.age == 36 && p.active);
    CHECK_MEM(p.name.ptr, p.name.len, "Ada Lovelace", 12);
    CHECK_MEM(p.email.ptr, p.email.len, "ada@example.com", 15);
    /* A byte after the value, and every truncation, are refused. */
    CHECK_INT(codec_buf_append(&out, "", 1), 0);
    CHECK_INT(codec_decode(w, out.data, out.len, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRAILING);
    CHECK_INT(err.offset, 66);
    for (size_t cut = 0; cut < out.len - 1; cut++)
        CHECK_INT(codec_decode(w, out.data, cut, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_buf_free(&again);
    codec_free(w);
    codec_free(less);
    codec_free(more);
    codec_free(retyped);
}

/* TypeDefs of other writers are kept parsed (at most 8 per codec): each
 * decode of a message whose TypeDef was seen before must give what the
 * first gave, past the cache's size too, and from several threads at once;
 * what follows a known TypeDef is still checked. */
typedef struct foreign_job {
    codec *c;
    const uint8_t *in;
    size_t n;
    int bad;
} foreign_job;

/* Decodes job->in 200 times; counts the decodes that fail or differ. */
static void *foreign_decodes(void *arg)
{
    foreign_job *j = arg;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (int i = 0; i < 200; i++) {
        person p;
        codec_arena_reset(&arena);
        if (codec_decode(j->c, j->in, j->n, &p, &arena, NULL) != 0 || p.age != 36 || !p.active ||
            p.name.len != 12 || memcmp(p.name.ptr, "Ada Lovelace", 12) != 0 ||
            p.email.len != 15 || memcmp(p.email.ptr, "ada@example.com", 15) != 0)
            j->bad++;
    }
    codec_arena_free(&arena);
    return NULL;
}

static void foreign_typedefs(void)
{
    codec *w = make_id100(&person_type, 1, false);
    person ada = {CODEC_STR("Ada Lovelace"), 36, true, CODEC_STR("ada@example.com")};
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    CHECK_INT(codec_encode(w, &ada, &out, &err), 0);
    /* 12 TypeDefs that differ only in their hash bits (header byte 7):
     * more than the cache holds. */
    enum { KINDS = 12 };
    uint8_t msgs[KINDS][66];
    CHECK_INT(out.len, sizeof msgs[0]);
    for (int k = 0; k < KINDS; k++) {
        memcpy(msgs[k], out.data, out.len);
        msgs[k][7] ^= (uint8_t)(k + 1);
    }
    foreign_job jobs[4];
    pthread_t t[4];
    for (int round = 0; round < 2; round++) {   /* first fills the cache, then reads it */
        for (int i = 0; i < 4; i++) {
            jobs[i] = (foreign_job){w, msgs[(i * 5 + round) % KINDS], sizeof msgs[0], 0};
            CHECK_INT(pthread_create(&t[i], NULL, foreign_decodes, &jobs[i]), 0);
        }
        for (int i = 0; i < 4; i++) {
            pthread_join(t[i], NULL);
            CHECK_INT(jobs[i].bad, 0);
        }
    }
    for (int k = 0; k < KINDS; k++) {
        foreign_job j = {w, msgs[k], sizeof msgs[0], 0};
        foreign_decodes(&j);
        CHECK_INT(j.bad, 0);
    }
    /* Writers of three other versions, read in turn: each known TypeDef
     * must give its own mapping. */
    codec *wl = make_id100(&person_less_type, 1, false), *wm = make_id100(&person_more_type, 1, false),
          *wr = make_id100(&person_retyped_type, 1, false);
    person_less pl = {CODEC_STR("l@x"), CODEC_STR("Less")};
    person_more pm = {.active = true, .email = CODEC_STR("m@x"), .score = 1, .age = 7,
                      .name = CODEC_STR("More")};
    person_retyped pr = {CODEC_STR("Re"), CODEC_STR("forty"), true, CODEC_STR("r@x")};
    codec_buf vl, vm, vr;
    codec_buf_init(&vl, NULL);
    codec_buf_init(&vm, NULL);
    codec_buf_init(&vr, NULL);
    CHECK_INT(codec_encode(wl, &pl, &vl, &err), 0);
    CHECK_INT(codec_encode(wm, &pm, &vm, &err), 0);
    CHECK_INT(codec_encode(wr, &pr, &vr, &err), 0);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    person p;
    for (int round = 0; round < 3; round++) {
        CHECK_INT(codec_decode(w, vl.data, vl.len, &p, &arena, &err), 0);
        CHECK(p.age == 0 && !p.active);
        CHECK_MEM(p.name.ptr, p.name.len, "Less", 4);
        CHECK_INT(codec_decode(w, vm.data, vm.len, &p, &arena, &err), 0);
        CHECK(p.age == 7 && p.active);
        CHECK_MEM(p.email.ptr, p.email.len, "m@x", 3);
        CHECK_INT(codec_decode(w, vr.data, vr.len, &p, &arena, &err), 0);
        CHECK(p.age == 0 && p.active);
        CHECK_MEM(p.name.ptr, p.name.len, "Re", 2);
    }
    codec_buf_free(&vl);
    codec_buf_free(&vm);
    codec_buf_free(&vr);
    codec_free(wl);
    codec_free(wm);
    codec_free(wr);
    /* A known TypeDef does not vouch for what follows it: bool 2, a
     * string past the end, a truncation, a trailing byte. */
    uint8_t bad[67];
    memcpy(bad, msgs[3], 66);
    bad[35] = 2;   /* active: after 01 ff 1c 00 and the 31-byte TypeDef */
    CHECK_INT(codec_decode(w, bad, 66, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    memcpy(bad, msgs[3], 66);
    bad[37] = 0x7e;   /* email (after age): 31 bytes */
    CHECK_INT(codec_decode(w, bad, 66, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(codec_decode(w, msgs[3], 65, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    memcpy(bad, msgs[3], 66);
    bad[66] = 0;
    CHECK_INT(codec_decode(w, bad, 67, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRAILING);
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(w);
}

/* Optional strings in a struct of primitives and strings (written in one
 * reservation): null flags in both modes, with and without ref. */
static void flat_optionals(void)
{
    for (int k = 0; k < 4; k++) {
        codec *c = make_id100(&person_more_type, k & 1, k >> 1);
        person_more v = {.nick = {true, CODEC_STR("n")}, .email = CODEC_STR(""), .age = -1,
                         .name = CODEC_STR("a name of more than thirty-two bytes, surely")},
                    back;
        codec_buf out;
        codec_buf_init(&out, NULL);
        codec_error err;
        codec_arena arena;
        codec_arena_init(&arena, NULL, 0);
        CHECK_INT(codec_encode(c, &v, &out, &err), 0);
        CHECK_INT(out.data[1], k >> 1 ? 0x00 : 0xff);
        /* group 3 by name: alias (null), email, name, nick (ff 06 'n') */
        CHECK_MEM(out.data + out.len - 3, 3, "\xff\x06n", 3);
        CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
        CHECK(back.nick.has && !back.alias.has && back.age == -1 && back.email.len == 0);
        CHECK_MEM(back.name.ptr, back.name.len, v.name.ptr, v.name.len);
        /* null flag 0x01 for nick: refused (the offset is just past the
         * flag, as for every flag of the fields after the primitives) */
        out.data[out.len - 3] = 0x01;
        CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), CODEC_E_INVALID_PAYLOAD);
        CHECK_INT(err.offset, out.len - 2);
        codec_arena_free(&arena);
        codec_buf_free(&out);
        codec_free(c);
    }
}

/* Enums whose numbers are not their ordinals take the general path. */
CODEC_ENUM(sparse_type, {"LOW", 10}, {"HIGH", 20});
CODEC_ENUM(dense_type, {"A", 0}, {"B", 1}, {"C", 2});
typedef struct enums { int32_t sparse, dense; } enums;
CODEC_STRUCT(enums_type, enums, CODEC_FIELD(enums, sparse, 1, &sparse_type),
             CODEC_FIELD(enums, dense, 2, &dense_type));

static void enum_ordinals(void)
{
    for (int mode = 0; mode < 2; mode++) {
        codec_fory_registry *r = codec_fory_registry_new(NULL);
        CHECK_INT(codec_fory_register(r, &enums_type, 100, NULL), 0);
        codec_fory_options o = {.mode = mode ? CODEC_FORY_COMPATIBLE : CODEC_FORY_CONSISTENT};
        codec_error err;
        codec *c = codec_fory(r, &enums_type, &o, &err);
        codec_fory_registry_free(r);
        enums v = {.sparse = 20, .dense = 2}, back;
        codec_buf out;
        codec_buf_init(&out, NULL);
        CHECK_INT(codec_encode(c, &v, &out, &err), 0);
        /* fields by name: dense (ordinal 2), sparse (ordinal 1) */
        CHECK_MEM(out.data + out.len - 2, 2, "\x02\x01", 2);
        codec_arena arena;
        codec_arena_init(&arena, NULL, 0);
        CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
        CHECK_INT(back.sparse, 20);
        CHECK_INT(back.dense, 2);
        out.data[out.len - 2] = 3;   /* ordinal out of range */
        CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), CODEC_E_INVALID_PAYLOAD);
        out.data[out.len - 2] = 2;
        out.data[out.len - 1] = 2;
        CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), CODEC_E_INVALID_PAYLOAD);
        v.dense = 3;   /* not one of its values */
        CHECK_INT(codec_encode(c, &v, &out, &err), CODEC_E_INVALID_VALUE);
        codec_arena_free(&arena);
        codec_buf_free(&out);
        codec_free(c);
    }
}

static void fast_paths(void)
{
    static const char ada[] = "01001b6401483e616461406578616d706c652e636f6d32416461204c6f76656c616365";
    codec_fory_registry *r = codec_fory_registry_new(NULL);
    CHECK_INT(codec_fory_register(r, &person_type, 100, NULL), 0);
    codec_error err;
    codec *c = codec_fory(r, &person_type, NULL, &err);
    codec_fory_registry_free(r);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    uint8_t in[64], bad[80];
    size_t n = unhex(ada, in);
    person p;
    CHECK_INT(codec_decode(c, in, n, &p, &arena, &err), 0);
    CHECK_INT(p.age, 36);
    CHECK_MEM(p.email.ptr, p.email.len, "ada@example.com", 15);
    /* bool 2 */
    memcpy(bad, in, n);
    bad[4] = 2;
    CHECK_INT(codec_decode(c, bad, n, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 4);
    /* age as a 5-byte varint whose last byte overflows 32 bits */
    memcpy(bad, in, 5);
    memcpy(bad + 5, "\x80\x80\x80\x80\x10", 5);
    memcpy(bad + 10, in + 6, n - 6);
    CHECK_INT(codec_decode(c, bad, n + 4, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 5);
    /* invalid UTF-8 in the email, and a valid two-byte character */
    memcpy(bad, in, n);
    bad[8] = 0xff;
    CHECK_INT(codec_decode(c, bad, n, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 6);
    bad[7] = 0xc3;
    bad[8] = 0xa9;
    CHECK_INT(codec_decode(c, bad, n, &p, &arena, &err), 0);
    CHECK_MEM(p.email.ptr, 3, "\xc3\xa9" "a", 3);
    /* a two-byte string header (length 40) past the end */
    memcpy(bad, in, 6);
    bad[6] = 0xa2;
    bad[7] = 0x01;
    memcpy(bad + 8, in + 7, n - 7);
    CHECK_INT(codec_decode(c, bad, n + 1, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 6);
    /* empty strings, the first one before the pool exists */
    static const uint8_t empty[] = {0x01, 0xff, 0x1b, 0x64, 0x00, 0x00, 0x02, 0x02};
    CHECK_INT(codec_decode(c, empty, sizeof empty, &p, &arena, &err), 0);
    CHECK(p.email.len == 0 && p.name.len == 0);
    codec_arena_free(&arena);
    codec_free(c);
}

/* Once the buffer has grown, encoding allocates nothing (both modes). */
static void steady_state(void)
{
    codec_allocator counting = {count_alloc, count_resize, count_release, NULL};
    codec_string tags[] = {CODEC_STR("a"), CODEC_STR("b")};
    v2 big = {.id = 1, .name = CODEC_STR("n"), .tags = {tags, 2}, .in = {3}};
    for (int mode = 0; mode < 2; mode++) {
        codec *c = make(&v2_type, mode, false);
        codec_buf out;
        codec_buf_init(&out, &counting);
        codec_error err;
        CHECK_INT(codec_encode(c, &big, &out, &err), 0);
        size_t first = out.len, before = allocations;
        codec_buf_clear(&out);
        CHECK_INT(codec_encode(c, &big, &out, &err), 0);
        CHECK_INT(allocations, before);
        CHECK_INT(out.len, first);
        codec_buf_free(&out);
        codec_free(c);
    }
}

static void spec_form(void)
{
    codec_error err;
    codec *c = codec_parse("fory:compatible,ref=on,max-depth=8", &v2_type, &err);
    CHECK(c != NULL);
    codec_free(c);
    CHECK(codec_parse("fory:sideways", &v2_type, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
}

int main(void)
{
    schemaless();
    evolution();
    compatible_mismatch();
    steady_state();
    wide_typedef();
    fast_paths();
    person_evolution();
    foreign_typedefs();
    flat_optionals();
    enum_ordinals();
    spec_form();
    return check_done("fory");
}
