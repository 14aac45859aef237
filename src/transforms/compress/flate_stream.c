/* flate_stream.c — streaming `gzip` and `deflate` (compose/stream_internal.h).
 *
 * Encode at levels 6..9 (our encoder, as the one-shot): the one-shot too
 * compresses in parts of CODEC_DEFLATE_PART (128 KiB) at fixed offsets,
 * each matching into the 32 KiB before it, a block going on across parts
 * (compress_internal.h); the stream holds the input before the part that
 * the encoder needs (the window, or the pending block's input: at most
 * CODEC_DEFLATE_HOLD, 256 KiB, half at levels 6..7) and the next part, and
 * compresses the part when it is full and more input follows, or at the
 * end. So the stream's bytes are the one-shot's at every size and for
 * every split of the input. Memory: those 384 KiB (touched as used), a
 * part's output and one encoder context (about 0.95 MiB; at level 6 about
 * 0.65 MiB of it touched).
 *
 * Other levels (libdeflate's in the one-shot, which cannot stream) use
 * zlib at the same level, window and memory level as the JDK's Deflater,
 * so their bytes are zlib's, the same for any split. Only they load zlib
 * (opened on first use, libz_internal.h).
 *
 * Decoding is our own streaming inflate (inflate.c), gzip members back to
 * back as gzip -d reads them (the one-shot's libdeflate needs the whole
 * input); it accepts and rejects what zlib's inflate does. Its inflaters
 * come from a pool of the stage's, so a stream allocates none. */
#include "compress_internal.h"
#include "codec/integrity.h"
#include "compose/stream_internal.h"
#include "inflate_internal.h"
#include "libz_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* zlib's defaults, which the JDK's Deflater uses too. */
#define FLATE_MEM_LEVEL 8
#define GZIP_OS_UNKNOWN 255

/* Encode with zlib (levels 1..5). */
typedef struct flate_stream {
    codec__sstream base;
    z_stream z;
    bool ready;              /* z was initialised */
    gz_header header;
} flate_stream;

static uInt clamp_uint(size_t n)
{
    return n > UINT_MAX ? UINT_MAX : (uInt)n;
}

/* Runs deflate over io; returns zlib's code. */
static int flate_run(flate_stream *f, codec__io *io, int flush)
{
    z_stream *z = &f->z;
    z->next_in = (Bytef *)io->src + io->src_pos;
    z->avail_in = clamp_uint(io->src_len - io->src_pos);
    z->next_out = io->dst + io->dst_pos;
    z->avail_out = clamp_uint(io->dst_cap - io->dst_pos);
    uInt in0 = z->avail_in, out0 = z->avail_out;
    int zrc = deflate(z, flush);
    io->src_pos += in0 - z->avail_in;
    io->dst_pos += out0 - z->avail_out;
    return zrc;
}

static int flate_encode_step(flate_stream *f, codec__io *io, bool end, bool *done,
                             codec_error *err)
{
    int zrc = flate_run(f, io, end && clamp_uint(io->src_len - io->src_pos) ==
                                          io->src_len - io->src_pos
                                   ? Z_FINISH
                                   : Z_NO_FLUSH);
    if (zrc == Z_STREAM_END) {
        *done = true;
        return CODEC_OK;
    }
    if (zrc == Z_OK || zrc == Z_BUF_ERROR)
        return CODEC_OK;
    return CODEC_FAIL(err, f->base.stage, zrc == Z_MEM_ERROR ? CODEC_E_NOMEM : CODEC_E_INVALID_VALUE,
                      0, CODEC_NO_OFFSET, "deflate failed (zlib code %d)", zrc);
}

static int flate_step(codec__sstream *st, codec__io *io, bool end, bool *done,
                      codec_error *err)
{
    return flate_encode_step((flate_stream *)st, io, end, done, err);
}

static void flate_free(codec__sstream *st)
{
    flate_stream *f = (flate_stream *)st;
    if (f->ready)
        deflateEnd(&f->z);
    free(f);
}

static const codec__sstream_ops flate_sops = {.step = flate_step, .free = flate_free};

/* ---- decode with our inflate ------------------------------------------ */

typedef struct inflate_stream {
    codec__sstream base;
    codec_pool *pool;        /* where inf goes back */
    codec_inflater *inf;
} inflate_stream;

