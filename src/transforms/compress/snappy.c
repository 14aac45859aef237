/* snappy.c — `snappy` and `redisson-snappy`: raw snappy (a varint of the
 * uncompressed length, then literal and copy elements), what Redisson's
 * SnappyCodecV2 writes; the preset is the same stage under Redisson's name.
 * The declared length is checked against the cap and reserved exactly.
 * Raw snappy cannot stream (the length comes first): a stream holds it
 * whole up to max=. `snappy:framed` is the framing format
 * (snappy_framed.c), which streams. */
#include "compress_internal.h"
#include "core/buf_internal.h"
#include "core/varint_internal.h"

#include "codec/compress.h"
#include "libsnappy_internal.h"

#include <string.h>

/* A snappy copy element is at least 2 bytes for at most 64 output bytes
 * (a 3-byte copy of 64, at best); literals never expand. */
#define SNAPPY_MAX_RATIO 32

static int snappy_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                         codec_error *err)
{
    if (n > UINT32_MAX)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_VALUE, CODEC_D_LIMIT, CODEC_NO_OFFSET,
                          "snappy holds at most 4 GiB, got %zu", n);
    size_t bound = snappy_max_compressed_length(n);
    if (codec_buf_reserve(out, bound))
        return codec__compress_nomem(s, err);
    size_t written = bound;
    if (snappy_compress((const char *)src, n, (char *)out->data + out->len, &written) !=
        SNAPPY_OK)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_VALUE, 0, CODEC_NO_OFFSET,
                          "snappy failed to compress %zu bytes", n);
    out->len += written;
    return CODEC_OK;
}

/* True when src ends inside the length varint (a 32-bit LEB128). */
static bool varint_unfinished(const uint8_t *src, size_t n)
{
    uint64_t len;
    return codec_leb128_get(&src, src + n, 32, &len) == -1;
}

static int snappy_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                         codec_error *err)
{
    size_t len;
    if (snappy_uncompressed_length((const char *)src, n, &len) != SNAPPY_OK)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD,
                          varint_unfinished(src, n) ? CODEC_D_TRUNCATED : CODEC_D_CORRUPT, 0,
                          "bad snappy length varint");
    int rc = codec__check_declared(s, len, n, SNAPPY_MAX_RATIO, 0, err);
    if (rc)
        return rc;
    if (codec__buf_room(out, len ? len : 1))
        return codec__compress_nomem(s, err);
    size_t got = len;
    if (snappy_uncompress((const char *)src, n, (char *)out->data + out->len, &got) !=
            SNAPPY_OK ||
        got != len)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, CODEC_NO_OFFSET,
                          "corrupt or truncated snappy data");
    out->len += len;
    return CODEC_OK;
}

static const codec_stage_ops snappy_ops = {.encode = snappy_encode, .decode = snappy_decode};

static const codec_stage_ops snappy_framed_ops = {
    .encode = codec__snappy_framed_encode,
    .decode = codec__snappy_framed_decode,
    .stream_open = codec__snappy_framed_stream_open};

int codec__stage_ctor_snappy(codec_stage *s, codec_args *a, const codec_type *t,
                            codec_error *err)
{
    (void)t;
    static const char *const formats[] = {"raw", "framed", NULL};
    size_t which = 0;
    int rc = codec__dynlib_open(&codec__libsnappy, a->stage, err);
    if (rc)
        return rc;
    rc = strcmp(a->stage, "snappy") == 0
             ? codec__args_choice(a, "format", true, formats, 0, &which, err)
             : CODEC_OK;
    s->ops = which == 1 ? &snappy_framed_ops : &snappy_ops;
    return rc ? rc : codec__args_max_output(a, &s->max_output, err);
}

codec *codec_snappy(codec_error *err)
{
    return codec__make_leveled("snappy", CODEC_LEVEL_DEFAULT, NULL, err);
}

codec *codec_redisson_snappy(codec_error *err)
{
    return codec__make_leveled("redisson-snappy", CODEC_LEVEL_DEFAULT, NULL, err);
}
