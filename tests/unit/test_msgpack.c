/* test_msgpack.c — the MessagePack backend: exact bytes of Person in both
 * struct layouts (the same bytes Python's msgpack.packb writes), shortest
 * integers and floats, timestamps, ext, every kind, random values,
 * truncation at every byte, hostile lengths, limits, options and
 * allocation-free steady state. */
#include "check.h"
#include "binary_checks.h"

static void test_person_bytes(void)
{
    person p = payload_person();
    bc_check_bytes("msgpack", &person_type, &p,
                "84a46e616d65ac416461204c6f76656c616365a361676524a6616374697665c3a5656d61696c"
                "af616461406578616d706c652e636f6d");
    bc_check_bytes("msgpack:structs=array", &person_type, &p,
                "94ac416461204c6f76656c61636524c3af616461406578616d706c652e636f6d");
}

/* A struct whose tags leave a gap: structs=array fills it with nil. */
typedef struct gappy {
    int32_t a;
    CODEC_OPTIONAL_OF(int32_t) b;
    int32_t c;
} gappy;
CODEC_OPTIONAL(gappy_b_type, int32_t, CODEC_INT32);
CODEC_STRUCT(gappy_type, gappy, CODEC_FIELD(gappy, a, 1, CODEC_INT32),
             CODEC_FIELD(gappy, b, 2, &gappy_b_type), CODEC_FIELD(gappy, c, 4, CODEC_INT32));

static void test_layouts(void)
{
    long_key k = {1, -2}, kb;
    bc_check_bytes("msgpack", &long_key_type, &k,
                   "82d929615f6669656c645f6e616d655f6c6f6e6765725f7468616e5f7468697274795f74776f"
                   "5f627974657301a162fe");
    codec *kc = bc_codec("msgpack", &long_key_type);
    codec_buf kout;
    codec_buf_init(&kout, NULL);
    CHECK(bc_round(kc, &k, &kb, &kout) == 0 && kb.a == 1 && kb.b == -2);
    codec_buf_free(&kout);
    codec_free(kc);
    gappy g = {1, {false, 0}, -1};
    bc_check_bytes("msgpack:structs=array", &gappy_type, &g, "9401c0c0ff");
    bc_check_bytes("msgpack", &gappy_type, &g, "82a16101a163ff");
    codec *c = bc_codec("msgpack:structs=array", &gappy_type);
    codec_error err;
    gappy back;
    /* Shorter and longer arrays: missing tail fields stay zero, extra ones
     * are skipped (rejected with unknown=reject). */
    static const uint8_t shorter[] = {0x91, 0x07}, longer[] = {0x96, 1, 0xc0, 0xc0, 3, 9, 9};
    CHECK(!codec_decode(c, shorter, 2, &back, &bc_arena, &err) && back.a == 7 && back.c == 0);
    CHECK(!codec_decode(c, longer, 7, &back, &bc_arena, &err) && back.c == 3 && !back.b.has);
    codec *strict = bc_codec("msgpack:structs=array,unknown=reject", &gappy_type);
    CHECK_INT(codec_decode(strict, longer, 7, &back, &bc_arena, &err), CODEC_E_INVALID_PAYLOAD);
    codec *req = bc_codec("msgpack:require=all", &gappy_type);
    CHECK_INT(codec_decode(req, shorter, 2, &back, &bc_arena, &err), CODEC_E_INVALID_PAYLOAD);
    codec_free(c);
    codec_free(strict);
    codec_free(req);
}

