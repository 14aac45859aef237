/* test_versioned.c — the versioned header [C0 DC][version][payload]: the
 * `versioned` spec stage, header errors, and codec_versioned() routing
 * (alone, inside pipelines, nested, without steady-state allocation). */
#include "check.h"
#include "test_support.h"
#include "codec/codec.h"
#include "codec/framing.h"
#include "codec/integrity.h"

#include <stdbool.h>

/* Decodes and expects `family`/`detail` (0 = success, then `expect`). */
static void expect_decode(const codec *c, const char *in, size_t n, int family, int detail,
                          uint64_t offset, const char *expect)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes out = {0};
    codec_error err = {0};
    int rc = codec_decode(c, (const uint8_t *)in, n, &out, &arena, &err);
    CHECK_INT(rc, family);
    if (rc == 0) {
        CHECK_MEM(out.data, out.len, expect, strlen(expect));
    } else {
        CHECK_INT(err.detail, detail);
        CHECK_INT(err.offset, offset);
        if (expect && !strstr(err.message, expect)) {
            fprintf(stderr, "message '%s' lacks '%s'\n", err.message, expect);
            CHECK(0);
        }
    }
    codec_arena_free(&arena);
}

static void expect_encode(const codec *c, const char *in, const char *expect, size_t expect_len)
{
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_bytes v = {(const uint8_t *)in, strlen(in)};
    CHECK_INT(codec_encode(c, &v, &out, NULL), 0);
    CHECK_MEM(out.data, out.len, expect, expect_len);
    codec_buf_free(&out);
}

static void test_header_errors(void)
{
    codec *c = test_parse("versioned");
    if (!c)
        return;
    expect_encode(c, "abc", "\xC0\xDC\x01" "abc", 6);
    expect_decode(c, "\xC0\xDC\x01" "abc", 6, 0, 0, 0, "abc");
    expect_decode(c, "\xC0\xDC\x01", 3, 0, 0, 0, "");
    expect_decode(c, "", 0, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, 0, "shorter");
    expect_decode(c, "\xC0", 1, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, 1, "shorter");
    expect_decode(c, "\xC0\xDC", 2, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, 2, "shorter");
    expect_decode(c, "{\"a\":1}", 7, CODEC_E_INVALID_PAYLOAD, CODEC_D_BAD_MAGIC, 0, "magic");
    expect_decode(c, "\x1F\x8B\x08", 3, CODEC_E_INVALID_PAYLOAD, CODEC_D_BAD_MAGIC, 0, "magic");
    expect_decode(c, "\xC0\xDD\x01", 3, CODEC_E_INVALID_PAYLOAD, CODEC_D_BAD_MAGIC, 1, "magic");
    expect_decode(c, "\xC0\xDC\x00x", 4, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 2,
                  "version 0");
    expect_decode(c, "\xC0\xDC\x07x", 4, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, 2,
                  "unsupported version 7 (accepted: 1)");
    expect_decode(c, "\xC0\xDC\xFFx", 4, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, 2,
                  "version 255");
    codec_free(c);
}

static void test_accept_list(void)
{
    codec *c = test_parse("versioned:2,accept=1-3,7");
    if (!c)
        return;
    CHECK_STR(codec_spec(c), "versioned:2,accept=1-3,7");
    expect_encode(c, "x", "\xC0\xDC\x02x", 4);
    for (unsigned v = 1; v < 256; v++) {
        char in[4] = {(char)0xC0, (char)0xDC, (char)v, 'p'};
        bool ok = (v >= 1 && v <= 3) || v == 7;
        expect_decode(c, in, 4, ok ? 0 : CODEC_E_UNSUPPORTED, CODEC_D_VERSION, 2,
                      ok ? "p" : "(accepted: 1-3,7)");
    }
    codec_free(c);

    c = codec_versioned_header(9, "9-11,200", NULL);
    CHECK(c && strcmp(codec_spec(c), "versioned:9,accept=9-11,200") == 0);
    if (c)
        expect_decode(c, "\xC0\xDC\x0Cz", 4, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, 2,
                      "unsupported version 12 (accepted: 9-11,200)");
    codec_free(c);

    static const char *const bad[] = {"versioned:0", "versioned:256", "versioned:x",
                                      "versioned:1,accept=3-1", "versioned:1,accept=0",
                                      "versioned:1,accept=1-", "versioned:1,accept=1-300",
                                      "versioned:1,accept=a", "versioned:1,accept=1,,2",
                                      "versioned:1,accept=1;2", "versioned:1,level=2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        codec_error err;
        codec *b = codec_parse(bad[i], NULL, &err);
        if (b)
            fprintf(stderr, "'%s' was accepted\n", bad[i]);
        CHECK(b == NULL);
        CHECK_INT(err.family, CODEC_E_USAGE);
    }
    CHECK(codec_versioned_header(0, NULL, NULL) == NULL);
}

