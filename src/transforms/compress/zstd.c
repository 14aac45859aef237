/* zstd.c — `zstd:L` (a standard zstd frame with its content size, as
 * zstd-jni's Zstd.compress writes it: no checksum unless `checksum=on`,
 * single-threaded unless `workers=N`) and `redisson-zstd:L`
 * (Redisson's ZStdCodec: int32 big-endian uncompressed length, then the
 * frame). `dict=FILE` loads a dictionary; a trained (zstd --train)
 * dictionary's id is written into every frame.
 *
 * libzstd is opened on first use (libzstd_internal.h), by the stage
 * constructor: it needs the library for the level's range, and every other
 * call comes after it. */
#include "compress_internal.h"
#include "compose/stream_internal.h"
#include "libzstd_internal.h"

#include "codec/compress.h"

#include <stdio.h>
#include <stdlib.h>

/* A zstd block (at most 128 KiB of output) takes at least 4 bytes (an RLE
 * block), so no frame expands by more than this. */
#define ZSTD_MAX_RATIO 32768

typedef struct zstd_state {
    int level;
    bool checksum;           /* checksum=on: the frame's XXH64 content checksum */
    int workers;             /* workers=N: libzstd's worker threads (0: none) */
    bool redisson;           /* int32 BE length prefix */
    ZSTD_CDict *cdict;       /* NULL without dict= */
    ZSTD_DDict *ddict;
    codec_pool cctx;
    codec_pool dctx;
    codec_pool sdec;         /* stream decoders (see "Streaming") */
} zstd_state;

/* Contexts carry no parameters: every call names its level (or CDict), as
 * ZSTD_compressCCtx does, which writes the content size and no checksum. */
static void *make_cctx(const void *cfg)
{
    (void)cfg;
    return ZSTD_createCCtx();
}

static void drop_cctx(void *ctx)
{
    ZSTD_freeCCtx(ctx);
}

static void *make_dctx(const void *cfg)
{
    const zstd_state *st = cfg;
    ZSTD_DCtx *d = ZSTD_createDCtx();
    if (d && st->ddict && ZSTD_isError(ZSTD_DCtx_refDDict(d, st->ddict))) {
        ZSTD_freeDCtx(d);
        return NULL;
    }
    return d;
}

static void drop_dctx(void *ctx)
{
    ZSTD_freeDCtx(ctx);
}

/* Maps a zstd decoding error to a payload error at `offset`. */
static int zstd_fail(const codec_stage *s, size_t code, uint64_t offset, codec_error *err)
{
    int detail = CODEC_D_CORRUPT;
    switch (ZSTD_getErrorCode(code)) {
    case ZSTD_error_memory_allocation:
        return codec__compress_nomem(s, err);
    case ZSTD_error_srcSize_wrong:
        detail = CODEC_D_TRUNCATED;
        break;
    case ZSTD_error_prefix_unknown:
        detail = CODEC_D_BAD_MAGIC;
        break;
    case ZSTD_error_checksum_wrong:
        detail = CODEC_D_CHECKSUM;
        break;
    case ZSTD_error_frameParameter_windowTooLarge:
        detail = CODEC_D_LIMIT;
        break;
    default:
        break;
    }
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, detail, offset, "%s",
                      ZSTD_getErrorName(code));
}

/* ---------------------------------------------------------------------------
 * Encode
 * ------------------------------------------------------------------------ */

/* The advanced-API parameters of a stage on a fresh (reset) context: what
 * ZSTD_compressCCtx writes (content size, no checksum) plus the options. */
static size_t zstd_set_params(const zstd_state *st, ZSTD_CCtx *c)
{
    size_t r = st->cdict ? ZSTD_CCtx_refCDict(c, st->cdict)
                         : ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, st->level);
    if (!ZSTD_isError(r))
        r = ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, st->checksum);
    if (!ZSTD_isError(r) && st->workers)
        r = ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, st->workers);
    return r;
}

