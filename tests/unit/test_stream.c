/* test_stream.c — property tests of the streaming API (codec/stream.h):
 * for every stage, any split of the input (all at once, 1 byte at a time,
 * random pieces, exact block sizes) and any drain size, a stream encodes to
 * the one-shot bytes (or, where streaming.md says the bytes differ, to the
 * same bytes for every split, which one-shot decode takes back) and decodes
 * the one-shot bytes back to the input. Plus: checksum failures, truncation,
 * trailing data, the output limit, typed values, and memory bounds. */
#include "check.h"
#include "compress_payload.h"
#include "codec/stream.h"
#include "codec/types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char keyring_path[64];

typedef struct spec_case {
    const char *spec;
    bool same;           /* stream encode == one-shot encode (with the size pledged) */
    bool random;         /* encode is randomised (envelope): round trips only */
} spec_case;

static const spec_case cases[] = {
    {"crc32c", true, false},
    {"crc32", true, false},
    {"adler32", true, false},
    {"zstd", true, false},
    {"zstd:1,checksum=on", true, false},
    {"zstd:19", true, false},
    {"zstd:3,workers=2", false, false},
    {"gzip", true, false},
    {"gzip:1", false, false},
    {"deflate:9", true, false},
    {"lz4", true, false},
    {"lz4:checksum=off", true, false},
    {"lz4hc:9", true, false},
    {"brotli:5", true, false},
    {"brotli:11", true, false},
    {"snappy", true, false},
    {"snappy:framed", true, false},
    {"redisson-zstd", true, false},
    {"redisson-lz4", true, false},
    {"base64", true, false},
    {"base64:url-nopad", true, false},
    {"base64:mime", true, false},
    {"base64:wrap=76", true, false},
    {"base32", true, false},
    {"base32:crockford", true, false},
    {"hex:upper", true, false},
    {"hex:wrap=60", true, false},
    {"versioned:2", true, false},
    {"zstd:gate=100", true, false},
    {"zstd:3 | crc32c | base64", true, false},
    {"gzip | base64:wrap=76", true, false},
    {"envelope:keyring=@", false, true},
};
#define CASE_COUNT (sizeof cases / sizeof cases[0])

/* a[0..al) == b[0..bl), where an empty buffer may have no memory. */
static bool same_bytes(const void *a, size_t al, const void *b, size_t bl)
{
    return al == bl && (al == 0 || memcmp(a, b, al) == 0);
}

typedef enum split_kind { SPLIT_ALL, SPLIT_ONE, SPLIT_RANDOM, SPLIT_BLOCK } split_kind;

/* Piece sizes for SPLIT_BLOCK: exact sizes of blocks and groups. */
static const size_t block_sizes[] = {3, 4, 57, 4096, 65536, 131072};

typedef struct feed_plan {
    split_kind kind;
    size_t block;
    uint64_t seed;
} feed_plan;

static size_t next_piece(feed_plan *p, size_t left)
{
    size_t k = left;
    switch (p->kind) {
    case SPLIT_ALL:
        break;
    case SPLIT_ONE:
        k = 1;
        break;
    case SPLIT_RANDOM:
        k = 1 + check_rand(&p->seed) % (check_rand(&p->seed) % 4 == 0 ? 200000 : 3000);
        break;
    case SPLIT_BLOCK:
        k = p->block;
        break;
    }
    return k < left ? k : left;
}

/* Runs s over in[0..n) split as `plan` says, draining with varied sizes
 * into out. Returns the status; err is filled on failure. */
static int run_stream(codec_stream *s, const uint8_t *in, size_t n, feed_plan plan,
                      codec_buf *out, codec_error *err)
{
    uint8_t drain[70000];
    uint64_t dseed = plan.seed ^ 0x9E3779B97F4A7C15u;
    size_t pos = 0;
    for (;;) {
        size_t cap = 1 + check_rand(&dseed) % sizeof drain;
        size_t got;
        int rc = codec_stream_drain(s, drain, cap, &got, err);
        if (rc)
            return rc;
        if (codec_buf_append(out, drain, got))
            return CODEC_E_NOMEM;
        if (got)
            continue;
        if (pos < n) {
            size_t used;
            size_t k = next_piece(&plan, n - pos);
            /* half the pieces go through codec_stream_update, whose output
             * lands in drain[] */
            if (check_rand(&dseed) % 2) {
                rc = codec_stream_update(s, in + pos, k, &used, drain, cap, &got, err);
                if (!rc && codec_buf_append(out, drain, got))
                    rc = CODEC_E_NOMEM;
            } else {
                rc = codec_stream_feed(s, in + pos, k, &used, err);
            }
            if (rc)
                return rc;
            pos += used;
            if (pos == n && (rc = codec_stream_finish(s, err)))
                return rc;
        } else if (!codec_stream_done(s)) {
            if ((rc = codec_stream_finish(s, err)))
                return rc;
            if (codec_stream_done(s))
                break;
        } else {
            break;
        }
    }
    return CODEC_OK;
}

