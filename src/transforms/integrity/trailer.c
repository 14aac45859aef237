/* trailer.c — encode/decode of the 4-byte big-endian checksum trailer. */
#include "trailer.h"

#include <string.h>

static int trailer_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                          codec_error *err)
{
    const checksum_trailer *t = s->state;
    if (n > SIZE_MAX - CHECKSUM_TRAILER_SIZE ||
        codec_buf_reserve(out, n + CHECKSUM_TRAILER_SIZE))
        return CODEC_FAIL(err, s, CODEC_E_NOMEM, 0, CODEC_NO_OFFSET, "out of memory");
    uint32_t sum = t->fn(t->init, src, n);
    uint8_t *dst = out->data + out->len;
    if (n)
        memcpy(dst, src, n);
    dst[n] = (uint8_t)(sum >> 24);
    dst[n + 1] = (uint8_t)(sum >> 16);
    dst[n + 2] = (uint8_t)(sum >> 8);
    dst[n + 3] = (uint8_t)sum;
    out->len += n + CHECKSUM_TRAILER_SIZE;
    return CODEC_OK;
}

static int trailer_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                          codec_error *err)
{
    const checksum_trailer *t = s->state;
    if (n < CHECKSUM_TRAILER_SIZE)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                          "input of %zu bytes is shorter than the 4-byte checksum", n);
    size_t body = n - CHECKSUM_TRAILER_SIZE;
    const uint8_t *tr = src + body;
    uint32_t stored = (uint32_t)tr[0] << 24 | (uint32_t)tr[1] << 16 | (uint32_t)tr[2] << 8 | tr[3];
    if (t->fn(t->init, src, body) != stored)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CHECKSUM, body,
                          "checksum mismatch");
    if (codec_buf_append(out, src, body))
        return CODEC_FAIL(err, s, CODEC_E_NOMEM, 0, CODEC_NO_OFFSET, "out of memory");
    return CODEC_OK;
}

static const codec_stage_ops trailer_ops = {.encode = trailer_encode, .decode = trailer_decode};

void codec__checksum_trailer_stage(codec_stage *s, const checksum_trailer *t)
{
    s->ops = &trailer_ops;
    s->state = (void *)t;
}
