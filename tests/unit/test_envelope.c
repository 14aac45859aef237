/* test_envelope.c — the envelope stage: the known-answer message from
 * WIRE-FORMATS.md, every structural error, every single-bit flip and every
 * truncation, providers that fail, the key cache, both data-key strategies
 * (with a fake clock, under many threads and across fork), key-ring files,
 * key generation and the spec syntax. */
#include "check.h"
#include "codec/codec.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define KEK_ZERO "0000000000000000000000000000000000000000000000000000000000000000"
#define KEK_ONE "0101010101010101010101010101010101010101010101010101010101010101"
#define KEK_TWO "0202020202020202020202020202020202020202020202020202020202020202"

/* ---------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

/* A byte source yielding 0, 1, 2, ... (the known-answer vector's). */
static int counting_fill(void *ctx, uint8_t *dst, size_t n)
{
    uint8_t *next = ctx;
    for (size_t i = 0; i < n; i++)
        dst[i] = (*next)++;
    return 0;
}

static codec_keyring *ring_of(const char *text)
{
    codec_error err;
    codec_keyring *ring = codec_keyring_parse(text, strlen(text), &err);
    if (!ring)
        fprintf(stderr, "ring: %s\n", err.message);
    return ring;
}

static codec *envelope_with(const char *ring_text, codec_envelope_options o)
{
    codec_error err;
    o.provider = codec_keyring_provider(ring_of(ring_text));
    codec *c = codec_envelope(&o, &err);
    if (!c)
        fprintf(stderr, "codec_envelope: %s\n", err.message);
    return c;
}

static codec *direct_codec(const char *ring_text)
{
    codec_envelope_options o = {0};
    return envelope_with(ring_text, o);
}

static codec *bounded_codec(const char *ring_text, uint32_t max_messages)
{
    codec_envelope_options o = {0};
    o.strategy = CODEC_ENVELOPE_BOUNDED;
    o.max_messages = max_messages;
    return envelope_with(ring_text, o);
}

static int seal(const codec *c, const void *data, size_t n, codec_buf *out)
{
    codec_error err;
    codec_bytes in = {data, n};
    codec_buf_clear(out);
    int rc = codec_encode(c, &in, out, &err);
    if (rc)
        fprintf(stderr, "encode: %s\n", err.message);
    return rc;
}

/* Decodes and returns the status; *err is filled on failure. */
static int open_msg(const codec *c, const uint8_t *msg, size_t n, codec_bytes *back,
                    codec_arena *arena, codec_error *err)
{
    codec_arena_reset(arena);
    memset(err, 0, sizeof *err);
    return codec_decode(c, msg, n, back, arena, err);
}

/* Offsets of the fields of a message with key id length k. */
static size_t wrapped_at(size_t k)
{
    return 8 + k;
}
static size_t nonce_at(size_t k, size_t w)
{
    return 8 + k + w;
}

static int is_unable_to_decrypt(const codec_error *err)
{
    return err->family == CODEC_E_INVALID_PAYLOAD && err->detail == CODEC_D_DECRYPT &&
           err->offset == CODEC_NO_OFFSET && strcmp(err->message, "unable to decrypt") == 0 &&
           strcmp(err->stage, "envelope") == 0;
}

/* ---------------------------------------------------------------------------
 * Known answer (WIRE-FORMATS.md), cross-checked with Python's cryptography
 * ------------------------------------------------------------------------ */

static void test_known_answer(void)
{
    static const char expect_hex[] =
        "4a43010100036b656b002901246d75815315bd8b40ac141ba1cbca56785ae73cbbafa7fd20f4c91a"
        "99312c946edff8132c8259b4202122232425262728292a2bb155c2150fb5797c630c36a1e16ec59c"
        "ac4b79f69c5cb6458373a94d52f0dd";
    uint8_t expect[95];
    for (size_t i = 0; i < sizeof expect; i++) {
        unsigned v;
        sscanf(expect_hex + 2 * i, "%2x", &v);
        expect[i] = (uint8_t)v;
    }
    uint8_t counter = 0;
    codec_envelope_options o = {0};
    o.test.random.fill = counting_fill;
    o.test.random.ctx = &counter;
    codec *c = envelope_with("kek " KEK_ZERO "\n", o);
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(seal(c, "codec-crypto v1", 15, &out), 0);
    CHECK_INT(out.len, 95);
    CHECK_MEM(out.data, 12, expect, 12); /* 4a 43 01 01 00 03 6b 65 6b 00 29 01 */
    for (int i = 0; i < 12; i++)
        CHECK_INT(out.data[nonce_at(3, 41) + i], 0x20 + i);
    CHECK_MEM(out.data, out.len, expect, sizeof expect);
    CHECK_INT(counter, 44); /* 32 key bytes, then 12 nonce bytes */

    codec *reader = direct_codec("kek " KEK_ZERO "\n");
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back;
    codec_error err;
    CHECK_INT(open_msg(reader, expect, sizeof expect, &back, &arena, &err), 0);
    CHECK_MEM(back.data, back.len, "codec-crypto v1", 15);
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
    codec_free(reader);
}