static int zstd_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                       codec_error *err)
{
    zstd_state *st = s->state;
    size_t prefix = st->redisson ? 4 : 0;
    if (st->redisson && n > INT32_MAX)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_VALUE, CODEC_D_LIMIT, CODEC_NO_OFFSET,
                          "redisson-zstd holds at most 2^31-1 bytes, got %zu", n);
    size_t bound = ZSTD_compressBound(n);
    if (ZSTD_isError(bound) || codec_buf_reserve(out, prefix + bound))
        return codec__compress_nomem(s, err);
    ZSTD_CCtx *c = codec__pool_get(&st->cctx);
    if (!c)
        return codec__compress_nomem(s, err);
    uint8_t *dst = out->data + out->len;
    /* The one-shot calls, not ZSTD_compress2: they skip the parameter
     * resolution of the advanced API (a fixed cost per call that shows on
     * short values; docs/formats/compression.md) and start every frame
     * afresh, so a failed call leaves nothing behind. A checksum or workers
     * need the advanced API. */
    size_t r;
    if (st->checksum || st->workers) {
        r = zstd_set_params(st, c);
        if (!ZSTD_isError(r))
            r = ZSTD_compress2(c, dst + prefix, bound, src, n);
        ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
    } else if (st->cdict) {
        r = ZSTD_compress_usingCDict(c, dst + prefix, bound, src, n, st->cdict);
    } else {
        r = ZSTD_compressCCtx(c, dst + prefix, bound, src, n, st->level);
    }
    codec__pool_put(&st->cctx, c);
    if (ZSTD_isError(r))
        return CODEC_FAIL(err, s, ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation
                                      ? CODEC_E_NOMEM : CODEC_E_INVALID_VALUE,
                          0, CODEC_NO_OFFSET, "%s", ZSTD_getErrorName(r));
    if (st->redisson)
        codec_store_be32(dst, (uint32_t)n);
    out->len += prefix + r;
    return CODEC_OK;
}

/* ---------------------------------------------------------------------------
 * Decode
 * ------------------------------------------------------------------------ */

/* Walks the frames of src (zstd -d takes them back to back) and sums their
 * declared content sizes; *known is false when a frame does not say. */
static int zstd_content_size(const codec_stage *s, const uint8_t *src, size_t n, uint64_t at,
                             uint64_t *total, bool *known, codec_error *err)
{
    *total = 0;
    *known = true;
    if (n == 0)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, at,
                          "empty input is not a zstd frame");
    for (size_t pos = 0; pos < n;) {
        size_t frame = ZSTD_findFrameCompressedSize(src + pos, n - pos);
        if (ZSTD_isError(frame))
            return zstd_fail(s, frame, at + pos, err);
        unsigned long long size = ZSTD_getFrameContentSize(src + pos, n - pos);
        if (size == ZSTD_CONTENTSIZE_ERROR)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, at + pos,
                              "bad zstd frame header");
        if (size == ZSTD_CONTENTSIZE_UNKNOWN)
            *known = false;
        else if (size > UINT64_MAX - *total)
            *total = UINT64_MAX;
        else
            *total += size;
        pos += frame;
    }
    return CODEC_OK;
}

/* Every frame declares its size: check, reserve exactly, decode in one call. */
static int zstd_decode_sized(const codec_stage *s, ZSTD_DCtx *d, const uint8_t *src, size_t n,
                             size_t size, uint64_t at, codec_buf *out, codec_error *err)
{
    const zstd_state *st = s->state;
    if (codec_buf_reserve(out, size))
        return codec__compress_nomem(s, err);
    uint8_t *dst = out->data ? out->data + out->len : NULL;
    size_t r = st->ddict ? ZSTD_decompress_usingDDict(d, dst, size, src, n, st->ddict)
                         : ZSTD_decompressDCtx(d, dst, size, src, n);
    if (ZSTD_isError(r))
        return zstd_fail(s, r, at, err);
    if (r != size)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, at,
                          "declared %zu bytes, decoded %zu", size, r);
    out->len += r;
    return CODEC_OK;
}

/* Some frame has no size (zstd writing to a pipe): stream in chunks,
 * stopping at the cap. */
