/* fuzz_stream.c — random splits through every streaming stage
 * (codec/stream.h). Byte 0 picks the stage, byte 1 seeds the piece and
 * drain sizes, the rest is the payload. For each input:
 *   - encode: the stream (split at random) gives the one-shot bytes for the
 *     stages that promise it, else bytes that one-shot decode takes back;
 *   - decode of the payload itself as hostile input: the stream never
 *     crashes, and when both the stream and one-shot decode succeed they
 *     give the same bytes.
 * Decodes are drained either in small pieces or (byte 1 odd) into room for
 * all the output at once, where zstd gathers whole frames and decodes each
 * in one call (or replays it when later room is small). */
#include "codec/stream.h"
#include "fuzz_target.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *spec;
    bool same;
} stages[] = {
    {"crc32c", true},        {"crc32", true},           {"adler32", true},
    {"zstd:1", true},        {"zstd:1,checksum=on", true}, {"gzip:1", false},
    {"deflate:1", false},    {"lz4", true},             {"lz4:checksum=off", true},
    {"brotli:1", false},     {"snappy:framed", true},   {"snappy", true},
    {"base64", true},        {"base64:url-nopad", true}, {"base64:mime", true},
    {"base64:wrap=8", true}, {"base32", true},          {"base32:crockford,wrap=5", true},
    {"hex", true},           {"hex:lines=skip", true},  {"versioned:3", true},
    {"zstd:1 | crc32c | base64", true},
    {"gzip:6", true},        {"deflate:9", true}, /* our encoder, in 128 KiB parts: the one-shot's bytes */
};
#define STAGE_COUNT (sizeof stages / sizeof stages[0])

static codec *codecs[STAGE_COUNT];

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* Streams in[0..n) through c with random pieces and drains (up to 300
 * bytes, or with `roomy` mostly up to 64 KiB); 0 or a status. */
static int run(const codec *c, codec_stream_mode mode, const uint8_t *in, size_t n,
               uint64_t seed, bool pledge, bool roomy, codec_buf *out)
{
    codec_error err;
    codec_stream *s = codec_stream_new(c, mode, &err);
    if (!s)
        abort();
    int rc = pledge ? codec_stream_pledge(s, n, &err) : 0;
    static uint8_t big[1 << 16];
    uint8_t small[300];
    uint8_t *drain = roomy ? big : small;
    size_t room = roomy ? sizeof big : sizeof small;
    size_t pos = 0, got, used;
    bool finished = false;
    while (!rc) {
        size_t cap = roomy && next(&seed) % 4 ? room : 1 + next(&seed) % (roomy ? 300 : room);
        rc = codec_stream_drain(s, drain, cap, &got, &err);
        if (rc || (got && codec_buf_append(out, drain, got)))
            break;
        if (got)
            continue;
        if (pos < n) {
            size_t k = 1 + next(&seed) % 97;
            k = k < n - pos ? k : n - pos;
            if (next(&seed) % 2) {
                rc = codec_stream_update(s, in + pos, k, &used, drain, cap, &got, &err);
                if (!rc && got && codec_buf_append(out, drain, got))
                    break;
            } else {
                rc = codec_stream_feed(s, in + pos, k, &used, &err);
            }
            pos += used;
        } else if (!finished) {
            rc = codec_stream_finish(s, &err);
            finished = true;
        } else if (codec_stream_done(s)) {
            break;
        }
    }
    codec_stream_free(s);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t which = data[0] % STAGE_COUNT;
    uint64_t seed = 0x9E3779B97F4A7C15u ^ data[1];
    const uint8_t *in = data + 2;
    size_t n = size - 2;
    codec_error err;
    if (!codecs[which] && !(codecs[which] = codec_parse(stages[which].spec, NULL, &err)))
        abort();
    const codec *c = codecs[which];
    codec_buf once, streamed;
    codec_buf_init(&once, NULL);
    codec_buf_init(&streamed, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);

    codec_bytes value = {in, n};
    if (codec_encode(c, &value, &once, &err) ||
        run(c, CODEC_STREAM_ENCODE, in, n, seed, stages[which].same, false, &streamed))
        abort();
    if (stages[which].same &&
        (once.len != streamed.len || (once.len && memcmp(once.data, streamed.data, once.len))))
        abort();
    bool roomy = data[1] & 1;
    codec_buf again;
    codec_buf_init(&again, NULL);
    if (run(c, CODEC_STREAM_DECODE, once.data ? once.data : (const uint8_t *)"", once.len, seed,
            false, roomy, &again) ||
        again.len != n || (n && memcmp(again.data, in, n)))
        abort();
    codec_buf_free(&again);
    codec_bytes back;
    if (codec_decode(c, streamed.data ? streamed.data : (const uint8_t *)"", streamed.len, &back,
                     &arena, &err) ||
        back.len != n || (n && memcmp(back.data, in, n)))
        abort();

    /* The payload as hostile encoded input. */
    streamed.len = 0;
    codec_arena_reset(&arena);
    int rs = run(c, CODEC_STREAM_DECODE, in, n, seed, false, roomy, &streamed);
    int ro = codec_decode(c, n ? in : (const uint8_t *)"", n, &back, &arena, &err);
    if (!rs && !ro && (back.len != streamed.len || (n && back.len &&
                                                    memcmp(back.data, streamed.data, back.len))))
        abort();
    codec_arena_free(&arena);
    codec_buf_free(&once);
    codec_buf_free(&streamed);
    return 0;
}
