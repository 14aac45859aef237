/* brotli.c — `brotli:Q`: a raw brotli stream (RFC 7932), quality 0..11
 * (default 11, brotli's own), window 22 (the library default), what
 * `brotli -d` reads. Brotli has no size field, so the decoder streams in
 * chunks and stops at the cap. libbrotli 1.0 cannot reset an encoder or
 * decoder, so each call makes its own; but a decoder takes an allocator,
 * and its memory comes from a pooled scratch block (below).
 *
 * libbrotlienc and libbrotlidec are opened on first use, each by the
 * direction that needs it (libbrotli_internal.h): brotli_open() comes
 * before any call into them. */
#include "compress_internal.h"
#include "compose/stream_internal.h"
#include "libbrotli_internal.h"

#include "codec/compress.h"

#include <stdlib.h>

/* A decoder's state, ring buffer and tables are about 30 KiB for a value of
 * a few KiB: they are carved from a pooled block, released whole, so a
 * small value costs no malloc (nine otherwise). What does not fit (long
 * streams' ring buffers) comes from malloc. */
#define SCRATCH_BYTES ((size_t)64 << 10)
#define SCRATCH_ALIGN 16

typedef struct scratch {
    size_t used;
    _Alignas(SCRATCH_ALIGN) unsigned char bytes[SCRATCH_BYTES];
} scratch;

static void *scratch_alloc(void *opaque, size_t n)
{
    scratch *sc = opaque;
    size_t at = (sc->used + SCRATCH_ALIGN - 1) & ~(size_t)(SCRATCH_ALIGN - 1);
    if (at <= SCRATCH_BYTES && n <= SCRATCH_BYTES - at) {
        sc->used = at + n;
        return sc->bytes + at;
    }
    return malloc(n);
}

static void scratch_free(void *opaque, void *p)
{
    scratch *sc = opaque;
    uintptr_t at = (uintptr_t)p, lo = (uintptr_t)sc->bytes;
    if (at - lo >= SCRATCH_BYTES)
        free(p);
}

static void *make_scratch(const void *cfg)
{
    (void)cfg;
    return malloc(sizeof(scratch));
}

/* Opens the library of one direction: libbrotlidec to decode,
 * libbrotlienc to encode. */
static int brotli_open(const codec_stage *s, bool decode, codec_error *err)
{
    return codec__dynlib_open(decode ? &codec__libbrotlidec : &codec__libbrotlienc, s->name,
                              err);
}

typedef struct brotli_state {
    int quality;
    codec_pool scratch;     /* scratch blocks of the decoders */
} brotli_state;

static int brotli_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                         codec_error *err)
{
    int quality = ((const brotli_state *)s->state)->quality;
    int rc = brotli_open(s, false, err);
    if (rc)
        return rc;
    size_t bound = BrotliEncoderMaxCompressedSize(n);
    if (bound == 0 || codec_buf_reserve(out, bound))
        return codec__compress_nomem(s, err);
    size_t written = bound;
    if (!BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, n, src,
                               &written, out->data + out->len))
        return CODEC_FAIL(err, s, CODEC_E_NOMEM, 0, CODEC_NO_OFFSET,
                          "brotli failed to compress %zu bytes", n);
    out->len += written;
    return CODEC_OK;
}

static int brotli_fail(const codec_stage *s, BrotliDecoderState *d, uint64_t offset,
                       codec_error *err)
{
    BrotliDecoderErrorCode code = BrotliDecoderGetErrorCode(d);
    /* -21 .. -30 are allocation failures */
    if (code <= BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES &&
        code >= BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES)
        return codec__compress_nomem(s, err);
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, offset, "%s",
                      BrotliDecoderErrorString(code));
}

static int brotli_decode_with(const codec_stage *s, BrotliDecoderState *d, const uint8_t *src,
                              size_t n, codec_buf *out, codec_error *err)
{
    size_t base = out->len;
    const uint8_t *next_in = src;
    size_t avail_in = n;
    for (;;) {
        size_t room;
        int rc = codec__out_room(s, out, base, n, &room, err);
        if (rc)
            return rc;
        uint8_t *next_out = out->data + out->len;
        size_t avail_out = room;
        BrotliDecoderResult r =
            BrotliDecoderDecompressStream(d, &avail_in, &next_in, &avail_out, &next_out, NULL);
        out->len += room - avail_out;
        if ((rc = codec__out_check(s, out, base, err)))
            return rc;
        switch (r) {
        case BROTLI_DECODER_RESULT_SUCCESS:
            if (avail_in)
                return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRAILING, n - avail_in,
                                  "%zu bytes after the end of the brotli stream", avail_in);
            return CODEC_OK;
        case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                              "brotli stream ends early");
        case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
            break;
        default:
            return brotli_fail(s, d, n - avail_in, err);
        }
    }
}