static int zstd_decode_stream(const codec_stage *s, ZSTD_DCtx *d, const uint8_t *src,
                              size_t n, uint64_t at, codec_buf *out, codec_error *err)
{
    size_t base = out->len;
    ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    ZSTD_inBuffer in = {src, n, 0};
    for (;;) {
        size_t room;
        int rc = codec__out_room(s, out, base, n, &room, err);
        if (rc)
            return rc;
        ZSTD_outBuffer o = {out->data + out->len, room, 0};
        size_t r = ZSTD_decompressStream(d, &o, &in);
        if (ZSTD_isError(r))
            return zstd_fail(s, r, at + in.pos, err);
        out->len += o.pos;
        if ((rc = codec__out_check(s, out, base, err)))
            return rc;
        if (r == 0 && in.pos == n)
            return CODEC_OK;
        if (in.pos == n && o.pos < o.size)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, at + n,
                              "zstd frame ends early");
    }
}

static int zstd_decode_frames(const codec_stage *s, const uint8_t *src, size_t n, uint64_t at,
                              uint64_t prefix_size, codec_buf *out, codec_error *err)
{
    zstd_state *st = s->state;
    uint64_t total;
    bool known;
    int rc = zstd_content_size(s, src, n, at, &total, &known, err);
    if (rc)
        return rc;
    if (st->redisson) {
        if (known && total != prefix_size)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 0,
                              "length prefix %llu differs from the frame's %llu bytes",
                              (unsigned long long)prefix_size, (unsigned long long)total);
        total = prefix_size;
        known = true;
    }
    if (known && (rc = codec__check_declared(s, total, n, ZSTD_MAX_RATIO, at, err)))
        return rc;
    ZSTD_DCtx *d = codec__pool_get(&st->dctx);
    if (!d)
        return codec__compress_nomem(s, err);
    size_t base = out->len;
    rc = known ? zstd_decode_sized(s, d, src, n, (size_t)total, at, out, err)
               : zstd_decode_stream(s, d, src, n, at, out, err);
    if (rc) {
        ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
        out->len = base;
    }
    codec__pool_put(&st->dctx, d);
    return rc;
}

static int zstd_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                       codec_error *err)
{
    const zstd_state *st = s->state;
    if (!st->redisson)
        return zstd_decode_frames(s, src, n, 0, 0, out, err);
    uint32_t len;
    int rc = codec__redisson_length(s, src, n, &len, err);
    return rc ? rc : zstd_decode_frames(s, src + 4, n - 4, 4, len, out, err);
}

/* ---------------------------------------------------------------------------
 * Construction
 * ------------------------------------------------------------------------ */

static void zstd_state_free(zstd_state *st)
{
    codec__pool_clear(&st->cctx);
    codec__pool_clear(&st->dctx);
    codec__pool_clear(&st->sdec);
    ZSTD_freeCDict(st->cdict);
    ZSTD_freeDDict(st->ddict);
    free(st);
}

static void zstd_destroy(codec_stage *s)
{
    zstd_state_free(s->state);
}

/* ---------------------------------------------------------------------------
 * Streaming (compose/stream_internal.h): libzstd's streaming API, one
 * context per stream. Decoding takes frames back to back, as zstd -d. The
 * Redisson framing needs the length up front and is held whole.
 *
 * A stream encoder's context comes from the one-shot pool (cctx) and goes
 * back to it reset, unless it grew past STREAM_KEEP: a fresh one allocated
 * and faulted in its input buffer and tables for every stream (on 1 MiB
 * at level 3, 4-6% of the stream's time).
 *
 * A stream decoder's context holds a window buffer as large as the frame
 * (up to the window), which it decodes into and then copies out. Two
 * things spare that:
 *   - contexts come from a pool of the stage's (sdec), so a new stream does
 *     not allocate (and fault in) a window again; one whose buffers grew
 *     past STREAM_KEEP is freed instead of pooled;
 *   - a whole frame: a single-segment frame (its content size declared, no
 *     larger than its window) whose output fits the room the step was given
 *     is decoded in one call straight into that room. libzstd does that by
 *     itself when the whole frame is in one piece of input; when it comes
 *     in pieces, the stage gathers its compressed bytes (about the size of
 *     the window buffer it spares, at most ZSTD_compressBound of the
 *     content) and decodes once the last one is there. If
 *     the room has shrunk by then, or the frame is damaged, the gathered
 *     bytes go through the stream decoder as if they had just come in
 *     (replay), so output, errors and their offsets are the stream
 *     decoder's.
 * ------------------------------------------------------------------------ */

