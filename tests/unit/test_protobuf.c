/* test_protobuf.c — the protobuf backend: exact bytes of Person and of each
 * scalar mapping and flag, packed and unpacked lists, maps, optional
 * presence, unknown fields, limits, hostile input (truncation at every byte,
 * corruption, huge lengths), refused shapes, allocation-free encoding. */
#include "check.h"
#include "cents_xmap.h"
#include "codec/codec.h"
#include "hex_checks.h"
#include "json_payloads.h"

/* ---------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static codec *make(const char *spec, const codec_type *t)
{
    codec_error err = {0};
    codec *c = codec_parse(spec, t, &err);
    if (!c)
        fprintf(stderr, "codec_parse(%s): %s\n", spec, err.message);
    return c;
}

static bool str_eq(codec_string a, const char *b)
{
    return a.len == strlen(b) && (a.len == 0 || memcmp(a.ptr, b, a.len) == 0);
}

/* ---------------------------------------------------------------------------
 * Person and Order
 * ------------------------------------------------------------------------ */

static void test_person(void)
{
    codec *c = make("protobuf", &person_type);
    person p = payload_person();
    /* By hand (field number << 3 | wire type, then the value):
     *   0a 0c "Ada Lovelace"      field 1, LEN, 12 bytes        14 bytes
     *   10 24                     field 2, VARINT, 36           2
     *   18 01                     field 3, VARINT, true         2
     *   22 0f "ada@example.com"   field 4, LEN, 15 bytes        17
     *                                                    total  35 */
    CHECK_HEX(c, &p,
              "0a0c416461204c6f76656c616365"
              "1024"
              "1801"
              "220f616461406578616d706c652e636f6d");
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err = {0};
    CHECK_INT(codec_encode(c, &p, &out, &err), 0);
    CHECK_INT(out.len, 35);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    person back;
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
    CHECK(str_eq(back.name, "Ada Lovelace") && back.age == 36 && back.active &&
          str_eq(back.email, "ada@example.com"));
    CHECK(back.name.ptr < (const char *)out.data || back.name.ptr >= (const char *)out.data + 35);
    /* Fields in another order decode the same. */
    CHECK_INT(decode_hex(c, "1801220f616461406578616d706c652e636f6d10240a0c416461204c6f76656c616365",
                         &back, &arena, &err), 0);
    CHECK(str_eq(back.name, "Ada Lovelace") && back.age == 36 && back.active);
    /* Defaults are left out: the empty person is zero bytes. */
    person empty = {0};
    CHECK_HEX(c, &empty, "");
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
}

static void test_order(void)
{
    codec *c = make("protobuf", &order_type);
    line_item items[100];
    char text[100 * 64];
    order o = payload_order(items, text);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err = {0};
    CHECK_INT(codec_encode(c, &o, &out, &err), 0);
    /* The first item follows the header fields: 22 <len> 0a 09 "SKU-" ... */
    CHECK(out.len > 40 && memcmp(out.data, "\x0a\x0f" "ord-2026-000123", 17) == 0);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    order back;
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
    CHECK(str_eq(back.id, "ord-2026-000123") && str_eq(back.customer, "Ada Lovelace") && back.paid);
    CHECK_INT(back.items.count, 100);
    bool same = back.items.count == 100;
    for (size_t i = 0; same && i < 100; i++)
        same = str_eq(back.items.items[i].sku, "") == (items[i].sku.len == 0) &&
               back.items.items[i].sku.len == items[i].sku.len &&
               !memcmp(back.items.items[i].sku.ptr, items[i].sku.ptr, items[i].sku.len) &&
               back.items.items[i].description.len == items[i].description.len &&
               back.items.items[i].quantity == items[i].quantity &&
               back.items.items[i].unit_price == items[i].unit_price;
    CHECK(same);

    /* Steady state: once the buffer has grown, encoding allocates nothing. */
    size_t cap = out.cap;
    uint8_t *data = out.data;
    for (int i = 0; i < 5; i++) {
        codec_buf_clear(&out);
        CHECK_INT(codec_encode(c, &o, &out, &err), 0);
    }
    CHECK(out.cap == cap && out.data == data);

    /* Truncation at every byte: a prefix ending on a record boundary is a
     * valid (shorter) message; every other one fails as invalid payload. */
    size_t failures = 0;
    for (size_t n = 0; n < out.len; n++) {
        codec_arena_reset(&arena);
        uint8_t *copy = malloc(n ? n : 1);
        memcpy(copy, out.data, n);
        int rc = codec_decode(c, copy, n, &back, &arena, &err);
        if (rc) {
            failures++;
            CHECK_INT(err.family, CODEC_E_INVALID_PAYLOAD);
            CHECK(err.offset <= n);
            CHECK_STR(err.stage, "protobuf");
        }
        free(copy);
    }
    CHECK(failures > out.len / 2);

    /* Each byte flipped: decode succeeds or fails cleanly. */
    for (size_t i = 0; i < out.len; i++) {
        codec_arena_reset(&arena);
        uint8_t saved = out.data[i];
        out.data[i] ^= (uint8_t)(0x5a + i);
        int rc = codec_decode(c, out.data, out.len, &back, &arena, &err);
        CHECK(rc == 0 || err.family == CODEC_E_INVALID_PAYLOAD);
        out.data[i] = saved;
    }
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
}

