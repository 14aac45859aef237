/* flate.c — the deflate engine behind `gzip` and `deflate`.
 *
 * Every level promises output no larger than zlib's at that level (what the
 * JDK's Deflater writes), as fast as we can: levels 1..5 go to libdeflate
 * at the level whose output is no larger (table below), levels 6..9 to our
 * own encoder (deflate_encoder.c: several times zlib's speed on the prose
 * payload, and smaller; docs/formats/compression.md has the figures).
 * Decoding
 * tries libdeflate first, or zlib in one call for short dynamic-Huffman
 * streams (see ZLIB_SHORT_STREAM), and falls back to zlib's streaming
 * inflate where libdeflate needs the output size in advance and the guess
 * was too small, for the members after the first of a multi-member gzip
 * file, and to report where a corrupt stream goes wrong.
 * A build without libdeflate (CODEC_HAVE_LIBDEFLATE 0) encodes every level
 * with our encoder (levels 1..5 as 6) and decodes with zlib alone.
 *
 * libdeflate and zlib are opened on first use (libdeflate_internal.h,
 * libz_internal.h), each by the path that runs into it (lib_context()):
 * levels 6..9 load neither (but for the checksum), and the one-shot
 * decoder loads zlib only when it falls back to it. */
#include "compress_internal.h"
#include "codec/integrity.h"
#include "inflate_internal.h"
#include "libz_internal.h"
#if CODEC_HAVE_LIBDEFLATE
#include "libdeflate_internal.h"
#endif

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Compression engine per level, chosen so the size never exceeds zlib's at
 * that level: libdeflate at the level given here (1..5), our encoder
 * (deflate_encoder.c) where it is 0 (6..9). */
#if CODEC_HAVE_LIBDEFLATE
static const int libdeflate_level_for[10] = {0, 1, 2, 4, 4, 6, 0, 0, 0, 0};
#else
static const int libdeflate_level_for[10] = {0};
#endif
/* Our encoder's lowest level; lower ones reach it only without libdeflate. */
#define OWN_MIN_LEVEL CODEC_DEFLATER_MIN_LEVEL

/* Largest expansion of deflate (258-byte matches in ~2 bits); a gzip
 * trailer claiming more than this is corrupt. */
#define DEFLATE_MAX_RATIO 1032
/* zlib-framed streams carry no size: libdeflate gets this many times the
 * input as a first guess (JSON and prose compress 4..8x). */
#define ZLIB_GUESS_RATIO 8
/* Byte 9 of a gzip header: the operating system, 255 = unknown. */
#define GZIP_OS_UNKNOWN 255

typedef struct codec_flate codec_flate;
struct codec_flate {
    codec_flate_wrap wrap;
    int level;
    int libdeflate_level;   /* 0: our encoder */
    codec_pool enc;         /* libdeflate_compressor or codec_deflater */
    codec_pool dec;         /* libdeflate_decompressor */
    codec_pool inf;         /* z_stream (inflate) */
    codec_pool sinf;        /* codec_inflater: stream decoders, reset when put back */
};

static int zlib_window_bits(codec_flate_wrap wrap)
{
    return wrap == CODEC_FLATE_GZIP ? 15 + 16 : 15;
}

#if CODEC_HAVE_LIBDEFLATE
static void *make_libdeflate_compressor(const void *cfg)
{
    return libdeflate_alloc_compressor(((const codec_flate *)cfg)->libdeflate_level);
}

static void drop_libdeflate_compressor(void *ctx)
{
    libdeflate_free_compressor(ctx);
}

#endif

static void *make_deflater(const void *cfg)
{
    (void)cfg;
    return codec__deflater_new();
}

static void drop_deflater(void *ctx)
{
    codec__deflater_free(ctx);
}

#if CODEC_HAVE_LIBDEFLATE
static void *make_libdeflate_decompressor(const void *cfg)
{
    (void)cfg;
    return libdeflate_alloc_decompressor();
}

static void drop_libdeflate_decompressor(void *ctx)
{
    libdeflate_free_decompressor(ctx);
}
#endif

static void *make_zlib_inflater(const void *cfg)
{
    const codec_flate *f = cfg;
    z_stream *z = calloc(1, sizeof *z);
    if (z && inflateInit2(z, zlib_window_bits(f->wrap)) != Z_OK) {
        free(z);
        z = NULL;
    }
    return z;
}