/* A pooled stream decoder and its gather buffer. */
typedef struct zstd_sdec {
    ZSTD_DCtx *d;
    codec_buf frame;
} zstd_sdec;

#define STREAM_KEEP ((size_t)4 << 20)

/* The largest window the stream decoder takes by default (libzstd's
 * ZSTD_WINDOWLOG_LIMIT_DEFAULT, 27); a single-segment frame's window is
 * its content. */
#define SDEC_WINDOW_MAX ((unsigned long long)1 << 27)

static void *make_sdec(const void *cfg)
{
    zstd_sdec *z = calloc(1, sizeof *z);
    if (z && !(z->d = make_dctx(cfg))) {
        free(z);
        return NULL;
    }
    if (z)
        codec_buf_init(&z->frame, NULL);
    return z;
}

static void drop_sdec(void *ctx)
{
    zstd_sdec *z = ctx;
    ZSTD_freeDCtx(z->d);
    codec_buf_free(&z->frame);
    free(z);
}

/* The magic number of a zstd frame (RFC 8878 3.1.1), little-endian. */
#define ZSTD_FRAME_MAGIC 0xFD2FB528u

typedef struct zstd_stream {
    codec__sstream base;
    ZSTD_CCtx *c;
    zstd_sdec *sd;           /* decode: from st->sdec */
    size_t hint;             /* decode: 0 once the last frame is complete */
    bool seen;               /* decode: some input arrived */
    /* decode, a whole frame (sd->frame holds its compressed bytes): */
    bool gathering;          /* taking its bytes */
    bool replay;             /* sd->frame[replay_pos..) goes to the stream decoder */
    bool checksum;           /* its header's content checksum flag */
    bool last_seen;          /* the walk passed its last block */
    size_t walk;             /* offset in sd->frame of the next block header */
    size_t replay_pos;
    size_t cap;              /* most bytes gathered (a bound on a sane frame) */
    uint64_t content;        /* its declared content size */
    uint64_t frame_at;       /* stage-input offset of sd->frame[0] */
} zstd_stream;

static int zstd_stream_encode(zstd_stream *z, codec__io *io, bool end, bool *done,
                              codec_error *err)
{
    ZSTD_inBuffer in = {io->src, io->src_len, io->src_pos};
    ZSTD_outBuffer out = {io->dst, io->dst_cap, io->dst_pos};
    size_t r = ZSTD_compressStream2(z->c, &out, &in, end ? ZSTD_e_end : ZSTD_e_continue);
    io->src_pos = in.pos;
    io->dst_pos = out.pos;
    if (ZSTD_isError(r))
        return CODEC_FAIL(err, z->base.stage, ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation
                                                   ? CODEC_E_NOMEM : CODEC_E_INVALID_VALUE,
                          0, CODEC_NO_OFFSET, "%s", ZSTD_getErrorName(r));
    *done = end && r == 0 && in.pos == in.size;
    return CODEC_OK;
}

/* Whether a whole frame starts at src[0..n) that is worth gathering: a
 * zstd frame whose header is all there, single-segment (its window is its
 * content), with a declared content size that fits `room` and the stream
 * decoder's window limit, and whose bytes are not all in src (libzstd
 * decodes those in one pass itself). Sets up the walk of its blocks. */
static bool frame_gatherable(zstd_stream *z, const uint8_t *src, size_t n, size_t room)
{
    if (n < 6 || codec_load_le32(src) != ZSTD_FRAME_MAGIC || !(src[4] & 0x20))
        return false;
    unsigned long long content = ZSTD_getFrameContentSize(src, n);
    if (content == ZSTD_CONTENTSIZE_UNKNOWN || content == ZSTD_CONTENTSIZE_ERROR ||
        content > room || content > SDEC_WINDOW_MAX ||
        !ZSTD_isError(ZSTD_findFrameCompressedSize(src, n)))
        return false;
    static const uint8_t dict_bytes[4] = {0, 1, 2, 4}, size_bytes[4] = {1, 2, 4, 8};
    z->walk = 5 + dict_bytes[src[4] & 3] + size_bytes[src[4] >> 6];
    z->checksum = src[4] & 4;
    z->last_seen = false;
    z->content = content;
    z->cap = ZSTD_compressBound((size_t)content) + 32;
    return true;
}

