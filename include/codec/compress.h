/* codec/compress.h — typed constructors for the compression transforms.
 *
 * Each function builds the same codec as its pipeline spec (shown with it)
 * with default options; use codec_parse() for the rest (`max=SIZE`, the
 * decode cap, and `gate=SIZE`, the size gate: docs/formats/size-gate.md).
 * Every format, argument and limit is described in
 * docs/formats/compression.md.
 *
 *   codec_error err;
 *   codec *z = codec_zstd(3, &err);             // same as codec_parse("zstd:3", ...)
 *   codec *c = codec_then(codec_parse("json", type, &err), z, &err);
 *
 * Common to every constructor here:
 *   - @param err may be NULL; filled on failure.
 *   - @return a new codec (free with codec_free()), or NULL with
 *     CODEC_E_USAGE (level out of range) or CODEC_E_NOMEM.
 *   - Levels: pass CODEC_LEVEL_DEFAULT for the stage's default level.
 *   - Threads: the codec is immutable and may be shared by any number of
 *     threads. Each call borrows a compression context from a small
 *     lock-free pool inside the codec (16 kept), so a steady-state encode
 *     makes no allocation through codec's allocator and creates no context.
 *   - Encode: appends one complete frame/stream to the output buffer; the
 *     output never depends on earlier calls. CODEC_E_INVALID_VALUE when the
 *     input is too large for the format (LZ4 block 2^31-1 - overhead,
 *     snappy 2^32-1, Redisson framings 2^31-1).
 *   - Decode: CODEC_E_INVALID_PAYLOAD for corrupt, truncated or trailing
 *     bytes (detail CODEC_D_CORRUPT, _TRUNCATED, _CHECKSUM, _BAD_MAGIC,
 *     _TRAILING; offset in the stage's input where known) and for output
 *     over the cap (CODEC_D_LIMIT; 64 MiB unless `max=` says otherwise).
 *     A size declared by the payload (zstd content size, gzip ISIZE, snappy
 *     length, Redisson prefix, LZ4 content size) is checked against the cap
 *     before any memory is reserved; streams without one are decoded in
 *     growing chunks and stop as soon as the output passes the cap.
 * Since: 0.1
 */
#ifndef CODEC_COMPRESS_H
#define CODEC_COMPRESS_H

#include "compose.h"

#include <limits.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Asks a leveled constructor for the stage's default level. */
#define CODEC_LEVEL_DEFAULT INT_MIN

/** codec_gzip() — "gzip:LEVEL": one RFC 1952 member (`gzip -d` reads it).
 * @param level 1..9 (default 6). Levels 1..5 compress with libdeflate at
 *        a mapped level, 6..9 with codec's own deflate encoder; each level
 *        aims at output no larger than zlib's at the same level
 *        (docs/formats/compression.md lists the engines, the measured
 *        sizes and the known exceptions). Decode accepts members back to
 *        back, as `gzip -d` does. Since 0.1. */
CODEC_API codec *codec_gzip(int level, codec_error *err);

/** codec_deflate() — "deflate:LEVEL": a zlib stream (RFC 1950), the JDK
 * Deflater's format. @param level 1..9 (default 6), engines as codec_gzip(). Since 0.1. */
CODEC_API codec *codec_deflate(int level, codec_error *err);

/** codec_zstd() — "zstd:LEVEL": one zstd frame with its content size and
 * no checksum (what zstd-jni's Zstd.compress writes; `zstd -d` reads it).
 * @param level 1..22 or the fast levels -7..-1 (default 3). Decode takes
 *        frames back to back and frames without a content size. Since 0.1. */
CODEC_API codec *codec_zstd(int level, codec_error *err);

/** codec_zstd_dict() — "zstd:LEVEL,dict=PATH": as codec_zstd() with a
 * dictionary read from `dict_path` when the codec is built (not kept
 * open). A dictionary made by `zstd --train` puts its id in every frame;
 * decoding a frame made with another dictionary fails (CODEC_D_CORRUPT).
 * The path may not contain ',' or '|' (spec syntax) and is at most 255
 * characters (compose's limit on one argument).
 * @return NULL with CODEC_E_TRANSIENT / CODEC_D_IO when the file cannot be
 *         read, CODEC_E_USAGE when it is empty or over 64 MiB. Since 0.1. */
CODEC_API codec *codec_zstd_dict(int level, const char *dict_path, codec_error *err);

/** codec_lz4() — "lz4": the LZ4 frame format, 64 KiB independent blocks,
 * xxHash32 content checksum, no content size (the Java codec library's
 * frame; `lz4 -d` reads it). Since 0.1. */
CODEC_API codec *codec_lz4(codec_error *err);

/** codec_lz4hc() — "lz4hc:LEVEL": the same frame compressed by LZ4 HC.
 * @param level 3..12 (default 9). Since 0.1. */
CODEC_API codec *codec_lz4hc(int level, codec_error *err);

/** codec_snappy() — "snappy": raw snappy (varint length + elements), as
 * Redisson's SnappyCodecV2 writes it. Input up to 2^32-1 bytes. Since 0.1. */
CODEC_API codec *codec_snappy(codec_error *err);

/** codec_brotli() — "brotli:QUALITY": a raw brotli stream, window 22.
 * @param quality 0..11 (default 11, brotli's own default). Brotli 1.0
 *        cannot reuse encoder state, so each encode allocates inside
 *        libbrotli (not through codec's allocator). Since 0.1. */
CODEC_API codec *codec_brotli(int quality, codec_error *err);

/** codec_redisson_lz4() — "redisson-lz4": Redisson's LZ4CodecV2 framing,
 * int32 big-endian uncompressed length + one raw LZ4 block. Since 0.1. */
CODEC_API codec *codec_redisson_lz4(codec_error *err);

/** codec_redisson_zstd() — "redisson-zstd:LEVEL": Redisson's ZStdCodec
 * framing, int32 big-endian uncompressed length + a zstd frame.
 * @param level as codec_zstd(). Since 0.1. */
CODEC_API codec *codec_redisson_zstd(int level, codec_error *err);

/** codec_redisson_snappy() — "redisson-snappy": Redisson's SnappyCodecV2,
 * which is raw snappy with no extra header (identical to codec_snappy()). Since 0.1. */
CODEC_API codec *codec_redisson_snappy(codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_COMPRESS_H */
