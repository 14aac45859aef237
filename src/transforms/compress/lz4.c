/* lz4.c — `lz4` and `lz4hc:L`: the LZ4 frame format (magic 04 22 4D 18) with
 * 64 KiB independent blocks and an xxHash32 content checksum, no content
 * size: the frame the Java codec library writes and `lz4 -d` reads. The
 * decoder takes frames back to back (and skippable frames), as `lz4 -d`
 * does, and uses a declared content size, when a frame has one, to check
 * the cap and reserve exactly.
 *
 * liblz4 is opened on first use (liblz4_internal.h): encode, decode and
 * stream open each open it before anything else, so a spec naming lz4
 * parses without it. */
#include "compress_internal.h"
#include "compose/stream_internal.h"
#include "liblz4_internal.h"

#include "codec/compress.h"

#include <stdlib.h>
#include <string.h>

/* An LZ4 sequence turns each extra length byte into at most 255 bytes. */
#define LZ4_MAX_RATIO 256

typedef struct lz4_state {
    LZ4F_preferences_t prefs;
    codec_pool cctx;
    codec_pool dctx;
} lz4_state;

static void *make_cctx(const void *cfg)
{
    (void)cfg;
    LZ4F_cctx *c = NULL;
    return LZ4F_isError(LZ4F_createCompressionContext(&c, LZ4F_VERSION)) ? NULL : c;
}

static void drop_cctx(void *ctx)
{
    LZ4F_freeCompressionContext(ctx);
}

static void *make_dctx(const void *cfg)
{
    (void)cfg;
    LZ4F_dctx *d = NULL;
    return LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)) ? NULL : d;
}

static void drop_dctx(void *ctx)
{
    LZ4F_freeDecompressionContext(ctx);
}

static int lz4_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    lz4_state *st = s->state;
    int rc = codec__dynlib_open(&codec__liblz4, s->name, err);
    if (rc)
        return rc;
    size_t bound = LZ4F_compressFrameBound(n, &st->prefs);
    if (LZ4F_isError(bound) || codec_buf_reserve(out, bound))
        return codec__compress_nomem(s, err);
    LZ4F_cctx *c = codec__pool_get(&st->cctx);
    if (!c)
        return codec__compress_nomem(s, err);
    uint8_t *dst = out->data + out->len;
    size_t used = LZ4F_compressBegin(c, dst, bound, &st->prefs), r = used;
    if (!LZ4F_isError(r)) {
        r = LZ4F_compressUpdate(c, dst + used, bound - used, src, n, NULL);
        used += LZ4F_isError(r) ? 0 : r;
    }
    if (!LZ4F_isError(r)) {
        r = LZ4F_compressEnd(c, dst + used, bound - used, NULL);
        used += LZ4F_isError(r) ? 0 : r;
    }
    /* compressBegin starts over, so a context is reusable after a failure. */
    codec__pool_put(&st->cctx, c);
    if (LZ4F_isError(r))
        return CODEC_FAIL(err, s, CODEC_E_INVALID_VALUE, 0, CODEC_NO_OFFSET, "%s",
                          LZ4F_getErrorName(r));
    out->len += used;
    return CODEC_OK;
}

static int lz4_fail(const codec_stage *s, size_t code, uint64_t offset, codec_error *err)
{
    int detail = CODEC_D_CORRUPT;
    switch (LZ4F_getErrorCode(code)) {
    case LZ4F_ERROR_allocation_failed:
        return codec__compress_nomem(s, err);
    case LZ4F_ERROR_frameType_unknown:
        detail = CODEC_D_BAD_MAGIC;
        break;
    case LZ4F_ERROR_contentChecksum_invalid:
    case LZ4F_ERROR_blockChecksum_invalid:
    case LZ4F_ERROR_headerChecksum_invalid:
        detail = CODEC_D_CHECKSUM;
        break;
    case LZ4F_ERROR_frameSize_wrong:
    case LZ4F_ERROR_frameHeader_incomplete:
        detail = CODEC_D_TRUNCATED;
        break;
    default:
        break;
    }
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, detail, offset, "%s",
                      LZ4F_getErrorName(code));
}