/* ---------------------------------------------------------------------------
 * Scalars, one field each: exact bytes and range checks
 * ------------------------------------------------------------------------ */

typedef struct one_i32 { int32_t v; } one_i32;
typedef struct one_i64 { int64_t v; } one_i64;
typedef struct one_u32 { uint32_t v; } one_u32;
typedef struct one_u64 { uint64_t v; } one_u64;
typedef struct one_i8 { int8_t v; } one_i8;
typedef struct one_u16 { uint16_t v; } one_u16;
typedef struct one_f { float v; } one_f;
typedef struct one_d { double v; } one_d;
typedef struct one_b { bool v; } one_b;
typedef struct one_s { codec_string v; } one_s;
typedef struct one_bytes { codec_bytes v; } one_bytes;
typedef struct one_uuid { codec_uuid v; } one_uuid;
typedef struct one_date { codec_date v; } one_date;
typedef struct one_ts { codec_timestamp v; } one_ts;
typedef struct one_dec { codec_string v; } one_dec;
typedef struct one_enum { int32_t v; } one_enum;

CODEC_STRUCT(i32_type, one_i32, CODEC_FIELD(one_i32, v, 1, CODEC_INT32));
CODEC_STRUCT(s32_type, one_i32, CODEC_FIELD_EX(one_i32, v, "v", 1, CODEC_INT32, CODEC_FIELD_ZIGZAG));
CODEC_STRUCT(sf32_type, one_i32, CODEC_FIELD_EX(one_i32, v, "v", 1, CODEC_INT32, CODEC_FIELD_FIXED));
CODEC_STRUCT(i64_type, one_i64, CODEC_FIELD(one_i64, v, 1, CODEC_INT64));
CODEC_STRUCT(s64_type, one_i64, CODEC_FIELD_EX(one_i64, v, "v", 1, CODEC_INT64, CODEC_FIELD_ZIGZAG));
CODEC_STRUCT(sf64_type, one_i64, CODEC_FIELD_EX(one_i64, v, "v", 1, CODEC_INT64, CODEC_FIELD_FIXED));
CODEC_STRUCT(u32_type, one_u32, CODEC_FIELD(one_u32, v, 1, CODEC_UINT32));
CODEC_STRUCT(f32u_type, one_u32, CODEC_FIELD_EX(one_u32, v, "v", 1, CODEC_UINT32, CODEC_FIELD_FIXED));
CODEC_STRUCT(u64_type, one_u64, CODEC_FIELD(one_u64, v, 1, CODEC_UINT64));
CODEC_STRUCT(f64u_type, one_u64, CODEC_FIELD_EX(one_u64, v, "v", 1, CODEC_UINT64, CODEC_FIELD_FIXED));
CODEC_STRUCT(i8_type, one_i8, CODEC_FIELD(one_i8, v, 1, CODEC_INT8));
CODEC_STRUCT(u16_type, one_u16, CODEC_FIELD(one_u16, v, 1, CODEC_UINT16));
CODEC_STRUCT(f_type, one_f, CODEC_FIELD(one_f, v, 1, CODEC_FLOAT));
CODEC_STRUCT(d_type, one_d, CODEC_FIELD(one_d, v, 1, CODEC_DOUBLE));
CODEC_STRUCT(b_type, one_b, CODEC_FIELD(one_b, v, 1, CODEC_BOOL));
CODEC_STRUCT(s_type, one_s, CODEC_FIELD(one_s, v, 1, CODEC_STRING));
CODEC_STRUCT(bytes_type, one_bytes, CODEC_FIELD(one_bytes, v, 1, CODEC_BYTES));
CODEC_STRUCT(uuid_type, one_uuid, CODEC_FIELD(one_uuid, v, 1, CODEC_UUID));
CODEC_STRUCT(date_type, one_date, CODEC_FIELD(one_date, v, 1, CODEC_DATE));
CODEC_STRUCT(ts_type, one_ts, CODEC_FIELD(one_ts, v, 1, CODEC_TIMESTAMP));
CODEC_STRUCT(dec_type, one_dec, CODEC_FIELD(one_dec, v, 1, CODEC_DECIMAL));
CODEC_ENUM(player_type, {"JAVA", 0}, {"FLASH", 1});
CODEC_STRUCT(enum_type, one_enum, CODEC_FIELD(one_enum, v, 1, &player_type));

