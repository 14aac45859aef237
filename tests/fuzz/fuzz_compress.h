/* fuzz_compress.h — the body of the compression fuzz targets. The first
 * input byte picks one of the target's stages; the rest is decoded (it must
 * fail cleanly or succeed), a successful decode must survive an encode and
 * decode again, and the rest is also encoded and decoded as plain data (a
 * round trip that must give it back). Caps are small so hostile inputs
 * stay fast. Any broken property aborts, which libFuzzer reports. */
#ifndef CODEC_FUZZ_COMPRESS_H
#define CODEC_FUZZ_COMPRESS_H

#include "fuzz_target.h"
#include "codec/codec.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Encodes src and decodes it back; aborts unless the bytes come back (or
 * they are more than the stage's max= allows). */
static void fuzz_round_trip(const codec *c, const uint8_t *src, size_t n, codec_arena *arena)
{
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    codec_bytes in = {src, n}, back;
    if (codec_encode(c, &in, &out, &err) != 0)
        abort();
    codec_arena_reset(arena);
    int rc = codec_decode(c, out.data, out.len, &back, arena, &err);
    bool over_cap = rc == CODEC_E_INVALID_PAYLOAD && err.detail == CODEC_D_LIMIT;
    if (!over_cap && (rc != 0 || back.len != n || (n && memcmp(back.data, src, n) != 0)))
        abort();
    codec_buf_free(&out);
}

static int fuzz_compress_one(const char *const *specs, codec **codecs, size_t count,
                             const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t pick = data[0] % count;
    if (!codecs[pick]) {
        codec_error err;
        codecs[pick] = codec_parse(specs[pick], NULL, &err);
        if (!codecs[pick])
            abort();
    }
    const codec *c = codecs[pick];
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back;
    codec_error err;
    int rc = codec_decode(c, data + 1, size - 1, &back, &arena, &err);
    if (rc == 0) {
        /* copy out of the arena: fuzz_round_trip resets it */
        uint8_t *copy = malloc(back.len ? back.len : 1);
        memcpy(copy, back.data, back.len);
        fuzz_round_trip(c, copy, back.len, &arena);
        free(copy);
    } else if (rc != CODEC_E_INVALID_PAYLOAD && rc != CODEC_E_UNSUPPORTED) {
        abort();
    }
    fuzz_round_trip(c, data + 1, size - 1, &arena);
    codec_arena_free(&arena);
    return 0;
}

/* Defines LLVMFuzzerTestOneInput over the given spec strings. */
#define CODEC_FUZZ_COMPRESS_TARGET(...)                                             \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                   \
    {                                                                              \
        static const char *const specs[] = {__VA_ARGS__};                          \
        static codec *codecs[sizeof specs / sizeof specs[0]];                      \
        return fuzz_compress_one(specs, codecs, sizeof specs / sizeof specs[0],   \
                                 data, size);                                      \
    }

#endif