/* Reads the first frame header; a declared content size is checked against
 * the cap and reserved. *pos moves past the header. */
static int lz4_read_header(const codec_stage *s, LZ4F_dctx *d, const uint8_t *src, size_t n,
                           size_t *pos, codec_buf *out, codec_error *err)
{
    if (n < LZ4F_HEADER_SIZE_MIN)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                          "too short for an LZ4 frame");
    LZ4F_frameInfo_t info;
    size_t used = n;
    size_t r = LZ4F_getFrameInfo(d, &info, src, &used);
    if (LZ4F_isError(r))
        return lz4_fail(s, r, 0, err);
    *pos = used;
    if (info.contentSize) {
        int rc = codec__check_declared(s, info.contentSize, n, LZ4_MAX_RATIO, 6, err);
        if (rc)
            return rc;
        if (codec_buf_reserve(out, (size_t)info.contentSize))
            return codec__compress_nomem(s, err);
    }
    return CODEC_OK;
}

/* Decodes src[0..n) from *pos on (the first frame's header read when *pos
 * is 0). Inlined into the fast path and the reference. */
static inline __attribute__((always_inline)) int lz4_decode_from(const codec_stage *s, LZ4F_dctx *d, const uint8_t *src, size_t n,
                           size_t pos, codec_buf *out, codec_error *err)
{
    size_t base = out->len;
    for (;;) {
        size_t room;
        int rc = codec__out_room(s, out, base, n, &room, err);
        if (rc)
            return rc;
        size_t dst_len = room, src_len = n - pos;
        size_t hint = LZ4F_decompress(d, out->data + out->len, &dst_len, src + pos, &src_len,
                                      NULL);
        if (LZ4F_isError(hint))
            return lz4_fail(s, hint, pos + src_len, err);
        pos += src_len;
        out->len += dst_len;
        if ((rc = codec__out_check(s, out, base, err)))
            return rc;
        if (hint == 0 && pos == n)
            return CODEC_OK; /* the last frame is complete */
        if (pos == n && dst_len == 0)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                              "LZ4 frame ends early");
    }
}

/* The reference: the first header through LZ4F_getFrameInfo, whose errors
 * name offset 0. */
static int lz4_decode_with(const codec_stage *s, LZ4F_dctx *d, const uint8_t *src, size_t n,
                           codec_buf *out, codec_error *err)
{
    size_t pos = 0;
    int rc = lz4_read_header(s, d, src, n, &pos, out, err);
    return rc ? rc : lz4_decode_from(s, d, src, n, pos, out, err);
}

/* The fast path's look at the first header: true when it is an LZ4 frame
 * header whose content-size field (when the flag says there is one) is in
 * src; *size is that field or 0. LZ4F_decompress then reads the header
 * itself, with every check; anything else goes to the reference. */
static bool lz4_peek_size(const uint8_t *src, size_t n, uint64_t *size)
{
    if (n < LZ4F_HEADER_SIZE_MIN || codec_load_le32(src) != LZ4F_MAGICNUMBER ||
        (src[4] >> 6) != 1)
        return false;
    *size = 0;
    if (src[4] & 0x08) { /* FLG.ContentSize */
        if (n < 14)
            return false;
        *size = codec_load_le64(src + 6);
    }
    return true;
}

/* The common case without LZ4F_getFrameInfo's second pass over the header:
 * the content size is checked against the cap and reserved exactly as the
 * reference does. Any failure is reported by the reference, run again on a
 * fresh context, so errors (family, detail, offset) are the reference's. */
static int lz4_decode_fast(const codec_stage *s, LZ4F_dctx *d, const uint8_t *src, size_t n,
                           codec_buf *out)
{
    uint64_t size;
    if (!lz4_peek_size(src, n, &size))
        return -1;
    if (size && (codec__check_declared(s, size, n, LZ4_MAX_RATIO, 6, NULL) ||
                 codec_buf_reserve(out, (size_t)size)))
        return -1;
    return lz4_decode_from(s, d, src, n, 0, out, NULL);
}

