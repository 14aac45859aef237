/* fuzz_envelope.c — envelope decode on hostile bytes under a fixed key ring
 * (the known-answer ring of WIRE-FORMATS.md plus a second key), with the key
 * cache on; then a round trip of the same bytes as plaintext, which must come
 * back unchanged. Seeds in corpus/fuzz_envelope are valid messages. */
#include "fuzz_target.h"
#include "codec/codec.h"

#include <stdlib.h>
#include <string.h>

static const char ring_text[] =
    "kek 0000000000000000000000000000000000000000000000000000000000000000\n"
    "old 0101010101010101010101010101010101010101010101010101010101010101\n";

static codec *make(codec_envelope_strategy strategy)
{
    codec_envelope_options o = {0};
    o.provider = codec_keyring_provider(codec_keyring_parse(ring_text, strlen(ring_text), NULL));
    o.strategy = strategy;
    codec *c = codec_envelope(&o, NULL);
    if (!c)
        abort();
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *direct, *bounded;
    static codec_arena arena;
    static codec_buf out;
    if (!direct) {
        direct = make(CODEC_ENVELOPE_DIRECT);
        bounded = make(CODEC_ENVELOPE_BOUNDED);
        codec_arena_init(&arena, NULL, 0);
        codec_buf_init(&out, NULL);
    }
    codec_bytes back;
    codec_arena_reset(&arena);
    int rc = codec_decode(direct, data, size, &back, &arena, NULL);
    if (rc != CODEC_OK && rc != CODEC_E_INVALID_PAYLOAD && rc != CODEC_E_UNSUPPORTED)
        abort();

    codec_bytes in = {data, size};
    codec_buf_clear(&out);
    if (codec_encode(size % 2 ? bounded : direct, &in, &out, NULL) != CODEC_OK)
        abort();
    codec_arena_reset(&arena);
    if (codec_decode(size % 2 ? direct : bounded, out.data, out.len, &back, &arena, NULL) !=
            CODEC_OK ||
        back.len != size || (size && memcmp(back.data, data, size) != 0))
        abort();
    return 0;
}