static void drop_zlib_inflater(void *ctx)
{
    inflateEnd(ctx);
    free(ctx);
}

/* A pooled stream decoder spares a stream allocating (and faulting in)
 * its 80 KiB. */
static void *make_stream_inflater(const void *cfg)
{
    const codec_flate *f = cfg;
    return codec__inflater_new(f->wrap == CODEC_FLATE_GZIP ? CODEC_INFLATE_GZIP
                                                           : CODEC_INFLATE_ZLIB);
}

static void drop_stream_inflater(void *ctx)
{
    codec__inflater_free(ctx);
}

static codec_flate *codec_flate_new(codec_flate_wrap wrap, int level)
{
    codec_flate *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->wrap = wrap;
    f->level = level;
    f->libdeflate_level = libdeflate_level_for[level];
    codec__pool_init(&f->enc, make_deflater, drop_deflater, f);
#if CODEC_HAVE_LIBDEFLATE
    if (f->libdeflate_level)
        codec__pool_init(&f->enc, make_libdeflate_compressor, drop_libdeflate_compressor, f);
    codec__pool_init(&f->dec, make_libdeflate_decompressor, drop_libdeflate_decompressor, f);
#endif
    codec__pool_init(&f->inf, make_zlib_inflater, drop_zlib_inflater, f);
    codec__pool_init(&f->sinf, make_stream_inflater, drop_stream_inflater, f);
    return f;
}

/* A context from `pool`, whose maker calls into `lib` (NULL: into no
 * library): the library is opened first (on the first call), under the
 * stage's name. */
static int lib_context(const codec_stage *s, codec__dynlib *lib, codec_pool *pool, void **ctx,
                       codec_error *err)
{
    int rc = lib ? codec__dynlib_open(lib, s->name, err) : CODEC_OK;
    if (rc)
        return rc;
    *ctx = codec__pool_get(pool);
    return *ctx ? CODEC_OK : codec__compress_nomem(s, err);
}

static void codec_flate_free(codec_flate *f)
{
    if (!f)
        return;
    codec__pool_clear(&f->enc);
    codec__pool_clear(&f->dec);
    codec__pool_clear(&f->inf);
    codec__pool_clear(&f->sinf);
    free(f);
}

/* ---------------------------------------------------------------------------
 * Encode
 * ------------------------------------------------------------------------ */

#if CODEC_HAVE_LIBDEFLATE
static size_t libdeflate_encode(codec_flate *f, struct libdeflate_compressor *c,
                                const uint8_t *src, size_t n, codec_buf *out, int *rc)
{
    size_t bound = f->wrap == CODEC_FLATE_GZIP ? libdeflate_gzip_compress_bound(c, n)
                                               : libdeflate_zlib_compress_bound(c, n);
    if (codec_buf_reserve(out, bound)) {
        *rc = CODEC_E_NOMEM;
        return 0;
    }
    uint8_t *dst = out->data + out->len;
    return f->wrap == CODEC_FLATE_GZIP ? libdeflate_gzip_compress(c, src, n, dst, bound)
                                       : libdeflate_zlib_compress(c, src, n, dst, bound);
}
#endif

/* Bytes of the zlib (2) or gzip (10) header, and of the trailer after the
 * deflate data (4 or 8). */
#define ZLIB_HEADER 2
#define GZIP_HEADER 10
#define ZLIB_TRAILER 4
#define GZIP_TRAILER 8

static void store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* The header as zlib writes it at levels 6..9: for zlib framing CMF 0x78
 * (deflate, 32 KiB window) and FLEVEL 2 at level 6, 3 above, with FCHECK
 * making the pair a multiple of 31; for gzip no name, no time stamp (XFL
 * and OS are set for every engine in codec_flate_encode()). */
static int own_level(const codec_flate *f)
{
    return f->level < OWN_MIN_LEVEL ? OWN_MIN_LEVEL : f->level;
}

/* XFL: 4 ("fastest") at level 1, 2 ("slowest") at 8..9 (zlib sets it only
 * at 9), whatever the engine. */