static int lz4_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    lz4_state *st = s->state;
    int rc = codec__dynlib_open(&codec__liblz4, s->name, err);
    if (rc)
        return rc;
    LZ4F_dctx *d = codec__pool_get(&st->dctx);
    if (!d)
        return codec__compress_nomem(s, err);
    size_t base = out->len;
    if (lz4_decode_fast(s, d, src, n, out) == CODEC_OK) {
        codec__pool_put(&st->dctx, d);
        return CODEC_OK;
    }
    /* liblz4 1.9.4's LZ4F_resetDecompressionContext keeps the remaining
     * content size of the failed frame, which then fails the next frame
     * that has none: a context that saw an error is not reused. */
    drop_dctx(d);
    out->len = base;
    if (!(d = make_dctx(NULL)))
        return codec__compress_nomem(s, err);
    rc = lz4_decode_with(s, d, src, n, out, err);
    if (rc) {
        drop_dctx(d);
        out->len = base;
        return rc;
    }
    codec__pool_put(&st->dctx, d);
    return CODEC_OK;
}

static void lz4_destroy(codec_stage *s)
{
    lz4_state *st = s->state;
    codec__pool_clear(&st->cctx);
    codec__pool_clear(&st->dctx);
    free(st);
}

/* ---------------------------------------------------------------------------
 * Streaming (compose/stream_internal.h). Encode gathers whole 64 KiB blocks
 * and hands LZ4F one block per update, the last (short) one at the end:
 * with independent blocks that is exactly the one-shot frame. Decode runs
 * LZ4F_decompress straight into the pipeline's buffer.
 * ------------------------------------------------------------------------ */

#define LZ4_BLOCK ((size_t)64 << 10)

typedef struct lz4_enc_stream {
    codec__push p;
    const codec__sstream_ops *push; /* the push adapter's ops, which this wraps */
    LZ4F_cctx *c;
    bool begun;
    size_t fill;
    size_t bound;                   /* LZ4F_compressBound of one whole block */
    uint8_t block[LZ4_BLOCK];
} lz4_enc_stream;

static int lz4_stream_fail(const codec_stage *s, size_t r, codec_error *err)
{
    return LZ4F_getErrorCode(r) == LZ4F_ERROR_allocation_failed
               ? codec__compress_nomem(s, err)
               : CODEC_FAIL(err, s, CODEC_E_INVALID_VALUE, 0, CODEC_NO_OFFSET, "%s",
                            LZ4F_getErrorName(r));
}

/* Compresses src[0..n) (and, when `last`, ends the frame) into out. */
static int lz4_enc_flush(lz4_enc_stream *e, const uint8_t *src, size_t n, bool last,
                         codec_buf *out, codec_error *err)
{
    const codec_stage *s = e->p.base.stage;
    const lz4_state *st = s->state;
    size_t need = LZ4F_compressBound(n, &st->prefs) + LZ4F_HEADER_SIZE_MAX;
    if (codec_buf_reserve(out, need))
        return codec__compress_nomem(s, err);
    size_t r = 0;
    if (!e->begun) {
        r = LZ4F_compressBegin(e->c, out->data + out->len, need, &st->prefs);
        if (LZ4F_isError(r))
            return lz4_stream_fail(s, r, err);
        out->len += r;
        e->begun = true;
    }
    if (n) {
        r = LZ4F_compressUpdate(e->c, out->data + out->len, out->cap - out->len, src, n, NULL);
        if (LZ4F_isError(r))
            return lz4_stream_fail(s, r, err);
        out->len += r;
        e->fill = 0;
    }
    if (last) {
        r = LZ4F_compressEnd(e->c, out->data + out->len, out->cap - out->len, NULL);
        if (LZ4F_isError(r))
            return lz4_stream_fail(s, r, err);
        out->len += r;
    }
    return CODEC_OK;
}

