/* test_cbor.c — the CBOR backend: exact bytes of Person in both key modes,
 * shortest floats, deterministic order, every kind, random values, bignums
 * and decimals, tags, truncation at every byte, hostile lengths, limits,
 * options, and allocation-free steady state. */
#include "check.h"
#include "binary_checks.h"

static void test_person_bytes(void)
{
    person p = payload_person();
    bc_check_bytes("cbor", &person_type, &p,
                "a4646e616d656c416461204c6f76656c61636563616765182466616374697665f5"
                "65656d61696c6f616461406578616d706c652e636f6d");
    bc_check_bytes("cbor:keys=tags", &person_type, &p,
                "a4016c416461204c6f76656c616365021824"
                "03f5046f616461406578616d706c652e636f6d");
    /* Deterministic: keys sorted by their encoding (shorter first). */
    bc_check_bytes("cbor:deterministic", &person_type, &p,
                "a4636167651824646e616d656c416461204c6f76656c61636565656d61696c6f616461"
                "406578616d706c652e636f6d66616374697665f5");
}

static void test_floats(void)
{
    static const struct {
        double d;
        const char *hex;
    } cases[] = {{1.5, "f93e00"},  {-0.0, "f98000"}, {65504.0, "f97bff"},
                 {100000.0, "fa47c35000"}, {1.1, "fb3ff199999999999a"},
                 {5.960464477539063e-08, "f90001"}, {INFINITY, "f97c00"},
                 {NAN, "f97e00"}, {3.4028234663852886e+38, "fa7f7fffff"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        bc_check_bytes("cbor", CODEC_DOUBLE, &cases[i].d, cases[i].hex);
    float f = 0.1f;
    bc_check_bytes("cbor", CODEC_FLOAT, &f, "fa3dcccccd");
    /* Half, single and double all decode into a float field. */
    codec *c = bc_codec("cbor", CODEC_FLOAT);
    codec_error err;
    static const uint8_t half[] = {0xf9, 0x3c, 0x00}, dbl[] = {0xfb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0},
                         big[] = {0xfb, 0x7f, 0xef, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    CHECK(!codec_decode(c, half, 3, &f, &bc_arena, &err) && f == 1.0f);
    CHECK(!codec_decode(c, dbl, 9, &f, &bc_arena, &err) && f == 1.5f);
    CHECK_INT(codec_decode(c, big, 9, &f, &bc_arena, &err), CODEC_E_INVALID_PAYLOAD);
    codec_free(c);
}

static void test_kinds_bytes(void)
{
    every e = bc_every();
    bc_check_bytes("cbor", CODEC_UUID, &e.id, "d825501234567" "89abcdef00102030405060708");
    bc_check_bytes("cbor", CODEC_DATE, &e.day, "d8643a000af939");
    bc_check_bytes("cbor", CODEC_TIMESTAMP, &e.at, "c11a6553f100");
    bc_check_bytes("cbor", CODEC_TIMESTAMP, &e.at_local,
                "c07823323032332d31312d31355430333a34333a32302e3132333435363738392b30353a3330");
    bc_check_bytes("cbor", CODEC_DECIMAL, &e.frac, "c48221196ab3");
    codec_string big = CODEC_STR("18446744073709551616");
    bc_check_bytes("cbor", CODEC_DECIMAL, &big, "c249010000000000000000");
    codec_string neg = CODEC_STR("-18446744073709551617");
    bc_check_bytes("cbor", CODEC_DECIMAL, &neg, "c349010000000000000000");
    int32_t color = BLUE;
    bc_check_bytes("cbor", &color_type, &color, "26");
}

static void test_decode_policies(void)
{
    codec_error err;
    codec *pc = bc_codec("cbor", &person_type), *strict = bc_codec("cbor:unknown=reject", &person_type),
          *req = bc_codec("cbor:require=all", &person_type);
    person p;
    /* {"zz": [1], 2: 9, 7: h''}: unknown text and integer keys skipped;
     * integer key 2 is the tag of age (accepted in either key mode). */
    static const uint8_t unk[] = {0xa3, 0x62, 'z', 'z', 0x81, 0x01, 0x02, 0x09, 0x07, 0x40};
    CHECK(!codec_decode(pc, unk, sizeof unk, &p, &bc_arena, &err) && p.age == 9);
    CHECK_INT(codec_decode(strict, unk, sizeof unk, &p, &bc_arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(codec_decode(req, unk, sizeof unk, &p, &bc_arena, &err), CODEC_E_INVALID_PAYLOAD);
    static const uint8_t dup[] = {0xa2, 0x63, 'a', 'g', 'e', 0x07, 0x02, 0x09};
    CHECK_INT(codec_decode(pc, dup, sizeof dup, &p, &bc_arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_CORRUPT);
    /* Indefinite map with an indefinite text key and chunked value. */
    static const uint8_t indef[] = {0xbf, 0x7f, 0x62, 'n', 'a', 0x62, 'm', 'e', 0xff,
                                    0x7f, 0x61, 'A', 0x62, 'd', 'a', 0xff, 0xff};
    CHECK(!codec_decode(pc, indef, sizeof indef, &p, &bc_arena, &err) &&
          bc_same_string(p.name, CODEC_STR("Ada")));
    /* Out of range for the field: never wrapped. */
    static const uint8_t age_big[] = {0xa1, 0x63, 'a', 'g', 'e', 0x1a, 0x80, 0, 0, 0};
    CHECK_INT(codec_decode(pc, age_big, sizeof age_big, &p, &bc_arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    /* Invalid UTF-8 in a text string. */
    static const uint8_t bad_utf8[] = {0xa1, 0x64, 'n', 'a', 'm', 'e', 0x61, 0xff};
    CHECK_INT(codec_decode(pc, bad_utf8, sizeof bad_utf8, &p, &bc_arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 6);
    /* Trailing bytes. */
    static const uint8_t trailing[] = {0xa0, 0x00};
    CHECK_INT(codec_decode(pc, trailing, 2, &p, &bc_arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRAILING);
    /* A bignum beyond 64 bits into an int64 field or a codec_value. */
    static const uint8_t bn[] = {0xc2, 0x49, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    int64_t i64;
    codec *ic = bc_codec("cbor", CODEC_INT64);
    CHECK_INT(codec_decode(ic, bn, sizeof bn, &i64, &bc_arena, &err), CODEC_E_INVALID_PAYLOAD);
    static const uint8_t bn_small[] = {0xc3, 0x42, 0x01, 0x00};
    CHECK(!codec_decode(ic, bn_small, sizeof bn_small, &i64, &bc_arena, &err) && i64 == -257);
    int detail;
    CHECK_INT(bc_decode_value("cbor", bn, sizeof bn, &detail), CODEC_E_INVALID_PAYLOAD);
    /* Invalid values refuse to encode. */
    codec_string bad = {"\xc3", 1};
    codec *sc = bc_codec("cbor", CODEC_STRING);
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(codec_encode(sc, &bad, &out, &err), CODEC_E_INVALID_VALUE);
    CHECK_INT(out.len, 0);
    codec_buf_free(&out);
    codec_free(sc);
    codec_free(ic);
    codec_free(pc);
    codec_free(strict);
    codec_free(req);
}

static void test_hostile(void)
{
    int detail;
    /* Declared lengths far beyond the input: refused before allocation. */
    static const uint8_t huge_bytes[] = {0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    static const uint8_t huge_array[] = {0x9b, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    static const uint8_t huge_map[] = {0xba, 0x10, 0, 0, 0, 0xa0, 0xa0};
    CHECK_INT(bc_decode_value("cbor", huge_bytes, sizeof huge_bytes, &detail),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(detail, CODEC_D_TRUNCATED);
    CHECK_INT(bc_decode_value("cbor", huge_array, sizeof huge_array, &detail),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("cbor", huge_map, sizeof huge_map, &detail),
              CODEC_E_INVALID_PAYLOAD);
    codec *oc = bc_codec("cbor", &order_type);
    order o;
    codec_error err;
    static const uint8_t huge_items[] = {0xa1, 0x65, 'i', 't', 'e', 'm', 's',
                                         0x9b, 0, 0, 0, 0, 0x10, 0, 0, 0};
    CHECK_INT(codec_decode(oc, huge_items, sizeof huge_items, &o, &bc_arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    codec_free(oc);
    /* Depth: 200 nested arrays, and 200 nested tags. */
    uint8_t deep[201];
    memset(deep, 0x81, 200);
    deep[200] = 0x00;
    CHECK_INT(bc_decode_value("cbor", deep, sizeof deep, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(detail, CODEC_D_LIMIT);
    CHECK_INT(bc_decode_value("cbor:max-depth=300", deep, sizeof deep, &detail), 0);
    memset(deep, 0xc6, 200);
    CHECK_INT(bc_decode_value("cbor", deep, sizeof deep, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(detail, CODEC_D_LIMIT);
    static const uint8_t three[] = {0x83, 1, 2, 3}, indef3[] = {0x9f, 1, 2, 3, 0xff};
    CHECK_INT(bc_decode_value("cbor:max-elements=2", three, 4, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("cbor:max-elements=2", indef3, 5, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(detail, CODEC_D_LIMIT);
    static const uint8_t str[] = {0x7f, 0x62, 'a', 'b', 0x62, 'c', 'd', 0xff};
    CHECK_INT(bc_decode_value("cbor:max-string=3", str, sizeof str, &detail),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("cbor:max-string=4", str, sizeof str, &detail), 0);
    CHECK_INT(bc_decode_value("cbor:max-size=3", three, 4, &detail), CODEC_E_INVALID_PAYLOAD);
    /* Not well-formed: reserved info, break outside, a nested indefinite chunk. */
    static const uint8_t reserved[] = {0x1c}, brk[] = {0xff},
                         nested[] = {0x5f, 0x5f, 0xff, 0xff}, odd_map[] = {0xbf, 0x61, 'a', 0xff};
    CHECK_INT(bc_decode_value("cbor", reserved, 1, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("cbor", brk, 1, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("cbor", nested, 4, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("cbor", odd_map, 4, &detail), CODEC_E_INVALID_PAYLOAD);
    /* codec_value has no form for these. */
    static const uint8_t undef[] = {0xf7}, intkey[] = {0xa1, 0x01, 0x02};
    CHECK_INT(bc_decode_value("cbor", undef, 1, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("cbor", intkey, 3, &detail), CODEC_E_INVALID_PAYLOAD);
}

static void test_deterministic_values(void)
{
    /* The same members in two orders encode identically when deterministic. */
    codec_member ab[] = {{CODEC_STR("bb"), {.kind = CODEC_V_INT, .as.i = 1}},
                         {CODEC_STR("a"), {.kind = CODEC_V_INT, .as.i = 2}},
                         {CODEC_STR("c"), {.kind = CODEC_V_INT, .as.i = 3}}};
    codec_member ba[] = {ab[2], ab[0], ab[1]};
    codec_value x = {.kind = CODEC_V_OBJECT, .as.object = {ab, 3}};
    codec_value y = {.kind = CODEC_V_OBJECT, .as.object = {ba, 3}};
    bc_check_bytes("cbor:deterministic", codec_value_type(), &x, "a361610261630362626201");
    bc_check_bytes("cbor:deterministic", codec_value_type(), &y, "a361610261630362626201");
    bc_check_bytes("cbor", codec_value_type(), &y, "a361630362626201616102");
}

/* Text keys in deterministic order: shorter first, then bytewise. */
static bool keys_sorted(const codec_value *v)
{
    for (size_t i = 1; i < v->as.object.count; i++) {
        codec_string a = v->as.object.members[i - 1].key, b = v->as.object.members[i].key;
        if (a.len > b.len || (a.len == b.len && memcmp(a.ptr, b.ptr, a.len) > 0))
            return false;
    }
    return true;
}

static void test_deterministic_large(void)
{
    /* 40 members (the qsort path) and 9 (the insertion path), shuffled. */
    static const size_t sizes[] = {40, 9};
    codec *det = bc_codec("cbor:deterministic", codec_value_type());
    codec_buf out;
    codec_buf_init(&out, NULL);
    uint64_t rng = 77;
    for (size_t s = 0; s < 2; s++) {
        codec_member m[40];
        char keys[40][8];
        for (size_t i = 0; i < sizes[s]; i++) {
            int n = snprintf(keys[i], sizeof keys[i], "%c%u", 'a' + (int)(check_rand(&rng) % 26),
                             (unsigned)(i * 7919 % 1000));
            m[i].key = (codec_string){keys[i], (size_t)n};
            m[i].value = (codec_value){.kind = CODEC_V_INT, .as.i = (int64_t)i};
        }
        codec_value v = {.kind = CODEC_V_OBJECT, .as.object = {m, sizes[s]}}, back;
        CHECK_INT(bc_round(det, &v, &back, &out), 0);
        CHECK(back.kind == CODEC_V_OBJECT && back.as.object.count == sizes[s] && keys_sorted(&back));
        CHECK(vu_equal(&v, &back));
    }
    codec_buf_free(&out);
    codec_free(det);
}

/* The planned decoder reads definite, untagged items in their usual forms
 * inline and hands every other form, and every failure, to the generic
 * reader: values and error offsets must be the generic reader's. */
static void test_planned_decode(void)
{
    person p;
    codec_error err;
    /* Keys out of order, age as a 64-bit head, a self-described name, an
     * unknown key, an indefinite email: all accepted. */
    CHECK_INT(bc_person_from("cbor",
                          "a566616374697665f5636167651b0000000000000024" "65636f6c6f7263726564"
                          "646e616d65d9d9f763416461" "65656d61696c7f61616162ff", &p, &err), 0);
    CHECK(p.active && p.age == 36 && bc_same_string(p.name, CODEC_STR("Ada")) &&
          bc_same_string(p.email, CODEC_STR("ab")));
    /* A text longer than what is left: truncated, at its head. */
    CHECK_INT(bc_person_from("cbor", "a2646e616d657820414243", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRUNCATED);
    CHECK_INT(err.offset, 6);
    /* Bad UTF-8, an out-of-range number, a wrong type: at the value's head. */
    CHECK_INT(bc_person_from("cbor", "a1646e616d6562c328", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 6);
    CHECK_INT(bc_person_from("cbor", "a1636167651b0000000100000000", &p, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK_INT(err.offset, 5);
    CHECK_INT(bc_person_from("cbor", "a16661637469766561", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 8);
    /* A repeated field (at its second key), allowed with duplicates=allow. */
    CHECK_INT(bc_person_from("cbor", "a263616765016361676502", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 6);
    CHECK_INT(bc_person_from("cbor:duplicates=allow", "a263616765016361676502", &p, &err), 0);
    CHECK_INT(p.age, 2);
    /* require=all names the first missing field, at the map's head. */
    CHECK_INT(bc_person_from("cbor:require=all", "a16361676501", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 0);
    CHECK(strstr(err.message, "'name'") != NULL);
    /* A definite list head in its usual form that declares more items than
     * bytes remain, and nesting past max-depth: refused before anything is
     * allocated or read. */
    static const uint8_t huge[] = {0xa1, 0x65, 'i', 't', 'e', 'm', 's', 0x9a, 0x10, 0, 0, 0, 0x80};
    static const uint8_t one[] = {0xa1, 0x65, 'i', 't', 'e', 'm', 's', 0x81, 0xa0};
    bc_check_list_bounds("cbor", huge, sizeof huge, one, sizeof one);
}

/* Structs in deterministic mode: fields in the bytewise order of their
 * encoded keys (what Python's cbor2.dumps writes for the same dict with
 * its keys in that order), by name and by tag. */
static void test_deterministic_struct(void)
{
    person p = payload_person();
    bc_check_bytes("cbor:deterministic", &person_type, &p,
                   "a4636167651824646e616d656c416461204c6f76656c61636565656d61696c6f61646140"
                   "6578616d706c652e636f6d66616374697665f5");
    bc_check_bytes("cbor:deterministic,keys=tags", &person_type, &p,
                   "a4016c416461204c6f76656c61636502182403f5046f616461406578616d706c652e636f6d");
    long_key k = {1, -2}, back;
    bc_check_bytes("cbor", &long_key_type, &k,
                   "a27829615f6669656c645f6e616d655f6c6f6e6765725f7468616e5f7468697274795f74776f"
                   "5f627974657301616221");
    bc_check_bytes("cbor:deterministic", &long_key_type, &k,
                   "a2616221" "7829615f6669656c645f6e616d655f6c6f6e6765725f7468616e5f7468697274"
                   "795f74776f5f627974657301");
    codec *c = bc_codec("cbor", &long_key_type);
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(bc_round(c, &k, &back, &out), 0);
    CHECK(back.a == 1 && back.b == -2);
    codec_buf_free(&out);
    codec_free(c);
}

static void test_diagnose(void)
{
    static const uint8_t in[] = {0xa2, 0x61, 'a', 0x82, 0x01, 0xf9, 0x3e, 0x00, 0x01,
                                 0xc1, 0x3a, 0x00, 0x00, 0x00, 0x01};
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    CHECK_INT(codec_cbor_diagnose(in, sizeof in, &out, &err), 0);
    CHECK_MEM(out.data, out.len, "{\"a\": [1, 1.5], 1: 1(-2)}", 25u);
    size_t len = out.len;
    CHECK_INT(codec_cbor_diagnose(in, sizeof in - 1, &out, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(out.len, len);
    codec_buf_free(&out);
}

static void test_constructor(void)
{
    codec_error err;
    codec_cbor_options o = {.deterministic = true, .tag_keys = true, .max_depth = 7};
    codec *c = codec_cbor(&person_type, &o, &err), *d = codec_cbor(&person_type, NULL, &err);
    CHECK(c && d);
    CHECK_STR(codec_spec(c), "cbor:deterministic,keys=tags,max-depth=7");
    CHECK_STR(codec_spec(d), "cbor");
    codec_free(c);
    codec_free(d);
    CHECK(codec_parse("cbor:keys=bogus", &person_type, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK(codec_parse("cbor:max-depth=5000", &person_type, &err) == NULL);
}

/* Items in forms the planned decoder hands to the generic walker. */
CODEC_MAP(cbor_names_type, CODEC_INT32, CODEC_STRING);
static void test_other_forms(void)
{
    enum { P = CODEC_E_INVALID_PAYLOAD, CORRUPT = CODEC_D_CORRUPT, LIMIT = CODEC_D_LIMIT };
    static const bc_form forms[] = {
        /* Numbers: integers into floats, bignums into integers. */
        {CODEC_DOUBLE, "03", 0, 0, "3"},
        {CODEC_DOUBLE, "21", 0, 0, "-2"},
        {CODEC_DOUBLE, "6161", P, CORRUPT, NULL},
        {CODEC_FLOAT, "fb7e37e43c8800759c", P, LIMIT, NULL},
        {CODEC_INT64, "c24101", 0, 0, "1"},
        {CODEC_INT64, "c3420100", 0, 0, "-257"},
        {CODEC_INT64, "c249010000000000000000", P, LIMIT, NULL},
        {CODEC_INT64, "c26161", P, CORRUPT, NULL},
        {CODEC_INT64, "6161", P, CORRUPT, NULL},
        {CODEC_INT8, "190100", P, LIMIT, NULL},
        /* Decimals: floats, fractions with a bignum mantissa, bounds. */
        {CODEC_DECIMAL, "f93e00", 0, 0, "1.5"},
        {CODEC_DECIMAL, "f97e00", P, CORRUPT, NULL},
        {CODEC_DECIMAL, "c48221c24105", 0, 0, "5e-2"},
        {CODEC_DECIMAL, "c48301020f", P, CORRUPT, NULL},
        {CODEC_DECIMAL, "c4821bffffffffffffffff01", P, LIMIT, NULL},
        {CODEC_DECIMAL, "c482616101", P, CORRUPT, NULL},
        {CODEC_DECIMAL, "c2590201" /* a bignum of 513 bytes */
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "0101010101010101010101010101010101010101010101010101010101010101"
                        "01", P, LIMIT, NULL},
        {CODEC_DECIMAL, "6161", P, CORRUPT, NULL},
        /* Timestamps: epoch numbers of every kind, their bounds, other tags. */
        {CODEC_TIMESTAMP, "f93e00", 0, 0, "1.500000000"},
        {CODEC_TIMESTAMP, "20", 0, 0, "-1.000000000"},
        {CODEC_TIMESTAMP, "c11bffffffffffffffff", P, LIMIT, NULL},
        {CODEC_TIMESTAMP, "fb7e37e43c8800759c", P, LIMIT, NULL},
        {CODEC_TIMESTAMP, "c501", P, CORRUPT, NULL},
        {CODEC_TIMESTAMP, "4100", P, CORRUPT, NULL},
        {CODEC_TIMESTAMP, "7f6161ff", P, CORRUPT, NULL},
        /* Dates: RFC 8943 text (untagged or tag 1004), days, bounds. */
        {CODEC_DATE, "6a323032342d30322d3239", 0, 0, "19782"},
        {CODEC_DATE, "d903ec6a323032342d30322d3239", 0, 0, "19782"},
        {CODEC_DATE, "6a323032342d30322d3330", P, CORRUPT, NULL},
        {CODEC_DATE, "c100", P, CORRUPT, NULL},
        {CODEC_DATE, "1a80000000", P, LIMIT, NULL},
        {CODEC_DATE, "20", 0, 0, "-1"},
        /* Enums by name; other kinds refused. */
        {&color_type, "65475245454e", 0, 0, "2"},
        {&color_type, "6450494e4b", P, CORRUPT, NULL},
        {&color_type, "f5", P, CORRUPT, NULL},
        {CODEC_BOOL, "01", P, CORRUPT, NULL},
        /* An adapter over text, alone and in a list. */
        {&bc_cents_type, "6531322e3334", 0, 0, "1234"},
        {&bc_cents_type, "6178", P, CORRUPT, NULL},
        {&bc_cents_type, "01", P, CORRUPT, NULL},
        {&bc_cents_list_type, "826531322e333464302e3330", 0, 0, "[2]"},
        /* Indefinite lists and maps: their bounds and repeated keys. */
        {&bc_ids_type, "9f010203ff", 0, 0, "[3]"},
        {&bc_ids_type, "9f01020304ff", P, LIMIT, NULL},
        {&cbor_names_type, "bf016161026162ff", 0, 0, "{2}"},
        {&cbor_names_type, "bf016161016162ff", P, CORRUPT, NULL},
        {&cbor_names_type, "bf016161026162036163046164ff", P, LIMIT, NULL},
        {&cbor_names_type, "a2016161016162", P, CORRUPT, NULL},
        {&bc_ids_type, "a0", P, CORRUPT, NULL},
        {&cbor_names_type, "80", P, CORRUPT, NULL},
    };
    bc_check_forms("cbor:max-elements=3", forms, sizeof forms / sizeof forms[0]);
    /* Indefinite maps are bounded by entries too. */
    static const bc_form structs[] = {
        {&person_type, "bf616101616202616303ff", P, LIMIT, NULL},
    };
    bc_check_forms("cbor:max-elements=2", structs, 1);
}

int main(void)
{
    test_constructor();
    codec_arena_init(&bc_arena, NULL, 0);
    test_person_bytes();
    test_floats();
    test_kinds_bytes();
    test_decode_policies();
    test_hostile();
    test_deterministic_values();
    test_deterministic_struct();
    test_planned_decode();
    test_diagnose();
    test_other_forms();
    test_deterministic_large();
    static const char *const specs[] = {"cbor", "cbor:keys=tags", "cbor:deterministic",
                                        "cbor:deterministic,keys=tags"};
    for (size_t i = 0; i < 4; i++) {
        bc_check_typed(specs[i], true);
        bc_check_random(specs[i], i ? 60 : 400);
        bc_check_nomem(specs[i]);
        bc_check_no_alloc(specs[i], i % 2 == 0);
    }
    codec_arena_free(&bc_arena);
    return check_done("test_cbor");
}