static uint8_t gzip_xfl(int level)
{
    return level == 1 ? 4 : level >= 8 ? 2 : 0;
}

size_t codec__flate_header(codec_flate_wrap wrap, int level, uint8_t *p)
{
    if (wrap == CODEC_FLATE_ZLIB) {
        unsigned flg = (level <= 6 ? 2u : 3u) << 6;
        flg += 31 - (0x78u * 256 + flg) % 31;
        p[0] = 0x78, p[1] = (uint8_t)flg;
        return ZLIB_HEADER;
    }
    static const uint8_t gzip_head[GZIP_HEADER] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0,
                                                    GZIP_OS_UNKNOWN};
    memcpy(p, gzip_head, GZIP_HEADER);
    p[8] = gzip_xfl(level);
    return GZIP_HEADER;
}

size_t codec__flate_trailer(codec_flate_wrap wrap, uint32_t check, uint64_t total, uint8_t *p)
{
    if (wrap == CODEC_FLATE_ZLIB) {
        codec_store_be32(p, check);
        return ZLIB_TRAILER;
    }
    store_le32(p, check);
    store_le32(p + 4, (uint32_t)total);
    return GZIP_TRAILER;
}

/* The library behind f->enc's contexts: libdeflate at its levels, none
 * for our encoder. */
static codec__dynlib *encoder_lib(const codec_flate *f)
{
#if CODEC_HAVE_LIBDEFLATE
    if (f->libdeflate_level)
        return &codec__libdeflate;
#else
    (void)f;
#endif
    return NULL;
}

static size_t own_encode(codec_flate *f, codec_deflater *d, const uint8_t *src, size_t n,
                         codec_buf *out, int *rc)
{
    size_t bound = codec__deflate_bound(n);
    size_t framed = bound + GZIP_HEADER + GZIP_TRAILER;
    if (bound < n || codec_buf_reserve(out, framed)) {
        *rc = CODEC_E_NOMEM;
        return 0;
    }
    uint8_t *dst = out->data + out->len;
    size_t head = codec__flate_header(f->wrap, f->level, dst);
    size_t body = codec__deflate_compress(d, own_level(f), src, n, dst + head, bound);
    if (!body)
        return 0;
    uint32_t check = f->wrap == CODEC_FLATE_ZLIB ? codec_adler32(1, src, n) : codec_crc32(0, src, n);
    return head + body + codec__flate_trailer(f->wrap, check, n, dst + head + body);
}

static int codec_flate_encode(const codec_stage *s, codec_flate *f, const uint8_t *src, size_t n,
                              codec_buf *out, codec_error *err)
{
    void *ctx;
    int rc = lib_context(s, encoder_lib(f), &f->enc, &ctx, err);
    if (rc)
        return rc;
#if CODEC_HAVE_LIBDEFLATE
    size_t written = f->libdeflate_level ? libdeflate_encode(f, ctx, src, n, out, &rc)
                                         : own_encode(f, ctx, src, n, out, &rc);
#else
    size_t written = own_encode(f, ctx, src, n, out, &rc);
#endif
    codec__pool_put(&f->enc, ctx);
    if (rc)
        return codec__compress_nomem(s, err);
    if (!written)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_VALUE, 0, CODEC_NO_OFFSET,
                          "deflate failed to compress %zu bytes", n);
    /* One gzip header per level whatever the engine: XFL by level, OS 255
     * (unknown; zlib writes 3, Unix). */
    if (f->wrap == CODEC_FLATE_GZIP) {
        out->data[out->len + 8] = gzip_xfl(f->level);
        out->data[out->len + 9] = GZIP_OS_UNKNOWN;
    }
    out->len += written;
    return CODEC_OK;
}

/* ---------------------------------------------------------------------------
 * Decode: zlib's streaming inflate (the general path)
 * ------------------------------------------------------------------------ */

static int inflate_error(const codec_stage *s, const z_stream *z, uint64_t offset,
                         codec_error *err)
{
    const char *msg = z->msg ? z->msg : "invalid deflate stream";
    int detail = CODEC_D_CORRUPT;
    if (strstr(msg, "header check") || strstr(msg, "unknown compression method"))
        detail = CODEC_D_BAD_MAGIC;
    else if (strstr(msg, "check"))
        detail = CODEC_D_CHECKSUM;
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, detail, offset, "%s", msg);
}