/* {1 → as is, 2 → hex, 3 → hex | crc32c}, writing `write`. */
static codec *make_router(uint8_t write)
{
    codec_version_route routes[] = {
        {1, NULL}, {2, test_parse("hex")}, {3, test_parse("hex | crc32c")}};
    codec_error err;
    codec *c = codec_versioned(write, routes, 3, &err);
    if (!c)
        fprintf(stderr, "codec_versioned: %s\n", err.message);
    CHECK(c != NULL);
    return c;
}

static void test_routing(void)
{
    codec *c = make_router(3);
    if (!c)
        return;
    CHECK_STR(codec_spec(c), "versioned:3,accept=1-3");
    /* hex("hi") = "6869", crc32c("6869") appended big-endian. */
    uint32_t sum = codec_crc32c(0, "6869", 4);
    char expect[11] = {(char)0xC0, (char)0xDC, 3, '6', '8', '6', '9', (char)(sum >> 24),
                       (char)(sum >> 16), (char)(sum >> 8), (char)sum};
    expect_encode(c, "hi", expect, sizeof expect);
    expect_decode(c, expect, sizeof expect, 0, 0, 0, "hi");
    expect_decode(c, "\xC0\xDC\x01raw", 6, 0, 0, 0, "raw");
    expect_decode(c, "\xC0\xDC\x02" "6869", 7, 0, 0, 0, "hi");
    expect_decode(c, "\xC0\xDC\x02zz", 5, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 0, "hex");
    expect_decode(c, "\xC0\xDC\x03" "6869\0\0\0\0", 11, CODEC_E_INVALID_PAYLOAD,
                  CODEC_D_CHECKSUM, 4, "checksum mismatch");
    expect_decode(c, "\xC0\xDC\x04" "6869", 7, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, 2,
                  "unsupported version 4 (accepted: 1-3)");
    codec_free(c);

    c = make_router(1);
    if (c)
        expect_encode(c, "hi", "\xC0\xDC\x01hi", 5);
    codec_free(c);
}

