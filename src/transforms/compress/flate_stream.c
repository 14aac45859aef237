/* flate_stream.c — streaming `gzip` and `deflate` through zlib's deflate
 * and inflate (compose/stream_internal.h).
 *
 * The one-shot encoder (flate.c) needs the whole input; a stream uses
 * zlib at the same level, window and memory level as the JDK's Deflater,
 * so its bytes are zlib's (which the one-shot output is never larger
 * than), the same for any split of the input. Decoding takes gzip members
 * back to back, as gzip -d does. */
#include "compress_internal.h"
#include "compose/stream_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* zlib's defaults, which the JDK's Deflater uses too. */
#define FLATE_MEM_LEVEL 8
#define GZIP_OS_UNKNOWN 255

typedef struct flate_stream {
    codec__sstream base;
    z_stream z;
    bool gzip;
    bool ready;              /* z was initialised */
    bool member_open;        /* decode: inside a stream or member */
    bool seen;               /* decode: some input arrived */
    gz_header header;
} flate_stream;

static uInt clamp_uint(size_t n)
{
    return n > UINT_MAX ? UINT_MAX : (uInt)n;
}

/* Runs deflate or inflate over io; returns zlib's code. */
static int flate_run(flate_stream *f, codec__io *io, int flush)
{
    z_stream *z = &f->z;
    z->next_in = (Bytef *)io->src + io->src_pos;
    z->avail_in = clamp_uint(io->src_len - io->src_pos);
    z->next_out = io->dst + io->dst_pos;
    z->avail_out = clamp_uint(io->dst_cap - io->dst_pos);
    uInt in0 = z->avail_in, out0 = z->avail_out;
    int zrc = f->base.decode ? inflate(z, flush) : deflate(z, flush);
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

static int flate_decode_fail(flate_stream *f, int zrc, uint64_t at, codec_error *err)
{
    const codec_stage *s = f->base.stage;
    if (zrc == Z_MEM_ERROR)
        return codec__compress_nomem(s, err);
    if (zrc == Z_NEED_DICT)
        return CODEC_FAIL(err, s, CODEC_E_UNSUPPORTED, CODEC_D_CORRUPT, at,
                          "stream needs a preset dictionary (not supported)");
    const char *msg = f->z.msg ? f->z.msg : "invalid deflate stream";
    int detail = strstr(msg, "header check") || strstr(msg, "unknown compression method")
                     ? CODEC_D_BAD_MAGIC
                 : strstr(msg, "check") ? CODEC_D_CHECKSUM
                                        : CODEC_D_CORRUPT;
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, detail, at, "%s", msg);
}

static int flate_decode_step(flate_stream *f, codec__io *io, bool end, bool *done,
                             codec_error *err)
{
    const codec_stage *s = f->base.stage;
    if (io->src_pos < io->src_len && !f->member_open) {
        /* A new stream, or (gzip only) the next member. */
        if (f->seen && !f->gzip)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRAILING,
                              f->base.consumed + io->src_pos,
                              "trailing data after the end of the zlib stream");
        inflateReset(&f->z);
        f->member_open = f->seen = true;
    }
    if (f->member_open) {
        size_t in0 = io->src_pos, out0 = io->dst_pos;
        int zrc = flate_run(f, io, Z_NO_FLUSH);
        if (zrc == Z_STREAM_END)
            f->member_open = false;
        else if (zrc != Z_OK && zrc != Z_BUF_ERROR)
            return flate_decode_fail(f, zrc, f->base.consumed + io->src_pos, err);
        if (!end || io->src_pos < io->src_len || io->dst_pos == io->dst_cap ||
            (f->member_open && (io->src_pos != in0 || io->dst_pos != out0)))
            return CODEC_OK;
    } else if (!end) {
        return CODEC_OK;
    }
    if (f->member_open || !f->seen)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED,
                          f->base.consumed + io->src_pos, "unexpected end of input");
    *done = true;
    return CODEC_OK;
}

static int flate_step(codec__sstream *st, codec__io *io, bool end, bool *done,
                      codec_error *err)
{
    flate_stream *f = (flate_stream *)st;
    return st->decode ? flate_decode_step(f, io, end, done, err)
                      : flate_encode_step(f, io, end, done, err);
}

static void flate_free(codec__sstream *st)
{
    flate_stream *f = (flate_stream *)st;
    if (f->ready)
        (void)(st->decode ? inflateEnd(&f->z) : deflateEnd(&f->z));
    free(f);
}

static const codec__sstream_ops flate_sops = {.step = flate_step, .free = flate_free};

int codec__flate_stream_open(const codec_stage *s, codec_flate_wrap wrap, int level,
                             bool decode, codec__sstream **out, codec_error *err)
{
    flate_stream *f = calloc(1, sizeof *f);
    if (!f)
        return codec__compress_nomem(s, err);
    f->base = (codec__sstream){.ops = &flate_sops, .stage = s, .decode = decode};
    f->gzip = wrap == CODEC_FLATE_GZIP;
    int bits = f->gzip ? 15 + 16 : 15;
    int zrc = decode ? inflateInit2(&f->z, bits)
                     : deflateInit2(&f->z, level, Z_DEFLATED, bits, FLATE_MEM_LEVEL,
                                    Z_DEFAULT_STRATEGY);
    f->ready = zrc == Z_OK;
    if (f->ready && f->gzip && !decode) {
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