/* Walks the block headers gathered so far (RFC 8878 3.1.1.2): the frame's
 * compressed size once all of it is there, 0 while more is needed, or
 * SIZE_MAX for a block type no frame has (the stream decoder reports it). */
static size_t frame_walk(zstd_stream *z)
{
    const uint8_t *f = z->sd->frame.data;
    size_t len = z->sd->frame.len;
    while (!z->last_seen) {
        if (len < 3 || z->walk > len - 3)
            return 0;
        uint32_t h = (uint32_t)f[z->walk] | (uint32_t)f[z->walk + 1] << 8 |
                     (uint32_t)f[z->walk + 2] << 16;
        unsigned type = h >> 1 & 3;
        if (type == 3)
            return SIZE_MAX;
        z->walk += 3 + (type == 1 ? 1 : (size_t)(h >> 3));
        z->last_seen = h & 1;
    }
    size_t end = z->walk + (z->checksum ? 4 : 0);
    return end <= len ? end : 0;
}

/* Takes what it can of io's input into the frame being gathered; once the
 * frame is all there, decodes it straight into io->dst when it fits (the
 * bytes past it go back to the input), else replays it. */
static int frame_gather(zstd_stream *z, codec__io *io, bool end)
{
    const zstd_state *st = z->base.stage->state;
    codec_buf *f = &z->sd->frame;
    size_t k = io->src_len - io->src_pos;
    if (k > z->cap - f->len)
        k = z->cap - f->len;
    if (codec_buf_append(f, io->src + io->src_pos, k))
        return CODEC_E_NOMEM;
    io->src_pos += k;
    size_t size = frame_walk(z);
    if (size == 0 && f->len < z->cap && !(end && io->src_pos == io->src_len))
        return CODEC_OK; /* more to come */
    z->gathering = false;
    z->replay = true;
    z->replay_pos = 0;
    if (size == 0 || size == SIZE_MAX)
        return CODEC_OK; /* cut short, too long or damaged: the stream decoder says */
    io->src_pos -= f->len - size; /* those bytes came in this call */
    f->len = size;
    if (z->content > io->dst_cap - io->dst_pos)
        return CODEC_OK;
    uint8_t *dst = io->dst + io->dst_pos;
    size_t room = io->dst_cap - io->dst_pos;
    size_t r = st->ddict ? ZSTD_decompress_usingDDict(z->sd->d, dst, room, f->data, size, st->ddict)
                         : ZSTD_decompressDCtx(z->sd->d, dst, room, f->data, size);
    if (ZSTD_isError(r) || r != z->content) {
        ZSTD_DCtx_reset(z->sd->d, ZSTD_reset_session_only);
        return CODEC_OK; /* replayed: the stream decoder's error and offset */
    }
    io->dst_pos += r;
    z->replay = false;
    f->len = 0;
    z->hint = 0;
    return CODEC_OK;
}

/* Runs the stream decoder over in, into io's output; errors at `at` + the
 * position reached in `in`. */
static int zstd_stream_run(zstd_stream *z, ZSTD_inBuffer *in, codec__io *io, uint64_t at,
                           codec_error *err)
{
    ZSTD_outBuffer out = {io->dst, io->dst_cap, io->dst_pos};
    size_t r = ZSTD_decompressStream(z->sd->d, &out, in);
    if (ZSTD_isError(r))
        return zstd_fail(z->base.stage, r, at + in->pos, err);
    io->dst_pos = out.pos;
    z->hint = r;
    return CODEC_OK;
}

