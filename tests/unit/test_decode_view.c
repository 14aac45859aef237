/* test_decode_view.c — codec_decode_view(): every stage that borrows its
 * input (the three trailers, the versioned header and codec_versioned's
 * "as is" route, a gated compressor's raw value) alone and chained, mixed
 * chains that fall back to the arena, the strict form (no arena), and the
 * same status and error (family, detail, stage, offset, message) as
 * codec_decode() on every corrupt byte and every truncation. */
#include "check.h"
#include "codec/codec.h"
#include "codec/framing.h"

static codec_arena arena;

static codec *parse(const char *spec)
{
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    if (!c)
        fprintf(stderr, "%s: %s\n", spec, err.message);
    return c;
}

static void encode_into(const codec *c, const uint8_t *p, size_t n, codec_buf *out)
{
    codec_bytes in = {p, n};
    codec_buf_clear(out);
    CHECK_INT(codec_encode(c, &in, out, NULL), 0);
}

static bool inside(const uint8_t *p, size_t n, const uint8_t *in, size_t in_len)
{
    return p >= in && p + n <= in + in_len;
}

/* codec_decode_view and codec_decode agree on in[0..n): status, error or
 * bytes. Returns the view's status; *borrowed is the view's flag. */
static int agree(const codec *c, const uint8_t *in, size_t n, bool *borrowed)
{
    codec_error e1, e2;
    memset(&e1, 0, sizeof e1);
    memset(&e2, 0, sizeof e2);
    codec_bytes a = {NULL, 0}, b = {NULL, 0};
    bool held = false;
    codec_arena_reset(&arena);
    int r1 = codec_decode(c, in, n, &a, &arena, &e1);
    int r2 = codec_decode_view(c, in, n, &b, &held, &arena, &e2);
    CHECK_INT(r2, r1);
    if (r1 || r2) {
        CHECK_INT(e2.family, e1.family);
        CHECK_INT(e2.detail, e1.detail);
        CHECK_INT(e2.offset, e1.offset);
        CHECK_STR(e2.stage, e1.stage);
        CHECK_STR(e2.message, e1.message);
    } else {
        CHECK_MEM(b.data, b.len, a.data, a.len);
        CHECK(!held || inside(b.data, b.len, in, n));
    }
    if (borrowed)
        *borrowed = held;
    return r2;
}

/* Round trips of lengths 0..300 and 8 KiB: the view succeeds, borrows
 * (`borrows`) or not, and when it borrows it allocates nothing. */
static void round_trips(const char *spec, bool borrows)
{
    codec *c = parse(spec);
    CHECK(c != NULL);
    if (!c)
        return;
    static uint8_t payload[8338];
    uint64_t seed = 7;
    for (size_t i = 0; i < sizeof payload; i++)
        payload[i] = (uint8_t)(check_rand(&seed) % 16); /* compressible */
    codec_buf enc;
    codec_buf_init(&enc, NULL);
    for (size_t n = 0; n <= sizeof payload; n = n < 300 ? n + 1 : sizeof payload) {
        encode_into(c, payload, n, &enc);
        bool borrowed = !borrows;
        CHECK_INT(agree(c, enc.data, enc.len, &borrowed), 0);
        CHECK_INT(borrowed, borrows);
        codec_arena_reset(&arena);
        codec_bytes v;
        CHECK_INT(codec_decode_view(c, enc.data, enc.len, &v, NULL, &arena, NULL), 0);
        CHECK_MEM(v.data, v.len, payload, n);
        if (borrows)
            CHECK_INT(codec_arena_used(&arena), 0);
        if (n == sizeof payload)
            break;
    }
    codec_buf_free(&enc);
    codec_free(c);
}

