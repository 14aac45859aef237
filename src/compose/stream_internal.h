/* stream_internal.h — how a stage streams (see include/codec/stream.h).
 *
 * A stage that can stream sets codec_stage_ops.stream_open, which makes a
 * `codec__sstream`: one direction of the stage over one stream of bytes.
 * The pipeline (stream.c) moves bytes through the stages' sstreams with
 * fixed-size buffers between them, so memory stays bounded whatever the
 * input size.
 *
 * Two adapters cover most stages:
 *   - push (codec__push_*): the stage turns each piece of input into output
 *     appended to a pending buffer, drained before the next piece is taken.
 *     Pieces are at most CODEC__STREAM_PIECE bytes, so a stage whose output
 *     is a bounded multiple of its input stays bounded.
 *   - block (codec__block_open): the stage's one-shot encode or decode runs
 *     on aligned chunks (whole base64 groups, whole lines), in place: from
 *     the input it is given into the output it is given, no copy between;
 *     used by the text encodings, whose one-shot code is the only
 *     implementation.
 *   - whole (codec__whole_open): everything is buffered up to a limit and
 *     the one-shot function runs at the end. For formats that cannot
 *     stream (raw snappy, one AEAD message, the size gate's encode).
 */
#ifndef CODEC_STREAM_INTERNAL_H
#define CODEC_STREAM_INTERNAL_H

#include "codec/stream.h"
#include "stage_internal.h"

#include <string.h>

/* The largest piece handed to a push stage, and the size of the buffers
 * between stages. */
#define CODEC__STREAM_PIECE ((size_t)64 << 10)

/* One step's buffers: read src[src_pos..src_len), write dst[dst_pos..dst_cap). */
typedef struct codec__io {
    const uint8_t *src;
    size_t src_len, src_pos;
    uint8_t *dst;
    size_t dst_cap, dst_pos;
} codec__io;

typedef struct codec__sstream codec__sstream;

typedef struct codec__sstream_ops {
    /* Moves as many bytes as it can from io->src to io->dst. `end` says no
     * input follows io->src. Sets *done once the last byte is written.
     * Must progress (consume, produce or finish) when it has input or
     * `end`, and io->dst has room. Error offsets: st->consumed + the offset
     * in io->src. */
    int (*step)(codec__sstream *st, codec__io *io, bool end, bool *done, codec_error *err);
    /* Optional: the exact input size, given before the first byte. */
    void (*pledge)(codec__sstream *st, uint64_t size);
    void (*free)(codec__sstream *st);
} codec__sstream_ops;

struct codec__sstream {
    const codec__sstream_ops *ops;
    const codec_stage *stage;
    bool decode;
    uint64_t consumed;   /* input bytes taken by earlier steps (kept by stream.c) */
};

/* Copies what it can of pending[*pos..len) to io->dst; once all of it has
 * gone, empties pending and returns true. */
static inline bool codec__io_flush(codec__io *io, codec_buf *pending, size_t *pos)
{
    size_t left = pending->len - *pos, room = io->dst_cap - io->dst_pos;
    size_t k = left < room ? left : room;
    if (k)
        memcpy(io->dst + io->dst_pos, pending->data + *pos, k);
    io->dst_pos += k;
    *pos += k;
    if (*pos < pending->len)
        return false;
    pending->len = *pos = 0;
    return true;
}

/* Opens the stage's sstream in the given direction, falling back to the
 * whole adapter for stages that have no stream_open. */
int codec__sstream_open(const codec_stage *s, bool decode, codec__sstream **out,
                        codec_error *err);

/* ---- push adapter ---------------------------------------------------- */

typedef struct codec__push codec__push;

typedef struct codec__push_ops {
    /* Appends the output of src[0..n) (at most CODEC__STREAM_PIECE bytes,
     * starting at input offset `at`) to out. */
    int (*feed)(codec__push *p, const uint8_t *src, size_t n, uint64_t at, codec_buf *out,
                codec_error *err);
    /* The input ended at offset `at`: appends the rest of the output. */
    int (*finish)(codec__push *p, uint64_t at, codec_buf *out, codec_error *err);
    void (*free)(codec__push *p);   /* may be NULL */
    void (*pledge)(codec__push *p, uint64_t size); /* may be NULL */
} codec__push_ops;

struct codec__push {
    codec__sstream base;
    const codec__push_ops *pops;
    codec_buf pending;
    size_t pending_pos;
    bool finished;
};

/* Allocates a zeroed push stream of `size` bytes (a struct that starts
 * with codec__push) for stage s. NULL when out of memory. */
codec__push *codec__push_new(size_t size, const codec__push_ops *ops, const codec_stage *s,
                             bool decode);

/* Encoders that work in fixed blocks (the LZ4 frame, snappy chunks): the
 * next whole block of cap bytes to encode. That is src itself when no bytes
 * are held and a whole block is there (no copy); otherwise what fits of
 * src[0..*n) is copied into block[*fill..cap), and block is returned once
 * full (the caller sets *fill to 0 after encoding it). Advances src and n.
 * @return the block, or NULL when the input ran out first. */
static inline const uint8_t *codec__block_next(uint8_t *block, size_t cap, size_t *fill,
                                               const uint8_t **src, size_t *n)
{
    if (*fill == 0 && *n >= cap) {
        const uint8_t *whole = *src;
        *src += cap;
        *n -= cap;
        return whole;
    }
    size_t k = cap - *fill < *n ? cap - *fill : *n;
    memcpy(block + *fill, *src, k);
    *fill += k;
    *src += k;
    *n -= k;
    return *fill == cap ? block : NULL;
}

/* ---- block adapter --------------------------------------------------- */

typedef struct codec__block_cfg {
    size_t block;            /* chunks are multiples of this many input bytes */
    size_t hold;             /* input kept back until the end (decode: a group) */
    const char *separator;   /* written between chunk outputs (NULL: none) */
    bool strip_newlines;     /* drop CR and LF from the input first */
    bool padding_last;       /* '=' may only appear in the last chunk */
    size_t out_block;        /* most output bytes of one block (separator included) */
} codec__block_cfg;

/* A stream that runs s's one-shot encode (or decode) on chunks as `cfg`
 * says, reading the caller's input where it is and writing straight into
 * the stream's buffer (chunks sized by out_block; output past it waits in
 * the heap). */
int codec__block_open(const codec_stage *s, bool decode, const codec__block_cfg *cfg,
                      codec__sstream **out, codec_error *err);

/* ---- whole adapter --------------------------------------------------- */

/* Buffers up to `limit` bytes of input (0: no limit), then runs s's
 * one-shot function at the end. Over the limit is CODEC_E_INVALID_PAYLOAD
 * (decode) or CODEC_E_INVALID_VALUE (encode) with CODEC_D_LIMIT. */
int codec__whole_open(const codec_stage *s, bool decode, size_t limit, codec__sstream **out,
                      codec_error *err);

/* Out-of-memory report for a stage. */
int codec__stream_nomem(const codec_stage *s, codec_error *err);

#endif /* CODEC_STREAM_INTERNAL_H */