static int zstd_stream_decode(zstd_stream *z, codec__io *io, bool end, bool *done,
                              codec_error *err)
{
    const codec_stage *s = z->base.stage;
    z->seen |= io->src_len > io->src_pos;
    for (;;) {
        if (z->replay) {
            codec_buf *f = &z->sd->frame;
            ZSTD_inBuffer in = {f->data, f->len, z->replay_pos};
            int rc = zstd_stream_run(z, &in, io, z->frame_at, err);
            if (rc)
                return rc;
            z->replay_pos = in.pos;
            if (in.pos < in.size)
                return CODEC_OK; /* the output is full */
            z->replay = false;
            f->len = 0;
        }
        if (!z->gathering && z->hint == 0 &&
            frame_gatherable(z, io->src + io->src_pos, io->src_len - io->src_pos,
                             io->dst_cap - io->dst_pos)) {
            z->gathering = true;
            z->sd->frame.len = 0;
            z->frame_at = z->base.consumed + io->src_pos;
        }
        if (!z->gathering)
            break;
        if (frame_gather(z, io, end))
            return codec__compress_nomem(s, err);
        if (z->gathering)
            return CODEC_OK;
    }
    ZSTD_inBuffer in = {io->src, io->src_len, io->src_pos};
    if (in.pos < in.size || z->hint) {
        int rc = zstd_stream_run(z, &in, io, z->base.consumed, err);
        if (rc)
            return rc;
    }
    io->src_pos = in.pos;
    if (!end || in.pos < in.size || io->dst_pos == io->dst_cap)
        return CODEC_OK;
    if (!z->seen)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, 0,
                          "empty input is not a zstd frame");
    if (z->hint)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED,
                          z->base.consumed + in.pos, "unexpected end of input");
    *done = true;
    return CODEC_OK;
}

static int zstd_stream_step(codec__sstream *st, codec__io *io, bool end, bool *done,
                            codec_error *err)
{
    zstd_stream *z = (zstd_stream *)st;
    return st->decode ? zstd_stream_decode(z, io, end, done, err)
                      : zstd_stream_encode(z, io, end, done, err);
}

static void zstd_stream_pledge(codec__sstream *st, uint64_t size)
{
    ZSTD_CCtx_setPledgedSrcSize(((zstd_stream *)st)->c, size);
}

static void zstd_stream_free(codec__sstream *st)
{
    zstd_stream *z = (zstd_stream *)st;
    zstd_state *zs = st->stage->state;
    if (z->c) {
        ZSTD_CCtx_reset(z->c, ZSTD_reset_session_and_parameters);
        if (ZSTD_sizeof_CCtx(z->c) <= STREAM_KEEP)
            codec__pool_put(&zs->cctx, z->c);
        else
            ZSTD_freeCCtx(z->c);
    }
    if (z->sd) {
        ZSTD_DCtx_reset(z->sd->d, ZSTD_reset_session_only);
        z->sd->frame.len = 0;
        if (ZSTD_sizeof_DCtx(z->sd->d) + z->sd->frame.cap <= STREAM_KEEP)
            codec__pool_put(&zs->sdec, z->sd);
        else
            drop_sdec(z->sd);
    }
    free(z);
}

static const codec__sstream_ops zstd_sops = {
    .step = zstd_stream_step, .pledge = zstd_stream_pledge, .free = zstd_stream_free};

static int zstd_stream_open(const codec_stage *s, bool decode, codec__sstream **out,
                            codec_error *err)
{
    zstd_state *st = s->state;
    if (st->redisson)
        return codec__whole_open(s, decode, s->max_output, out, err);
    zstd_stream *z = calloc(1, sizeof *z);
    if (!z)
        return codec__compress_nomem(s, err);
    z->base = (codec__sstream){.ops = &zstd_sops, .stage = s, .decode = decode};
    bool ok;
    if (decode) {
        z->sd = codec__pool_get(&st->sdec);
        ok = z->sd != NULL;
    } else {
        z->c = codec__pool_get(&st->cctx);
        ok = z->c && !ZSTD_isError(zstd_set_params(st, z->c));
    }
    if (!ok) {
        zstd_stream_free(&z->base);
        return codec__compress_nomem(s, err);
    }
    *out = &z->base;
    return CODEC_OK;
}

static const codec_stage_ops zstd_ops = {.encode = zstd_encode,
                                         .decode = zstd_decode,
                                         .destroy = zstd_destroy,
                                         .stream_open = zstd_stream_open};

