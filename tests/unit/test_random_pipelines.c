/* test_random_pipelines.c — random inputs (0 bytes to 1 MiB) through random
 * pipelines of every byte transform, checking decode(encode(x)) == x (by
 * codec_decode and by codec_decode_view), that encoding is deterministic,
 * and that a re-used buffer gives the same bytes. */
#include "check.h"
#include "codec/codec.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Every byte stage with a few of its arguments. Envelope needs a key file
 * and is covered by its own tests. */
static const char *const stages[] = {
    "gzip:1", "gzip", "deflate:1", "deflate:9", "zstd:1", "zstd:3", "zstd:-3", "lz4",
    "lz4hc:4", "snappy", "brotli:1", "redisson-lz4", "redisson-zstd", "redisson-snappy",
    "zstd:3,gate=64", "lz4:gate=512", "base64", "base64:url", "base64:url-nopad",
    "base64:mime", "base32", "base32:hex", "base32:crockford", "base32:z",
    "base32:geohash", "hex", "hex:upper", "crc32c", "crc32", "adler32", "versioned:7",
};
#define STAGE_COUNT (sizeof stages / sizeof stages[0])

/* Whether this build has the stage of `spec` (CODEC_WITH_*=OFF leaves some
 * out; test_build_config checks how they refuse). */
static bool built(const char *spec)
{
    char name[32];
    size_t n = strcspn(spec, ":");
    snprintf(name, sizeof name, "%.*s", (int)n, spec);
    return codec_stage_missing(name) == NULL;
}

/* Inputs that compress well, badly and not at all. */
static void fill(uint8_t *p, size_t n, uint64_t *seed)
{
    unsigned style = (unsigned)(check_rand(seed) % 3);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = check_rand(seed);
        p[i] = style == 0 ? (uint8_t)r : style == 1 ? (uint8_t)("abcab "[r % 6]) : (uint8_t)(i / 97);
    }
}

static size_t random_length(uint64_t *seed)
{
    switch (check_rand(seed) % 4) {
    case 0: return (size_t)(check_rand(seed) % 16);
    case 1: return (size_t)(check_rand(seed) % 4096);
    case 2: return (size_t)(check_rand(seed) % 65536);
    default: return (size_t)(check_rand(seed) % ((1u << 20) + 1));
    }
}

static void one_pipeline(uint64_t *seed, uint8_t *data, codec_buf *out, codec_buf *again,
                         codec_arena *arena)
{
    char spec[512] = "";
    size_t depth = 1 + (size_t)(check_rand(seed) % 4);
    for (size_t i = 0; i < depth; i++) {
        const char *stage = stages[check_rand(seed) % STAGE_COUNT];
        if (!built(stage)) {   /* left out of this configuration */
            i--;
            continue;
        }
        strcat(spec, i ? " | " : "");
        strcat(spec, stage);
    }
    size_t n = random_length(seed);
    fill(data, n, seed);

    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    CHECK(c != NULL);
    if (!c) {
        fprintf(stderr, "spec '%s': %s\n", spec, err.message);
        return;
    }
    codec_bytes in = {data, n};
    codec_buf_clear(out);
    codec_buf_clear(again);
    int rc = codec_encode(c, &in, out, &err);
    CHECK_INT(rc, CODEC_OK);
    CHECK_INT(codec_encode(c, &in, again, &err), CODEC_OK);
    int deterministic = out->len == again->len && memcmp(out->data, again->data, out->len) == 0;
    /* envelope-free pipelines are deterministic */
    CHECK(deterministic);
    codec_bytes back = {0};
    codec_arena_reset(arena);
    CHECK_INT(codec_decode(c, out->data, out->len, &back, arena, &err), CODEC_OK);
    int same = back.len == n && (n == 0 || memcmp(back.data, data, n) == 0);
    CHECK(same);
    /* the view decode: the same bytes, in the input when it borrows */
    codec_bytes view = {0};
    bool borrowed = false;
    CHECK_INT(codec_decode_view(c, out->data, out->len, &view, &borrowed, arena, &err), CODEC_OK);
    CHECK_MEM(view.data, view.len, data, n);
    CHECK(!borrowed || (view.data >= out->data && view.data + view.len <= out->data + out->len));
    if (rc || !same || !deterministic)
        fprintf(stderr, "failed: '%s' on %zu bytes\n", spec, n);
    codec_free(c);
}

int main(void)
{
    uint64_t seed = 0x5EED2026u;
    uint8_t *data = malloc((1u << 20) + 1);
    codec_buf out, again;
    codec_buf_init(&out, NULL);
    codec_buf_init(&again, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (int i = 0; i < 150; i++)
        one_pipeline(&seed, data, &out, &again, &arena);
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_buf_free(&again);
    free(data);
    return check_done("random pipelines");
}