static int inflate_fail(const inflate_stream *d, uint64_t at, codec_error *err)
{
    const codec_stage *s = d->base.stage;
    int detail;
    bool unsupported;
    const char *msg = codec__inflate_error(d->inf, &detail, &unsupported);
    if (unsupported)
        return CODEC_FAIL(err, s, CODEC_E_UNSUPPORTED, CODEC_D_CORRUPT, at, "%s", msg);
    if (detail == CODEC_D_TRAILING)
        msg = "trailing data after the end of the zlib stream";
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, detail, at, "%s", msg);
}

static int inflate_step(codec__sstream *st, codec__io *io, bool end, bool *done,
                        codec_error *err)
{
    inflate_stream *d = (inflate_stream *)st;
    static const uint8_t none[1];
    const uint8_t *src = io->src ? io->src : none;
    const uint8_t *in = src + io->src_pos, *in_end = src + io->src_len;
    uint8_t *out = io->dst + io->dst_pos, *out_end = io->dst + io->dst_cap;
    int rc = codec__inflate(d->inf, &in, in_end, &out, out_end);
    io->src_pos = (size_t)(in - src);
    io->dst_pos = (size_t)(out - io->dst);
    if (rc)
        return inflate_fail(d, st->consumed + io->src_pos, err);
    if (!end || in < in_end)
        return CODEC_OK;
    if (codec__inflate_finished(d->inf)) {
        *done = true;
        return CODEC_OK;
    }
    if (out == out_end)
        return CODEC_OK; /* more output to come */
    return CODEC_FAIL(err, st->stage, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED,
                      st->consumed + io->src_pos, "unexpected end of input");
}

static void inflate_free(codec__sstream *st)
{
    inflate_stream *d = (inflate_stream *)st;
    if (d->inf) {
        codec__inflater_reset(d->inf);
        codec__pool_put(d->pool, d->inf);
    }
    free(d);
}

static const codec__sstream_ops inflate_sops = {.step = inflate_step, .free = inflate_free};

static int inflate_open(const codec_stage *s, codec_pool *pool, codec__sstream **out,
                        codec_error *err)
{
    inflate_stream *d = calloc(1, sizeof *d);
    if (!d)
        return codec__compress_nomem(s, err);
    d->base = (codec__sstream){.ops = &inflate_sops, .stage = s, .decode = true};
    d->pool = pool;
    d->inf = codec__pool_get(pool);
    if (!d->inf) {
        free(d);
        return codec__compress_nomem(s, err);
    }
    *out = &d->base;
    return CODEC_OK;
}

/* ---- encode with our encoder, in parts -------------------------------- */

#define OWN_PART CODEC_DEFLATE_PART
#define OWN_HOLD CODEC_DEFLATE_HOLD

typedef struct own_stream {
    codec__sstream base;
    codec_flate_wrap wrap;
    int level;               /* the stage's (for the header) */
    codec_pool *pool;        /* where d goes back */
    codec_deflater *d;
    /* OWN_HOLD + OWN_PART bytes: the part (input not yet compressed) at
     * buf + OWN_HOLD, after the `hist` bytes of input before it that the
     * encoder needs (codec__deflate_history()). */
    uint8_t *buf;
    size_t hist, part_len;
    codec_buf out;           /* compressed bytes not yet given to io->dst */
    size_t out_pos;
    uint32_t check;          /* adler32 or crc32 of the input so far */
    uint64_t total;
    bool started, finished;
} own_stream;

/* Compresses the held part (the last one when `final`) into o->out, after
 * the header when it is the first and before the trailer when final. */
static int own_compress(own_stream *o, bool final, codec_error *err)
{
    const codec_stage *s = o->base.stage;
    size_t n = o->part_len, bound = codec__deflate_bound(o->hist + n);
    o->out.len = o->out_pos = 0;
    if (codec_buf_reserve(&o->out, bound + FLATE_HEADER_MAX + 8))
        return codec__compress_nomem(s, err);
    uint8_t *dst = o->out.data;
    size_t head = o->started ? 0 : codec__flate_header(o->wrap, o->level, dst);
    int level = o->level < CODEC_DEFLATER_MIN_LEVEL ? CODEC_DEFLATER_MIN_LEVEL : o->level;
    uint8_t *part = o->buf + OWN_HOLD;
    size_t body;
    if (!codec__deflate_compress_part(o->d, level, part, n, !o->started, final, dst + head, bound,
                                      &body))
        return CODEC_FAIL(err, s, CODEC_E_INVALID_VALUE, 0, CODEC_NO_OFFSET,
                          "deflate failed to compress %zu bytes", n);
    o->check = o->wrap == CODEC_FLATE_ZLIB ? codec_adler32(o->check, part, n)
                                           : codec_crc32(o->check, part, n);
    o->total += n;
    o->out.len = head + body;
    if (final)
        o->out.len += codec__flate_trailer(o->wrap, o->check, o->total, dst + o->out.len);
    o->started = true;
    o->finished = final;
    if (!final) { /* the end of [history | part] is the next part's history */
        o->hist = codec__deflate_history(o->d);
        memmove(o->buf + OWN_HOLD - o->hist, part + n - o->hist, o->hist);
    }
    o->part_len = 0;
    return CODEC_OK;
}