/* What inflate()'s return `zrc` means, the input consumed up to `pos` of
 * n; *ended is set at the end of a stream (or gzip member). */
static int inflate_result(const codec_stage *s, const z_stream *z, int zrc, size_t pos,
                          size_t n, bool *ended, codec_error *err)
{
    switch (zrc) {
    case Z_STREAM_END:
        *ended = true;
        return CODEC_OK;
    case Z_OK:
    case Z_BUF_ERROR:
        /* No progress with room left means the input ran out. */
        if (pos == n && z->avail_out > 0)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                              "unexpected end of input");
        return CODEC_OK;
    case Z_NEED_DICT:
        return CODEC_FAIL(err, s, CODEC_E_UNSUPPORTED, CODEC_D_CORRUPT, pos,
                          "stream needs a preset dictionary (not supported)");
    case Z_MEM_ERROR:
        return codec__compress_nomem(s, err);
    default:
        return inflate_error(s, z, pos, err);
    }
}

/* One inflate step into the room codec__out_room() made; *ended is set at
 * the end of a stream (or gzip member). */
static int inflate_step(const codec_stage *s, z_stream *z, const uint8_t *src, size_t n,
                        size_t *pos, codec_buf *out, size_t base, bool *ended,
                        codec_error *err)
{
    size_t room;
    int rc = codec__out_room(s, out, base, n, &room, err);
    if (rc)
        return rc;
    z->next_in = (Bytef *)src + *pos;
    z->avail_in = n - *pos > UINT_MAX ? UINT_MAX : (uInt)(n - *pos);
    z->next_out = out->data + out->len;
    z->avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
    uInt in0 = z->avail_in, out0 = z->avail_out;
    int zrc = inflate(z, Z_NO_FLUSH);
    *pos += in0 - z->avail_in;
    out->len += out0 - z->avail_out;
    if ((rc = codec__out_check(s, out, base, err)))
        return rc;
    return inflate_result(s, z, zrc, *pos, n, ended, err);
}

/* Inflates src[pos..n) to the end: one zlib stream, or gzip members back to
 * back (what `gzip -d` accepts). Output counts against the cap from base. */
static int zlib_decode(const codec_stage *s, codec_flate *f, const uint8_t *src, size_t n,
                       size_t pos, codec_buf *out, size_t base, codec_error *err)
{
    void *ctx;
    int rc = lib_context(s, &codec__libz, &f->inf, &ctx, err);
    if (rc)
        return rc;
    z_stream *z = ctx;
    for (;;) {
        inflateReset(z);
        bool ended = false;
        do
            rc = inflate_step(s, z, src, n, &pos, out, base, &ended, err);
        while (!rc && !ended);
        if (rc || pos == n)
            break;
        if (f->wrap != CODEC_FLATE_GZIP) {
            rc = CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRAILING, pos,
                            "%zu bytes after the end of the zlib stream", n - pos);
            break;
        }
    }
    codec__pool_put(&f->inf, z);
    return rc;
}

/* ---------------------------------------------------------------------------
 * Decode: zlib for short streams
 * ------------------------------------------------------------------------ */

/* libdeflate builds full-size decode tables for every dynamic-Huffman block;
 * zlib's are smaller, which makes zlib's inflate faster on short streams
 * (docs/formats/compression.md: up to about 300 bytes). */
#define ZLIB_SHORT_STREAM 256

/* Whether src is a short stream whose first block has dynamic Huffman codes
 * (BTYPE 2), behind a 2-byte zlib header or a 10-byte gzip header without
 * optional fields. */
static bool short_dynamic_stream(codec_flate_wrap wrap, const uint8_t *src, size_t n)
{
    size_t header = wrap == CODEC_FLATE_GZIP ? 10 : 2;
    if (n > ZLIB_SHORT_STREAM || n <= header)
        return false;
    if (wrap == CODEC_FLATE_GZIP && src[3] != 0)
        return false;
    return (src[header] >> 1 & 3) == 2;
}

/* One inflate call into the `cap` bytes reserved at out->data + out->len;
 * true when the stream ends exactly at the end of src. Anything else (more
 * gzip members, more output than cap, a bad stream) is left to the general
 * path, which reports it. */