static void test_scalars(void)
{
    static const struct {
        int64_t v;
        const char *hex;
    } ints[] = {{0, "00"},        {127, "7f"},         {128, "cc80"},      {255, "ccff"},
                {256, "cd0100"},  {65536, "ce00010000"}, {-1, "ff"},       {-32, "e0"},
                {-33, "d0df"},    {-129, "d1ff7f"},    {INT64_MIN, "d38000000000000000"},
                {4294967296, "cf0000000100000000"}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        bc_check_bytes("msgpack", CODEC_INT64, &ints[i].v, ints[i].hex);
    uint64_t u = UINT64_MAX;
    bc_check_bytes("msgpack", CODEC_UINT64, &u, "cfffffffffffffffff");
    double d = 1.1, h = 0.5;
    bc_check_bytes("msgpack", CODEC_DOUBLE, &d, "cb3ff199999999999a");
    bc_check_bytes("msgpack", CODEC_DOUBLE, &h, "ca3f000000");
    float f = 0.1f;
    bc_check_bytes("msgpack", CODEC_FLOAT, &f, "ca3dcccccd");
    char big[300];
    memset(big, 'x', sizeof big);
    codec_string s31 = {big, 31}, s32 = {big, 32}, s256 = {big, 256};
    codec *sc = bc_codec("msgpack", CODEC_STRING);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    CHECK(!codec_encode(sc, &s31, &out, &err) && out.data[0] == 0xbf && out.len == 32);
    codec_buf_clear(&out);
    CHECK(!codec_encode(sc, &s32, &out, &err) && out.data[0] == 0xd9 && out.len == 34);
    codec_buf_clear(&out);
    CHECK(!codec_encode(sc, &s256, &out, &err) && out.data[0] == 0xda && out.len == 259);
    codec_string bad = {"\xed\xa0\x80", 3};   /* a surrogate */
    codec_buf_clear(&out);
    CHECK_INT(codec_encode(sc, &bad, &out, &err), CODEC_E_INVALID_VALUE);
    CHECK_INT(out.len, 0);
    codec_buf_free(&out);
    codec_free(sc);
    /* Timestamps in each of the three sizes. */
    codec_timestamp t32 = {1514862245, 0, 0}, t64 = {1514862245, 678901234, 0},
                    t96 = {-1, 999999999, 0};
    bc_check_bytes("msgpack", CODEC_TIMESTAMP, &t32, "d6ff5a4af6a5");
    bc_check_bytes("msgpack", CODEC_TIMESTAMP, &t64, "d7ffa1dcd7c85a4af6a5");
    bc_check_bytes("msgpack", CODEC_TIMESTAMP, &t96, "c70cff3b9ac9ffffffffffffffffff");
    static const uint8_t three[] = {1, 2, 3};
    codec_msgpack_ext x = {5, {three, 3}};
    bc_check_bytes("msgpack", CODEC_MSGPACK_EXT, &x, "c70305010203");
}

static void test_hostile(void)
{
    int detail;
    static const uint8_t huge_bin[] = {0xc6, 0xff, 0xff, 0xff, 0xff, 0};
    static const uint8_t huge_array[] = {0xdd, 0xff, 0xff, 0xff, 0xff, 0};
    static const uint8_t huge_map[] = {0xdf, 0x10, 0, 0, 0, 0x80, 0x80};
    static const uint8_t huge_ext[] = {0xc9, 0x7f, 0xff, 0xff, 0xff, 1};
    CHECK_INT(bc_decode_value("msgpack", huge_bin, sizeof huge_bin, &detail),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(detail, CODEC_D_TRUNCATED);
    CHECK_INT(bc_decode_value("msgpack", huge_array, sizeof huge_array, &detail),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("msgpack", huge_map, sizeof huge_map, &detail),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("msgpack", huge_ext, sizeof huge_ext, &detail),
              CODEC_E_INVALID_PAYLOAD);
    codec *oc = bc_codec("msgpack", &order_type);
    order o;
    codec_error err;
    static const uint8_t huge_items[] = {0x81, 0xa5, 'i', 't', 'e', 'm', 's',
                                         0xdd, 0x10, 0, 0, 0, 0x90};
    CHECK_INT(codec_decode(oc, huge_items, sizeof huge_items, &o, &bc_arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    codec_free(oc);
    uint8_t deep[201];
    memset(deep, 0x91, 200);
    deep[200] = 0x00;
    CHECK_INT(bc_decode_value("msgpack", deep, sizeof deep, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(detail, CODEC_D_LIMIT);
    CHECK_INT(bc_decode_value("msgpack:max-depth=300", deep, sizeof deep, &detail), 0);
    static const uint8_t three[] = {0x93, 1, 2, 3}, str[] = {0xa4, 'a', 'b', 'c', 'd'};
    CHECK_INT(bc_decode_value("msgpack:max-elements=2", three, 4, &detail),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(detail, CODEC_D_LIMIT);
    CHECK_INT(bc_decode_value("msgpack:max-string=3", str, 5, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("msgpack:max-size=3", three, 4, &detail), CODEC_E_INVALID_PAYLOAD);
    static const uint8_t never[] = {0xc1}, trailing[] = {0xc0, 0xc0}, intkey[] = {0x81, 1, 2},
                         ext[] = {0xd4, 1, 0}, dup[] = {0x82, 0xa1, 'a', 1, 0xa1, 'a', 2},
                         bad_utf8[] = {0xa1, 0xff};
    CHECK_INT(bc_decode_value("msgpack", never, 1, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("msgpack", trailing, 2, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(detail, CODEC_D_TRAILING);
    CHECK_INT(bc_decode_value("msgpack", intkey, 3, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("msgpack", ext, 3, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("msgpack", dup, 7, &detail), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(bc_decode_value("msgpack:duplicates=allow", dup, 7, &detail), 0);
    CHECK_INT(bc_decode_value("msgpack", bad_utf8, 2, &detail), CODEC_E_INVALID_PAYLOAD);
    /* Out of range for the field, never wrapped; bad timestamp nanos. */
    int8_t i8;
    codec *ic = bc_codec("msgpack", CODEC_INT8);
    static const uint8_t v200[] = {0xcc, 200};
    CHECK_INT(codec_decode(ic, v200, 2, &i8, &bc_arena, &err), CODEC_E_INVALID_PAYLOAD);
    codec_free(ic);
    codec *tc = bc_codec("msgpack", CODEC_TIMESTAMP);
    codec_timestamp ts;
    static const uint8_t bad_ns[] = {0xd7, 0xff, 0xff, 0xff, 0xff, 0xfc, 0, 0, 0, 0};
    CHECK_INT(codec_decode(tc, bad_ns, sizeof bad_ns, &ts, &bc_arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    codec_free(tc);
}

/* The planned decoder reads the forms our encoder writes inline and hands
 * every other form, and every failure, to the generic reader: values and
 * error offsets must be those of the generic reader. */
static void test_planned_decode(void)
{
    person p;
    codec_error err;
    /* Keys out of order and as str8, age as int64, name as str16, a
     * key that is not a field: all accepted. */
    CHECK_INT(bc_person_from("msgpack",
                          "85a6616374697665c3" "d903616765d30000000000000024"
                          "a5636f6c6f72a3726564" "a46e616d65da0003416461"
                          "a5656d61696ca0", &p, &err), 0);
    CHECK(p.active && p.age == 36 && bc_same_string(p.name, CODEC_STR("Ada")) && !p.email.len);
    /* A str8 longer than what is left: truncated, at the str's own byte. */
    CHECK_INT(bc_person_from("msgpack", "82a46e616d65d920414243a36167650c", &p, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRUNCATED);
    CHECK_INT(err.offset, 6);
    /* Bad UTF-8 in a value, out of range and wrongly typed numbers: each
     * reported at the value's first byte. */
    CHECK_INT(bc_person_from("msgpack", "81a46e616d65a2c328", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 6);
    CHECK_INT(bc_person_from("msgpack", "81a3616765cf0000000100000000", &p, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK_INT(err.offset, 5);
    CHECK_INT(bc_person_from("msgpack", "81a6616374697665a1", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 8);
    /* A repeated field, in and out of declaration order. */
    CHECK_INT(bc_person_from("msgpack", "82a361676501a361676502", &p, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 6);
    CHECK_INT(bc_person_from("msgpack:duplicates=allow", "82a361676501a361676502", &p, &err), 0);
    CHECK_INT(p.age, 2);
    /* require=all names the first missing field, at the map's byte. */
    CHECK_INT(bc_person_from("msgpack:require=all", "81a361676501", &p, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 0);
    CHECK(strstr(err.message, "'name'") != NULL);
    /* An array16 head that declares more items than bytes remain, and
     * nesting past max-depth: refused before anything is allocated. */
    static const uint8_t huge[] = {0x81, 0xa5, 'i', 't', 'e', 'm', 's', 0xdc, 0xff, 0xff, 0x80};
    static const uint8_t one[] = {0x81, 0xa5, 'i', 't', 'e', 'm', 's', 0x91, 0x80};
    bc_check_list_bounds("msgpack", huge, sizeof huge, one, sizeof one);
}

static void test_constructor(void)
{
    codec_error err;
    codec_msgpack_options o = {.struct_arrays = true, .max_string = 5};
    codec *c = codec_msgpack(&person_type, &o, &err), *d = codec_msgpack(&person_type, NULL, &err);
    CHECK(c && d);
    CHECK_STR(codec_spec(c), "msgpack:structs=array,max-string=5");
    CHECK_STR(codec_spec(d), "msgpack");
    codec_free(c);
    codec_free(d);
    CHECK(codec_parse("msgpack:structs=list", &person_type, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
}

/* Items in forms the planned decoder hands to the generic walker. */
static void test_other_forms(void)
{
    enum { P = CODEC_E_INVALID_PAYLOAD, CORRUPT = CODEC_D_CORRUPT, LIMIT = CODEC_D_LIMIT };
    static const bc_form forms[] = {
        /* Numbers of another kind or size. */
        {CODEC_DOUBLE, "03", 0, 0, "3"},
        {CODEC_DOUBLE, "d0fe", 0, 0, "-2"},
        {CODEC_DOUBLE, "a161", P, CORRUPT, NULL},
        {CODEC_FLOAT, "cb7e37e43c8800759c", P, LIMIT, NULL},
        {CODEC_INT64, "a161", P, CORRUPT, NULL},
        {CODEC_INT8, "cd0100", P, LIMIT, NULL},
        {CODEC_UINT64, "cfffffffffffffffff", 0, 0, "18446744073709551615"},
        /* Decimals: decimal text, integers, floats; NaN and others refused. */
        {CODEC_DECIMAL, "a3312e35", 0, 0, "1.5"},
        {CODEC_DECIMAL, "a161", P, CORRUPT, NULL},
        {CODEC_DECIMAL, "d0fe", 0, 0, "-2"},
        {CODEC_DECIMAL, "cfffffffffffffffff", 0, 0, "18446744073709551615"},
        {CODEC_DECIMAL, "cb3ff8000000000000", 0, 0, "1.5"},
        {CODEC_DECIMAL, "cb7ff8000000000000", P, CORRUPT, NULL},
        {CODEC_DECIMAL, "c3", P, CORRUPT, NULL},
        /* Timestamps: ext -1 of 4, 8 and 12 bytes and their bounds. */
        {CODEC_TIMESTAMP, "d6ff00000001", 0, 0, "1.000000000"},
        {CODEC_TIMESTAMP, "d7ff7735940000000001", 0, 0, "1.500000000"},
        {CODEC_TIMESTAMP, "d7fffffffffc00000001", P, CORRUPT, NULL},
        {CODEC_TIMESTAMP, "c70cff3b9aca000000000000000001", P, CORRUPT, NULL},
        {CODEC_TIMESTAMP, "c703ff000000", P, CORRUPT, NULL},
        {CODEC_TIMESTAMP, "01", P, CORRUPT, NULL},
        /* Dates, enums by name and negative number, wrong kinds. */
        {CODEC_DATE, "d0ff", 0, 0, "-1"},
        {CODEC_DATE, "a161", P, CORRUPT, NULL},
        {&color_type, "a5475245454e", 0, 0, "2"},
        {&color_type, "d0f9", 0, 0, "-7"},
        {&color_type, "a450494e4b", P, CORRUPT, NULL},
        {&color_type, "c3", P, CORRUPT, NULL},
        {CODEC_BOOL, "01", P, CORRUPT, NULL},
        {CODEC_UUID, "c4020000", P, CORRUPT, NULL},
        /* An adapter over str, alone and in a list. */
        {&bc_cents_type, "a531322e3334", 0, 0, "1234"},
        {&bc_cents_type, "a178", P, CORRUPT, NULL},
        {&bc_cents_type, "01", P, CORRUPT, NULL},
        {&bc_cents_list_type, "92a531322e3334a4302e3330", 0, 0, "[2]"},
        /* Maps: repeated keys, wrong kinds. */
        {&bc_names_type, "8201a16102a162", 0, 0, "{2}"},
        {&bc_names_type, "8201a16101a162", P, CORRUPT, NULL},
        {&bc_names_type, "9101", P, CORRUPT, NULL},
    };
    bc_check_forms("msgpack", forms, sizeof forms / sizeof forms[0]);
    static const bc_form strict[] = {
        {&person_type, "81a17a01", P, CORRUPT, NULL},
    };
    bc_check_forms("msgpack:unknown=reject", strict, 1);
}

int main(void)
{
    test_constructor();
    codec_arena_init(&bc_arena, NULL, 0);
    test_person_bytes();
    test_layouts();
    test_scalars();
    test_hostile();
    test_planned_decode();
    test_other_forms();
    static const char *const specs[] = {"msgpack", "msgpack:structs=array"};
    for (size_t i = 0; i < 2; i++) {
        bc_check_typed(specs[i], false);
        bc_check_random(specs[i], i ? 60 : 400);
        bc_check_nomem(specs[i]);
        bc_check_no_alloc(specs[i], true);
    }
    codec_arena_free(&bc_arena);
    return check_done("test_msgpack");
}
