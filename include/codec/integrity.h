/* codec/integrity.h — checksums and checksum trailers.
 *
 * Layer `transforms/integrity`. Three stages append a 4-byte checksum of
 * their input, big-endian, and check it on decode:
 *
 *   crc32c   CRC-32C (Castagnoli, iSCSI / RFC 3720), hardware accelerated
 *   crc32    zlib's CRC-32 (ISO-HDLC, the gzip/PNG/zip one)
 *   adler32  zlib's Adler-32
 *
 * Layout: [payload][checksum(payload) as 4 bytes big-endian]
 * (docs/formats/integrity.md). Decode needs at least 4 bytes, recomputes
 * and compares; a mismatch is CODEC_E_INVALID_PAYLOAD with detail
 * CODEC_D_CHECKSUM, the message "checksum mismatch" and the offset of the
 * trailer. A trailer detects accidental corruption only; it is not a MAC.
 *
 * The raw checksum functions are exposed too. All three chain the way
 * zlib's do: pass the result of the previous call to continue a running
 * checksum, so
 *     codec_crc32c(codec_crc32c(0, a, na), b, nb) == crc32c of a||b,
 * and start from 0 (CRC-32C, CRC-32) or 1 (Adler-32). Each returns the
 * finished checksum (pre- and post-inversion are handled inside).
 * They never allocate, accept p == NULL when n == 0, and are thread-safe.
 */
#ifndef CODEC_INTEGRITY_H
#define CODEC_INTEGRITY_H

#include "compose.h"

#ifdef __cplusplus
extern "C" {
#endif

/** codec_crc32c() — CRC-32C (reflected polynomial 0x82F63B78) of p[0..n),
 * continuing from `crc` (0 to start). crc32c("123456789") = 0xE3069283.
 * Uses the fastest kernel this CPU supports (see codec_crc32c_trailer()),
 * chosen once per process (docs/formats/integrity.md has its speed).
 * Threads: safe. Allocates: nothing. Since: 0.1 */
CODEC_API uint32_t codec_crc32c(uint32_t crc, const void *p, size_t n);

/** codec_crc32() — zlib's CRC-32 of p[0..n), continuing from `crc` (0 to
 * start); identical to zlib's crc32(). Computed by libdeflate (zlib in a
 * build without it), loaded on the first call; where it cannot be loaded,
 * by a slower kernel of codec's own, with the same value.
 * Threads: safe. Since: 0.1 */
CODEC_API uint32_t codec_crc32(uint32_t crc, const void *p, size_t n);

/** codec_adler32() — zlib's Adler-32 of p[0..n), continuing from `adler`
 * (1 to start); identical to zlib's adler32(). Computed as codec_crc32()
 * is. Threads: safe. Since: 0.1 */
CODEC_API uint32_t codec_adler32(uint32_t adler, const void *p, size_t n);

/** codec_crc32c_trailer() — a one-stage bytes codec, the spec stage
 * `crc32c[:kernel=K]`.
 * @param kernel  NULL or "auto" (the fastest this CPU supports), or force
 *                "scalar" (portable table kernel, the reference), "sse42"
 *                (crc32 instruction, 3 interleaved streams) or "avx512"
 *                (VPCLMULQDQ folding on 512-bit lanes).
 * @return a codec (free with codec_free()) or NULL with CODEC_E_USAGE when
 *         the kernel is unknown or this CPU lacks it, or CODEC_E_NOMEM.
 * Chain it behind other codecs with codec_then(). Encode appends n + 4
 * bytes and allocates nothing once `out` has room; decode appends the
 * payload. Threads: the codec may be shared. Since: 0.1 */
CODEC_API codec *codec_crc32c_trailer(const char *kernel, codec_error *err);

/** codec_crc32_trailer() — the spec stage `crc32` (zlib CRC-32 trailer).
 * @return a codec or NULL (CODEC_E_NOMEM). Since: 0.1 */
CODEC_API codec *codec_crc32_trailer(codec_error *err);

/** codec_adler32_trailer() — the spec stage `adler32` (Adler-32 trailer).
 * @return a codec or NULL (CODEC_E_NOMEM). Since: 0.1 */
CODEC_API codec *codec_adler32_trailer(codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_INTEGRITY_H */