static int brotli_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                         codec_error *err)
{
    codec_pool *pool = &((brotli_state *)s->state)->scratch;
    int rc = brotli_open(s, true, err);
    if (rc)
        return rc;
    scratch *sc = codec__pool_get(pool);
    if (!sc)
        return codec__compress_nomem(s, err);
    sc->used = 0;
    BrotliDecoderState *d = BrotliDecoderCreateInstance(scratch_alloc, scratch_free, sc);
    if (!d) {
        codec__pool_put(pool, sc);
        return codec__compress_nomem(s, err);
    }
    size_t base = out->len;
    rc = brotli_decode_with(s, d, src, n, out, err);
    if (rc)
        out->len = base;
    BrotliDecoderDestroyInstance(d);
    codec__pool_put(pool, sc);
    return rc;
}

static void brotli_destroy(codec_stage *s)
{
    brotli_state *st = s->state;
    codec__pool_clear(&st->scratch);
    free(st);
}

/* ---------------------------------------------------------------------------
 * Streaming (compose/stream_internal.h): libbrotli's stream API, at the
 * stage's quality and window. With the input size pledged (the size hint
 * BrotliEncoderCompress gives itself) the encoder's bytes are the
 * one-shot's at quality 2..9 and 11, for any split; unpledged, they may
 * differ from 1 MiB on (quality 5..9 pick their match finder by size).
 * Quality 10 is the same for every split but not the one-shot's on large
 * inputs (its one-shot takes another path); quality 0 and 1 compress each
 * piece as it comes: their bytes depend on the split.
 * ------------------------------------------------------------------------ */

/* An empty brotli stream as BrotliEncoderCompress() writes it (ISLAST,
 * ISLASTEMPTY, window 16). */
#define BROTLI_EMPTY_STREAM 6

typedef struct brotli_stream {
    codec__sstream base;
    BrotliEncoderState *e;
    BrotliDecoderState *d;
    bool seen;               /* some input arrived */
} brotli_stream;

static int brotli_stream_encode(brotli_stream *b, codec__io *io, bool end, bool *done,
                                codec_error *err)
{
    size_t avail_in = io->src_len - io->src_pos, avail_out = io->dst_cap - io->dst_pos;
    if (end && !b->seen && !avail_in) {
        /* No input at all: the one byte BrotliEncoderCompress() writes
         * for it (the stream encoder would write another empty stream). */
        if (!avail_out)
            return CODEC_OK;
        io->dst[io->dst_pos++] = BROTLI_EMPTY_STREAM;
        *done = true;
        return CODEC_OK;
    }
    b->seen |= avail_in > 0;
    const uint8_t *next_in = io->src + io->src_pos;
    uint8_t *next_out = io->dst + io->dst_pos;
    if (!BrotliEncoderCompressStream(b->e, end ? BROTLI_OPERATION_FINISH : BROTLI_OPERATION_PROCESS,
                                     &avail_in, &next_in, &avail_out, &next_out, NULL))
        return CODEC_FAIL(err, b->base.stage, CODEC_E_INVALID_VALUE, 0, CODEC_NO_OFFSET,
                          "brotli failed to compress");
    io->src_pos = io->src_len - avail_in;
    io->dst_pos = io->dst_cap - avail_out;
    *done = end && BrotliEncoderIsFinished(b->e);
    return CODEC_OK;
}