static void test_scalars(void)
{
    codec *c = make("protobuf", &i32_type);
    one_i32 i32 = {-1};
    CHECK_HEX(c, &i32, "08ffffffffffffffffff01");   /* int32 sign-extends to 10 bytes */
    i32.v = 150;
    CHECK_HEX(c, &i32, "089601");                   /* the spec's example */
    i32.v = INT32_MIN;
    CHECK_HEX(c, &i32, "0880808080f8ffffffff01");
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    codec_error err;
    CHECK_INT(decode_hex(c, "08ffffffffffffffffff01", &i32, &a, &err), 0);
    CHECK_INT(i32.v, -1);
    /* 2^31 does not fit an int32: rejected, never wrapped. */
    CHECK_INT(decode_hex(c, "088080808008", &i32, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 1);
    /* Wire type mismatch: field 1 as fixed64. */
    CHECK_INT(decode_hex(c, "090100000000000000", &i32, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 0);
    /* An 11-byte varint, and one whose 10th byte overflows 64 bits. */
    CHECK_INT(decode_hex(c, "08ffffffffffffffffffff01", &i32, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_CORRUPT);
    CHECK_INT(decode_hex(c, "08ffffffffffffffffff02", &i32, &a, &err), CODEC_E_INVALID_PAYLOAD);
    /* A truncated varint. */
    CHECK_INT(decode_hex(c, "08ff", &i32, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRUNCATED);
    /* Last one wins for a repeated scalar. */
    CHECK_INT(decode_hex(c, "08010802", &i32, &a, &err), 0);
    CHECK_INT(i32.v, 2);
    codec_free(c);

    c = make("protobuf", &s32_type);
    i32.v = -1;
    CHECK_HEX(c, &i32, "0801");                     /* sint32 zigzag */
    i32.v = INT32_MIN;
    CHECK_HEX(c, &i32, "08ffffffff0f");
    CHECK_INT(decode_hex(c, "08ffffffff0f", &i32, &a, &err), 0);
    CHECK_INT(i32.v, INT32_MIN);
    codec_free(c);
    c = make("protobuf", &sf32_type);
    i32.v = -2;
    CHECK_HEX(c, &i32, "0dfeffffff");               /* sfixed32 */
    CHECK_INT(decode_hex(c, "0dfeffffff", &i32, &a, &err), 0);
    CHECK_INT(i32.v, -2);
    CHECK_INT(decode_hex(c, "0dfeff", &i32, &a, &err), CODEC_E_INVALID_PAYLOAD);
    codec_free(c);

    one_i64 i64 = {INT64_MIN};
    c = make("protobuf", &i64_type);
    CHECK_HEX(c, &i64, "0880808080808080808001");
    codec_free(c);
    c = make("protobuf", &s64_type);
    CHECK_HEX(c, &i64, "08ffffffffffffffffff01");
    i64.v = 1;
    CHECK_HEX(c, &i64, "0802");
    codec_free(c);
    c = make("protobuf", &sf64_type);
    i64.v = -1;
    CHECK_HEX(c, &i64, "09ffffffffffffffff");
    codec_free(c);

    one_u32 u32 = {UINT32_MAX};
    c = make("protobuf", &u32_type);
    CHECK_HEX(c, &u32, "08ffffffff0f");
    CHECK_INT(decode_hex(c, "088080808010", &u32, &a, &err), CODEC_E_INVALID_PAYLOAD);
    codec_free(c);
    c = make("protobuf", &f32u_type);
    u32.v = 1;
    CHECK_HEX(c, &u32, "0d01000000");
    codec_free(c);
    one_u64 u64 = {UINT64_MAX};
    c = make("protobuf", &u64_type);
    CHECK_HEX(c, &u64, "08ffffffffffffffffff01");
    CHECK_INT(decode_hex(c, "08ffffffffffffffffff01", &u64, &a, &err), 0);
    CHECK(u64.v == UINT64_MAX);
    codec_free(c);
    c = make("protobuf", &f64u_type);
    u64.v = 0x0102030405060708ull;
    CHECK_HEX(c, &u64, "090807060504030201");
    codec_free(c);

    one_i8 i8 = {-128};
    c = make("protobuf", &i8_type);
    CHECK_HEX(c, &i8, "0880ffffffffffffffff01");
    CHECK_INT(decode_hex(c, "088001", &i8, &a, &err), CODEC_E_INVALID_PAYLOAD);  /* 128 */
    codec_free(c);
    one_u16 u16 = {65535};
    c = make("protobuf", &u16_type);
    CHECK_HEX(c, &u16, "08ffff03");
    CHECK_INT(decode_hex(c, "08808004", &u16, &a, &err), CODEC_E_INVALID_PAYLOAD);
    codec_free(c);

    one_f f = {1.0f};
    c = make("protobuf", &f_type);
    CHECK_HEX(c, &f, "0d0000803f");
    f.v = -0.0f;   /* not the default bits: written, as Google's proto3 does */
    CHECK_HEX(c, &f, "0d00000080");
    codec_free(c);
    one_d d = {1.5};
    c = make("protobuf", &d_type);
    CHECK_HEX(c, &d, "09000000000000f83f");
    codec_free(c);
    one_b b = {true};
    c = make("protobuf", &b_type);
    CHECK_HEX(c, &b, "0801");
    CHECK_INT(decode_hex(c, "0802", &b, &a, &err), 0);   /* any non-zero varint is true */
    CHECK(b.v);
    codec_free(c);

    one_s s = {CODEC_STR("\xc3\xa9t\xc3\xa9")};
    c = make("protobuf", &s_type);
    CHECK_HEX(c, &s, "0a05c3a974c3a9");
    s.v = CODEC_STR("\xc3");
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(codec_encode(c, &s, &out, &err), CODEC_E_INVALID_VALUE);
    CHECK_INT(out.len, 0);
    CHECK_INT(decode_hex(c, "0a02c328", &s, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_hex(c, "0a03eda080", &s, &a, &err), CODEC_E_INVALID_PAYLOAD); /* surrogate */
    CHECK_INT(decode_hex(c, "0a05", &s, &a, &err), CODEC_E_INVALID_PAYLOAD);  /* past the end */
    CHECK_INT(err.detail, CODEC_D_TRUNCATED);
    CHECK_INT(decode_hex(c, "0affffffff0f", &s, &a, &err), CODEC_E_INVALID_PAYLOAD);
    codec_free(c);
    one_bytes by = {{(const uint8_t *)"\x00\xff", 2}};
    c = make("protobuf", &bytes_type);
    CHECK_HEX(c, &by, "0a0200ff");
    codec_free(c);

    one_uuid u = {{{0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
                    0xcc, 0xdd, 0xee, 0xff}}};
    c = make("protobuf", &uuid_type);
    CHECK_HEX(c, &u, "0a1000112233445566778899aabbccddeeff");
    CHECK_INT(decode_hex(c, "0a020011", &u, &a, &err), CODEC_E_INVALID_PAYLOAD);
    one_uuid nil = {0};
    CHECK_HEX(c, &nil, "");
    codec_free(c);
    one_date dt = {{-1}};
    c = make("protobuf", &date_type);
    CHECK_HEX(c, &dt, "08ffffffffffffffffff01");
    codec_free(c);
    one_ts ts = {{1700000000, 5, 0}};
    c = make("protobuf", &ts_type);
    /* google.protobuf.Timestamp: {1: seconds, 2: nanos} */
    CHECK_HEX(c, &ts, "0a080880e2cfaa061005");
    ts.v.offset_minutes = -60;
    CHECK_HEX(c, &ts, "0a0a0880e2cfaa0610051877");
    CHECK_INT(decode_hex(c, "0a0a0880e2cfaa06100518", &ts, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_hex(c, "0a0a0880e2cfaa0610051877", &ts, &a, &err), 0);
    CHECK(ts.v.seconds == 1700000000 && ts.v.nanos == 5 && ts.v.offset_minutes == -60);
    CHECK_INT(decode_hex(c, "0a06108094ebdc03", &ts, &a, &err), CODEC_E_INVALID_PAYLOAD); /* 1e9 nanos */
    CHECK_INT(decode_hex(c, "0a0209000000000000000000", &ts, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_hex(c, "0a0a09000000000000000000", &ts, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "wire type") != NULL);
    ts.v.nanos = 1000000000;
    CHECK_INT(codec_encode(c, &ts, &out, &err), CODEC_E_INVALID_VALUE);
    codec_free(c);
    one_dec dec = {CODEC_STR("-12.50e3")};
    c = make("protobuf", &dec_type);
    CHECK_HEX(c, &dec, "0a082d31322e35306533");
    dec.v = CODEC_STR("12.");
    CHECK_INT(codec_encode(c, &dec, &out, &err), CODEC_E_INVALID_VALUE);
    CHECK_INT(decode_hex(c, "0a0131", &dec, &a, &err), 0);
    CHECK(str_eq(dec.v, "1"));
    CHECK_INT(decode_hex(c, "0a0178", &dec, &a, &err), CODEC_E_INVALID_PAYLOAD);
    codec_free(c);
    one_enum en = {1};
    c = make("protobuf", &enum_type);
    CHECK_HEX(c, &en, "0801");
    /* proto3 enums are open: a number without a name is kept. */
    CHECK_INT(decode_hex(c, "0807", &en, &a, &err), 0);
    CHECK_INT(en.v, 7);
    codec_free(c);
    codec_buf_free(&out);
    codec_arena_free(&a);
}

/* ---------------------------------------------------------------------------
 * Lists, maps, optionals, nested messages
 * ------------------------------------------------------------------------ */

typedef struct point { int32_t x, y; } point;
CODEC_STRUCT(point_type, point, CODEC_FIELD(point, x, 1, CODEC_INT32),
             CODEC_FIELD(point, y, 2, CODEC_INT32));

typedef struct shapes {
    CODEC_LIST_OF(int32_t) ints;
    CODEC_LIST_OF(double) reals;
    CODEC_LIST_OF(codec_string) names;
    CODEC_LIST_OF(point) points;
    CODEC_MAP_OF(codec_string, int32_t) counts;
    CODEC_OPTIONAL_OF(int32_t) maybe;
    point origin;
    CODEC_LIST_OF(int64_t) zz;
    CODEC_MAP_OF(int32_t, point) by_id;
} shapes;

CODEC_LIST(ints_type, CODEC_INT32);
CODEC_LIST(reals_type, CODEC_DOUBLE);
CODEC_LIST(names_type, CODEC_STRING);
CODEC_LIST(points_type, &point_type);
CODEC_MAP(counts_type, CODEC_STRING, CODEC_INT32);
CODEC_OPTIONAL(maybe_type, int32_t, CODEC_INT32);
CODEC_LIST(zz_type, CODEC_INT64);
CODEC_MAP(by_id_type, CODEC_INT32, &point_type);
CODEC_STRUCT(shapes_type, shapes,
             CODEC_FIELD(shapes, ints, 1, &ints_type),
             CODEC_FIELD(shapes, reals, 2, &reals_type),
             CODEC_FIELD(shapes, names, 3, &names_type),
             CODEC_FIELD(shapes, points, 4, &points_type),
             CODEC_FIELD(shapes, counts, 5, &counts_type),
             CODEC_FIELD(shapes, maybe, 6, &maybe_type),
             CODEC_FIELD(shapes, origin, 7, &point_type),
             CODEC_FIELD_EX(shapes, zz, "zz", 8, &zz_type, CODEC_FIELD_ZIGZAG),
             CODEC_FIELD(shapes, by_id, 9, &by_id_type));

static void test_containers(void)
{
    codec *c = make("protobuf", &shapes_type);
    int32_t ints[] = {1, 150, -1};
    double reals[] = {1.5};
    codec_string names[] = {CODEC_STR("a"), CODEC_STR("")};
    point pts[] = {{1, 2}, {0, 0}};
    codec_string keys[] = {CODEC_STR("k")};
    int32_t vals[] = {0};
    int64_t zz[] = {-1, 1};
    int32_t ids[] = {5};
    point by[] = {{0, 3}};
    shapes s = {{ints, 3}, {reals, 1}, {names, 2}, {pts, 2}, {keys, vals, 1}, {true, 0},
                {0, 0}, {zz, 2}, {ids, by, 1}};
    CHECK_HEX(c, &s,
              "0a0d019601ffffffffffffffffff01"   /* packed int32 */
              "1208000000000000f83f"             /* packed double */
              "1a0161" "1a00"                    /* repeated strings, empty one kept */
              "220408011002" "2200"              /* repeated messages, empty one kept */
              "2a050a016b1000"                   /* map entry: key and value always */
              "3000"                             /* optional with has: written though 0 */
              /* origin {0,0} is empty: left out */
              "42020102"                         /* packed sint64 */
              "4a06080512021003");               /* map<int32, Point> entry */
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    codec_error err;
    shapes back;
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(codec_encode(c, &s, &out, &err), 0);
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &a, &err), 0);
    CHECK(back.ints.count == 3 && back.ints.items[1] == 150 && back.ints.items[2] == -1);
    CHECK(back.reals.count == 1 && back.reals.items[0] == 1.5);
    CHECK(back.names.count == 2 && str_eq(back.names.items[0], "a"));
    CHECK(back.points.count == 2 && back.points.items[0].y == 2);
    CHECK(back.counts.count == 1 && str_eq(back.counts.keys[0], "k") && back.counts.values[0] == 0);
    CHECK(back.maybe.has && back.maybe.value == 0);
    CHECK(back.zz.count == 2 && back.zz.items[0] == -1);
    CHECK(back.by_id.count == 1 && back.by_id.keys[0] == 5 && back.by_id.values[0].y == 3);
    /* Unpacked scalars, and packed and unpacked runs mixed, interleaved
     * with other fields: all collected in order. */
    CHECK_INT(decode_hex(c, "0801" "1a0178" "0a020203" "0804", &back, &a, &err), 0);
    CHECK(back.ints.count == 4 && back.ints.items[0] == 1 && back.ints.items[1] == 2 &&
          back.ints.items[2] == 3 && back.ints.items[3] == 4);
    CHECK(back.names.count == 1 && !back.maybe.has);
    /* A message field seen twice is merged. */
    CHECK_INT(decode_hex(c, "3a020801" "3a021002", &back, &a, &err), 0);
    CHECK(back.origin.x == 1 && back.origin.y == 2);
    /* Map entries missing key or value get zero. */
    CHECK_INT(decode_hex(c, "2a00" "2a021005", &back, &a, &err), 0);
    CHECK(back.counts.count == 2 && back.counts.keys[0].len == 0 && back.counts.values[1] == 5);
    /* Packed fixed64 of a length that is not a multiple of 8. */
    CHECK_INT(decode_hex(c, "120700000000000000", &back, &a, &err), CODEC_E_INVALID_PAYLOAD);
    /* A message field with the wrong wire type. */
    CHECK_INT(decode_hex(c, "2001", &back, &a, &err), CODEC_E_INVALID_PAYLOAD);
    /* A packed run truncated inside a varint. */
    CHECK_INT(decode_hex(c, "0a0296", &back, &a, &err), CODEC_E_INVALID_PAYLOAD);
    codec_free(c);

    /* Count limits. */
    c = make("protobuf:max-elements=2", &shapes_type);
    CHECK_INT(decode_hex(c, "0a03010203", &back, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK_INT(decode_hex(c, "0a020102", &back, &a, &err), 0);
    codec_free(c);
    codec_buf_free(&out);
    codec_arena_free(&a);
}

/* ---------------------------------------------------------------------------
 * Unknown fields, depth, groups, refused shapes
 * ------------------------------------------------------------------------ */

typedef struct keeper {
    int32_t a;
    codec_bytes unknown;
    codec_string b;
} keeper;
CODEC_STRUCT(keeper_type, keeper, CODEC_FIELD(keeper, a, 1, CODEC_INT32),
             CODEC_FIELD_EX(keeper, unknown, "unknown", 100, CODEC_BYTES,
                            CODEC_FIELD_UNKNOWN_BYTES),
             CODEC_FIELD(keeper, b, 3, CODEC_STRING));

typedef struct pb_node pb_node;
struct pb_node {
    int32_t v;
    CODEC_LIST_OF(pb_node) kids;
};
static const codec_type pb_node_type;
CODEC_LIST(pb_kids_type, &pb_node_type);
CODEC_STRUCT(pb_node_type, pb_node, CODEC_FIELD(pb_node, v, 1, CODEC_INT32),
             CODEC_FIELD(pb_node, kids, 2, &pb_kids_type));

static void test_unknown(void)
{
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    codec_error err;
    keeper k;
    /* Field 2 (varint), 4 (fixed64), 5 (LEN), 6 (fixed32) are unknown. */
    const char *in = "0801" "1005" "1a0178" "210100000000000000" "2a026869" "3501020304";
    codec *c = make("protobuf", &keeper_type);
    CHECK_INT(decode_hex(c, in, &k, &a, &err), 0);
    CHECK(k.a == 1 && str_eq(k.b, "x"));
    CHECK_INT(k.unknown.len, 2 + 9 + 4 + 5);
    /* Re-encoded: the known fields, then the unknown records as they came. */
    CHECK_HEX(c, &k, "0801" "1a0178" "1005" "210100000000000000" "2a026869" "3501020304");
    codec_free(c);
    c = make("protobuf:skip", &keeper_type);
    CHECK_INT(decode_hex(c, in, &k, &a, &err), 0);
    CHECK_INT(k.unknown.len, 0);
    codec_free(c);
    c = make("protobuf:unknown=reject", &keeper_type);
    CHECK_INT(decode_hex(c, in, &k, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 2);
    /* Groups are refused, as are wire types 6 and 7 and field number 0. */
    codec_free(c);
    c = make("protobuf", &keeper_type);
    CHECK_INT(decode_hex(c, "1314", &k, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "group") != NULL);
    CHECK_INT(decode_hex(c, "0e", &k, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_hex(c, "0001", &k, &a, &err), CODEC_E_INVALID_PAYLOAD);
    /* A huge declared length is refused before anything is allocated. */
    CHECK_INT(decode_hex(c, "2affffffff0f00", &k, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRUNCATED);
    codec_free(c);
    codec_arena_free(&a);
}

static void test_depth(void)
{
    codec *c = make("protobuf:max-depth=3", &pb_node_type);
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    codec_error err;
    pb_node n;
    CHECK_INT(decode_hex(c, "1206120412020800", &n, &a, &err), 0);
    CHECK_INT(decode_hex(c, "12081206120412020800", &n, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    codec_free(c);
    codec_arena_free(&a);
}

typedef struct bad_list { CODEC_LIST_OF(codec_list) v; } bad_list;
CODEC_LIST(inner_list_type, CODEC_INT32);
CODEC_LIST(outer_list_type, &inner_list_type);
CODEC_STRUCT(bad_list_type, bad_list, CODEC_FIELD(bad_list, v, 1, &outer_list_type));
typedef struct bad_zz { uint32_t v; } bad_zz;
CODEC_STRUCT(bad_zz_type, bad_zz, CODEC_FIELD_EX(bad_zz, v, "v", 1, CODEC_UINT32, CODEC_FIELD_ZIGZAG));
typedef struct bad_tag { int32_t v; } bad_tag;
CODEC_STRUCT(bad_tag_type, bad_tag, CODEC_FIELD(bad_tag, v, 19000, CODEC_INT32));
typedef struct with_value { codec_value v; } with_value;
CODEC_STRUCT(with_value_type, with_value, CODEC_FIELD(with_value, v, 1, CODEC_VALUE));

static void test_refused(void)
{
    codec_error err = {0};
    const codec_type *bad[] = {codec_value_type(), &with_value_type, &bad_list_type,
                               &bad_zz_type, &bad_tag_type, CODEC_INT32};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(codec_parse("protobuf", bad[i], &err) == NULL);
        CHECK_INT(err.family, CODEC_E_USAGE);
    }
    CHECK(codec_protobuf(codec_value_type(), NULL, &err) == NULL);
    CHECK(strstr(err.message, "schemaless") != NULL);
    CHECK(codec_parse("protobuf:max-depth=0", &person_type, &err) == NULL);
    /* codec_protobuf() gives the same codec as the spec. */
    codec_protobuf_options o = {.unknown = CODEC_PROTOBUF_UNKNOWN_REJECT, .max_depth = 7};
    codec *c = codec_protobuf(&person_type, &o, &err);
    CHECK(c != NULL);
    CHECK_STR(codec_spec(c), "protobuf:reject,max-depth=7");
    codec_free(c);
}

/* An xmap over a string travels as that string (length-delimited); a value
 * its adapter refuses is a corrupt payload at the value (its length). */
typedef struct priced {
    bc_cents price;
    int32_t count;
} priced;
CODEC_STRUCT(priced_type, priced, CODEC_FIELD(priced, price, 1, &bc_cents_type),
             CODEC_FIELD(priced, count, 2, CODEC_INT32));

static void test_xmap(void)
{
    codec *c = make("protobuf", &priced_type);
    priced p = {{1234}, 3}, back = {{0}, 0};
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err = {0};
    CHECK_INT(codec_encode(c, &p, &out, &err), 0);
    static const uint8_t want[] = {0x0a, 0x05, '1', '2', '.', '3', '4', 0x10, 0x03};
    CHECK_MEM(out.data, out.len, want, sizeof want);
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &a, &err), 0);
    CHECK(back.price.v == 1234 && back.count == 3);
    static const uint8_t refused[] = {0x10, 0x01, 0x0a, 0x01, 'x'};
    CHECK_INT(codec_decode(c, refused, sizeof refused, &back, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_CORRUPT);
    CHECK_INT(err.offset, 3);
    static const uint8_t varint[] = {0x08, 0x01};   /* the wire type of an int, not a string */
    CHECK_INT(codec_decode(c, varint, sizeof varint, &back, &a, &err), CODEC_E_INVALID_PAYLOAD);
    codec_arena_free(&a);
    codec_buf_free(&out);
    codec_free(c);
}

/* The backend composes with transforms and is listed by the registry. */
static void test_pipeline(void)
{
    codec *c = make("protobuf | hex", &person_type);
    person p = payload_person();
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err = {0};
    CHECK_INT(codec_encode(c, &p, &out, &err), 0);
    const char *want = "0a0c416461204c6f76656c616365102418012" "20f616461406578616d706c652e636f6d";
    CHECK_MEM(out.data, out.len, want, strlen(want));
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    person back;
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &a, &err), 0);
    CHECK(back.age == 36 && str_eq(back.email, "ada@example.com"));
    bool listed = false;
    for (size_t i = 0; i < codec_registry_count(); i++)
        listed |= strcmp(codec_registry_info(i)->name, "protobuf") == 0 &&
                  codec_registry_info(i)->kind == CODEC_KIND_BACKEND;
    CHECK(listed);
    codec_arena_free(&a);
    codec_buf_free(&out);
    codec_free(c);
}

int main(void)
{
    test_person();
    test_order();
    test_scalars();
    test_containers();
    test_unknown();
    test_depth();
    test_refused();
    test_pipeline();
    test_xmap();
    return check_done("test_protobuf");
}
