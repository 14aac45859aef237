/* test_json.c — the JSON backend: exact payload sizes, round trips of every
 * kind, integer ranges, options, limits, truncation, allocation-free
 * steady state, the streaming reader and writer. */
#include "check.h"
#include "codec/codec.h"
#include "formats/json/json_internal.h"
#include "formats/json/json_plan_internal.h"
#include "json_payloads.h"
#include "test_support.h"

#include <float.h>
#include <math.h>

/* ---------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static int encode_with(const codec *c, const void *v, codec_buf *out)
{
    codec_error err = {0};
    codec_buf_clear(out);
    int rc = codec_encode(c, v, out, &err);
    if (rc)
        fprintf(stderr, "encode: %s\n", err.message);
    return rc;
}

static int decode_text(const codec *c, const char *text, void *v, codec_arena *arena,
                       codec_error *err)
{
    return codec_decode(c, (const uint8_t *)text, strlen(text), v, arena, err);
}

static bool str_eq(codec_string a, const char *b)
{
    return a.len == strlen(b) && memcmp(a.ptr, b, a.len) == 0;
}

/* ---------------------------------------------------------------------------
 * Payloads
 * ------------------------------------------------------------------------ */

static void test_person(void)
{
    codec_error err = {0};
    codec *c = codec_json(&person_type, NULL, &err);
    CHECK(c != NULL);
    codec_buf out;
    codec_buf_init(&out, NULL);
    person p = payload_person();
    CHECK_INT(encode_with(c, &p, &out), 0);
    const char *want =
        "{\"name\":\"Ada Lovelace\",\"age\":36,\"active\":true,\"email\":\"ada@example.com\"}";
    CHECK_INT(out.len, 72);
    CHECK_MEM(out.data, out.len, want, strlen(want));

    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    person back;
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
    CHECK(str_eq(back.name, "Ada Lovelace") && back.age == 36 && back.active &&
          str_eq(back.email, "ada@example.com"));
    /* The decoded strings live in the arena, not in the input. */
    CHECK(back.name.ptr < (const char *)out.data ||
          back.name.ptr >= (const char *)out.data + out.len);

    codec_free(c);
    codec_arena_free(&arena);
    codec_buf_free(&out);
}

static void test_order(void)
{
    codec_error err = {0};
    codec *c = codec_parse("json", &order_type, &err);
    CHECK(c != NULL);
    line_item items[100];
    char text[100 * 64];
    order o = payload_order(items, text);
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(encode_with(c, &o, &out), 0);
    CHECK_INT(out.len, 9096);
    CHECK(out.len > 40 && memcmp(out.data, "{\"id\":\"ord-2026-000123\",\"customer\"", 34) == 0);

    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    order back;
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
    CHECK_INT(back.items.count, 100);
    bool same = true;
    for (size_t i = 0; i < 100 && back.items.count == 100; i++)
        same &= back.items.items[i].quantity == items[i].quantity &&
                back.items.items[i].unit_price == items[i].unit_price &&
                back.items.items[i].sku.len == items[i].sku.len &&
                memcmp(back.items.items[i].sku.ptr, items[i].sku.ptr, items[i].sku.len) == 0;
    CHECK(same);
    codec_free(c);
    codec_arena_free(&arena);
    codec_buf_free(&out);
}

/* Decodes `text` as a person with options `spec`; returns the status and
 * leaves the error in *err. */
static int person_from(const char *spec, const char *text, person *p, codec_error *err)
{
    codec *c = codec_parse(spec, &person_type, err);
    if (!c)
        return -1;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    int rc = decode_text(c, text, p, &arena, err);
    codec_arena_free(&arena);
    codec_free(c);
    return rc;
}