static void test_borrowing_stages(void)
{
    static const char *const specs[] = {
        "crc32c", "crc32c:kernel=scalar", "crc32", "adler32", "versioned:3",
        "versioned:2,accept=1-3", "crc32c | versioned:2", "versioned:2 | crc32c",
        "adler32 | crc32 | crc32c | versioned:5",
        /* a gated compressor stores values under the gate raw */
        "zstd:1,gate=100000", "lz4:gate=100000 | crc32c"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        round_trips(specs[i], true);
}

static void test_fallback(void)
{
    /* zstd and base64 produce new bytes: the trailers around them are still
     * views, of the input or of the arena. */
    static const char *const specs[] = {"zstd:1 | crc32c", "crc32c | base64",
                                        "crc32c | hex | versioned:2"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        round_trips(specs[i], false);
    /* A gated compressor: raw under the gate (a view), compressed above. */
    codec *c = parse("zstd:1,gate=64 | crc32c");
    CHECK(c != NULL);
    if (!c)
        return;
    static uint8_t zeros[1000];
    codec_buf enc;
    codec_buf_init(&enc, NULL);
    for (size_t n = 10; n <= 1000; n += 990) {
        encode_into(c, zeros, n, &enc);
        bool borrowed = n > 64;
        CHECK_INT(agree(c, enc.data, enc.len, &borrowed), 0);
        CHECK_INT(borrowed, n < 64);
    }
    codec_buf_free(&enc);
    codec_free(c);
}

/* codec_versioned: version 1 as is (a view), version 2 through hex. */
static void test_routes(void)
{
    codec_version_route routes[] = {{1, NULL}, {2, codec_parse("hex", NULL, NULL)}};
    codec *c = codec_versioned(1, routes, 2, NULL);
    codec_version_route routes2[] = {{1, NULL}, {2, codec_parse("hex", NULL, NULL)}};
    codec *w2 = codec_versioned(2, routes2, 2, NULL);
    CHECK(c && w2);
    if (!c || !w2)
        return;
    codec_buf enc;
    codec_buf_init(&enc, NULL);
    encode_into(c, (const uint8_t *)"abc", 3, &enc);
    bool borrowed = false;
    CHECK_INT(agree(c, enc.data, enc.len, &borrowed), 0);
    CHECK(borrowed);
    encode_into(w2, (const uint8_t *)"abc", 3, &enc);
    CHECK_INT(agree(c, enc.data, enc.len, &borrowed), 0);
    CHECK(!borrowed);
    codec_error err;
    codec_bytes v;
    CHECK_INT(codec_decode_view(c, enc.data, enc.len, &v, &borrowed, NULL, &err), CODEC_E_USAGE);
    CHECK_STR(err.stage, "versioned");
    codec_buf_free(&enc);
    codec_free(c);
    codec_free(w2);
}

/* No arena: a chain of views works, a stage that produces bytes is a usage
 * error naming it, and a corrupt input is still reported as such. */
static void test_strict(void)
{
    codec *views = parse("crc32c | versioned:2"), *mixed = parse("zstd:1 | crc32c");
    CHECK(views && mixed);
    if (!views || !mixed)
        return;
    codec_buf enc;
    codec_buf_init(&enc, NULL);
    codec_error err;
    codec_bytes v;
    bool borrowed = false;
    encode_into(views, (const uint8_t *)"hello", 5, &enc);
    CHECK_INT(codec_decode_view(views, enc.data, enc.len, &v, &borrowed, NULL, &err), 0);
    CHECK(borrowed);
    CHECK(v.data == enc.data + 3);
    CHECK_MEM(v.data, v.len, "hello", 5);
    encode_into(mixed, (const uint8_t *)"hello", 5, &enc);
    CHECK_INT(codec_decode_view(mixed, enc.data, enc.len, &v, &borrowed, NULL, &err),
              CODEC_E_USAGE);
    CHECK_STR(err.stage, "zstd");
    enc.data[enc.len - 1] ^= 1;
    CHECK_INT(codec_decode_view(mixed, enc.data, enc.len, &v, &borrowed, NULL, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_CHECKSUM);
    codec_buf_free(&enc);
    codec_free(views);
    codec_free(mixed);
}

/* Every byte flipped (each of its bits) and every truncation: the view
 * fails exactly as codec_decode does, and never with a view. */
static void corrupt_everywhere(const char *spec, size_t n)
{
    codec *c = parse(spec);
    CHECK(c != NULL);
    if (!c)
        return;
    uint8_t payload[80];
    uint64_t seed = 11;
    for (size_t i = 0; i < n; i++)
        payload[i] = (uint8_t)check_rand(&seed);
    codec_buf enc;
    codec_buf_init(&enc, NULL);
    encode_into(c, payload, n, &enc);
    for (size_t i = 0; i < enc.len; i++)
        for (int bit = 0; bit < 8; bit++) {
            enc.data[i] ^= (uint8_t)(1u << bit);
            CHECK(agree(c, enc.data, enc.len, NULL) != 0);
            enc.data[i] ^= (uint8_t)(1u << bit);
        }
    for (size_t k = 0; k < enc.len; k++)
        CHECK(agree(c, enc.data, k, NULL) != 0);
    CHECK_INT(agree(c, enc.data, enc.len, NULL), 0);
    codec_buf_free(&enc);
    codec_free(c);
}

static void test_corrupt(void)
{
    /* versioned accepts only its version here, so a flipped version fails */
    static const char *const specs[] = {"crc32c", "crc32", "adler32", "crc32c | versioned:2",
                                        "versioned:2 | adler32", "zstd:1 | crc32c",
                                        "zstd:1,gate=1000 | crc32c"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        corrupt_everywhere(specs[i], 68);
        corrupt_everywhere(specs[i], 0);
    }
}

/* The empty body: a view of length 0 at the body's place. */
static void test_empty(void)
{
    codec *c = parse("crc32c");
    CHECK(c != NULL);
    if (!c)
        return;
    static const uint8_t zero[4] = {0, 0, 0, 0};
    codec_bytes v = {NULL, 99};
    bool borrowed = false;
    CHECK_INT(codec_decode_view(c, zero, 4, &v, &borrowed, &arena, NULL), 0);
    CHECK(borrowed);
    CHECK(v.data == zero);
    CHECK_INT(v.len, 0);
    codec_free(c);
}

static void test_usage(void)
{
    codec *c = parse("crc32c");
    codec_error err;
    codec_bytes v;
    bool borrowed;
    CHECK_INT(codec_decode_view(NULL, (const uint8_t *)"", 0, &v, &borrowed, &arena, &err),
              CODEC_E_USAGE);
    CHECK_INT(codec_decode_view(c, NULL, 4, &v, &borrowed, &arena, &err), CODEC_E_USAGE);
    CHECK_INT(codec_decode_view(c, (const uint8_t *)"", 0, NULL, &borrowed, &arena, &err),
              CODEC_E_USAGE);
    /* NULL input of length 0 is an empty input: too short for the trailer */
    CHECK_INT(codec_decode_view(c, NULL, 0, &v, &borrowed, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRUNCATED);
    codec_free(c);
    /* a typed codec decodes to a value, not to a byte range */
    codec *typed = codec_parse("json | crc32c", codec_value_type(), &err);
    CHECK(typed != NULL);
    if (typed) {
        CHECK_INT(codec_decode_view(typed, (const uint8_t *)"1", 1, &v, &borrowed, &arena, &err),
                  CODEC_E_USAGE);
        CHECK_STR(err.stage, "json");
        codec_free(typed);
    }
}

int main(void)
{
    codec_arena_init(&arena, NULL, 0);
    test_borrowing_stages();
    test_fallback();
    test_routes();
    test_strict();
    test_corrupt();
    test_empty();
    test_usage();
    codec_arena_free(&arena);
    return check_done("test_decode_view");
}