static int stream_all(const codec *c, codec_stream_mode mode, const uint8_t *in, size_t n,
                      feed_plan plan, bool pledge, codec_buf *out, codec_error *err)
{
    codec_stream *s = codec_stream_new(c, mode, err);
    if (!s)
        return err->family;
    int rc = pledge ? codec_stream_pledge(s, n, err) : CODEC_OK;
    if (!rc)
        rc = run_stream(s, in, n, plan, out, err);
    codec_stream_free(s);
    return rc;
}

static const char *plan_name(const feed_plan *p)
{
    static char name[32];
    static const char *const kinds[] = {"all", "one", "random", "block"};
    snprintf(name, sizeof name, "%s/%zu", kinds[p->kind], p->block);
    return name;
}

static void fail_report(const char *spec, size_t n, const feed_plan *p, const char *what,
                        const codec_error *err)
{
    char msg[300];
    fprintf(stderr, "  %s, %zu bytes, split %s: %s%s%s\n", spec, n, plan_name(p), what,
            err ? ": " : "", err ? codec_error_format(err, msg, sizeof msg) : "");
}

/* Every split of one payload through one spec. */
static void check_case(const spec_case *k, const codec *c, const uint8_t *in, size_t n)
{
    codec_buf once, back;
    codec_buf_init(&once, NULL);
    codec_buf_init(&back, NULL);
    codec_bytes value = {in, n};
    codec_error err;
    CHECK_INT(codec_encode(c, &value, &once, &err), 0);

    feed_plan plans[16];
    size_t count = 0;
    plans[count++] = (feed_plan){SPLIT_ALL, 0, 1};
    if (n <= 20000)
        plans[count++] = (feed_plan){SPLIT_ONE, 1, 2};
    for (uint64_t seed = 3; seed < 6; seed++)
        plans[count++] = (feed_plan){SPLIT_RANDOM, 0, seed};
    for (size_t b = 0; b < sizeof block_sizes / sizeof block_sizes[0]; b++)
        if (block_sizes[b] < n && n / block_sizes[b] < 5000)
            plans[count++] = (feed_plan){SPLIT_BLOCK, block_sizes[b], 7 + b};

    codec_buf first;
    codec_buf_init(&first, NULL);
    for (size_t i = 0; i < count; i++) {
        codec_buf enc, dec;
        codec_buf_init(&enc, NULL);
        codec_buf_init(&dec, NULL);
        int rc = stream_all(c, CODEC_STREAM_ENCODE, in, n, plans[i], k->same, &enc, &err);
        CHECK_INT(rc, 0);
        if (rc)
            fail_report(k->spec, n, &plans[i], "encode", &err);
        if (k->same) {
            CHECK(same_bytes(enc.data, enc.len, once.data, once.len));
            if (!same_bytes(enc.data, enc.len, once.data, once.len))
                fail_report(k->spec, n, &plans[i], "encode differs from one-shot", NULL);
        } else if (!k->random && i == 0) {
            CHECK(codec_buf_append(&first, enc.data, enc.len) == 0);
        } else if (!k->random) {
            CHECK(same_bytes(enc.data, enc.len, first.data, first.len));
        }
        /* One-shot decode takes the streamed bytes back. */
        codec_arena arena;
        codec_arena_init(&arena, NULL, 0);
        codec_bytes got = {0};
        rc = codec_decode(c, enc.data ? enc.data : (const uint8_t *)"", enc.len, &got, &arena,
                          &err);
        CHECK_INT(rc, 0);
        CHECK(same_bytes(got.data, got.len, in, n));
        codec_arena_free(&arena);
        /* The stream decodes the one-shot bytes. */
        rc = stream_all(c, CODEC_STREAM_DECODE, once.data, once.len, plans[i], false, &dec,
                        &err);
        CHECK_INT(rc, 0);
        if (rc)
            fail_report(k->spec, n, &plans[i], "decode", &err);
        CHECK(same_bytes(dec.data, dec.len, in, n));
        codec_buf_free(&enc);
        codec_buf_free(&dec);
    }
    codec_buf_free(&first);
    codec_buf_free(&once);
    codec_buf_free(&back);
}