/* Dictionaries are capped so a wrong path (a disk image, say) is an error. */
#define ZSTD_MAX_DICT ((long)64 << 20)

static int zstd_load_dict(codec_stage *s, zstd_state *st, const char *path, codec_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return CODEC_FAIL(err, s, CODEC_E_TRANSIENT, CODEC_D_IO, CODEC_NO_OFFSET,
                          "cannot open dictionary '%s'", path);
    uint8_t *buf = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && size <= ZSTD_MAX_DICT &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)size)) &&
        fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (!buf)
        return CODEC_FAIL(err, s, size > ZSTD_MAX_DICT || size == 0 ? CODEC_E_USAGE
                                                                  : CODEC_E_TRANSIENT,
                          CODEC_D_IO, CODEC_NO_OFFSET,
                          "cannot read dictionary '%s' (1 byte to 64 MiB)", path);
    st->cdict = ZSTD_createCDict(buf, (size_t)size, st->level);
    st->ddict = ZSTD_createDDict(buf, (size_t)size);
    free(buf);
    if (!st->cdict || !st->ddict)
        return CODEC_FAIL(err, s, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, CODEC_NO_OFFSET,
                          "'%s' is not a usable zstd dictionary", path);
    return CODEC_OK;
}

static int zstd_init(codec_stage *s, codec_args *a, bool redisson, codec_error *err)
{
    long level;
    const char *dict = NULL;
    int rc = codec__dynlib_open(&codec__libzstd, a->stage, err);
    if (!rc)
        rc = codec__args_int(a, "level", true, ZSTD_CLEVEL_DEFAULT, -7, ZSTD_maxCLevel(), &level,
                             err);
    if (!rc && level == 0)
        rc = codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                             "bad level '0': expected -7..-1 or 1..%d", ZSTD_maxCLevel());
    if (!rc)
        rc = codec__args_max_output(a, &s->max_output, err);
    if (!rc)
        rc = codec__args_string(a, "dict", false, &dict, err);
    static const char *const onoff[] = {"off", "on", NULL};
    size_t checksum = 0;
    long workers = 0;
    if (!rc)
        rc = codec__args_choice(a, "checksum", false, onoff, 0, &checksum, err);
    if (!rc)
        rc = codec__args_int(a, "workers", false, 0, 0, 200, &workers, err);
    if (rc)
        return rc;
    zstd_state *st = calloc(1, sizeof *st);
    if (!st)
        return codec__compress_nomem(s, err);
    st->level = (int)level;
    st->checksum = checksum == 1;
    st->workers = (int)workers;
    st->redisson = redisson;
    codec__pool_init(&st->cctx, make_cctx, drop_cctx, st);
    codec__pool_init(&st->dctx, make_dctx, drop_dctx, st);
    codec__pool_init(&st->sdec, make_sdec, drop_sdec, st);
    if (dict && (rc = zstd_load_dict(s, st, dict, err))) {
        zstd_state_free(st);
        return rc;
    }
    s->state = st;
    s->ops = &zstd_ops;
    return CODEC_OK;
}

int codec__stage_ctor_zstd(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    return zstd_init(s, a, false, err);
}

int codec__stage_ctor_redisson_zstd(codec_stage *s, codec_args *a, const codec_type *t,
                                    codec_error *err)
{
    (void)t;
    return zstd_init(s, a, true, err);
}

codec *codec_zstd(int level, codec_error *err)
{
    return codec__make_leveled("zstd", level, NULL, err);
}

codec *codec_zstd_dict(int level, const char *dict_path, codec_error *err)
{
    char extra[280];
    int w = snprintf(extra, sizeof extra, "dict=%s", dict_path ? dict_path : "");
    if (!dict_path || w < 0 || (size_t)w >= sizeof extra) {
        codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "zstd", CODEC_NO_OFFSET,
                        "codec_zstd_dict needs a dictionary path");
        return NULL;
    }
    return codec__make_leveled("zstd", level, extra, err);
}

codec *codec_redisson_zstd(int level, codec_error *err)
{
    return codec__make_leveled("redisson-zstd", level, NULL, err);
}