static int own_step(codec__sstream *st, codec__io *io, bool end, bool *done, codec_error *err)
{
    own_stream *o = (own_stream *)st;
    for (;;) {
        if (!codec__io_flush(io, &o->out, &o->out_pos))
            return CODEC_OK;
        if (o->finished) {
            *done = true;
            return CODEC_OK;
        }
        size_t avail = io->src_len - io->src_pos;
        int rc;
        if (avail && o->part_len == OWN_PART) {
            rc = own_compress(o, false, err); /* more input follows the part */
        } else if (avail) {
            size_t k = OWN_PART - o->part_len < avail ? OWN_PART - o->part_len : avail;
            memcpy(o->buf + OWN_HOLD + o->part_len, io->src + io->src_pos, k);
            o->part_len += k;
            io->src_pos += k;
            continue;
        } else if (end) {
            rc = own_compress(o, true, err);
        } else {
            return CODEC_OK;
        }
        if (rc)
            return rc;
    }
}

static void own_free(codec__sstream *st)
{
    own_stream *o = (own_stream *)st;
    if (o->d)
        codec__pool_put(o->pool, o->d);
    free(o->buf);
    codec_buf_free(&o->out);
    free(o);
}

static const codec__sstream_ops own_sops = {.step = own_step, .free = own_free};

static int own_open(const codec_stage *s, codec_flate_wrap wrap, int level, codec_pool *pool,
                    codec__sstream **out, codec_error *err)
{
    own_stream *o = calloc(1, sizeof *o);
    if (!o)
        return codec__compress_nomem(s, err);
    o->base = (codec__sstream){.ops = &own_sops, .stage = s, .decode = false};
    o->wrap = wrap;
    o->level = level;
    o->pool = pool;
    o->check = wrap == CODEC_FLATE_ZLIB ? 1 : 0;
    codec_buf_init(&o->out, NULL);
    o->buf = malloc(OWN_HOLD + OWN_PART);
    o->d = o->buf ? codec__pool_get(pool) : NULL;
    if (!o->d) {
        own_free(&o->base);
        return codec__compress_nomem(s, err);
    }
    *out = &o->base;
    return CODEC_OK;
}

/* ---- open -------------------------------------------------------------- */

int codec__flate_stream_open(const codec_stage *s, codec_flate_wrap wrap, int level,
                             codec_pool *deflaters, codec_pool *inflaters, bool decode,
                             codec__sstream **out, codec_error *err)
{
    if (decode)
        return inflate_open(s, inflaters, out, err);
    if (deflaters)
        return own_open(s, wrap, level, deflaters, out, err);
    int rc = codec__dynlib_open(&codec__libz, s->name, err);
    if (rc)
        return rc;
    flate_stream *f = calloc(1, sizeof *f);
    if (!f)
        return codec__compress_nomem(s, err);
    f->base = (codec__sstream){.ops = &flate_sops, .stage = s, .decode = false};
    bool gzip = wrap == CODEC_FLATE_GZIP;
    int zrc = deflateInit2(&f->z, level, Z_DEFLATED, gzip ? 15 + 16 : 15, FLATE_MEM_LEVEL,
                           Z_DEFAULT_STRATEGY);
    f->ready = zrc == Z_OK;
    if (f->ready && gzip) {
        /* The one-shot header: no name, no time, OS unknown. */
        f->header.os = GZIP_OS_UNKNOWN;
        zrc = deflateSetHeader(&f->z, &f->header);
    }
    if (zrc != Z_OK) {
        flate_free(&f->base);
        return codec__compress_nomem(s, err);
    }
    *out = &f->base;
    return CODEC_OK;
}