/* A codec for spec, or NULL (a failed check). */
static codec *parse_checked(const char *spec)
{
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    CHECK(c != NULL);
    return c;
}

static void write_keyring(void)
{
    snprintf(keyring_path, sizeof keyring_path, "/tmp/codec-stream-ring-%d", (int)getpid());
    FILE *f = fopen(keyring_path, "w");
    fputs("kek 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n", f);
    fclose(f);
    chmod(keyring_path, 0600);
}

/* The spec with '@' replaced by the keyring path. */
static codec *parse_case(const spec_case *k)
{
    char spec[256];
    const char *at = strchr(k->spec, '@');
    if (at)
        snprintf(spec, sizeof spec, "%.*s%s%s", (int)(at - k->spec), k->spec, keyring_path,
                 at + 1);
    else
        snprintf(spec, sizeof spec, "%s", k->spec);
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    if (!c) {
        char msg[300];
        fprintf(stderr, "  %s: %s\n", spec, codec_error_format(&err, msg, sizeof msg));
    }
    return c;
}

static void test_every_stage(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 56, 57, 58, 1000, 65535, 65536, 65537,
                                   131072, 300000};
    for (size_t i = 0; i < CASE_COUNT; i++) {
        codec *c = parse_case(&cases[i]);
        CHECK(c != NULL);
        if (!c)
            continue;
        int before = check_failures;
        for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
            uint8_t *in = j % 2 ? payload_prose(sizes[j] ? sizes[j] : 1)
                                : payload_mixed(sizes[j] ? sizes[j] : 1, 40 + j);
            check_case(&cases[i], c, in, sizes[j]);
            free(in);
        }
        printf("  %-28s %s\n", cases[i].spec, check_failures == before ? "ok" : "FAILED");
        codec_free(c);
    }
}

/* A flipped byte in a checksummed stream fails at the end, never silently. */
static void test_corruption(void)
{
    static const char *const specs[] = {"crc32c", "crc32", "adler32", "zstd:checksum=on",
                                        "lz4", "gzip", "deflate", "snappy:framed"};
    uint8_t *in = payload_prose(200000);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        codec_error err;
        codec *c = parse_checked(specs[i]);
        if (!c)
            continue;
        codec_buf enc, dec;
        codec_buf_init(&enc, NULL);
        codec_buf_init(&dec, NULL);
        codec_bytes v = {in, 200000};
        CHECK_INT(codec_encode(c, &v, &enc, &err), 0);
        uint64_t seed = 99;
        for (int t = 0; t < 8; t++) {
            size_t at = check_rand(&seed) % enc.len;
            enc.data[at] ^= (uint8_t)(1u << (t % 8));
            dec.len = 0;
            feed_plan p = {SPLIT_RANDOM, 0, seed};
            int rc = stream_all(c, CODEC_STREAM_DECODE, enc.data, enc.len, p, false, &dec, &err);
            CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);
            enc.data[at] ^= (uint8_t)(1u << (t % 8));
        }
        /* Truncated: every stage reports it. */
        dec.len = 0;
        feed_plan p = {SPLIT_ALL, 0, 1};
        CHECK_INT(stream_all(c, CODEC_STREAM_DECODE, enc.data, enc.len - 1, p, false, &dec,
                             &err),
                  CODEC_E_INVALID_PAYLOAD);
        /* Trailing garbage after a complete stream. */
        if (strcmp(specs[i], "gzip") != 0 && strncmp(specs[i], "crc", 3) != 0 &&
            strcmp(specs[i], "adler32") != 0) {
            uint8_t junk[1] = {0x55};
            CHECK(codec_buf_append(&enc, junk, 1) == 0);
            dec.len = 0;
            CHECK_INT(stream_all(c, CODEC_STREAM_DECODE, enc.data, enc.len, p, false, &dec,
                                 &err),
                      CODEC_E_INVALID_PAYLOAD);
        }
        codec_buf_free(&enc);
        codec_buf_free(&dec);
        codec_free(c);
    }
    free(in);
}

