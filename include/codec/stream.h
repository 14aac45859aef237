/* codec/stream.h — streaming a codec: feed input in pieces, drain output
 * in pieces, finish. Memory stays bounded whatever the size of the input.
 *
 *   codec_error err;
 *   codec *c = codec_parse("zstd:3 | crc32c", NULL, &err);
 *   codec_stream *s = codec_stream_new(c, CODEC_STREAM_ENCODE, &err);
 *   uint8_t in[65536], out[65536];
 *   size_t n, used, got;
 *   while ((n = fread(in, 1, sizeof in, src)) > 0)
 *       for (size_t at = 0; at < n; at += used) {
 *           if (codec_stream_feed(s, in + at, n - at, &used, &err)) goto fail;
 *           do {
 *               if (codec_stream_drain(s, out, sizeof out, &got, &err)) goto fail;
 *               fwrite(out, 1, got, dst);
 *           } while (got == sizeof out);
 *       }
 *   if (codec_stream_finish(s, &err)) goto fail;
 *   while (!codec_stream_done(s)) {
 *       if (codec_stream_drain(s, out, sizeof out, &got, &err)) goto fail;
 *       fwrite(out, 1, got, dst);
 *   }
 *   codec_stream_free(s);
 *
 * Same bytes as one-shot: encoding a stream gives, for any split of the
 * input, the bytes codec_encode() gives for the whole input, and decoding
 * gives codec_decode()'s bytes, except where docs/guides/streaming.md says
 * otherwise: gzip and deflate at levels 6..9 past 1 MiB of input (parts
 * of the one-shot encoder), at levels 1..5 (zlib), brotli at quality 10,
 * and zstd with workers= (its multi-threaded frame) give bytes that differ
 * from the one-shot's but are the same for every split and decode to the
 * same input; brotli at quality 0..1 compresses each piece as it comes.
 * zstd frames carry their content size, and brotli picks the one-shot's
 * match finder, only when codec_stream_pledge() gave the size.
 *
 * Bounded memory: between stages, bytes wait in 64 KiB buffers; each stage
 * keeps its library's streaming state (a zstd window, a zlib window...).
 * Stages that cannot stream buffer their whole input up to a limit and say
 * so in docs/guides/streaming.md: raw snappy and the Redisson framings
 * (max=), envelope (max=: one AEAD message, whose plaintext is never
 * released before its tag verifies), and the encode side of a stage with
 * a size gate (gate=).
 *
 * Unverified output: a trailer (crc32c, crc32, adler32, the zstd and LZ4
 * content checksums, gzip's CRC) is checked when the stream ends. Output
 * drained before codec_stream_done() returns true has NOT been verified; a
 * caller that must not act on corrupt data keeps it aside (a temporary
 * file) until the stream is done, as the `codec` command does.
 *
 * Decode limits: a streamed decode needs no memory for its output, so it
 * is held to a stage's max= only when the spec gives max= explicitly
 * ("zstd:max=1g"); the 64 MiB default applies to one-shot decodes only.
 * codec_stream_limit() caps the total output, against decompression bombs.
 *
 * Threads: a codec_stream belongs to one thread at a time; any number of
 * streams may share one codec (which must outlive them).
 *
 * Errors: the first failure is sticky: every later call returns the same
 * status and fills `err` with the same report. `err->offset` is the offset
 * in the failing stage's input stream.
 *
 * Since 0.2.
 */
#ifndef CODEC_STREAM_H
#define CODEC_STREAM_H

#include "compose.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The opaque stream handle. */
typedef struct codec_stream codec_stream;

/** Which way a stream runs. */
typedef enum codec_stream_mode {
    CODEC_STREAM_ENCODE = 0,  /* the transforms left to right */
    CODEC_STREAM_DECODE = 1   /* their inverses right to left */
} codec_stream_mode;

/** codec_stream_new() — a stream over the transforms of `c`.
 * @param c     read only, not copied: it must outlive the stream. A bytes
 *              pipeline streams both ways. A typed codec (a backend and at
 *              least one transform) streams its decode, whose value
 *              codec_stream_value() gives at the end; its encode is
 *              codec_stream_new_value() (CODEC_STREAM_ENCODE here is
 *              CODEC_E_USAGE, as is a lone backend).
 * @param err   may be NULL; filled on failure.
 * @return a new stream (free with codec_stream_free()), or NULL with
 *         CODEC_E_USAGE or CODEC_E_NOMEM in `err`.
 * Threads: safe (c is only read). Since 0.2. */
CODEC_API codec_stream *codec_stream_new(const codec *c, codec_stream_mode mode,
                                         codec_error *err);

