/* compress_internal.h — what the compression stages share: the context pool
 * (core/pool_internal.h), output growth for decoders that do not know their
 * output size, and the deflate engine behind `gzip` and `deflate`. */
#ifndef CODEC_COMPRESS_INTERNAL_H
#define CODEC_COMPRESS_INTERNAL_H

#include "core/buf_internal.h"
#include "core/load_internal.h"
#include "core/pool_internal.h"
#include "compose/stage_internal.h"


/* ---------------------------------------------------------------------------
 * Output of decoders whose size is unknown
 * ------------------------------------------------------------------------ */

/* Out-of-memory report of a stage. */
int codec__compress_nomem(const codec_stage *s, codec_error *err);

/* The limit error once the output from `base` is over s->max_output
 * (inline: it runs after every library call of a decoder). */
int codec__out_over(const codec_stage *s, codec_error *err);
/* The same check for `produced` bytes decoded and not kept. */
static inline int codec__out_check_count(const codec_stage *s, uint64_t produced,
                                         codec_error *err)
{
    return s->max_output && produced > s->max_output ? codec__out_over(s, err) : CODEC_OK;
}
static inline int codec__out_check(const codec_stage *s, const codec_buf *out, size_t base,
                                   codec_error *err)
{
    return codec__out_check_count(s, out->len - base, err);
}

/* Smallest first chunk of a sizeless decode; later chunks double the output. */
#define FIRST_CHUNK ((size_t)64 << 10)
/* The first chunk is this many times the compressed input: text and JSON
 * rarely expand more, so most streams decode without growing the output
 * (each growth may copy everything decoded so far). */
#define FIRST_CHUNK_RATIO 8

/* Reserves room for the next write of a decoder that started at out->len ==
 * base and sets *room to the bytes it may write at out->data + out->len.
 * The first chunk is 8 times in_len (the compressed size), at least 64 KiB;
 * later ones double the output. The room never lets the output pass
 * s->max_output by more than one byte, which codec__out_check() then reports
 * as the size limit. Inline: on every sizeless decoder's fixed path. */
static inline int codec__out_room(const codec_stage *s, codec_buf *out, size_t base,
                                  size_t in_len, size_t *room, codec_error *err)
{
    *room = 0; /* set on every path (callers read it only on success) */
    size_t produced = out->len - base;
    int rc = codec__out_check(s, out, base, err);
    if (rc)
        return rc;
    size_t limit = SIZE_MAX;
    if (s->max_output && s->max_output < SIZE_MAX)
        limit = s->max_output + 1 - produced;
    size_t first = in_len > SIZE_MAX / FIRST_CHUNK_RATIO ? SIZE_MAX : in_len * FIRST_CHUNK_RATIO;
    if (first < FIRST_CHUNK)
        first = FIRST_CHUNK;
    size_t want = produced < first ? first : produced;
    if (want > limit)
        want = limit;
    /* Never more capacity than the cap allows to be written (+1 to see it
     * passed): a bomb costs the cap, not the cap and half again. */
    size_t ceiling = limit == SIZE_MAX ? SIZE_MAX : out->len + limit;
    if (out->cap - out->len < want && codec__buf_reserve_capped(out, want, ceiling))
        return codec__compress_nomem(s, err);
    *room = out->cap - out->len < limit ? out->cap - out->len : limit;
    return CODEC_OK;
}

/* Checks a size declared by the payload (frame content size, length prefix)
 * before anything is reserved: over the cap is the limit error; more than
 * `ratio` times the compressed length `n` is impossible for the format and
 * so a corrupt payload (it would otherwise make us reserve memory for data
 * that cannot be there). */
int codec__declared_fail(const codec_stage *s, uint64_t declared, size_t n, uint64_t ratio,
                         uint64_t offset, codec_error *err);
/* Inline: on every decode's fixed path; the reports are out of line. */
static inline int codec__check_declared(const codec_stage *s, uint64_t declared, size_t n,
                                        uint64_t ratio, uint64_t offset, codec_error *err)
{
    if (declared <= SIZE_MAX && (!s->max_output || declared <= s->max_output) &&
        declared / ratio <= n)
        return CODEC_OK;
    return codec__declared_fail(s, declared, n, ratio, offset, err);
}

/* The typed public constructors: `name` with LEVEL as its argument, or
 * with none (the stage's default) for CODEC_LEVEL_DEFAULT; `extra` ("dict=F")
 * is appended when not NULL. */
codec *codec__make_leveled(const char *name, int level, const char *extra, codec_error *err);


/* Reads the Redisson prefix (a Java int, so 0..2^31-1) of src[0..n). */
int codec__redisson_length(const codec_stage *s, const uint8_t *src, size_t n, uint32_t *len,
                           codec_error *err);

/* ---------------------------------------------------------------------------
 * Deflate engine (flate.c), shared by `gzip` (RFC 1952) and `deflate`
 * (zlib framing, RFC 1950).
 * ------------------------------------------------------------------------ */

typedef enum codec_flate_wrap { CODEC_FLATE_ZLIB, CODEC_FLATE_GZIP } codec_flate_wrap;

/* Our raw deflate (RFC 1951) compressor for levels 6..9
 * (deflate_encoder.c). A context holds the match finder's tables (about
 * 0.95 MiB), kept between calls without clearing, and is reused; it is not
 * thread-safe, so it lives in a pool.
 *
 * The input is compressed in parts of CODEC_DEFLATE_PART bytes at fixed
 * offsets (the last one shorter): each part's matches reach back into the
 * CODEC_DEFLATE_WINDOW bytes before it and none crosses its end; a block
 * goes on into the next part unless its input would then be more than
 * CODEC_DEFLATE_HOLD bytes (half at levels 6..7) before the next part (it
 * is written at the part end). The one-shot does that over its whole input, a stream part by part
 * (codec__deflate_compress_part), keeping only the bytes of history the
 * next part needs (at most CODEC_DEFLATE_HOLD): the same bytes at any size
 * and for any split of the input. */