static int brotli_stream_decode(brotli_stream *b, codec__io *io, bool end, bool *done,
                                codec_error *err)
{
    const codec_stage *s = b->base.stage;
    size_t avail_in = io->src_len - io->src_pos, avail_out = io->dst_cap - io->dst_pos;
    const uint8_t *next_in = io->src + io->src_pos;
    uint8_t *next_out = io->dst + io->dst_pos;
    b->seen |= avail_in > 0;
    BrotliDecoderResult r =
        BrotliDecoderDecompressStream(b->d, &avail_in, &next_in, &avail_out, &next_out, NULL);
    io->src_pos = io->src_len - avail_in;
    io->dst_pos = io->dst_cap - avail_out;
    switch (r) {
    case BROTLI_DECODER_RESULT_SUCCESS:
        *done = true;
        return CODEC_OK;
    case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
        if (end)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED,
                              b->base.consumed + io->src_pos, "unexpected end of input");
        return CODEC_OK;
    case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
        return CODEC_OK;
    default:
        return brotli_fail(s, b->d, b->base.consumed + io->src_pos, err);
    }
}

static int brotli_stream_step(codec__sstream *st, codec__io *io, bool end, bool *done,
                              codec_error *err)
{
    brotli_stream *b = (brotli_stream *)st;
    return st->decode ? brotli_stream_decode(b, io, end, done, err)
                      : brotli_stream_encode(b, io, end, done, err);
}

static void brotli_stream_free(codec__sstream *st)
{
    brotli_stream *b = (brotli_stream *)st;
    if (b->e)
        BrotliEncoderDestroyInstance(b->e);
    if (b->d)
        BrotliDecoderDestroyInstance(b->d);
    free(b);
}

/* The size hint BrotliEncoderCompress() gives its encoder (the input size,
 * as a uint32_t): it picks the match finder (quality 5..9 take a larger
 * one from 1 MiB on), so with the size pledged the stream's bytes are the
 * one-shot's. */
static void brotli_stream_pledge(codec__sstream *st, uint64_t size)
{
    brotli_stream *b = (brotli_stream *)st;
    if (b->e)
        BrotliEncoderSetParameter(b->e, BROTLI_PARAM_SIZE_HINT, (uint32_t)size);
}

static const codec__sstream_ops brotli_sops = {
    .step = brotli_stream_step, .pledge = brotli_stream_pledge, .free = brotli_stream_free};

static int brotli_stream_open(const codec_stage *s, bool decode, codec__sstream **out,
                              codec_error *err)
{
    int rc = brotli_open(s, decode, err);
    if (rc)
        return rc;
    brotli_stream *b = calloc(1, sizeof *b);
    if (!b)
        return codec__compress_nomem(s, err);
    b->base = (codec__sstream){.ops = &brotli_sops, .stage = s, .decode = decode};
    bool ok;
    if (decode) {
        ok = (b->d = BrotliDecoderCreateInstance(NULL, NULL, NULL)) != NULL;
    } else {
        int quality = ((const brotli_state *)s->state)->quality;
        ok = (b->e = BrotliEncoderCreateInstance(NULL, NULL, NULL)) != NULL &&
             BrotliEncoderSetParameter(b->e, BROTLI_PARAM_QUALITY, (uint32_t)quality) &&
             BrotliEncoderSetParameter(b->e, BROTLI_PARAM_LGWIN, BROTLI_DEFAULT_WINDOW) &&
             BrotliEncoderSetParameter(b->e, BROTLI_PARAM_MODE, BROTLI_MODE_GENERIC);
    }
    if (!ok) {
        brotli_stream_free(&b->base);
        return codec__compress_nomem(s, err);
    }
    *out = &b->base;
    return CODEC_OK;
}

static const codec_stage_ops brotli_ops = {.encode = brotli_encode,
                                           .decode = brotli_decode,
                                           .destroy = brotli_destroy,
                                           .stream_open = brotli_stream_open};

int codec__stage_ctor_brotli(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    long quality;
    int rc = codec__args_int(a, "quality", true, BROTLI_DEFAULT_QUALITY, BROTLI_MIN_QUALITY,
                             BROTLI_MAX_QUALITY, &quality, err);
    if (!rc)
        rc = codec__args_max_output(a, &s->max_output, err);
    if (rc)
        return rc;
    brotli_state *st = malloc(sizeof *st);
    if (!st)
        return codec__compress_nomem(s, err);
    st->quality = (int)quality;
    codec__pool_init(&st->scratch, make_scratch, free, NULL);
    s->state = st;
    s->ops = &brotli_ops;
    return CODEC_OK;
}

codec *codec_brotli(int quality, codec_error *err)
{
    return codec__make_leveled("brotli", quality, NULL, err);
}