/** codec_stream_new_value() — an encode stream of the value `value` of a
 * typed codec: the backend encodes it at once (into memory the stream
 * owns), and the transforms stream its bytes out through
 * codec_stream_drain(). The stream is already finished: do not feed it.
 * @param value  the C value `c` was built for; read only, not kept.
 * @return a stream or NULL with `err` filled (the backend's errors, or
 *         CODEC_E_USAGE when c has no backend). Since 0.2. */
CODEC_API codec_stream *codec_stream_new_value(const codec *c, const void *value,
                                               codec_error *err);

/** codec_stream_pledge() — tells an encode stream its exact input size,
 * before the first feed. zstd then writes the content size in its frame
 * and brotli takes it as its size hint (as their one-shot encodes do); the
 * other stages ignore it. Feeding a
 * different number of bytes is an error at finish (zstd's "Src size is
 * incorrect"). @return 0 or CODEC_E_USAGE after the first feed. Since 0.2. */
CODEC_API CODEC_NODISCARD int codec_stream_pledge(codec_stream *s, uint64_t size, codec_error *err);

/** codec_stream_limit() — caps the total bytes a stream may produce (0:
 * no cap, the default). Past it, the stream fails with
 * CODEC_E_INVALID_PAYLOAD / CODEC_D_LIMIT. Since 0.2. */
CODEC_API void codec_stream_limit(codec_stream *s, uint64_t max_output);

/** codec_stream_feed() — gives the stream in[0..n). It takes what its
 * buffers have room for and sets *used; when *used < n, drain output and
 * feed the rest again. in is not kept past the call.
 * @return 0, or the status of a failing stage (see codec_decode() and
 *         codec_encode() for the families); CODEC_E_USAGE after finish. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_stream_feed(codec_stream *s, const uint8_t *in, size_t n,
                                                size_t *used, codec_error *err);

/** codec_stream_update() — feed and drain in one call: gives the stream
 * in[0..n) as codec_stream_feed() does and, as codec_stream_drain() does,
 * up to `cap` bytes of output in `out`. The last stage writes its output
 * straight into `out` where it can, where a feed followed by a drain copies
 * it through the stream's buffer: the faster loop for fast stages (base64,
 * hex, lz4). Sets *used (input taken) and *got (output written); call again
 * with the rest of the input while *used < n or *got == cap. in is not kept
 * past the call. After codec_stream_finish(), drain the rest with
 * codec_stream_drain(). Not for a typed decode stream (CODEC_E_USAGE).
 * @return 0, or a status as codec_stream_feed() and codec_stream_drain().
 * Since 0.2. */
CODEC_API CODEC_NODISCARD int codec_stream_update(codec_stream *s, const uint8_t *in, size_t n,
                                                  size_t *used, uint8_t *out, size_t cap,
                                                  size_t *got, codec_error *err);

/** codec_stream_finish() — no more input. Then drain until
 * codec_stream_done(). Truncated input and checksum mismatches are
 * reported here or by the drains that follow. @return 0 or a status. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_stream_finish(codec_stream *s, codec_error *err);

/** codec_stream_drain() — copies up to `cap` bytes of output to `out` and
 * sets *got (0 when nothing is ready: feed more or finish). Output drained
 * before codec_stream_done() is unverified (see above).
 * @return 0 or a status. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_stream_drain(codec_stream *s, uint8_t *out, size_t cap,
                                                 size_t *got, codec_error *err);

/** codec_stream_done() — true once the stream is finished, every stage has
 * ended (and verified its trailer) and all output has been drained. Since 0.1. */
CODEC_API bool codec_stream_done(const codec_stream *s);

/** codec_stream_value() — for a decode stream of a typed codec: after
 * codec_stream_done(), decodes the backend's bytes (which the stream kept,
 * up to the backend's max-size) into `value_out`, with everything it points
 * at in `arena` (as codec_decode()). Nothing is drained from such a
 * stream. @return 0 or the backend's status. Since 0.2. */
CODEC_API CODEC_NODISCARD int codec_stream_value(codec_stream *s, void *value_out,
                                                 codec_arena *arena, codec_error *err);

/** codec_stream_total_in() / codec_stream_total_out() — bytes fed and
 * drained so far (for progress reports). Since 0.1. */
CODEC_API uint64_t codec_stream_total_in(const codec_stream *s);
CODEC_API uint64_t codec_stream_total_out(const codec_stream *s);

/** codec_stream_free() — releases a stream (finished or not). NULL is
 * allowed. Since 0.1. */
CODEC_API void codec_stream_free(codec_stream *s);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_STREAM_H */