static void test_options(void)
{
    codec_error err = {0};
    person p;
    /* Unknown fields: skipped by default (whatever their shape), or rejected. */
    const char *extra = "{\"x\":[1,{\"y\":\"\\u00e9\"}],\"age\":7,\"z\":null}";
    CHECK_INT(person_from("json", extra, &p, &err), 0);
    CHECK_INT(p.age, 7);
    CHECK(p.name.len == 0 && !p.active);
    CHECK_INT(person_from("json:unknown=reject", extra, &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "unknown field 'x'") != NULL);
    CHECK_INT(err.offset, 1);
    /* Missing fields: zero by default, an error with require=all. */
    CHECK_INT(person_from("json:require=all", "{\"age\":7}", &p, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "missing field 'name'") != NULL);
    /* Duplicates: rejected by default; allowed means the last one wins. */
    CHECK_INT(person_from("json", "{\"age\":7,\"age\":8}", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "duplicate key 'age'") != NULL);
    CHECK_INT(err.offset, 9);
    CHECK_INT(person_from("json:duplicates=allow", "{\"age\":7,\"age\":8}", &p, &err), 0);
    CHECK_INT(p.age, 8);
    /* Type mismatches name the type and the offset. */
    CHECK_INT(person_from("json", "{\"age\":\"7\"}", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 7);
    CHECK_INT(person_from("json", "{\"age\":7.0}", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "expected an integer") != NULL);
    CHECK_INT(person_from("json", "[]", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(person_from("json", "{} x", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRAILING);
    CHECK_INT(err.offset, 3);
    /* Escaped keys still find their field. */
    CHECK_INT(person_from("json", "{\"\\u0061ge\":5}", &p, &err), 0);
    CHECK_INT(p.age, 5);
    /* Bad option values are usage errors that list what is allowed. */
    CHECK(codec_parse("json:unknown=maybe", &person_type, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK(codec_parse("json:max-depth=0", &person_type, &err) == NULL);
    CHECK(codec_parse("json", NULL, &err) == NULL);
    /* Pretty output. */
    codec *c = codec_parse("json:pretty", &person_type, &err);
    codec_buf out;
    codec_buf_init(&out, NULL);
    p = payload_person();
    CHECK_INT(encode_with(c, &p, &out), 0);
    const char *want = "{\n  \"name\": \"Ada Lovelace\",\n  \"age\": 36,\n  \"active\": true,\n"
                       "  \"email\": \"ada@example.com\"\n}";
    CHECK_MEM(out.data, out.len, want, strlen(want));
    CHECK_STR(codec_spec(c), "json:pretty");
    codec_free(c);
    codec_json_options o = {.pretty = true, .reject_unknown = true, .max_depth = 10};
    c = codec_json(&person_type, &o, &err);
    CHECK(c != NULL);
    CHECK_STR(codec_spec(c), "json:pretty,unknown=reject,max-depth=10");
    codec_free(c);
    /* Every option at once still fits a stage's spec text. */
    codec_json_options all = {true, true, true, true, 4096, (size_t)3 << 30, (size_t)5 << 20,
                              (size_t)7 << 20, {0}};
    c = codec_json(&person_type, &all, &err);
    CHECK(c != NULL);
    if (c)
        CHECK_STR(codec_spec(c), "json:pretty,unknown=reject,require=all,duplicates=allow,"
                                 "max-depth=4k,max-size=3g,max-string=5m,max-elements=7m");
    codec_free(c);
    codec_buf_free(&out);
}

/* ---------------------------------------------------------------------------
 * Every kind
 * ------------------------------------------------------------------------ */

typedef enum color { RED = 1, GREEN = 2, BLUE = 40 } color;
CODEC_ENUM(color_type, {"RED", RED}, {"GREEN", GREEN}, {"BLUE", BLUE});

/* An xmap: a C `struct cents { int64_t v; }` travels as the string "12.34". */
typedef struct cents {
    int64_t v;
} cents;

static int cents_to_wire(void *ctx, const void *c_value, void *wire, char *scratch)
{
    (void)ctx;
    int64_t v = ((const cents *)c_value)->v;
    if (v < 0)
        return -1;
    int n = snprintf(scratch, CODEC_XMAP_SCRATCH, "%lld.%02lld", (long long)(v / 100),
                     (long long)(v % 100));
    *(codec_string *)wire = (codec_string){scratch, (size_t)n};
    return 0;
}

static int cents_from_wire(void *ctx, const void *wire, void *c_value, codec_arena *arena)
{
    (void)ctx, (void)arena;
    const codec_string *s = wire;
    char tmp[32];
    if (s->len >= sizeof tmp)
        return -1;
    memcpy(tmp, s->ptr, s->len);
    tmp[s->len] = 0;
    long long whole, frac;
    if (sscanf(tmp, "%lld.%2lld", &whole, &frac) != 2)
        return -1;
    ((cents *)c_value)->v = whole * 100 + frac;
    return 0;
}

static const codec_xmap cents_xmap = {CODEC_STRING, cents_to_wire, cents_from_wire, NULL};
CODEC_XMAP(cents_type, cents, &cents_xmap);

typedef struct all_kinds {
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
    codec_bytes bytes;
    int32_t color;
    CODEC_LIST_OF(int64_t) ints;
    CODEC_MAP_OF(codec_string, double) weights;
    CODEC_MAP_OF(int32_t, bool) flags;
    CODEC_OPTIONAL_OF(int32_t) maybe;
    CODEC_OPTIONAL_OF(codec_string) note;
    codec_uuid id;
    codec_date day;
    codec_timestamp at;
    codec_string amount;
    cents price;
    codec_value extra;
    CODEC_LIST_OF(CODEC_OPTIONAL_OF(double)) holes;
} all_kinds;

CODEC_LIST(i64_list_type, CODEC_INT64);
CODEC_MAP(weights_type, CODEC_STRING, CODEC_DOUBLE);
CODEC_MAP(flags_type, CODEC_INT32, CODEC_BOOL);
CODEC_OPTIONAL(maybe_type, int32_t, CODEC_INT32);
CODEC_OPTIONAL(note_type, codec_string, CODEC_STRING);
CODEC_OPTIONAL(opt_double_type, double, CODEC_DOUBLE);
CODEC_LIST(holes_type, &opt_double_type);

CODEC_STRUCT(all_kinds_type, all_kinds,
             CODEC_FIELD(all_kinds, b, 1, CODEC_BOOL),
             CODEC_FIELD(all_kinds, i8, 2, CODEC_INT8),
             CODEC_FIELD(all_kinds, i16, 3, CODEC_INT16),
             CODEC_FIELD(all_kinds, i32, 4, CODEC_INT32),
             CODEC_FIELD(all_kinds, i64, 5, CODEC_INT64),
             CODEC_FIELD(all_kinds, u8, 6, CODEC_UINT8),
             CODEC_FIELD(all_kinds, u16, 7, CODEC_UINT16),
             CODEC_FIELD(all_kinds, u32, 8, CODEC_UINT32),
             CODEC_FIELD(all_kinds, u64, 9, CODEC_UINT64),
             CODEC_FIELD(all_kinds, f, 10, CODEC_FLOAT),
             CODEC_FIELD(all_kinds, d, 11, CODEC_DOUBLE),
             CODEC_FIELD(all_kinds, s, 12, CODEC_STRING),
             CODEC_FIELD(all_kinds, bytes, 13, CODEC_BYTES),
             CODEC_FIELD(all_kinds, color, 14, &color_type),
             CODEC_FIELD(all_kinds, ints, 15, &i64_list_type),
             CODEC_FIELD(all_kinds, weights, 16, &weights_type),
             CODEC_FIELD(all_kinds, flags, 17, &flags_type),
             CODEC_FIELD(all_kinds, maybe, 18, &maybe_type),
             CODEC_FIELD(all_kinds, note, 19, &note_type),
             CODEC_FIELD(all_kinds, id, 20, CODEC_UUID),
             CODEC_FIELD(all_kinds, day, 21, CODEC_DATE),
             CODEC_FIELD(all_kinds, at, 22, CODEC_TIMESTAMP),
             CODEC_FIELD(all_kinds, amount, 23, CODEC_DECIMAL),
             CODEC_FIELD(all_kinds, price, 24, &cents_type),
             CODEC_FIELD(all_kinds, extra, 25, CODEC_VALUE),
             CODEC_FIELD(all_kinds, holes, 26, &holes_type));

/* Doubles worth testing: subnormals, extremes, integers above 2^53. */
static double random_double(uint64_t *rng)
{
    static const double special[] = {0.0, -0.0, 5e-324, -5e-324, 2.2250738585072009e-308,
                                     2.2250738585072014e-308, DBL_MAX, -DBL_MAX, 9007199254740993.0,
                                     18446744073709551616.0, 0.1, 1e21, 1e-7, 123456789012345680.0};
    uint64_t r = check_rand(rng);
    if (r % 4 == 0)
        return special[(r >> 8) % (sizeof special / sizeof special[0])];
    double d;
    uint64_t bits = check_rand(rng);
    memcpy(&d, &bits, 8);
    return isfinite(d) ? d : (double)(int64_t)bits;
}

static char text_pool[1 << 16];
static size_t text_used;

/* A random UTF-8 string with escapes-worthy characters. */
static codec_string random_text(uint64_t *rng)
{
    static const char *const parts[] = {"a", "Z", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f",
                                        "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                        " ", "\xef\xbf\xbf", "\0"};
    size_t n = check_rand(rng) % 12, start = text_used;
    for (size_t i = 0; i < n; i++) {
        const char *p = parts[check_rand(rng) % 16];
        size_t len = p[0] ? strlen(p) : 1;
        memcpy(text_pool + text_used, p, len);
        text_used += len;
    }
    return (codec_string){text_pool + start, text_used - start};
}

static void random_all_kinds(all_kinds *v, uint64_t *rng, void *store)
{
    memset(v, 0, sizeof *v);
    uint64_t r = check_rand(rng);
    v->b = r & 1;
    v->i8 = (int8_t)r;
    v->i16 = (int16_t)(r >> 8);
    v->i32 = (int32_t)(r >> 16);
    v->i64 = (int64_t)check_rand(rng) >> (r % 64);
    v->u8 = (uint8_t)(r >> 24);
    v->u16 = (uint16_t)(r >> 32);
    v->u32 = (uint32_t)(r >> 20);
    v->u64 = check_rand(rng) >> (r % 64);
    double fd = random_double(rng);
    v->f = fabs(fd) < FLT_MAX ? (float)fd : (float)(r % 1000) / 7.0f;
    v->d = random_double(rng);
    v->s = random_text(rng);
    uint8_t *bytes = store;
    size_t nb = r % 9;
    for (size_t i = 0; i < nb; i++)
        bytes[i] = (uint8_t)check_rand(rng);
    v->bytes = (codec_bytes){bytes, nb};
    v->color = (int32_t[]){RED, GREEN, BLUE}[r % 3];
    int64_t *ints = (int64_t *)(bytes + 16);
    v->ints.count = r % 5;
    for (size_t i = 0; i < v->ints.count; i++)
        ints[i] = (int64_t)check_rand(rng);
    v->ints.items = ints;
    static codec_string keys[3];
    static double weights[3];
    static int32_t fkeys[2];
    static bool fvals[2];
    v->weights.count = r % 4;
    for (size_t i = 0; i < v->weights.count; i++) {
        char *k = text_pool + text_used;
        text_used += (size_t)sprintf(k, "k%zu", i);
        keys[i] = (codec_string){k, strlen(k)};
        weights[i] = random_double(rng);
    }
    v->weights.keys = keys;
    v->weights.values = weights;
    fkeys[0] = INT32_MIN, fkeys[1] = (int32_t)r;
    fvals[0] = true, fvals[1] = false;
    v->flags.count = fkeys[0] == fkeys[1] ? 1 : 2;
    v->flags.keys = fkeys;
    v->flags.values = fvals;
    v->maybe.has = r >> 40 & 1;
    v->maybe.value = v->maybe.has ? (int32_t)(r >> 3) : 0;
    v->note.has = r >> 41 & 1;
    v->note.value = v->note.has ? random_text(rng) : (codec_string){0};
    for (int i = 0; i < 16; i++)
        v->id.bytes[i] = (uint8_t)check_rand(rng);
    v->day.days = (int32_t)(check_rand(rng) % 2900000) - 719528;
    v->at.seconds = (int64_t)(check_rand(rng) % 250000000000ull) - 62000000000;
    v->at.nanos = (int32_t)(check_rand(rng) % 1000000000);
    if (r & 2)
        v->at.nanos -= v->at.nanos % 1000000;
    v->at.offset_minutes = (int32_t)(check_rand(rng) % 2879) - 1439;
    v->amount = (r & 4) ? CODEC_STR("-12345678901234567890.000000000000000001e-5") : CODEC_STR("0");
    v->price.v = (int64_t)(check_rand(rng) % 100000000);
    v->extra.kind = CODEC_V_UINT;
    v->extra.as.u = UINT64_MAX - (r % 5);
    static CODEC_OPTIONAL_OF(double) holes[3];
    holes[0].has = false;
    holes[1].has = true, holes[1].value = random_double(rng);
    holes[2].has = true, holes[2].value = -0.0;
    v->holes.items = (void *)holes;
    v->holes.count = r % 4;
}

static bool same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static bool same_all_kinds(const all_kinds *a, const all_kinds *b)
{
    bool ok = a->b == b->b && a->i8 == b->i8 && a->i16 == b->i16 && a->i32 == b->i32 &&
              a->i64 == b->i64 && a->u8 == b->u8 && a->u16 == b->u16 && a->u32 == b->u32 &&
              a->u64 == b->u64 && memcmp(&a->f, &b->f, 4) == 0 && same_double(a->d, b->d) &&
              a->s.len == b->s.len && (a->s.len == 0 || !memcmp(a->s.ptr, b->s.ptr, a->s.len)) &&
              a->bytes.len == b->bytes.len &&
              (!a->bytes.len || !memcmp(a->bytes.data, b->bytes.data, a->bytes.len)) &&
              a->color == b->color && a->ints.count == b->ints.count &&
              a->weights.count == b->weights.count && a->flags.count == b->flags.count &&
              a->maybe.has == b->maybe.has && a->maybe.value == b->maybe.value &&
              a->note.has == b->note.has && a->note.value.len == b->note.value.len &&
              !memcmp(&a->id, &b->id, 16) && a->day.days == b->day.days &&
              a->at.seconds == b->at.seconds && a->at.nanos == b->at.nanos &&
              a->at.offset_minutes == b->at.offset_minutes && a->amount.len == b->amount.len &&
              !memcmp(a->amount.ptr, b->amount.ptr, a->amount.len) && a->price.v == b->price.v &&
              b->extra.kind == CODEC_V_UINT && a->extra.as.u == b->extra.as.u &&
              a->holes.count == b->holes.count;
    for (size_t i = 0; ok && i < a->ints.count; i++)
        ok = a->ints.items[i] == b->ints.items[i];
    for (size_t i = 0; ok && i < a->weights.count; i++)
        ok = same_double(a->weights.values[i], b->weights.values[i]) &&
             a->weights.keys[i].len == b->weights.keys[i].len;
    for (size_t i = 0; ok && i < a->flags.count; i++)
        ok = a->flags.keys[i] == b->flags.keys[i] && a->flags.values[i] == b->flags.values[i];
    for (size_t i = 0; ok && i < a->holes.count; i++)
        ok = a->holes.items[i].has == b->holes.items[i].has &&
             same_double(a->holes.items[i].value, b->holes.items[i].value);
    return ok;
}

static void test_all_kinds(void)
{
    codec_error err = {0};
    const char *specs[] = {"json", "json:pretty"};
    uint64_t rng = 0x1234567;
    for (int s = 0; s < 2; s++) {
        codec *c = codec_parse(specs[s], &all_kinds_type, &err);
        CHECK(c != NULL);
        if (!c) {
            fprintf(stderr, "%s\n", err.message);
            return;
        }
        codec_buf out;
        codec_buf_init(&out, NULL);
        codec_arena arena;
        codec_arena_init(&arena, NULL, 0);
        int bad = 0;
        for (int i = 0; i < 2000; i++) {
            text_used = 0;
            uint8_t store[64];
            all_kinds v, back;
            random_all_kinds(&v, &rng, store);
            codec_arena_reset(&arena);
            if (encode_with(c, &v, &out) ||
                codec_decode(c, out.data, out.len, &back, &arena, &err) ||
                !same_all_kinds(&v, &back)) {
                if (bad++ < 3)
                    fprintf(stderr, "round trip %d: %s\n%.*s\n", i, err.message, (int)out.len,
                            (const char *)out.data);
            }
        }
        CHECK_INT(bad, 0);
        codec_arena_free(&arena);
        codec_buf_free(&out);
        codec_free(c);
    }
}

/* The fast walkers (encode.c, decode.c) against the reference ones: the
 * same bytes for compact output, the same values from compact and pretty
 * text, for random values of every kind. */
static void test_fast_paths(void)
{
    codec_error err = {0};
    codec_json_options o;
    codec__json_options_resolve(NULL, &o);
    bool plain = codec__json_type_names_plain(&all_kinds_type);
    CHECK(plain);
    json_plan plan;
    CHECK_INT(codec__json_plan_build(&plan, &all_kinds_type), 0);
    codec_buf fast, ref;
    codec_buf_init(&fast, NULL);
    codec_buf_init(&ref, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    uint64_t rng = 77;
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
        text_used = 0;
        uint8_t store[64];
        all_kinds v, a, b;
        random_all_kinds(&v, &rng, store);
        codec_arena_reset(&arena);
        fast.len = ref.len = 0;
        bool pretty = i % 2;
        int rc = pretty ? codec__json_encode_reference(&all_kinds_type, &v, true, &fast, &err)
                        : codec__json_encode_fast(&plan, &v, &fast, &err);
        bad += rc != 0 ||
               codec__json_encode_reference(&all_kinds_type, &v, pretty, &ref, &err) != 0 ||
               fast.len != ref.len || memcmp(fast.data, ref.data, ref.len) != 0;
        memset(&a, 0, sizeof a);   /* as codec__json_decode_typed does */
        bad += codec__json_decode_fast(&all_kinds_type, fast.data, fast.len, &a, &o, plain, &arena,
                                       &err) != 0 ||
               codec__json_decode_reference(&all_kinds_type, fast.data, fast.len, &b, &o, &arena,
                                            &err) != 0 ||
               !same_all_kinds(&a, &b) || !same_all_kinds(&v, &a);
    }
    CHECK_INT(bad, 0);
    codec__json_plan_free(&plan);
    codec_arena_free(&arena);
    codec_buf_free(&fast);
    codec_buf_free(&ref);
}

static void test_kind_text(void)
{
    codec_error err = {0};
    codec *c = codec_parse("json", &all_kinds_type, &err);
    all_kinds v;
    memset(&v, 0, sizeof v);
    v.f = 0.1f;
    v.d = 12.0;
    v.s = CODEC_STR("\"\\\x01/\xc3\xa9");
    v.bytes = (codec_bytes){(const uint8_t *)"\xff\x00", 2};
    v.color = BLUE;
    v.id.bytes[0] = 0xAB;
    v.id.bytes[15] = 0x01;
    CHECK(codec_date_from_ymd(2026, 11, 30, &v.day) == 0);
    v.at = (codec_timestamp){1764505800, 500000000, 60};
    v.amount = CODEC_STR("1.10");
    v.price.v = 1234;
    v.maybe.has = true;
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(encode_with(c, &v, &out), 0);
    const char *want =
        "{\"b\":false,\"i8\":0,\"i16\":0,\"i32\":0,\"i64\":0,\"u8\":0,\"u16\":0,\"u32\":0,"
        "\"u64\":0,\"f\":0.1,\"d\":12.0,\"s\":\"\\\"\\\\\\u0001/\xc3\xa9\",\"bytes\":\"/wA=\","
        "\"color\":\"BLUE\",\"ints\":[],\"weights\":{},\"flags\":{},\"maybe\":0,"
        "\"id\":\"ab000000-0000-0000-0000-000000000001\",\"day\":\"2026-11-30\","
        "\"at\":\"2025-11-30T13:30:00.500+01:00\",\"amount\":1.10,\"price\":\"12.34\","
        "\"extra\":null,\"holes\":[]}";
    CHECK_MEM(out.data, out.len, want, strlen(want));
    if (out.len != strlen(want) || memcmp(out.data, want, out.len))
        fprintf(stderr, "got  %.*s\nwant %s\n", (int)out.len, (const char *)out.data, want);

    /* Values that cannot be encoded. */
    all_kinds bad = v;
    bad.d = NAN;
    CHECK_INT(codec_encode(c, &bad, &out, &err), CODEC_E_INVALID_VALUE);
    bad.d = INFINITY;
    CHECK_INT(codec_encode(c, &bad, &out, &err), CODEC_E_INVALID_VALUE);
    /* Inside a list or map, the innermost reason is the one reported. */
    bad = v;
    codec_string wkey = CODEC_STR("w");
    double wnan = NAN;
    bad.weights.keys = &wkey;
    bad.weights.values = &wnan;
    bad.weights.count = 1;
    CHECK_INT(codec_encode(c, &bad, &out, &err), CODEC_E_INVALID_VALUE);
    CHECK(strstr(err.message, "NaN") != NULL);
    bad = v;
    bad.s = CODEC_STR("\xc3");
    CHECK_INT(codec_encode(c, &bad, &out, &err), CODEC_E_INVALID_VALUE);
    bad = v;
    bad.color = 3;
    CHECK_INT(codec_encode(c, &bad, &out, &err), CODEC_E_INVALID_VALUE);
    bad = v;
    bad.amount = CODEC_STR("01");
    CHECK_INT(codec_encode(c, &bad, &out, &err), CODEC_E_INVALID_VALUE);
    bad = v;
    bad.price.v = -1;
    size_t before = out.len;
    CHECK_INT(codec_encode(c, &bad, &out, &err), CODEC_E_INVALID_VALUE);
    CHECK_INT(out.len, before);
    codec_buf_free(&out);
    codec_free(c);
}

/* Every integer width refuses the first value past each end. */
static void test_int_ranges(void)
{
    static const struct {
        const char *field, *low, *high, *lowbad, *highbad;
    } cases[] = {
        {"i8", "-128", "127", "-129", "128"},
        {"i16", "-32768", "32767", "-32769", "32768"},
        {"i32", "-2147483648", "2147483647", "-2147483649", "2147483648"},
        {"i64", "-9223372036854775808", "9223372036854775807", "-9223372036854775809",
         "9223372036854775808"},
        {"u8", "0", "255", "-1", "256"},
        {"u16", "0", "65535", "-1", "65536"},
        {"u32", "0", "4294967295", "-1", "4294967296"},
        {"u64", "0", "18446744073709551615", "-1", "18446744073709551616"},
    };
    codec_error err = {0};
    codec *c = codec_parse("json", &all_kinds_type, &err);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *vals[] = {cases[i].low, cases[i].high, cases[i].lowbad, cases[i].highbad};
        for (int k = 0; k < 4; k++) {
            char doc[128];
            snprintf(doc, sizeof doc, "{\"%s\":%s}", cases[i].field, vals[k]);
            all_kinds v;
            int rc = decode_text(c, doc, &v, &arena, &err);
            CHECK_INT(rc, k < 2 ? 0 : CODEC_E_INVALID_PAYLOAD);
            if (k >= 2)
                CHECK(strstr(err.message, "out of range") != NULL);
        }
    }
    all_kinds v;
    CHECK_INT(decode_text(c, "{\"u64\":18446744073709551615,\"i64\":-9223372036854775808}", &v,
                          &arena, &err), 0);
    CHECK(v.u64 == UINT64_MAX && v.i64 == INT64_MIN);
    CHECK_INT(decode_text(c, "{\"f\":1e39}", &v, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_text(c, "{\"d\":1e309}", &v, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_text(c, "{\"d\":-0}", &v, &arena, &err), 0);
    CHECK(v.d == 0 && signbit(v.d));
    CHECK_INT(decode_text(c, "{\"d\":9007199254740993}", &v, &arena, &err), 0);
    CHECK(v.d == 9007199254740992.0);
    CHECK_INT(decode_text(c, "{\"flags\":{\"01\":true}}", &v, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_text(c, "{\"flags\":{\"1\":true,\"1\":false}}", &v, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_text(c, "{\"color\":\"PINK\"}", &v, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_text(c, "{\"bytes\":\"/w==\"}", &v, &arena, &err), 0);
    CHECK_INT(decode_text(c, "{\"bytes\":\"/x==\"}", &v, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_text(c, "{\"day\":\"2023-02-29\"}", &v, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_text(c, "{\"at\":\"2026-11-30T25:00:00Z\"}", &v, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_text(c, "{\"maybe\":null,\"note\":\"x\"}", &v, &arena, &err), 0);
    CHECK(!v.maybe.has && v.note.has && str_eq(v.note.value, "x"));
    CHECK_INT(decode_text(c, "{\"i32\":null}", &v, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_text(c, "{\"price\":\"x\"}", &v, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "adapter") != NULL);
    codec_arena_free(&arena);
    codec_free(c);
}

static void test_recursive(void)
{
    codec_error err = {0};
    codec *c = codec_parse("json:max-depth=6", &node_type, &err);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    const char *doc = "{\"value\":1,\"children\":[{\"value\":2,\"children\":[]},"
                      "{\"value\":3,\"children\":[{\"value\":4,\"children\":[]}]}]}";
    node tree;
    CHECK_INT(decode_text(c, doc, &tree, &arena, &err), 0);
    CHECK(tree.children.count == 2 && tree.children.items[1].children.items[0].value == 4);
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(encode_with(c, &tree, &out), 0);
    CHECK_MEM(out.data, out.len, doc, strlen(doc));
    /* Depth 7 (4 objects and 3 arrays) is over max-depth=6. */
    const char *deep = "{\"children\":[{\"children\":[{\"children\":[{\"value\":1}]}]}]}";
    CHECK_INT(decode_text(c, deep, &tree, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    codec_buf_free(&out);
    codec_arena_free(&arena);
    codec_free(c);
}

/* ---------------------------------------------------------------------------
 * Limits, truncation, allocation
 * ------------------------------------------------------------------------ */

static int value_from(const char *spec, const char *text, codec_error *err)
{
    codec *c = codec_parse(spec, codec_value_type(), err);
    if (!c)
        return -1;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_value v;
    int rc = decode_text(c, text, &v, &arena, err);
    codec_arena_free(&arena);
    codec_free(c);
    return rc;
}

static void test_limits(void)
{
    codec_error err = {0};
    CHECK_INT(value_from("json:max-depth=2", "[[1]]", &err), 0);
    CHECK_INT(value_from("json:max-depth=2", "[[[1]]]", &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK_INT(err.offset, 2);
    codec_json_options small = {.max_size = 5, .max_depth = 1};
    CHECK_INT(codec_json_validate((const uint8_t *)"[1,2]", 5, &small, &err), 0);
    CHECK_INT(codec_json_validate((const uint8_t *)"[1,2] ", 6, &small, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK_INT(codec_json_validate((const uint8_t *)"[[]]", 4, &small, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 1);
    CHECK_INT(codec_json_validate((const uint8_t *)"{\"a\":1,\"a\":1}", 13, NULL, &err), 0);
    CHECK_INT(value_from("json:max-size=5", "[1,2]", &err), 0);
    CHECK_INT(value_from("json:max-size=5", "[1,2 ]", &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK_INT(value_from("json:max-string=3", "[\"abc\"]", &err), 0);
    CHECK_INT(value_from("json:max-string=3", "[\"abcd\"]", &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(value_from("json:max-string=3", "[\"a\\u00e9\"]", &err), 0);
    CHECK_INT(value_from("json:max-string=3", "{\"abcd\":1}", &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(value_from("json:max-elements=3", "[1,2,3]", &err), 0);
    CHECK_INT(value_from("json:max-elements=3", "[1,2,3,4]", &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 7);
    CHECK_INT(value_from("json:max-elements=1", "{\"a\":1,\"b\":2}", &err),
              CODEC_E_INVALID_PAYLOAD);
    /* Typed lists and struct members obey max-elements too. */
    codec *c = codec_parse("json:max-elements=2", &all_kinds_type, &err);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    all_kinds v;
    CHECK_INT(decode_text(c, "{\"ints\":[1,2]}", &v, &arena, &err), 0);
    CHECK_INT(decode_text(c, "{\"ints\":[1,2,3]}", &v, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(decode_text(c, "{\"i8\":1,\"i16\":2,\"i32\":3}", &v, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    codec_free(c);
    /* Deeply nested input stops at the depth limit, without recursion trouble. */
    static char deep[200001];
    memset(deep, '[', 200000);
    c = codec_parse("json:max-depth=4096", codec_value_type(), &err);
    CHECK_INT(codec_decode(c, (const uint8_t *)deep, 200000, &v, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 4096);
    codec_free(c);
    codec_arena_free(&arena);
}

/* Cutting a valid document anywhere gives a clean error at or before the cut. */
static void test_truncation(void)
{
    codec_error err = {0};
    codec *c = codec_parse("json", &all_kinds_type, &err);
    codec *cv = codec_parse("json", codec_value_type(), &err);
    uint64_t rng = 99;
    uint8_t store[64];
    all_kinds v;
    do {   /* a draw with non-empty containers */
        text_used = 0;
        random_all_kinds(&v, &rng, store);
    } while (v.weights.count < 2 || v.ints.count < 3);
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(encode_with(c, &v, &out), 0);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    int bad = 0;
    for (size_t cut = 0; cut < out.len; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1);   /* exact size: ASan sees any over-read */
        memcpy(copy, out.data, cut);
        all_kinds back;
        codec_value val;
        codec_arena_reset(&arena);
        int rc = codec_decode(c, copy, cut, &back, &arena, &err);
        if (rc != CODEC_E_INVALID_PAYLOAD || err.offset > cut)
            bad++;
        rc = codec_decode(cv, copy, cut, &val, &arena, &err);
        if (rc != CODEC_E_INVALID_PAYLOAD || err.offset > cut)
            bad++;
        free(copy);
    }
    CHECK_INT(bad, 0);
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
    codec_free(cv);
}

/* Steady state: decoding into a reset arena and encoding into a reused
 * buffer allocate nothing. */
static void test_no_alloc(void)
{
    test_alloc counter;
    const codec_allocator *a = test_alloc_init(&counter, SIZE_MAX);
    codec_error err = {0};
    codec *c = codec_parse("json", &order_type, &err);
    codec *cv = codec_parse("json", codec_value_type(), &err);
    line_item items[100];
    char text[100 * 64];
    order o = payload_order(items, text);
    codec_buf out;
    codec_buf_init(&out, a);
    codec_arena arena;
    codec_arena_init(&arena, a, 0);
    CHECK_INT(encode_with(c, &o, &out), 0);
    order back;
    codec_value val;
    for (int round = 0; round < 3; round++) {
        codec_arena_reset(&arena);
        CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
        codec_arena_reset(&arena);
        CHECK_INT(codec_decode(cv, out.data, out.len, &val, &arena, &err), 0);
    }
    size_t before = counter.calls;
    for (int round = 0; round < 20; round++) {
        codec_arena_reset(&arena);
        CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
        codec_arena_reset(&arena);
        CHECK_INT(codec_decode(cv, out.data, out.len, &val, &arena, &err), 0);
        codec_buf_clear(&out);
        CHECK_INT(codec_encode(c, &o, &out, &err), 0);
    }
    CHECK_INT(counter.calls, before);
    CHECK_INT(back.items.count, 100);
    CHECK_INT(val.kind, CODEC_V_OBJECT);
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
    codec_free(cv);
}

/* Every allocation failing in turn: decoding and encoding report
 * CODEC_E_NOMEM cleanly (ASan checks nothing leaks or is touched). */
static void test_out_of_memory(void)
{
    codec_error err = {0};
    codec *c = codec_parse("json", &all_kinds_type, &err);
    uint64_t rng = 5;
    uint8_t store[64];
    all_kinds v, back;
    do {
        text_used = 0;
        random_all_kinds(&v, &rng, store);
    } while (v.weights.count < 2 || v.ints.count < 3);
    codec_buf text;
    codec_buf_init(&text, NULL);
    CHECK_INT(encode_with(c, &v, &text), 0);
    int bad = 0, succeeded = 0;
    for (size_t budget = 0; budget < 40; budget++) {
        test_alloc t;
        const codec_allocator *a = test_alloc_init(&t, budget);
        codec_arena arena;
        codec_arena_init(&arena, a, 64);
        int rc = codec_decode(c, text.data, text.len, &back, &arena, &err);
        bad += rc != 0 && rc != CODEC_E_NOMEM;
        succeeded += rc == 0;
        codec_arena_free(&arena);
        codec_buf out;
        codec_buf_init(&out, a);
        rc = codec_encode(c, &v, &out, &err);
        bad += rc != 0 && rc != CODEC_E_NOMEM;
        codec_buf_free(&out);
    }
    CHECK_INT(bad, 0);
    CHECK(succeeded > 0);
    codec_buf_free(&text);
    codec_free(c);
}

/* ---------------------------------------------------------------------------
 * Streaming
 * ------------------------------------------------------------------------ */

static void test_streaming(void)
{
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_json_writer w;
    codec_json_writer_init(&w, &out, false);
    CHECK_INT(codec_json_write_object_start(&w), 0);
    CHECK(codec_json_write_key(&w, "a", 1) == 0);
    CHECK(codec_json_write_array_start(&w) == 0);
    CHECK(codec_json_write_int64(&w, INT64_MIN) == 0);
    CHECK(codec_json_write_uint64(&w, UINT64_MAX) == 0);
    CHECK(codec_json_write_double(&w, 1.5e300) == 0);
    CHECK(codec_json_write_double(&w, 3.0) == 0);
    CHECK(codec_json_write_bool(&w, true) == 0);
    CHECK(codec_json_write_null(&w) == 0);
    CHECK(codec_json_write_string(&w, "\x1f\n", 2) == 0);
    CHECK(codec_json_write_array_end(&w) == 0);
    CHECK(codec_json_write_key(&w, "b", 1) == 0);
    CHECK(codec_json_write_object_start(&w) == 0);
    CHECK(codec_json_write_object_end(&w) == 0);
    CHECK_INT(codec_json_write_object_end(&w), 0);
    CHECK_INT(codec_json_write_double(&w, NAN), CODEC_E_INVALID_VALUE);
    CHECK_INT(codec_json_write_string(&w, "\xff", 1), CODEC_E_INVALID_VALUE);
    const char *want = "{\"a\":[-9223372036854775808,18446744073709551615,1.5e+300,3.0,true,null,"
                       "\"\\u001f\\n\"],\"b\":{}}";
    CHECK_MEM(out.data, out.len, want, strlen(want));

    /* Nesting deeper than any reader accepts cannot be written. */
    codec_buf deep;
    codec_buf_init(&deep, NULL);
    codec_json_writer dw;
    codec_json_writer_init(&dw, &deep, false);
    int deep_rc = 0;
    for (int i = 0; i <= CODEC_JSON_MAX_DEPTH_LIMIT && !deep_rc; i++)
        deep_rc = codec_json_write_array_start(&dw);
    CHECK_INT(deep_rc, CODEC_E_INVALID_VALUE);
    CHECK_INT(deep.len, CODEC_JSON_MAX_DEPTH_LIMIT);
    codec_buf_free(&deep);

    /* Read it back token by token. */
    static const codec_json_token expect[] = {
        CODEC_JSON_OBJECT_START, CODEC_JSON_KEY,  CODEC_JSON_ARRAY_START, CODEC_JSON_NUMBER,
        CODEC_JSON_NUMBER,       CODEC_JSON_NUMBER, CODEC_JSON_NUMBER,   CODEC_JSON_TRUE,
        CODEC_JSON_NULL,         CODEC_JSON_STRING, CODEC_JSON_ARRAY_END, CODEC_JSON_KEY,
        CODEC_JSON_OBJECT_START, CODEC_JSON_OBJECT_END, CODEC_JSON_OBJECT_END, CODEC_JSON_END};
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_json_reader r;
    codec_json_reader_init(&r, out.data, out.len, &arena, NULL);
    codec_error err = {0};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        codec_json_token tok;
        CHECK_INT(codec_json_next(&r, &tok, &err), 0);
        CHECK_INT(tok, expect[i]);
        int64_t i64;
        uint64_t u64;
        double d;
        if (i == 3)
            CHECK(codec_json_reader_int64(&r, &i64) == 0 && i64 == INT64_MIN &&
                  codec_json_reader_uint64(&r, &u64) == -1);
        if (i == 4)
            CHECK(codec_json_reader_uint64(&r, &u64) == 0 && u64 == UINT64_MAX &&
                  codec_json_reader_int64(&r, &i64) == -1);
        if (i == 5)
            CHECK(codec_json_reader_double(&r, &d) == 0 && d == 1.5e300 &&
                  codec_json_reader_int64(&r, &i64) == -1);
        if (i == 9)
            CHECK(str_eq(codec_json_reader_text(&r), "\x1f\n"));
        if (i == 11)
            CHECK(str_eq(codec_json_reader_text(&r), "b") && codec_json_reader_offset(&r) == 83);
    }
    /* Skipping a whole value. */
    const char *doc = "[{\"x\":[1,[2,{}]]},7]";
    codec_json_reader_init(&r, (const uint8_t *)doc, strlen(doc), &arena, NULL);
    codec_json_token tok;
    CHECK_INT(codec_json_next(&r, &tok, &err), 0);
    CHECK_INT(codec_json_next(&r, &tok, &err), 0);
    CHECK_INT(codec_json_skip(&r, tok, &err), 0);
    CHECK_INT(codec_json_next(&r, &tok, &err), 0);
    CHECK(tok == CODEC_JSON_NUMBER && str_eq(codec_json_reader_text(&r), "7"));

    /* Pretty writer nesting. */
    codec_buf_clear(&out);
    codec_json_writer_init(&w, &out, true);
    CHECK(codec_json_write_array_start(&w) == 0);
    CHECK(codec_json_write_array_start(&w) == 0);
    CHECK(codec_json_write_array_end(&w) == 0);
    CHECK(codec_json_write_object_start(&w) == 0);
    CHECK(codec_json_write_key(&w, "k", 1) == 0);
    CHECK(codec_json_write_int64(&w, 1) == 0);
    CHECK(codec_json_write_object_end(&w) == 0);
    CHECK(codec_json_write_array_end(&w) == 0);
    const char *pretty = "[\n  [],\n  {\n    \"k\": 1\n  }\n]";
    CHECK_MEM(out.data, out.len, pretty, strlen(pretty));
    codec_arena_free(&arena);
    codec_buf_free(&out);
}

int main(void)
{
    test_recursive();
    test_limits();
    test_truncation();
    test_no_alloc();
    test_fast_paths();
    test_out_of_memory();
    test_streaming();
    test_all_kinds();
    test_kind_text();
    test_int_ranges();
    test_options();
    test_person();
    test_order();
    return check_done("test_json");
}