/* ---------------------------------------------------------------------------
 * Round trips, AAD, wrong keys
 * ------------------------------------------------------------------------ */

static void round_trips(codec *c, size_t k)
{
    static uint8_t data[70000];
    uint64_t x = 7;
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)check_rand(&x);
    static const size_t sizes[] = {0, 1, 15, 16, 17, 104, 1000, 65536, 70000};
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        CHECK_INT(seal(c, data, sizes[i], &out), 0);
        CHECK_INT(out.len, CODEC_ENVELOPE_OVERHEAD(k, 41) + sizes[i]);
        codec_bytes back;
        codec_error err;
        CHECK_INT(open_msg(c, out.data, out.len, &back, &arena, &err), 0);
        CHECK_MEM(back.data, back.len, data, sizes[i]);
    }
    codec_arena_free(&arena);
    codec_buf_free(&out);
}

static void test_round_trips(void)
{
    codec *c = direct_codec("primary " KEK_ONE "\n");
    round_trips(c, 7);
    codec_free(c);
    c = bounded_codec("primary " KEK_ONE "\n", 4);
    round_trips(c, 7);
    codec_free(c);
    codec_envelope_options o = {0};
    o.aad = (const uint8_t *)"tenant-42";
    o.aad_len = 9;
    c = envelope_with("k " KEK_ONE "\n", o);
    round_trips(c, 1);
    codec_free(c);
}

static void test_aad_and_wrong_keys(void)
{
    codec_envelope_options o = {0};
    o.aad = (const uint8_t *)"tenant-42";
    o.aad_len = 9;
    codec *writer = envelope_with("k " KEK_ONE "\n", o);
    o.aad = (const uint8_t *)"tenant-43";
    codec *other_aad = envelope_with("k " KEK_ONE "\n", o);
    codec *no_aad = direct_codec("k " KEK_ONE "\n");
    codec *wrong_kek = direct_codec("k " KEK_TWO "\n");
    codec *other_id = direct_codec("j " KEK_ONE "\n");
    codec *rotated = direct_codec("new " KEK_TWO "\nk " KEK_ONE "\n");

    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(seal(writer, "secret", 6, &out), 0);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back;
    codec_error err;
    codec *refused[] = {other_aad, no_aad, wrong_kek, other_id};
    for (size_t i = 0; i < 4; i++) {
        CHECK_INT(open_msg(refused[i], out.data, out.len, &back, &arena, &err),
                  CODEC_E_INVALID_PAYLOAD);
        CHECK(is_unable_to_decrypt(&err));
    }
    /* an older key still in the ring decrypts (rotation), but AAD must match */
    CHECK_INT(open_msg(rotated, out.data, out.len, &back, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(seal(no_aad, "secret", 6, &out), 0);
    CHECK_INT(open_msg(rotated, out.data, out.len, &back, &arena, &err), 0);
    CHECK_MEM(back.data, back.len, "secret", 6);
    /* and the ring's first key is the one new messages name */
    CHECK_INT(seal(rotated, "x", 1, &out), 0);
    CHECK_MEM(out.data + 4, 5, "\x00\x03new", 5);

    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec *all[] = {writer, other_aad, no_aad, wrong_kek, other_id, rotated};
    for (size_t i = 0; i < 6; i++)
        codec_free(all[i]);
}

/* ---------------------------------------------------------------------------
 * Hostile input: structure, bit flips, truncation
 * ------------------------------------------------------------------------ */

static void expect_error(const codec *c, const uint8_t *msg, size_t n, int family, int detail,
                         uint64_t offset, const char *needle)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back;
    codec_error err;
    int rc = open_msg(c, msg, n, &back, &arena, &err);
    CHECK_INT(rc, family);
    CHECK_INT(err.detail, detail);
    CHECK_INT(err.offset, offset);
    CHECK_STR(err.stage, "envelope");
    if (!strstr(err.message, needle)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", err.message, needle);
        CHECK(0);
    }
    codec_arena_free(&arena);
}

static void test_structural_errors(void)
{
    codec *c = direct_codec("kek " KEK_ZERO "\n");
    uint8_t m[2200] = {0x4a, 0x43, 0x01, 0x01, 0x00, 0x03, 'k', 'e', 'k', 0x00, 0x29};
    expect_error(c, m, 0, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, 0, "too short");
    expect_error(c, m, 1, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, 1, "too short");
    expect_error(c, (const uint8_t *)"{\"json\":true}0000000000000000000000000000", 40,
                 CODEC_E_INVALID_PAYLOAD, CODEC_D_BAD_MAGIC, 0, "not an envelope");
    expect_error(c, m, 37, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, 37, "at least 38");
    for (int v = 0; v < 256; v++) {
        if (v == 1)
            continue;
        m[2] = (uint8_t)v;
        expect_error(c, m, 100, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, 2, "version");
        m[2] = 1;
        m[3] = (uint8_t)v;
        expect_error(c, m, 100, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, 3, "algorithm");
        m[3] = 1;
    }
    m[5] = 0; /* k = 0 */
    expect_error(c, m, 100, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 4, "key id length 0");
    m[5] = 64; /* k = 64: fits 100 bytes only without a wrapped key */
    expect_error(c, m, 100, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 4, "does not fit");
    m[4] = 0xff, m[5] = 0xff; /* k = 65535 in a 100-byte message */
    expect_error(c, m, 100, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 4, "does not fit");
    m[4] = 0x01, m[5] = 0x00; /* k = 256: fits, but over the limit */
    expect_error(c, m, 2000, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, 4, "over the limit");
    m[4] = 0x00, m[5] = 0x03;
    m[9] = 0x00, m[10] = 0x00; /* w = 0 */
    expect_error(c, m, 100, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 9, "wrapped key length 0");
    m[9] = 0x00, m[10] = 62; /* w = 62: 36 + 3 + 62 = 101 > 100 */
    expect_error(c, m, 100, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 9, "does not fit");
    m[10] = 61; /* fits exactly: the structure is fine, the wrapped key is not */
    expect_error(c, m, 100, CODEC_E_INVALID_PAYLOAD, CODEC_D_DECRYPT, CODEC_NO_OFFSET,
                 "unable to decrypt");
    m[9] = 0x04, m[10] = 0x01; /* w = 1025 */
    expect_error(c, m, 2200, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, 9, "over the limit");
    codec_free(c);
}

/* What a flip of bit `bit` must give, by the field it lands in. */
static void check_flip(const codec *c, uint8_t *msg, size_t n, size_t bit, codec_arena *arena)
{
    size_t byte = bit / 8;
    msg[byte] ^= (uint8_t)(1u << (bit % 8));
    codec_bytes back;
    codec_error err;
    int rc = open_msg(c, msg, n, &back, arena, &err);
    msg[byte] ^= (uint8_t)(1u << (bit % 8));
    if (byte < 2) {
        CHECK(rc == CODEC_E_INVALID_PAYLOAD && err.detail == CODEC_D_BAD_MAGIC);
    } else if (byte < 4) {
        CHECK(rc == CODEC_E_UNSUPPORTED && err.offset == byte);
    } else if (byte < 6 || byte == 9 || byte == 10) {
        /* a length field: either the structure breaks or the key does */
        CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);
        CHECK(err.detail == CODEC_D_CORRUPT || err.detail == CODEC_D_LIMIT ||
              is_unable_to_decrypt(&err));
    } else {
        CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);
        CHECK(is_unable_to_decrypt(&err));
    }
}