static void test_limit_and_errors(void)
{
    codec_error err;
    codec *c = codec_parse("zstd", NULL, &err);
    uint8_t *in = payload_prose(500000);
    codec_buf enc;
    codec_buf_init(&enc, NULL);
    codec_bytes v = {in, 500000};
    CHECK_INT(codec_encode(c, &v, &enc, &err), 0);
    codec_stream *s = codec_stream_new(c, CODEC_STREAM_DECODE, &err);
    codec_stream_limit(s, 100000);
    codec_buf out;
    codec_buf_init(&out, NULL);
    feed_plan p = {SPLIT_RANDOM, 0, 5};
    CHECK_INT(run_stream(s, enc.data, enc.len, p, &out, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK(out.len <= 100000);
    /* Sticky: the next call reports the same failure. */
    size_t used;
    CHECK_INT(codec_stream_feed(s, in, 10, &used, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    codec_stream_free(s);
    /* Feed after finish is a usage error. */
    s = codec_stream_new(c, CODEC_STREAM_ENCODE, &err);
    CHECK_INT(codec_stream_finish(s, &err), 0);
    CHECK_INT(codec_stream_feed(s, in, 1, &used, &err), CODEC_E_USAGE);
    uint8_t one[4];
    size_t got = 99;
    CHECK_INT(codec_stream_update(s, in, 1, &used, one, sizeof one, &got, &err), CODEC_E_USAGE);
    CHECK(strstr(err.message, "codec_stream_update after codec_stream_finish") != NULL);
    CHECK(used == 0 && got == 0);
    codec_stream_free(s);
    /* A truncated gzip says so. */
    codec *gz = codec_parse("gzip", NULL, &err);
    enc.len = 0;
    CHECK_INT(codec_encode(gz, &v, &enc, &err), 0);
    out.len = 0;
    p.kind = SPLIT_ALL;
    CHECK_INT(stream_all(gz, CODEC_STREAM_DECODE, enc.data, enc.len / 2, p, false, &out, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRUNCATED);
    CHECK(strstr(err.message, "unexpected end of input") != NULL);
    codec_free(gz);
    codec_buf_free(&out);
    codec_buf_free(&enc);
    codec_free(c);
    free(in);
}

/* Output is released as input arrives: of 64 MiB of distinct input, all but
 * the last few MiB (windows and buffers) come out before finish. */
static void test_bounded(void)
{
    static const char *const specs[] = {"zstd | crc32c | base64", "gzip", "lz4", "brotli:3",
                                        "snappy:framed", "base32 | hex"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        codec_error err;
        codec *c = parse_checked(specs[i]);
        if (!c)
            continue;
        codec_stream *s = codec_stream_new(c, CODEC_STREAM_ENCODE, &err);
        codec_stream *d = codec_stream_new(c, CODEC_STREAM_DECODE, &err);
        uint8_t buf[65536], back[65536];
        uint64_t out_before_end = 0, decoded = 0, fed = 0;
        size_t got, used;
        bool ok = true;
        for (int round = 0; round < 64 && ok; round++) {
            uint8_t *piece = payload_mixed(1 << 20, (uint64_t)round);
            for (size_t at = 0; at < (1u << 20) && ok; at += used) {
                ok = codec_stream_feed(s, piece + at, (1u << 20) - at, &used, &err) == 0;
                fed += used;
                do {
                    ok = ok && codec_stream_drain(s, buf, sizeof buf, &got, &err) == 0;
                    out_before_end += got;
                    size_t off = 0, u;
                    while (ok && off < got) {
                        ok = codec_stream_feed(d, buf + off, got - off, &u, &err) == 0;
                        off += u;
                        size_t g;
                        do {
                            ok = ok && codec_stream_drain(d, back, sizeof back, &g, &err) == 0;
                            decoded += g;
                        } while (ok && g);
                    }
                } while (ok && got);
            }
            free(piece);
        }
        CHECK(ok);
        CHECK_INT(fed, (uint64_t)64 << 20);
        /* Everything but a window's worth is out before finish. */
        CHECK(decoded > ((uint64_t)60 << 20));
        if (decoded <= ((uint64_t)60 << 20))
            fprintf(stderr, "  %s: %llu bytes decoded before finish\n", specs[i],
                    (unsigned long long)decoded);
        CHECK(out_before_end > 0);
        codec_stream_free(s);
        codec_stream_free(d);
        codec_free(c);
    }
}

static void test_typed(void)
{
    codec_error err;
    codec *c = codec_parse("json | zstd | base64", codec_value_type(), &err);
    CHECK(c != NULL);
    if (!c)
        return;
    /* A schemaless value: the JSON text as a codec_value. */
    codec *json = codec_parse("json", codec_value_type(), &err);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    const char *text = "{\"a\":[1,2,3],\"b\":\"streamed\"}";
    codec_value v;
    CHECK_INT(codec_decode(json, (const uint8_t *)text, strlen(text), &v, &arena, &err), 0);
    codec_buf once;
    codec_buf_init(&once, NULL);
    CHECK_INT(codec_encode(c, &v, &once, &err), 0);
    codec_stream *s = codec_stream_new_value(c, &v, &err);
    CHECK(s != NULL);
    codec_buf enc;
    codec_buf_init(&enc, NULL);
    feed_plan p = {SPLIT_ALL, 0, 1};
    CHECK_INT(run_stream(s, NULL, 0, p, &enc, &err), 0);
    CHECK(same_bytes(enc.data, enc.len, once.data, once.len));
    codec_stream_free(s);
    /* Decode: the transforms stream, the backend decodes at the end. */
    s = codec_stream_new(c, CODEC_STREAM_DECODE, &err);
    size_t used, got;
    uint8_t none[8];
    CHECK_INT(codec_stream_update(s, enc.data, enc.len, &used, none, sizeof none, &got, &err),
              CODEC_E_USAGE); /* the value comes from codec_stream_value */
    CHECK(used == 0 && got == 0);
    for (size_t at = 0; at < enc.len; at += used)
        CHECK_INT(codec_stream_feed(s, enc.data + at, 1, &used, &err), 0);
    CHECK_INT(codec_stream_finish(s, &err), 0);
    CHECK(codec_stream_done(s));
    codec_value back;
    CHECK_INT(codec_stream_value(s, &back, &arena, &err), 0);
    codec_buf again;
    codec_buf_init(&again, NULL);
    CHECK_INT(codec_encode(json, &back, &again, &err), 0);
    CHECK(same_bytes(again.data, again.len, text, strlen(text)));
    codec_stream_free(s);
    codec_buf_free(&again);
    codec_buf_free(&enc);
    codec_buf_free(&once);
    codec_arena_free(&arena);
    codec_free(json);
    codec_free(c);
}

/* An envelope stream holds one message up to max= and releases nothing
 * before its tag verifies; past max= it fails clearly. */
static void test_envelope_whole(void)
{
    spec_case k = {"envelope:keyring=@,max=100k", false, true};
    codec *c = parse_case(&k);
    CHECK(c != NULL);
    if (!c)
        return;
    uint8_t *in = payload_prose(150000);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    feed_plan p = {SPLIT_RANDOM, 0, 3};
    CHECK_INT(stream_all(c, CODEC_STREAM_ENCODE, in, 150000, p, false, &out, &err),
              CODEC_E_INVALID_VALUE);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK(strstr(err.message, "max=") != NULL);
    /* Under the limit: a tampered tag releases no plaintext at all. */
    out.len = 0;
    CHECK_INT(stream_all(c, CODEC_STREAM_ENCODE, in, 90000, p, false, &out, &err), 0);
    out.data[out.len - 1] ^= 1;
    codec_stream *s = codec_stream_new(c, CODEC_STREAM_DECODE, &err);
    uint8_t buf[4096];
    size_t used, got, released = 0;
    int rc = 0;
    for (size_t at = 0; at < out.len && !rc; at += used) {
        rc = codec_stream_feed(s, out.data + at, out.len - at, &used, &err);
        while (!rc && !(rc = codec_stream_drain(s, buf, sizeof buf, &got, &err)) && got)
            released += got;
    }
    if (!rc)
        rc = codec_stream_finish(s, &err);
    while (!rc && !(rc = codec_stream_drain(s, buf, sizeof buf, &got, &err)) && got)
        released += got;
    CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(released, 0);
    codec_stream_free(s);
    codec_buf_free(&out);
    free(in);
    codec_free(c);
}

/* Hostile text for the text stages: valid text with a symbol replaced by
 * '=', a line break, a bad byte, or cut short. Under every split the
 * stream fails exactly when one-shot decode fails (same error family),
 * else gives the same bytes: the block adapter runs the one-shot code on
 * pieces, and may not accept what the whole would refuse. */
static void test_text_hostile(void)
{
    static const char *const specs[] = {"base64", "base64:url-nopad", "base64:mime",
                                        "base64:wrap=76", "base32", "hex:upper"};
    static const uint8_t bad[] = {'=', '\n', '\r', '*', 0x80, 'A'};
    uint64_t seed = 99;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        codec *c = parse_checked(specs[i]);
        if (!c)
            continue;
        int before = check_failures;
        for (int trial = 0; trial < 120; trial++) {
            size_t n = 1 + check_rand(&seed) % (trial % 3 ? 300 : 70000);
            uint8_t *in = payload_mixed(n, 500 + (uint64_t)trial);
            codec_buf text, got;
            codec_buf_init(&text, NULL);
            codec_buf_init(&got, NULL);
            codec_bytes value = {in, n};
            codec_error err;
            CHECK_INT(codec_encode(c, &value, &text, &err), 0);
            size_t cut = text.len;
            if (trial % 4 == 3)
                cut -= check_rand(&seed) % (text.len < 9 ? text.len : 9);
            else
                text.data[check_rand(&seed) % text.len] = bad[check_rand(&seed) % sizeof bad];
            codec_arena arena;
            codec_arena_init(&arena, NULL, 0);
            codec_bytes once = {0};
            codec_error oerr;
            int ro = codec_decode(c, text.data, cut, &once, &arena, &oerr);
            for (int k = 0; k < 4; k++) {
                feed_plan plan = {k == 0 ? SPLIT_ALL : k == 1 ? SPLIT_RANDOM : SPLIT_BLOCK,
                                  k == 2 ? 4 : 57, 1000 + (uint64_t)trial * 7 + (uint64_t)k};
                got.len = 0;
                int rs = stream_all(c, CODEC_STREAM_DECODE, text.data, cut, plan, false, &got,
                                    &err);
                CHECK_INT(rs != 0, ro != 0);
                if (rs && ro)
                    CHECK_INT(err.family, oerr.family);
                if (!rs && !ro)
                    CHECK(same_bytes(got.data, got.len, once.data, once.len));
                if ((rs != 0) != (ro != 0))
                    fprintf(stderr, "  %s trial %d split %d: stream %d, one-shot %d\n",
                            specs[i], trial, k, rs, ro);
            }
            codec_arena_free(&arena);
            codec_buf_free(&text);
            codec_buf_free(&got);
            free(in);
        }
        printf("  hostile %-20s %s\n", specs[i], check_failures == before ? "ok" : "FAILED");
        codec_free(c);
    }
}

/* gzip and deflate at levels 6..9: the one-shot and the stream both
 * compress in parts of CODEC_DEFLATE_PART (128 KiB) that match into the
 * window before them (deflate_encoder.c), so the stream gives the
 * one-shot's bytes at every size (around and across the parts, past 2 MiB)
 * and for every split, which the one-shot decoder (libdeflate) and the
 * stream (our inflate) both read back. */
static void test_flate_parts(void)
{
    static const char *const specs[] = {"gzip", "deflate:9", "deflate:6", "deflate:7",
                                        "deflate:8", "gzip:9"};
    const size_t part = (size_t)128 << 10;
    const size_t sizes[] = {0, 1000, part - 1, part, part + 1, 2 * part, 3 * part + 1,
                            (size_t)1 << 20, ((size_t)1 << 20) + 1, ((size_t)5 << 20) / 2};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        codec *c = parse_checked(specs[i]);
        if (!c)
            continue;
        int before = check_failures;
        for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
            size_t n = sizes[j];
            if (i >= 2 && n > 3 * part + 1)
                continue; /* the large sizes for gzip:6 and deflate:9 only */
            uint8_t *in = (i + j) % 2 ? payload_prose(n ? n : 1) : payload_mixed(n ? n : 1, 70 + j);
            codec_buf once, enc, dec;
            codec_buf_init(&once, NULL);
            codec_bytes value = {in, n};
            codec_error err;
            CHECK_INT(codec_encode(c, &value, &once, &err), 0);
            feed_plan plans[] = {{SPLIT_ALL, 0, 1}, {SPLIT_RANDOM, 0, 5}, {SPLIT_BLOCK, 65536, 9},
                                 {SPLIT_BLOCK, 4096, 11}};
            for (size_t k = 0; k < sizeof plans / sizeof plans[0]; k++) {
                codec_buf_init(&enc, NULL);
                codec_buf_init(&dec, NULL);
                CHECK_INT(stream_all(c, CODEC_STREAM_ENCODE, in, n, plans[k], false, &enc, &err),
                          0);
                if (!same_bytes(enc.data, enc.len, once.data, once.len))
                    fprintf(stderr, "%s, %zu bytes, plan %zu: stream %zu bytes, one-shot %zu\n",
                            specs[i], n, k, enc.len, once.len);
                CHECK(same_bytes(enc.data, enc.len, once.data, once.len));
                codec_arena arena;
                codec_arena_init(&arena, NULL, 0);
                codec_bytes got = {0};
                CHECK_INT(codec_decode(c, enc.data, enc.len, &got, &arena, &err), 0);
                CHECK(same_bytes(got.data, got.len, in, n));
                codec_arena_free(&arena);
                CHECK_INT(stream_all(c, CODEC_STREAM_DECODE, enc.data, enc.len, plans[k], false,
                                     &dec, &err),
                          0);
                CHECK(same_bytes(dec.data, dec.len, in, n));
                codec_buf_free(&enc);
                codec_buf_free(&dec);
            }
            codec_buf_free(&once);
            free(in);
        }
        printf("  parts %-22s %s\n", specs[i], check_failures == before ? "ok" : "FAILED");
        codec_free(c);
    }
}

/* Decodes in[0..n) with codec_stream_update in pieces of `piece` bytes (0:
 * random) into out: the first call has room for `total` bytes of output,
 * later calls `later` bytes (0: room for all that is left). The zstd
 * decode's whole-frame path runs when the room holds the frame; with
 * `later` small, the gathered frame no longer fits and is replayed. */
static int decode_roomy(const codec *c, const uint8_t *in, size_t n, size_t piece, size_t later,
                        size_t total, uint64_t seed, codec_buf *out, codec_error *err)
{
    codec_stream *s = codec_stream_new(c, CODEC_STREAM_DECODE, err);
    if (!s)
        return err->family;
    int rc = CODEC_OK;
    size_t pos = 0, calls = 0;
    bool finished = false;
    while (!rc && !(finished && codec_stream_done(s))) {
        if ((out->cap - out->len < total + 1 && codec_buf_reserve(out, total + 1)) ||
            ++calls > 10000000) {
            rc = CODEC_E_NOMEM;
            break;
        }
        size_t room = out->cap - out->len, got = 0, used = 0;
        size_t cap = calls == 1 || !later || later > room ? room : later;
        if (pos < n) {
            size_t k = piece ? piece : 1 + check_rand(&seed) % 20000;
            k = k < n - pos ? k : n - pos;
            rc = codec_stream_update(s, in + pos, k, &used, out->data + out->len, cap, &got,
                                     err);
            pos += used;
        } else if (!finished) {
            rc = codec_stream_finish(s, err);
            finished = true;
        } else {
            rc = codec_stream_drain(s, out->data + out->len, cap, &got, err);
        }
        out->len += got;
    }
    codec_stream_free(s);
    return rc;
}

/* zstd decode, whole frames: with room for a frame in the caller's buffer,
 * a frame that comes in pieces is gathered and decoded in one call
 * (docs/guides/streaming.md); for every piece size, with the room kept or
 * shrunk before the frame is complete, frames back to back, and damaged,
 * cut and trailing input, the stream gives the one-shot's bytes or fails
 * with its family. */
/* One payload of n bytes (prose or mixed, as j says) through the whole-frame
 * checks of one spec. */
static void check_whole_frames(const codec *c, const char *spec, size_t j, size_t n)
{
    static const size_t pieces[] = {1, 7, 4096, 65536, 0, SIZE_MAX};
    static const size_t laters[] = {0, 100, 70000};
    uint8_t *in = j % 2 ? payload_prose(n ? n : 1) : payload_mixed(n ? n : 1, 90 + j);
    codec_buf once, twice;
    codec_buf_init(&once, NULL);
    codec_buf_init(&twice, NULL);
    codec_bytes value = {in, n};
    codec_error err;
    CHECK_INT(codec_encode(c, &value, &once, &err), 0);
    bool framed = strchr(spec, '|') == NULL; /* frames back to back */
    CHECK(codec_buf_append(&twice, once.data, once.len) == 0);
    if (framed)
        CHECK(codec_buf_append(&twice, once.data, once.len) == 0);
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
        if (pieces[p] == 1 && n > 20000)
            continue;
        for (size_t l = 0; l < sizeof laters / sizeof laters[0]; l++) {
            uint64_t seed = 100 * j + 10 * p + l;
            codec_buf dec;
            codec_buf_init(&dec, NULL);
            int rc = decode_roomy(c, twice.data, twice.len, pieces[p], laters[l], 2 * n, seed,
                                  &dec, &err);
            CHECK_INT(rc, 0);
            CHECK(dec.len == (framed ? 2 * n : n));
            CHECK(same_bytes(dec.data, n, in, n));
            if (framed && dec.len == 2 * n)
                CHECK(same_bytes(dec.data + n, n, in, n));
            if (rc || dec.len != (framed ? 2 * n : n))
                fprintf(stderr, "  %s, %zu bytes, piece %zu, later %zu: rc %d, %zu bytes\n",
                        spec, n, pieces[p], laters[l], rc, dec.len);
            /* Damaged: a flipped byte, the last byte cut, a byte after it. */
            for (int t = 0; framed && l < 2 && t < 3; t++) {
                codec_buf bad;
                codec_buf_init(&bad, NULL);
                CHECK(codec_buf_append(&bad, once.data, once.len) == 0);
                if (t == 0 && bad.len > 20)
                    bad.data[bad.len / 2 + check_rand(&seed) % (bad.len / 2 - 8)] ^= 0x20;
                else if (t == 1)
                    bad.len--;
                else
                    CHECK(codec_buf_append(&bad, "\x55", 1) == 0);
                codec_arena arena;
                codec_arena_init(&arena, NULL, 0);
                codec_bytes got;
                int ro = codec_decode(c, bad.data, bad.len, &got, &arena, &err);
                dec.len = 0;
                rc = decode_roomy(c, bad.data, bad.len, pieces[p], laters[l], 2 * n, seed, &dec,
                                  &err);
                CHECK_INT(rc, ro ? CODEC_E_INVALID_PAYLOAD : 0);
                if (!ro && !rc)
                    CHECK(same_bytes(dec.data, dec.len, got.data, got.len));
                codec_arena_free(&arena);
                codec_buf_free(&bad);
            }
            codec_buf_free(&dec);
        }
    }
    codec_buf_free(&once);
    codec_buf_free(&twice);
    free(in);
}

static void test_zstd_whole_frames(void)
{
    static const char *const specs[] = {"zstd", "zstd:1,checksum=on", "zstd:19",
                                        "zstd:3 | crc32c", "zstd:3 | base64"};
    static const size_t sizes[] = {0, 1, 1000, 65536, 200001, (size_t)1 << 20};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        codec *c = parse_checked(specs[i]);
        int before = check_failures;
        for (size_t j = 0; c && j < sizeof sizes / sizeof sizes[0]; j++)
            check_whole_frames(c, specs[i], j, sizes[j]);
        printf("  whole frames %-22s %s\n", specs[i], check_failures == before ? "ok" : "FAILED");
        codec_free(c);
    }
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    write_keyring();
    test_every_stage();
    test_corruption();
    test_text_hostile();
    test_flate_parts();
    test_zstd_whole_frames();
    test_limit_and_errors();
    test_envelope_whole();
    test_typed();
    test_bounded();
    unlink(keyring_path);
    return check_done("test_stream");
}