typedef struct codec_deflater codec_deflater;
#define CODEC_DEFLATER_MIN_LEVEL 6
#define CODEC_DEFLATE_PART ((size_t)128 << 10)  /* >= 64 KiB */
#define CODEC_DEFLATE_HOLD ((size_t)256 << 10)  /* >= CODEC_DEFLATE_WINDOW */
#define CODEC_DEFLATE_WINDOW ((size_t)32768)

/* A context, or NULL when out of memory. */
codec_deflater *codec__deflater_new(void);
void codec__deflater_free(codec_deflater *d);
/* Tests only: the one-shot's parts are `bytes` (> 0) long instead of
 * CODEC_DEFLATE_PART, to exercise parts and the history on small inputs. */
void codec__deflater_set_part(codec_deflater *d, uint32_t bytes);
/* Tests only: the next call's or stream's first table offset (see
 * deflate_encoder.c), to reach the rebase near 2^32 without compressing
 * 4 GiB; clears the tables (the offset may go back). */
void codec__deflater_set_offset(codec_deflater *d, uint32_t offset);
/* Largest raw deflate output for n input bytes (+ 16 bytes of slack),
 * compressed whole or in parts. */
size_t codec__deflate_bound(size_t n);
/* Compresses src[0..n) at `level` (6..9) into dst[0..cap) as one raw
 * deflate stream, in parts (above); returns its size, or 0 when cap is too
 * small (never with cap >= codec__deflate_bound(n)). Allocates nothing. */
size_t codec__deflate_compress(codec_deflater *d, int level, const uint8_t *src, size_t n,
                               uint8_t *dst, size_t cap);
/* One part of a stream: src[0..n), n <= CODEC_DEFLATE_PART, exactly that
 * unless `final` (the stream's last part; a stream of no input is one empty
 * final part); `first` for the stream's first part. Before any part but the
 * first, src[-codec__deflate_history(d)..0) must be the input just before
 * the part (the buffer may move between parts: the tables hold stream
 * positions). Writes to dst[0..cap) the part's share of the one-shot's raw
 * deflate stream, whole bytes (the bits of an unfinished byte come with
 * the next part), *written of them; false when cap is too small (never
 * with cap >= codec__deflate_bound(codec__deflate_history(d) + n)), and the
 * stream cannot go on. */
bool codec__deflate_compress_part(codec_deflater *d, int level, const uint8_t *src, size_t n,
                                  bool first, bool final, uint8_t *dst, size_t cap,
                                  size_t *written);
/* Bytes of input before the next part that it needs (the window, and the
 * pending block's for a stored block): at most CODEC_DEFLATE_HOLD. */
size_t codec__deflate_history(const codec_deflater *d);

/* RFC 1951's tables (inflate.c): base and extra bits of the length
 * symbols 257..285 and of the distance symbols, and the order of the
 * code-length code's lengths in a dynamic block header. */
extern const uint16_t codec__deflate_len_base[29];
extern const uint8_t codec__deflate_len_extra[29];
extern const uint16_t codec__deflate_dist_base[30];
extern const uint8_t codec__deflate_dist_extra[30];
extern const uint8_t codec__deflate_cl_order[19];

/* The header of a `gzip`/`deflate` stream at `level` (as the one-shot
 * writes it: zlib's FLEVEL, gzip's XFL, OS unknown); returns its length
 * (at most FLATE_HEADER_MAX). */
#define FLATE_HEADER_MAX 10
size_t codec__flate_header(codec_flate_wrap wrap, int level, uint8_t *p);
/* The trailer after `total` input bytes whose check value (adler32 for
 * zlib, from 1; crc32 for gzip, from 0) is `check`; returns its length. */
size_t codec__flate_trailer(codec_flate_wrap wrap, uint32_t check, uint64_t total, uint8_t *p);

/* A stream of a `gzip` or `deflate` stage (flate_stream.c). `deflaters`:
 * the stage's pool of our encoder's contexts when the one-shot encodes
 * with it (levels 6..9), else NULL (zlib's deflate then); `inflaters`: its
 * pool of stream decoders (codec_inflater, inflate_internal.h). */
struct codec__sstream;
int codec__flate_stream_open(const codec_stage *s, codec_flate_wrap wrap, int level,
                             codec_pool *deflaters, codec_pool *inflaters, bool decode,
                             struct codec__sstream **out, codec_error *err);

/* `snappy:framed` (snappy_framed.c): the framing format, one-shot and
 * streamed. */
int codec__snappy_framed_encode(const codec_stage *s, const uint8_t *src, size_t n,
                                codec_buf *out, codec_error *err);
int codec__snappy_framed_decode(const codec_stage *s, const uint8_t *src, size_t n,
                                codec_buf *out, codec_error *err);
int codec__snappy_framed_stream_open(const codec_stage *s, bool decode,
                                     struct codec__sstream **out, codec_error *err);

/* Fills a `gzip` or `deflate` stage: LEVEL 1..9 (default 6) and max=. */
int codec__flate_stage_init(codec_stage *s, codec_args *a, codec_flate_wrap wrap, codec_error *err);

#endif /* CODEC_COMPRESS_INTERNAL_H */
