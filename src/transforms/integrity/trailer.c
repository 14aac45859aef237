/* trailer.c — encode/decode of the 4-byte big-endian checksum trailer. Both
 * directions copy the payload, checksumming it in the same pass
 * (sum_copy); the view (codec_decode_view) only checksums it. */
#include "trailer_internal.h"
#include "compose/stream_internal.h"
#include "core/arena_internal.h"
#include "core/buf_internal.h"
#include "core/load_internal.h"
#include "core/error_internal.h"

#include <string.h>

/* Pieces of the unfused path: small enough that the memcpy reads them from
 * L1, where the checksum has just left them. */
#define COPY_PIECE ((size_t)8 << 10)

/* sum_copy without a fused kernel: checksum and copy piece by piece. */
static uint32_t sum_copy_pieces(const checksum_trailer *t, uint32_t sum, uint8_t *dst,
                                const uint8_t *src, size_t n)
{
    for (size_t k; n; src += k, dst += k, n -= k) {
        k = n < COPY_PIECE ? n : COPY_PIECE;
        sum = t->fn(sum, src, k);
        memcpy(dst, src, k);
    }
    return sum;
}

/* The checksum of src[0..n) chained from `sum`, while copying src to dst. */
static inline uint32_t sum_copy(const checksum_trailer *t, uint32_t sum, uint8_t *dst,
                                const uint8_t *src, size_t n)
{
    return t->copy ? t->copy(sum, dst, src, n) : sum_copy_pieces(t, sum, dst, src, n);
}

static int trailer_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                          codec_error *err)
{
    const checksum_trailer *t = s->state;
    if (n > SIZE_MAX - CHECKSUM_TRAILER_SIZE ||
        codec__buf_room(out, n + CHECKSUM_TRAILER_SIZE))
        return codec__nomem(err, s->name);
    uint8_t *dst = out->data + out->len;
    codec_store_be32(dst + n, sum_copy(t, t->init, dst, src, n));
    out->len += n + CHECKSUM_TRAILER_SIZE;
    return CODEC_OK;
}

static int trailer_mismatch(const codec_stage *s, size_t body, codec_error *err)
{
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CHECKSUM, body,
                      "checksum mismatch");
}

/* Decode's checks before the checksum: the body's length and the stored
 * trailer. */
static int trailer_split(const codec_stage *s, const uint8_t *src, size_t n, size_t *body,
                         uint32_t *want, codec_error *err)
{
    if (n < CHECKSUM_TRAILER_SIZE)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                          "input of %zu bytes is shorter than the 4-byte checksum", n);
    *body = n - CHECKSUM_TRAILER_SIZE;
    *want = codec_load_be32(src + *body);
    return CODEC_OK;
}

/* Verifies while copying the body to out; out->len moves only when the
 * checksum matches (the bytes past it are scratch until then). */
static int trailer_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                          codec_error *err)
{
    const checksum_trailer *t = s->state;
    size_t body = 0;
    uint32_t want = 0;
    int rc = trailer_split(s, src, n, &body, &want, err);
    if (rc)
        return rc;
    if (body == 0)
        return t->init == want ? CODEC_OK : trailer_mismatch(s, body, err);
    /* The output is exactly the body: in codec_decode's arena, an inline
     * bump allocation. */
    if (codec__buf_room_exact(out, body))
        /* A corrupt payload is reported as such even without memory. */
        return t->fn(t->init, src, body) != want ? trailer_mismatch(s, body, err)
                                                 : codec__nomem(err, s->name);
    if (sum_copy(t, t->init, out->data + out->len, src, body) != want)
        return trailer_mismatch(s, body, err);
    out->len += body;
    return CODEC_OK;
}

/* The same checks with the checksum-only kernel; the body stays where it
 * is. */
static int trailer_view(const codec_stage *s, const uint8_t *src, size_t n, codec_bytes *body,
                        codec_error *err)
{
    const checksum_trailer *t = s->state;
    uint32_t want = 0;
    int rc = trailer_split(s, src, n, &body->len, &want, err);
    if (rc)
        return rc;
    if ((body->len ? t->fn(t->init, src, body->len) : t->init) != want)
        return trailer_mismatch(s, body->len, err);
    body->data = src;
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
    if (n == 0)
        return CODEC_OK;
    if (codec__buf_room(out, n))
        return CODEC_E_NOMEM;
    t->sum = sum_copy(t->p.base.stage->state, t->sum, out->data + out->len, src, n);
    out->len += n;
    return CODEC_OK;
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

static const codec_stage_ops trailer_ops = {.encode = trailer_encode,
                                           .decode = trailer_decode,
                                           .stream_open = trailer_stream_open,
                                           .view = trailer_view};

void codec__checksum_trailer_stage(codec_stage *s, const checksum_trailer *t)
{
    s->ops = &trailer_ops;
    s->state = (void *)t;
}