static void test_routing_errors(void)
{
    codec_error err;
    codec_version_route dup[] = {{1, test_parse("hex")}, {1, test_parse("hex")}};
    CHECK(codec_versioned(1, dup, 2, &err) == NULL);
    CHECK(err.family == CODEC_E_USAGE && strstr(err.message, "twice"));
    codec_version_route zero[] = {{0, test_parse("hex")}};
    CHECK(codec_versioned(1, zero, 1, &err) == NULL);
    CHECK(err.family == CODEC_E_USAGE && strstr(err.message, "reserved"));
    codec_version_route other[] = {{2, test_parse("hex")}};
    CHECK(codec_versioned(1, other, 1, &err) == NULL);
    CHECK(err.family == CODEC_E_USAGE && strstr(err.message, "no route"));
    CHECK(codec_versioned(1, NULL, 0, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
}

/* The router between stages and inside another router's route: every
 * level must keep the scratch buffers of the levels around it intact. */
static void test_nesting(void)
{
    codec_version_route inner_routes[] = {{5, test_parse("hex | hex")}};
    codec *inner = codec_versioned(5, inner_routes, 1, NULL);
    codec_version_route outer_routes[] = {{7, codec_then(test_parse("hex"), inner, NULL)}};
    codec *router = codec_versioned(7, outer_routes, 1, NULL);
    codec *c = codec_then(codec_then(test_parse("hex | hex"), router, NULL),
                          test_parse("hex | hex"), NULL);
    CHECK(c != NULL);
    if (!c)
        return;
    /* The same bytes built step by step from plain stages. */
    codec *h = test_parse("hex");
    const char *text = "nested";
    codec_buf a, b;
    codec_buf_init(&a, NULL);
    codec_buf_init(&b, NULL);
    codec_bytes v = {(const uint8_t *)text, strlen(text)};
    CHECK_INT(codec_encode(h, &v, &a, NULL), 0);                 /* hex */
    v = (codec_bytes){a.data, a.len};
    CHECK_INT(codec_encode(h, &v, &b, NULL), 0);                 /* hex */
    a.len = 0;
    v = (codec_bytes){b.data, b.len};
    CHECK_INT(codec_encode(h, &v, &a, NULL), 0);                 /* route 7: hex */
    b.len = 0;
    v = (codec_bytes){a.data, a.len};
    CHECK_INT(codec_encode(h, &v, &b, NULL), 0);                 /* route 5: hex */
    a.len = 0;
    v = (codec_bytes){b.data, b.len};
    CHECK_INT(codec_encode(h, &v, &a, NULL), 0);                 /* route 5: hex */
    b.len = 0;
    CHECK(codec_buf_append(&b, "\xC0\xDC\x07\xC0\xDC\x05", 6) == 0);
    CHECK(codec_buf_append(&b, a.data, a.len) == 0);                         /* two headers */
    a.len = 0;
    v = (codec_bytes){b.data, b.len};
    CHECK_INT(codec_encode(h, &v, &a, NULL), 0);                 /* hex */
    b.len = 0;
    v = (codec_bytes){a.data, a.len};
    CHECK_INT(codec_encode(h, &v, &b, NULL), 0);                 /* hex */

    codec_buf out;
    codec_buf_init(&out, NULL);
    for (int round = 0; round < 2; round++) {
        out.len = 0;
        v = (codec_bytes){(const uint8_t *)text, strlen(text)};
        CHECK_INT(codec_encode(c, &v, &out, NULL), 0);
        CHECK_MEM(out.data, out.len, b.data, b.len);
    }
    expect_decode(c, (const char *)out.data, out.len, 0, 0, 0, text);
    codec_buf_free(&out);
    codec_buf_free(&a);
    codec_buf_free(&b);
    codec_free(h);
    codec_free(c);
}

static void test_steady_state(void)
{
    codec *c = codec_then(test_parse("hex"), make_router(3), NULL);
    if (!c)
        return;
    test_alloc n;
    codec_buf out;
    codec_buf_init(&out, test_alloc_init(&n, SIZE_MAX));
    codec_bytes v = {(const uint8_t *)"steady state", 12};
    CHECK_INT(codec_encode(c, &v, &out, NULL), 0);
    size_t warm = n.calls;
    CHECK(warm > 0);
    for (int i = 0; i < 10; i++) {
        out.len = 0;
        CHECK_INT(codec_encode(c, &v, &out, NULL), 0);
    }
    CHECK_INT(n.calls, warm);
    codec_buf_free(&out);
    codec_free(c);
}

/* Out of memory at each allocation of a routed encode (output, spares,
 * scratch of the route): CODEC_E_NOMEM with the output length restored,
 * until the budget suffices. */
static void test_out_of_memory(void)
{
    codec *c = codec_then(test_parse("hex"), make_router(3), NULL);
    if (!c)
        return;
    bool succeeded = false;
    size_t failures = 0;
    for (size_t budget = 1; budget < 16 && !succeeded; budget++) { /* 1: the "AB" */
        test_alloc t;
        codec_buf out;
        codec_buf_init(&out, test_alloc_init(&t, budget));
        CHECK(codec_buf_append(&out, "AB", 2) == 0);
        codec_bytes v = {(const uint8_t *)"out of memory", 13};
        int rc = codec_encode(c, &v, &out, NULL);
        CHECK(rc == CODEC_OK || (rc == CODEC_E_NOMEM && out.len == 2));
        succeeded = rc == CODEC_OK;
        failures += rc == CODEC_E_NOMEM;
        codec_buf_free(&out);
    }
    CHECK(succeeded);
    CHECK(failures >= 3); /* the output, the pipeline spare, the route's scratch */
    codec_free(c);
}

int main(void)
{
    test_header_errors();
    test_accept_list();
    test_routing();
    test_routing_errors();
    test_nesting();
    test_steady_state();
    test_out_of_memory();
    return check_done("test_versioned");
}