static void test_every_bit_flip_and_truncation(void)
{
    codec_envelope_options o = {0};
    o.aad = (const uint8_t *)"fixed";
    o.aad_len = 5;
    codec *c = envelope_with("kek " KEK_ONE "\n", o);
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(seal(c, "twenty bytes of text", 20, &out), 0);
    size_t n = out.len;
    CHECK_INT(n, 36 + 3 + 41 + 20);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (size_t bit = 0; bit < n * 8; bit++)
        check_flip(c, out.data, n, bit, &arena);

    codec_bytes back;
    codec_error err;
    for (size_t len = 0; len < n; len++) {
        int rc = open_msg(c, out.data, len, &back, &arena, &err);
        CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);
        if (len < 38)
            CHECK_INT(err.detail, CODEC_D_TRUNCATED);
        else if (len < 36 + 3 + 1)
            CHECK(err.detail == CODEC_D_CORRUPT && err.offset == 4);
        else if (len < 36 + 3 + 41)
            CHECK(err.detail == CODEC_D_CORRUPT && err.offset == 9);
        else
            CHECK(is_unable_to_decrypt(&err));
    }
    CHECK_INT(codec_buf_append(&out, "x", 1), 0); /* one byte too many */
    CHECK_INT(open_msg(c, out.data, out.len, &back, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(is_unable_to_decrypt(&err));
    CHECK_INT(open_msg(c, out.data, n, &back, &arena, &err), 0); /* the original is fine */
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
}

/* ---------------------------------------------------------------------------
 * A provider wrapping the key ring, to count calls and inject failures
 * ------------------------------------------------------------------------ */

typedef struct test_provider {
    codec_key_provider ring;
    atomic_int generates, allows, unwraps, releases;
    int generate_fails;     /* status to return from generate, 0 = work */
    int unwrap_fails;       /* status to return from unwrap, 0 = work */
    size_t bad_key_id_len;  /* nonzero: return this key id length */
} test_provider;

static int tp_generate(void *ctx, const codec_byte_source *random, codec_data_key *out,
                       codec_error *err)
{
    test_provider *tp = ctx;
    tp->generates++;
    if (tp->generate_fails)
        return codec_error_set(err, tp->generate_fails, 0, "kms", CODEC_NO_OFFSET,
                               "KMS said no");
    int rc = tp->ring.generate(tp->ring.ctx, random, out, err);
    if (tp->bad_key_id_len)
        out->key_id_len = tp->bad_key_id_len;
    return rc;
}

static int tp_allows(void *ctx, const uint8_t *id, size_t n)
{
    test_provider *tp = ctx;
    tp->allows++;
    return tp->ring.allows(tp->ring.ctx, id, n);
}

static int tp_unwrap(void *ctx, const uint8_t *id, size_t n, const uint8_t *w, size_t wn,
                     uint8_t key[32], codec_error *err)
{
    test_provider *tp = ctx;
    tp->unwraps++;
    if (tp->unwrap_fails)
        return codec_error_set(err, tp->unwrap_fails, 0, "kms", CODEC_NO_OFFSET,
                               "KMS timeout");
    return tp->ring.unwrap(tp->ring.ctx, id, n, w, wn, key, err);
}

static void tp_release(void *ctx)
{
    test_provider *tp = ctx;
    tp->releases++;
    tp->ring.release(tp->ring.ctx);
}

static codec_key_provider tp_make(test_provider *tp, const char *ring_text)
{
    memset(tp, 0, sizeof *tp);
    tp->ring = codec_keyring_provider(ring_of(ring_text));
    codec_key_provider p = {tp_generate, tp_allows, tp_unwrap, tp_release, tp};
    return p;
}

static void test_provider_failures(void)
{
    test_provider tp;
    codec_envelope_options o = {0};
    o.provider = tp_make(&tp, "kek " KEK_ONE "\n");
    codec_error err;
    codec *c = codec_envelope(&o, &err);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_bytes in = {(const uint8_t *)"abc", 3};
    int fails[] = {CODEC_E_TRANSIENT, CODEC_E_INVALID_PAYLOAD, CODEC_E_USAGE};
    for (size_t i = 0; i < 3; i++) {
        tp.generate_fails = fails[i];
        CHECK_INT(codec_encode(c, &in, &out, &err), CODEC_E_TRANSIENT);
        CHECK(strstr(err.message, "KMS said no") != NULL);
        CHECK_INT(out.len, 0);
    }
    tp.generate_fails = 0;
    tp.bad_key_id_len = 256;
    CHECK_INT(codec_encode(c, &in, &out, &err), CODEC_E_USAGE);
    tp.bad_key_id_len = 0;
    CHECK_INT(codec_encode(c, &in, &out, &err), 0);

    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back;
    tp.unwrap_fails = CODEC_E_TRANSIENT;
    CHECK_INT(open_msg(c, out.data, out.len, &back, &arena, &err), CODEC_E_TRANSIENT);
    CHECK(strstr(err.message, "KMS timeout") != NULL);
    tp.unwrap_fails = CODEC_E_INVALID_VALUE; /* anything else: no oracle */
    CHECK_INT(open_msg(c, out.data, out.len, &back, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(is_unable_to_decrypt(&err));
    tp.unwrap_fails = 0;

    /* a key id outside the ring is refused before any unwrap */
    int unwraps = tp.unwraps;
    out.data[6] ^= 1;
    CHECK_INT(open_msg(c, out.data, out.len, &back, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(is_unable_to_decrypt(&err));
    CHECK_INT(tp.unwraps, unwraps);
    out.data[6] ^= 1;
    CHECK_INT(open_msg(c, out.data, out.len, &back, &arena, &err), 0);
    CHECK_INT(tp.unwraps, unwraps + 1);
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
    CHECK_INT(tp.releases, 1);
}

static void test_options_validation(void)
{
    codec_error err;
    CHECK(codec_envelope(NULL, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    codec_envelope_options zero = {0};
    CHECK(codec_envelope(&zero, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    codec_envelope_options failed_load = {0};
    failed_load.provider = codec_keyring_provider(codec_keyring_load("/nonexistent", NULL));
    CHECK(codec_envelope(&failed_load, &err) == NULL);
    CHECK(strstr(err.message, "key provider") != NULL);

    test_provider tp;
    codec_envelope_options o = {0};
    o.provider = tp_make(&tp, "kek " KEK_ONE "\n");
    o.reserved[2] = 1;
    CHECK(codec_envelope(&o, &err) == NULL);
    CHECK(strstr(err.message, "reserved") != NULL);
    CHECK_INT(tp.releases, 1); /* ownership passed even on failure */

    o = zero;
    o.provider = tp_make(&tp, "kek " KEK_ONE "\n");
    o.max_messages = 5; /* needs the bounded strategy */
    CHECK(codec_envelope(&o, &err) == NULL);
    CHECK_INT(tp.releases, 1);

    o = zero;
    o.provider = tp_make(&tp, "kek " KEK_ONE "\n");
    o.strategy = CODEC_ENVELOPE_BOUNDED;
    o.max_messages = CODEC_ENVELOPE_LIMIT_MAX_MESSAGES + 1;
    CHECK(codec_envelope(&o, &err) == NULL);
    CHECK(strstr(err.message, "2^24") != NULL);
    CHECK_INT(tp.releases, 1);
}

/* ---------------------------------------------------------------------------
 * Decode cache
 * ------------------------------------------------------------------------ */

typedef struct fake_clock {
    uint64_t ns;
} fake_clock;

static uint64_t fake_now(void *ctx)
{
    return ((fake_clock *)ctx)->ns;
}

static void decode_all(const codec *c, const codec_buf *msgs, size_t count)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (size_t i = 0; i < count; i++) {
        codec_bytes back;
        codec_error err;
        CHECK_INT(open_msg(c, msgs[i].data, msgs[i].len, &back, &arena, &err), 0);
        CHECK(back.len == 1 && back.data[0] == (uint8_t)i);
    }
    codec_arena_free(&arena);
}

static void test_key_cache(void)
{
    enum { N = 50 };
    codec *writer = bounded_codec("kek " KEK_ONE "\n", 1000);
    codec *direct = direct_codec("kek " KEK_ONE "\n");
    codec_buf msgs[N], direct_msgs[N];
    for (size_t i = 0; i < N; i++) {
        uint8_t b = (uint8_t)i;
        codec_buf_init(&msgs[i], NULL);
        codec_buf_init(&direct_msgs[i], NULL);
        CHECK_INT(seal(writer, &b, 1, &msgs[i]), 0);
        CHECK_INT(seal(direct, &b, 1, &direct_msgs[i]), 0);
    }
    fake_clock clock = {1000};
    test_provider tp;
    codec_envelope_options o = {0};
    o.provider = tp_make(&tp, "kek " KEK_ONE "\n");
    o.cache_max_age_ms = 1000;
    o.test.clock_ns = fake_now;
    o.test.clock_ctx = &clock;
    codec_error err;
    codec *reader = codec_envelope(&o, &err);
    decode_all(reader, msgs, N);
    CHECK_INT(tp.unwraps, 1); /* one bounded key, unwrapped once */
    clock.ns += 999999999u;
    decode_all(reader, msgs, 1);
    CHECK_INT(tp.unwraps, 1);
    clock.ns += 1; /* the entry is now a second old */
    decode_all(reader, msgs, 1);
    CHECK_INT(tp.unwraps, 2);
    /* Direct keys differ every message. (Before the age checks, they could
     * evict the bounded key: the cache is two-way set-associative with a
     * random hash seed, so two of them in its set did, in one run of 46.) */
    decode_all(reader, direct_msgs, N);
    CHECK_INT(tp.unwraps, 2 + N);
    codec_free(reader);

    o = (codec_envelope_options){0};
    o.provider = tp_make(&tp, "kek " KEK_ONE "\n");
    o.no_cache = 1;
    reader = codec_envelope(&o, &err);
    decode_all(reader, msgs, N);
    CHECK_INT(tp.unwraps, N);
    codec_free(reader);

    /* a one-entry cache alternating between two keys still decrypts right */
    o = (codec_envelope_options){0};
    o.provider = tp_make(&tp, "kek " KEK_ONE "\n");
    o.cache_entries = 1;
    reader = codec_envelope(&o, &err);
    for (int round = 0; round < 3; round++) {
        decode_all(reader, msgs, 2);
        decode_all(reader, direct_msgs, 2);
    }
    codec_free(reader);
    for (size_t i = 0; i < N; i++) {
        codec_buf_free(&msgs[i]);
        codec_buf_free(&direct_msgs[i]);
    }
    codec_free(writer);
    codec_free(direct);
}

/* ---------------------------------------------------------------------------
 * Strategies
 * ------------------------------------------------------------------------ */

static void test_bounded_rollover(void)
{
    fake_clock clock = {5};
    codec_envelope_options o = {0};
    o.strategy = CODEC_ENVELOPE_BOUNDED;
    o.max_messages = 3;
    o.max_age_ms = 10000;
    o.test.clock_ns = fake_now;
    o.test.clock_ctx = &clock;
    codec *c = envelope_with("kek " KEK_ONE "\n", o);
    codec_buf m[8];
    for (int i = 0; i < 8; i++) {
        codec_buf_init(&m[i], NULL);
        if (i == 4)
            clock.ns += 9999999999u; /* message 5: 10 s minus 1 ns after key 2 */
        if (i == 5)
            clock.ns += 1; /* message 6: exactly 10 s: too old */
        CHECK_INT(seal(c, "m", 1, &m[i]), 0);
    }
    const size_t w = wrapped_at(3);
#define SAME_KEY(a, b) (memcmp(m[a].data + w, m[b].data + w, 41) == 0)
    CHECK(SAME_KEY(0, 1) && SAME_KEY(1, 2)); /* three messages per key */
    CHECK(!SAME_KEY(2, 3));
    CHECK(SAME_KEY(3, 4));  /* key 2 at 10 s - 1 ns */
    CHECK(!SAME_KEY(4, 5)); /* rolled by age before its count ran out */
    CHECK(SAME_KEY(5, 6) && SAME_KEY(6, 7));
#undef SAME_KEY
    for (int i = 0; i < 8; i++) /* fresh nonce every message */
        for (int j = 0; j < i; j++)
            CHECK(memcmp(m[i].data + nonce_at(3, 41), m[j].data + nonce_at(3, 41), 12) != 0);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (int i = 0; i < 8; i++) {
        codec_bytes back;
        codec_error err;
        CHECK_INT(open_msg(c, m[i].data, m[i].len, &back, &arena, &err), 0);
        codec_buf_free(&m[i]);
    }
    codec_arena_free(&arena);
    codec_free(c);
}

#define THREADS 8
#define PER_THREAD 3000
#define RECORD (41 + 12)

typedef struct worker {
    const codec *c;
    uint8_t (*records)[RECORD]; /* wrapped key + nonce of each message */
    int failures;
} worker;

static void *encode_worker(void *arg)
{
    worker *wk = arg;
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (int i = 0; i < PER_THREAD; i++) {
        uint32_t payload = (uint32_t)i;
        codec_bytes in = {(const uint8_t *)&payload, 4}, back;
        codec_error err;
        codec_buf_clear(&out);
        if (codec_encode(wk->c, &in, &out, &err) ||
            codec_decode(wk->c, out.data, out.len, &back, &arena, &err) || back.len != 4 ||
            memcmp(back.data, &payload, 4) != 0) {
            wk->failures++;
            continue;
        }
        memcpy(wk->records[i], out.data + wrapped_at(3), RECORD);
        codec_arena_reset(&arena);
    }
    codec_arena_free(&arena);
    codec_buf_free(&out);
    return NULL;
}

static int record_cmp(const void *a, const void *b)
{
    return memcmp(a, b, RECORD);
}

/* Many threads at once: no (key, nonce) pair twice, no key over its cap. */
static void hammer(codec *c, uint32_t cap)
{
    static uint8_t records[THREADS * PER_THREAD][RECORD];
    memset(records, 0, sizeof records);
    pthread_t th[THREADS];
    worker wk[THREADS];
    for (int t = 0; t < THREADS; t++) {
        wk[t] = (worker){c, records + t * PER_THREAD, 0};
        pthread_create(&th[t], NULL, encode_worker, &wk[t]);
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        CHECK_INT(wk[t].failures, 0);
    }
    qsort(records, THREADS * PER_THREAD, RECORD, record_cmp);
    size_t dup = 0, over_cap = 0, run = 1;
    for (size_t i = 1; i < THREADS * PER_THREAD; i++) {
        dup += memcmp(records[i], records[i - 1], RECORD) == 0;
        run = memcmp(records[i], records[i - 1], 41) == 0 ? run + 1 : 1;
        over_cap += cap && run > cap;
    }
    CHECK_INT(dup, 0);
    CHECK_INT(over_cap, 0);
}

static void test_threads(void)
{
    codec *c = bounded_codec("kek " KEK_ONE "\n", 100);
    hammer(c, 100);
    codec_free(c);
    c = bounded_codec("kek " KEK_ONE "\n", 1); /* every message rolls */
    hammer(c, 1);
    codec_free(c);
    c = direct_codec("kek " KEK_ONE "\n");
    hammer(c, 1);
    codec_free(c);
}

/* A child process must not continue the parent's bounded key or reuse its
 * buffered random bytes. */
static void test_fork(void)
{
    codec *c = bounded_codec("kek " KEK_ONE "\n", 1000);
    codec_buf parent, child;
    codec_buf_init(&parent, NULL);
    codec_buf_init(&child, NULL);
    CHECK_INT(seal(c, "p", 1, &parent), 0); /* key and random block in place */
    int fds[2];
    CHECK_INT(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        codec_buf out;
        codec_buf_init(&out, NULL);
        int rc = seal(c, "c", 1, &out);
        if (rc == 0 && write(fds[1], out.data, out.len) != (ssize_t)out.len)
            rc = 1;
        _exit(rc);
    }
    close(fds[1]);
    uint8_t buf[200];
    ssize_t got = read(fds[0], buf, sizeof buf);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK_INT(got, 36 + 3 + 41 + 1);
    CHECK_INT(seal(c, "p", 1, &parent), 0);
    CHECK(memcmp(parent.data + wrapped_at(3), buf + wrapped_at(3), 41) != 0);
    CHECK(memcmp(parent.data + nonce_at(3, 41), buf + nonce_at(3, 41), 12) != 0);
    codec_buf_free(&parent);
    codec_buf_free(&child);
    codec_free(c);
}

/* ---------------------------------------------------------------------------
 * Allocation: steady-state encode allocates nothing
 * ------------------------------------------------------------------------ */

static size_t allocs;
static void *count_alloc(void *ctx, size_t n)
{
    (void)ctx;
    allocs++;
    return malloc(n);
}
static void *count_resize(void *ctx, void *p, size_t old, size_t n)
{
    (void)ctx, (void)old;
    allocs++;
    return realloc(p, n);
}
static void count_release(void *ctx, void *p, size_t n)
{
    (void)ctx, (void)n;
    free(p);
}

static void test_steady_state_allocations(void)
{
    codec_allocator counting = {count_alloc, count_resize, count_release, NULL};
    codec *cs[] = {direct_codec("kek " KEK_ONE "\n"), bounded_codec("kek " KEK_ONE "\n", 0)};
    for (int i = 0; i < 2; i++) {
        codec_buf out;
        codec_buf_init(&out, &counting);
        CHECK_INT(seal(cs[i], "warm up the buffer", 18, &out), 0);
        size_t before = allocs;
        for (int j = 0; j < 200; j++)
            CHECK_INT(seal(cs[i], "warm up the buffer", 18, &out), 0);
        CHECK_INT(allocs, before);
        codec_buf_free(&out);
        codec_free(cs[i]);
    }
}

/* ---------------------------------------------------------------------------
 * Key rings and keygen
 * ------------------------------------------------------------------------ */

static char tmpdir[64];

static const char *ring_file(const char *name, const char *text, mode_t mode)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    chmod(path, mode);
    return path;
}

static void expect_ring_error(const char *text, const char *needle)
{
    codec_error err;
    CHECK(codec_keyring_parse(text, strlen(text), &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK_STR(err.stage, "keyring");
    if (!strstr(err.message, needle)) {
        fprintf(stderr, "ring error '%s' lacks '%s'\n", err.message, needle);
        CHECK(0);
    }
    CHECK(strstr(err.message, "0101010101") == NULL); /* never print key material */
}

static void test_keyring_format(void)
{
    expect_ring_error("", "1 to 1024 keys");
    expect_ring_error("# only a comment\n\n   \n", "1 to 1024 keys");
    expect_ring_error("k " KEK_ONE "0\n", "line 1: expected");
    expect_ring_error("k 01\n", "line 1: expected");
    expect_ring_error("\n\nk " KEK_ONE "\nj " KEK_ONE " extra\n", "line 4: expected");
    expect_ring_error("k\n", "line 1: expected");
    expect_ring_error("k 010101010101010101010101010101010101010101010101010101010101010g\n",
                      "line 1: expected");
    expect_ring_error("a " KEK_ONE "\nb " KEK_TWO "\na " KEK_ONE "\n", "line 3: key id 'a'");
    char long_id[400];
    memset(long_id, 'x', 256);
    snprintf(long_id + 256, sizeof long_id - 256, " %s\n", KEK_ONE);
    expect_ring_error(long_id, "line 1: key id must be");
    expect_ring_error("caf\xc3\xa9 " KEK_ONE "\n", "line 1: key id must be");

    /* comments, blank lines, CRLF, tabs, upper-case hex, no final newline */
    codec_keyring *ring = ring_of("# ring\r\n\r\n  \t# indented comment\n\tfirst\t \t" KEK_ONE
                                  "  \r\nsecond ABCDEFabcdef0123456789ABCDEFabcdef"
                                  "0123456789ABCDEF0123456789abcd");
    CHECK(ring != NULL);
    codec_key_provider p = codec_keyring_provider(ring);
    CHECK(p.allows(p.ctx, (const uint8_t *)"first", 5));
    CHECK(p.allows(p.ctx, (const uint8_t *)"second", 6));
    CHECK(!p.allows(p.ctx, (const uint8_t *)"secon", 5));
    CHECK(!p.allows(p.ctx, (const uint8_t *)"# ring", 6));
    p.release(p.ctx);
}

static void test_keyring_files(void)
{
    codec_error err;
    const char *path = ring_file("open.ring", "k " KEK_ONE "\n", 0644);
    CHECK(codec_keyring_load(path, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK(strstr(err.message, "group or others") && strstr(err.message, "chmod 600"));
    path = ring_file("group.ring", "k " KEK_ONE "\n", 0640);
    CHECK(codec_keyring_load(path, &err) == NULL);
    path = ring_file("others-write.ring", "k " KEK_ONE "\n", 0602);
    CHECK(codec_keyring_load(path, &err) == NULL);
    path = ring_file("private.ring", "k " KEK_ONE "\n", 0600);
    codec_keyring *ring = codec_keyring_load(path, &err);
    CHECK(ring != NULL);
    codec_keyring_free(ring);
    path = ring_file("readonly.ring", "k " KEK_ONE "\n", 0400);
    ring = codec_keyring_load(path, &err);
    CHECK(ring != NULL);
    codec_keyring_free(ring);
    CHECK(codec_keyring_load("/nonexistent/ring", &err) == NULL);
    CHECK_INT(err.family, CODEC_E_TRANSIENT);
    CHECK_INT(err.detail, CODEC_D_IO);
    CHECK(codec_keyring_load(tmpdir, &err) == NULL); /* a directory */
    CHECK(err.family == CODEC_E_USAGE || err.family == CODEC_E_TRANSIENT);
    /* Over the 1 MiB limit (sparse), checked before reading; no path; no text. */
    path = ring_file("huge.ring", "k " KEK_ONE "\n", 0600);
    CHECK(truncate(path, (1 << 20) + 1) == 0);
    CHECK(codec_keyring_load(path, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK(strstr(err.message, "larger than") != NULL);
    CHECK(codec_keyring_load(NULL, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK(codec_keyring_parse(NULL, 0, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
}

static void test_keygen(void)
{
    char a[400], b[400];
    codec_error err;
    CHECK_INT(codec_keyring_generate_line(NULL, a, sizeof a, &err), 0);
    CHECK_INT(codec_keyring_generate_line(NULL, b, sizeof b, &err), 0);
    CHECK(strncmp(a, "kek-", 4) == 0 && strlen(a) == 4 + 8 + 1 + 8 + 1 + 64 + 1);
    CHECK(strcmp(a, b) != 0);
    CHECK(a[strlen(a) - 1] == '\n');
    codec_keyring *ring = ring_of(a);
    CHECK(ring != NULL);
    codec_keyring_free(ring);
    CHECK_INT(codec_keyring_generate_line("orders-2026", a, sizeof a, &err), 0);
    CHECK(strncmp(a, "orders-2026 ", 12) == 0 && strlen(a) == 12 + 64 + 1);
    /* the line makes a working ring */
    codec *c = direct_codec(a);
    round_trips(c, 11);
    codec_free(c);
    CHECK_INT(codec_keyring_generate_line("has space", a, sizeof a, &err), CODEC_E_USAGE);
    CHECK_INT(codec_keyring_generate_line("", a, sizeof a, &err), CODEC_E_USAGE);
    CHECK_INT(codec_keyring_generate_line("k", a, 60, &err), CODEC_E_USAGE);
}

/* ---------------------------------------------------------------------------
 * Spec syntax
 * ------------------------------------------------------------------------ */

static void expect_spec_error(const char *spec, int family, const char *needle)
{
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    CHECK(c == NULL);
    CHECK_INT(err.family, family);
    if (!strstr(err.message, needle)) {
        fprintf(stderr, "spec '%s': '%s' lacks '%s'\n", spec, err.message, needle);
        CHECK(0);
    }
    codec_free(c);
}

static void test_spec(void)
{
    const char *path = ring_file("spec.ring", "# test ring\nspec-key " KEK_ONE "\n", 0600);
    char spec[256];
    snprintf(spec, sizeof spec, "envelope:keyring=%s", path);
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    CHECK(c != NULL);
    round_trips(c, 8);
    codec_free(c);

    snprintf(spec, sizeof spec,
             "hex | envelope:keyring=%s,aad=t1,strategy=bounded,max-messages=2", path);
    c = codec_parse(spec, NULL, &err);
    CHECK(c != NULL);
    if (c) {
        codec_buf out;
        codec_buf_init(&out, NULL);
        CHECK_INT(seal(c, "\x01\x02", 2, &out), 0);
        CHECK_INT(out.len, 36 + 8 + 41 + 4); /* hex doubled the two bytes */
        codec_arena arena;
        codec_arena_init(&arena, NULL, 0);
        codec_bytes back;
        CHECK_INT(open_msg(c, out.data, out.len, &back, &arena, &err), 0);
        CHECK_MEM(back.data, back.len, "\x01\x02", 2);
        codec_arena_free(&arena);
        codec_buf_free(&out);
        codec_free(c);
    }

    expect_spec_error("envelope", CODEC_E_USAGE, "needs keyring=FILE");
    expect_spec_error("envelope:keyring=/nonexistent/r", CODEC_E_TRANSIENT, "cannot open");
    snprintf(spec, sizeof spec, "envelope:keyring=%s,strategy=sometimes", path);
    expect_spec_error(spec, CODEC_E_USAGE, "expected one of direct, bounded");
    snprintf(spec, sizeof spec, "envelope:keyring=%s,strategy=bounded,max-messages=0", path);
    expect_spec_error(spec, CODEC_E_USAGE, "from 1 to 16777216");
    snprintf(spec, sizeof spec, "envelope:keyring=%s,strategy=bounded,max-messages=16777217",
             path);
    expect_spec_error(spec, CODEC_E_USAGE, "from 1 to 16777216");
    snprintf(spec, sizeof spec, "envelope:keyring=%s,strategy=bounded,max-age=5x", path);
    expect_spec_error(spec, CODEC_E_USAGE, "bad max-age '5x'");
    snprintf(spec, sizeof spec, "envelope:keyring=%s,strategy=bounded,max-age=366d", path);
    expect_spec_error(spec, CODEC_E_USAGE, "bad max-age");
    snprintf(spec, sizeof spec, "envelope:keyring=%s,max-messages=5", path);
    expect_spec_error(spec, CODEC_E_USAGE, "need strategy=bounded");
    snprintf(spec, sizeof spec, "envelope:keyring=%s,colour=blue", path);
    expect_spec_error(spec, CODEC_E_USAGE, "unknown key 'colour'");
    snprintf(spec, sizeof spec, "envelope:%s", path);
    expect_spec_error(spec, CODEC_E_USAGE, "needs keyring=FILE");
    path = ring_file("spec-open.ring", "k " KEK_ONE "\n", 0644);
    snprintf(spec, sizeof spec, "envelope:keyring=%s", path);
    expect_spec_error(spec, CODEC_E_USAGE, "chmod 600");

    static const char *durations[] = {"500ms", "30s", "30", "10m", "1h", "1d", "365d"};
    path = ring_file("spec.ring", "k " KEK_ONE "\n", 0600);
    for (size_t i = 0; i < sizeof durations / sizeof durations[0]; i++) {
        snprintf(spec, sizeof spec, "envelope:keyring=%s,strategy=bounded,max-age=%s", path,
                 durations[i]);
        c = codec_parse(spec, NULL, &err);
        CHECK(c != NULL);
        codec_free(c);
    }
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/codec-envelope-XXXXXX");
    if (!mkdtemp(tmpdir))
        return 1;
    test_known_answer();
    test_round_trips();
    test_aad_and_wrong_keys();
    test_structural_errors();
    test_every_bit_flip_and_truncation();
    test_provider_failures();
    test_options_validation();
    test_key_cache();
    test_bounded_rollover();
    test_threads();
    test_fork();
    test_steady_state_allocations();
    test_keyring_format();
    test_keyring_files();
    test_keygen();
    test_spec();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        return 1;
    return check_done("envelope");
}