static bool zlib_whole(const codec_stage *s, codec_flate *f, const uint8_t *src, size_t n,
                       codec_buf *out, size_t cap)
{
    void *ctx;
    if (lib_context(s, &codec__libz, &f->inf, &ctx, NULL))
        return false;
    z_stream *z = ctx;
    inflateReset(z);
    z->next_in = (Bytef *)src;
    z->avail_in = (uInt)n;
    z->next_out = out->data + out->len;
    z->avail_out = cap > UINT_MAX ? UINT_MAX : (uInt)cap;
    uInt out0 = z->avail_out;
    bool whole = inflate(z, Z_FINISH) == Z_STREAM_END && z->avail_in == 0;
    if (whole)
        out->len += out0 - z->avail_out;
    codec__pool_put(&f->inf, z);
    return whole;
}

/* ---------------------------------------------------------------------------
 * Decode: libdeflate fast paths
 * ------------------------------------------------------------------------ */

#if CODEC_HAVE_LIBDEFLATE
/* Runs libdeflate into `cap` reserved bytes. */
static enum libdeflate_result libdeflate_decode(codec_flate *f,
                                                struct libdeflate_decompressor *d,
                                                const uint8_t *src, size_t n, codec_buf *out,
                                                size_t cap, size_t *in_used)
{
    size_t got = 0;
    uint8_t *dst = out->data ? out->data + out->len : NULL;
    enum libdeflate_result r =
        f->wrap == CODEC_FLATE_GZIP
            ? libdeflate_gzip_decompress_ex(d, src, n, dst, cap, in_used, &got)
            : libdeflate_zlib_decompress_ex(d, src, n, dst, cap, in_used, &got);
    if (r == LIBDEFLATE_SUCCESS)
        out->len += got;
    return r;
}
#endif

/* The first output reservation of a zlib-framed stream, which carries no
 * size, or of a gzip member whose trailer cannot be trusted. */
static size_t flate_guess(const codec_stage *s, size_t n)
{
    size_t guess = n > (SIZE_MAX - 4096) / ZLIB_GUESS_RATIO ? SIZE_MAX : n * ZLIB_GUESS_RATIO + 4096;
    if (s->max_output && guess > s->max_output)
        guess = s->max_output;
    return guess;
}

/* Whether the gzip trailer's ISIZE (size mod 2^32 of the last member) can
 * be true: within the cap and what deflate can expand n bytes to. A last
 * member that is whole always passes; a false one means the last 4 bytes
 * are not a trailer (the file is cut short) or the data is bad. */
static bool gzip_isize_plausible(const codec_stage *s, const uint8_t *src, size_t n,
                                 size_t *isize_out)
{
    if (n < 18 || src[0] != 0x1f || src[1] != 0x8b)
        return false;
    uint32_t isize = (uint32_t)src[n - 4] | (uint32_t)src[n - 3] << 8 |
                     (uint32_t)src[n - 2] << 16 | (uint32_t)src[n - 1] << 24;
    *isize_out = isize;
    return !(s->max_output && isize > s->max_output) && isize / DEFLATE_MAX_RATIO <= n;
}

/* Inflates every member of src[0..n) into a small window that is thrown
 * away, to say what is wrong with a file whose ISIZE cannot be true before
 * any output is reserved: the input ends early, the output passes the cap
 * (a bomb costs time up to the cap, not memory), the data or the trailer
 * is bad. CODEC_OK when none of these (then the caller decodes). */
static int gzip_walk(const codec_stage *s, codec_flate *f, const uint8_t *src, size_t n,
                     codec_error *err)
{
    void *ctx;
    int rc = lib_context(s, &codec__libz, &f->inf, &ctx, err);
    if (rc)
        return rc;
    z_stream *z = ctx;
    uint8_t window[16384];
    uint64_t produced = 0;
    size_t pos = 0;
    inflateReset(z);
    for (;;) {
        z->next_in = (Bytef *)src + pos;
        z->avail_in = n - pos > UINT_MAX ? UINT_MAX : (uInt)(n - pos);
        z->next_out = window;
        z->avail_out = sizeof window;
        uInt in0 = z->avail_in;
        int zrc = inflate(z, Z_NO_FLUSH);
        pos += in0 - z->avail_in;
        produced += sizeof window - z->avail_out;
        if (s->max_output && produced > s->max_output) {
            rc = codec__out_check_count(s, produced, err);
            break;
        }
        bool ended = false;
        if ((rc = inflate_result(s, z, zrc, pos, n, &ended, err)))
            break;
        if (ended) {
            if (pos == n)
                break;
            inflateReset(z);
        }
    }
    codec__pool_put(&f->inf, z);
    return rc;
}