static int lz4_enc_feed(codec__push *p, const uint8_t *src, size_t n, uint64_t at,
                        codec_buf *out, codec_error *err)
{
    lz4_enc_stream *e = (lz4_enc_stream *)p;
    (void)at;
    while (n) {
        const uint8_t *block = codec__block_next(e->block, LZ4_BLOCK, &e->fill, &src, &n);
        int rc = block ? lz4_enc_flush(e, block, LZ4_BLOCK, false, out, err) : CODEC_OK;
        if (rc)
            return rc;
    }
    return CODEC_OK;
}

static int lz4_enc_finish(codec__push *p, uint64_t at, codec_buf *out, codec_error *err)
{
    (void)at;
    lz4_enc_stream *e = (lz4_enc_stream *)p;
    return lz4_enc_flush(e, e->block, e->fill, true, out, err);
}

static void lz4_enc_free(codec__push *p)
{
    LZ4F_freeCompressionContext(((lz4_enc_stream *)p)->c);
}

static const codec__push_ops lz4_enc_ops = {
    .feed = lz4_enc_feed, .finish = lz4_enc_finish, .free = lz4_enc_free};

/* The push adapter's step, but while nothing waits (no output pending, no
 * partial block) whole blocks are compressed straight into io->dst when it
 * has room for one: the same bytes, without the copy through `pending`
 * (nor its memory: the command's `pack -p lz4` writes every block there). */
static int lz4_enc_step(codec__sstream *st, codec__io *io, bool end, bool *done,
                        codec_error *err)
{
    lz4_enc_stream *e = (lz4_enc_stream *)st;
    while (e->begun && e->fill == 0 && e->p.pending.len == 0 &&
           io->src_len - io->src_pos >= LZ4_BLOCK && io->dst_cap - io->dst_pos >= e->bound) {
        size_t r = LZ4F_compressUpdate(e->c, io->dst + io->dst_pos, io->dst_cap - io->dst_pos,
                                       io->src + io->src_pos, LZ4_BLOCK, NULL);
        if (LZ4F_isError(r))
            return lz4_stream_fail(st->stage, r, err);
        io->src_pos += LZ4_BLOCK;
        io->dst_pos += r;
    }
    return e->push->step(st, io, end, done, err);
}

static void lz4_enc_stream_free(codec__sstream *st)
{
    ((lz4_enc_stream *)st)->push->free(st);
}

static const codec__sstream_ops lz4_enc_sops = {.step = lz4_enc_step,
                                                .free = lz4_enc_stream_free};

typedef struct lz4_dec_stream {
    codec__sstream base;
    LZ4F_dctx *d;
    size_t hint;             /* 0 once the last frame is complete */
    bool seen;
} lz4_dec_stream;

static int lz4_dec_step(codec__sstream *st, codec__io *io, bool end, bool *done,
                        codec_error *err)
{
    lz4_dec_stream *z = (lz4_dec_stream *)st;
    const codec_stage *s = st->stage;
    z->seen |= io->src_pos < io->src_len;
    if (io->src_pos < io->src_len || z->hint) {
        size_t dst_len = io->dst_cap - io->dst_pos, src_len = io->src_len - io->src_pos;
        size_t r = LZ4F_decompress(z->d, io->dst + io->dst_pos, &dst_len, io->src + io->src_pos,
                                   &src_len, NULL);
        if (LZ4F_isError(r))
            return lz4_fail(s, r, st->consumed + io->src_pos + src_len, err);
        io->src_pos += src_len;
        io->dst_pos += dst_len;
        z->hint = r;
        if (!end || io->src_pos < io->src_len || dst_len)
            return CODEC_OK;
    } else if (!end) {
        return CODEC_OK;
    }
    if (!z->seen)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, 0,
                          "too short for an LZ4 frame");
    if (z->hint)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED,
                          st->consumed + io->src_pos, "unexpected end of input");
    *done = true;
    return CODEC_OK;
}

