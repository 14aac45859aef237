/* trailer.c — encode/decode of the 4-byte big-endian checksum trailer. */
#include "trailer_internal.h"
#include "compose/stream_internal.h"
#include "core/load_internal.h"
#include "core/error_internal.h"

#include <string.h>

static int trailer_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                          codec_error *err)
{
    const checksum_trailer *t = s->state;
    if (n > SIZE_MAX - CHECKSUM_TRAILER_SIZE ||
        codec_buf_reserve(out, n + CHECKSUM_TRAILER_SIZE))
        return codec__nomem(err, s->name);
    uint32_t sum = t->fn(t->init, src, n);
    uint8_t *dst = out->data + out->len;
    if (n)
        memcpy(dst, src, n);
    codec_store_be32(dst + n, sum);
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
    if (t->fn(t->init, src, body) != codec_load_be32(src + body))
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CHECKSUM, body,
                          "checksum mismatch");
    if (codec_buf_append(out, src, body))
        return codec__nomem(err, s->name);
    return CODEC_OK;
}

/* ---- streaming: the payload passes through while the sum runs; a decode
 * holds back the last 4 bytes, which are the trailer once the input ends. */

typedef struct trailer_stream {
    codec__push p;
    uint32_t sum;
    uint8_t held[CHECKSUM_TRAILER_SIZE];
    size_t held_len;
} trailer_stream;

static int trailer_pass(trailer_stream *t, const uint8_t *src, size_t n, codec_buf *out)
{
    const checksum_trailer *c = t->p.base.stage->state;
    t->sum = c->fn(t->sum, src, n);
    return codec_buf_append(out, src, n);
}

static int trailer_feed(codec__push *p, const uint8_t *src, size_t n, uint64_t at,
                        codec_buf *out, codec_error *err)
{
    trailer_stream *t = (trailer_stream *)p;
    (void)at;
    if (!p->base.decode)
        return trailer_pass(t, src, n, out) ? codec__stream_nomem(p->base.stage, err)
                                            : CODEC_OK;
    /* Release all but the last 4 bytes of held + src. */
    size_t total = t->held_len + n;
    if (total <= CHECKSUM_TRAILER_SIZE) {
        memcpy(t->held + t->held_len, src, n);
        t->held_len = total;
        return CODEC_OK;
    }
    size_t release = total - CHECKSUM_TRAILER_SIZE;
    size_t from_held = release < t->held_len ? release : t->held_len;
    if (trailer_pass(t, t->held, from_held, out) ||
        trailer_pass(t, src, release - from_held, out))
        return codec__stream_nomem(p->base.stage, err);
    uint8_t keep[CHECKSUM_TRAILER_SIZE];
    size_t k = 0;
    for (size_t i = from_held; i < t->held_len; i++)
        keep[k++] = t->held[i];
    for (size_t i = release - from_held; i < n; i++)
        keep[k++] = src[i];
    memcpy(t->held, keep, k);
    t->held_len = k;
    return CODEC_OK;
}

static int trailer_finish(codec__push *p, uint64_t at, codec_buf *out, codec_error *err)
{
    trailer_stream *t = (trailer_stream *)p;
    const codec_stage *s = p->base.stage;
    uint8_t tr[CHECKSUM_TRAILER_SIZE];
    codec_store_be32(tr, t->sum);
    if (!p->base.decode)
        return codec_buf_append(out, tr, sizeof tr) ? codec__stream_nomem(s, err) : CODEC_OK;
    if (t->held_len < CHECKSUM_TRAILER_SIZE)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, at,
                          "input of %llu bytes is shorter than the 4-byte checksum",
                          (unsigned long long)at);
    if (memcmp(tr, t->held, sizeof tr) != 0)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CHECKSUM,
                          at - CHECKSUM_TRAILER_SIZE, "checksum mismatch");
    return CODEC_OK;
}

static const codec__push_ops trailer_push_ops = {.feed = trailer_feed,
                                                 .finish = trailer_finish};

static int trailer_stream_open(const codec_stage *s, bool decode, codec__sstream **out,
                               codec_error *err)
{
    trailer_stream *t =
        (trailer_stream *)codec__push_new(sizeof *t, &trailer_push_ops, s, decode);
    if (!t)
        return codec__stream_nomem(s, err);
    t->sum = ((const checksum_trailer *)s->state)->init;
    *out = &t->p.base;
    return CODEC_OK;
}

static const codec_stage_ops trailer_ops = {
    .encode = trailer_encode, .decode = trailer_decode, .stream_open = trailer_stream_open};

void codec__checksum_trailer_stage(codec_stage *s, const checksum_trailer *t)
{
    s->ops = &trailer_ops;
    s->state = (void *)t;
}