static int codec_flate_decode(const codec_stage *s, codec_flate *f, const uint8_t *src, size_t n,
                              codec_buf *out, codec_error *err)
{
    size_t base = out->len;
    int rc = CODEC_OK;
    size_t guess = flate_guess(s, n);
    if (f->wrap == CODEC_FLATE_GZIP && !gzip_isize_plausible(s, src, n, &guess)) {
        guess = flate_guess(s, n);
        if (n >= 18 && (rc = gzip_walk(s, f, src, n, err)))
            return rc;
    }
    if (codec_buf_reserve(out, guess))
        return codec__compress_nomem(s, err);
    if (short_dynamic_stream(f->wrap, src, n) && zlib_whole(s, f, src, n, out, guess))
        return CODEC_OK;
    size_t in_used = 0;
#if CODEC_HAVE_LIBDEFLATE
    void *d;
    if ((rc = lib_context(s, &codec__libdeflate, &f->dec, &d, err)))
        return rc;
    enum libdeflate_result r = libdeflate_decode(f, d, src, n, out, guess, &in_used);
    codec__pool_put(&f->dec, d);
    if (r == LIBDEFLATE_SUCCESS) {
        if (in_used == n)
            return CODEC_OK;
        if (f->wrap == CODEC_FLATE_ZLIB) {
            out->len = base;
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRAILING, in_used,
                              "%zu bytes after the end of the zlib stream", n - in_used);
        }
        /* more gzip members: zlib goes on from in_used */
    } else if (r == LIBDEFLATE_INSUFFICIENT_SPACE && s->max_output && guess == s->max_output) {
        return codec__stage_check_cap(s, guess + 1, err);
    } else {
        in_used = 0; /* zlib starts over, and says where a corrupt stream breaks */
        out->len = base;
    }
#endif
    if ((rc = zlib_decode(s, f, src, n, in_used, out, base, err)))
        out->len = base;
    return rc;
}

/* ---------------------------------------------------------------------------
 * The stage (the `gzip` and `deflate` rows differ only in the wrapper)
 * ------------------------------------------------------------------------ */

static int flate_stage_encode(const codec_stage *s, const uint8_t *src, size_t n,
                              codec_buf *out, codec_error *err)
{
    return codec_flate_encode(s, s->state, src, n, out, err);
}

static int flate_stage_decode(const codec_stage *s, const uint8_t *src, size_t n,
                              codec_buf *out, codec_error *err)
{
    return codec_flate_decode(s, s->state, src, n, out, err);
}

static void flate_stage_destroy(codec_stage *s)
{
    codec_flate_free(s->state);
}

static int flate_stage_stream_open(const codec_stage *s, bool decode,
                                   struct codec__sstream **out, codec_error *err)
{
    codec_flate *f = s->state;
    return codec__flate_stream_open(s, f->wrap, f->level, f->libdeflate_level ? NULL : &f->enc,
                                    &f->sinf, decode, out, err);
}

static const codec_stage_ops flate_ops = {.encode = flate_stage_encode,
                                          .decode = flate_stage_decode,
                                          .destroy = flate_stage_destroy,
                                          .stream_open = flate_stage_stream_open};

int codec__flate_stage_init(codec_stage *s, codec_args *a, codec_flate_wrap wrap, codec_error *err)
{
    long level;
    int rc = codec__args_int(a, "level", true, 6, 1, 9, &level, err);
    if (!rc)
        rc = codec__args_max_output(a, &s->max_output, err);
    if (rc)
        return rc;
    s->state = codec_flate_new(wrap, (int)level);
    if (!s->state)
        return codec__compress_nomem(s, err);
    s->ops = &flate_ops;
    return CODEC_OK;
}