static void lz4_dec_free(codec__sstream *st)
{
    LZ4F_freeDecompressionContext(((lz4_dec_stream *)st)->d);
    free(st);
}

static const codec__sstream_ops lz4_dec_sops = {.step = lz4_dec_step, .free = lz4_dec_free};

static int lz4_stream_open(const codec_stage *s, bool decode, codec__sstream **out,
                           codec_error *err)
{
    int rc = codec__dynlib_open(&codec__liblz4, s->name, err);
    if (rc)
        return rc;
    if (!decode) {
        lz4_enc_stream *e =
            (lz4_enc_stream *)codec__push_new(sizeof *e, &lz4_enc_ops, s, false);
        if (!e || !(e->c = make_cctx(NULL))) {
            if (e)
                e->p.base.ops->free(&e->p.base);
            return codec__compress_nomem(s, err);
        }
        e->push = e->p.base.ops;
        e->p.base.ops = &lz4_enc_sops;
        e->bound = LZ4F_compressBound(LZ4_BLOCK, &((const lz4_state *)s->state)->prefs);
        *out = &e->p.base;
        return CODEC_OK;
    }
    lz4_dec_stream *z = calloc(1, sizeof *z);
    if (!z || !(z->d = make_dctx(NULL))) {
        free(z);
        return codec__compress_nomem(s, err);
    }
    z->base = (codec__sstream){.ops = &lz4_dec_sops, .stage = s, .decode = true};
    *out = &z->base;
    return CODEC_OK;
}

static const codec_stage_ops lz4_ops = {.encode = lz4_encode,
                                        .decode = lz4_decode,
                                        .destroy = lz4_destroy,
                                        .stream_open = lz4_stream_open};

/* checksum=on|off (default on, as the Java codec and the lz4 tool write). */
static int lz4_args_checksum(codec_args *a, bool *on, codec_error *err)
{
    static const char *const onoff[] = {"off", "on", NULL};
    size_t which;
    int rc = codec__args_choice(a, "checksum", false, onoff, 1, &which, err);
    *on = which == 1;
    return rc;
}

static int lz4_init(codec_stage *s, int level, bool checksum, codec_error *err)
{
    lz4_state *st = calloc(1, sizeof *st);
    if (!st)
        return codec__compress_nomem(s, err);
    st->prefs.frameInfo.blockSizeID = LZ4F_max64KB;
    st->prefs.frameInfo.blockMode = LZ4F_blockIndependent;
    st->prefs.frameInfo.contentChecksumFlag =
        checksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum;
    st->prefs.compressionLevel = level;
    st->prefs.autoFlush = 1; /* whole buffers: no copy into the context's block buffer */
    codec__pool_init(&st->cctx, make_cctx, drop_cctx, st);
    codec__pool_init(&st->dctx, make_dctx, drop_dctx, st);
    s->state = st;
    s->ops = &lz4_ops;
    return CODEC_OK;
}

int codec__stage_ctor_lz4(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    bool checksum;
    int rc = codec__args_max_output(a, &s->max_output, err);
    if (!rc)
        rc = lz4_args_checksum(a, &checksum, err);
    return rc ? rc : lz4_init(s, 0, checksum, err);
}

int codec__stage_ctor_lz4hc(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    long level;
    int rc = codec__args_int(a, "level", true, LZ4HC_CLEVEL_DEFAULT, LZ4HC_CLEVEL_MIN,
                            LZ4HC_CLEVEL_MAX, &level, err);
    bool checksum;
    if (!rc)
        rc = codec__args_max_output(a, &s->max_output, err);
    if (!rc)
        rc = lz4_args_checksum(a, &checksum, err);
    return rc ? rc : lz4_init(s, (int)level, checksum, err);
}

codec *codec_lz4(codec_error *err)
{
    return codec__make_leveled("lz4", CODEC_LEVEL_DEFAULT, NULL, err);
}

codec *codec_lz4hc(int level, codec_error *err)
{
    return codec__make_leveled("lz4hc", level, NULL, err);
}
