/* codec/text.h — text encodings of bytes: base64, base32, hex (RFC 4648).
 *
 * Each constructor returns a one-stage bytes codec, the same as the spec
 * named beside each variant (codec_parse("base64:url", ...)); chain it after
 * other codecs with codec_then() or write it into a spec. Encoding cannot
 * fail except for memory. Decoding is strict and reports the byte offset of
 * the first offending character: see docs/formats/text.md for every rule.
 *
 * Kernels: each stage runs on the fastest kernel this CPU supports (AVX-512
 * VBMI, AVX2, or scalar), picked once when the codec is built. A spec can
 * force one with `kernel=auto|scalar|avx2|avx512`; every kernel produces the
 * same bytes and the same errors. */
#ifndef CODEC_TEXT_H
#define CODEC_TEXT_H

#include "compose.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The base64 variants (RFC 4648 §4 and §5). */
typedef enum codec_base64_variant {
    CODEC_BASE64_STD = 0,        /* "base64": A-Z a-z 0-9 + /, '=' padding */
    CODEC_BASE64_URL = 1,        /* "base64:url": A-Z a-z 0-9 - _, '=' padding */
    CODEC_BASE64_URL_NOPAD = 2,  /* "base64:url-nopad": URL alphabet, no padding */
    CODEC_BASE64_MIME = 3        /* "base64:mime": standard, 76-character lines joined by
                                    CRLF; decoding skips CR and LF (nothing else) */
} codec_base64_variant;

/** The base32 presets (the table in docs/formats/text.md). */
typedef enum codec_base32_variant {
    CODEC_BASE32_STD = 0,        /* "base32": RFC 4648 §6, upper case, '=' padding */
    CODEC_BASE32_HEX = 1,        /* "base32:hex": RFC 4648 §7, sorts like the bytes */
    CODEC_BASE32_CROCKFORD = 2,  /* "base32:crockford": no padding, any case, I/L=1, O=0 */
    CODEC_BASE32_Z = 3,          /* "base32:z": z-base-32, no padding, lower case */
    CODEC_BASE32_GEOHASH = 4     /* "base32:geohash": no padding, lower case */
} codec_base32_variant;

/** The case of the hex digits the encoder writes (decoding takes both). */
typedef enum codec_hex_case {
    CODEC_HEX_LOWER = 0,         /* "hex" */
    CODEC_HEX_UPPER = 1          /* "hex:upper" */
} codec_hex_case;

/** codec_base64() — a base64 codec of variant `v`.
 * @param v    one of codec_base64_variant.
 * @param err  may be NULL; filled on failure.
 * @return a codec to free with codec_free(), or NULL: CODEC_E_USAGE for an
 *         unknown variant, CODEC_E_NOMEM.
 * Decode errors (CODEC_E_INVALID_PAYLOAD, offset of the first bad character):
 *   a character outside the alphabet (CODEC_D_CORRUPT), misplaced padding or
 *   data after it (CODEC_D_CORRUPT), nonzero bits in the last symbol
 *   (CODEC_D_CORRUPT), a padded length not a multiple of 4 or an incomplete
 *   last quantum (CODEC_D_TRUNCATED, offset = input length).
 * Threads: the codec is immutable; share it freely.
 * Allocates: the codec (about 9 KiB of tables); encoding allocates only to
 *   grow `out`. Since: 0.1 */
CODEC_API codec *codec_base64(codec_base64_variant v, codec_error *err);

/** codec_base32() — a base32 codec of preset `v`.
 * @return a codec to free with codec_free(), or NULL (CODEC_E_USAGE for an
 *         unknown preset, CODEC_E_NOMEM).
 * Decode errors (CODEC_E_INVALID_PAYLOAD): a symbol outside the alphabet, a
 *   pad count other than 1, 3, 4 or 6, padding before the end, nonzero
 *   trailing bits (all CODEC_D_CORRUPT at the offending character); a padded
 *   length not a multiple of 8, or an unpadded length that no input can
 *   produce (CODEC_D_TRUNCATED at the input length).
 * Threads: immutable; share it freely. Since: 0.1 */
CODEC_API codec *codec_base32(codec_base32_variant v, codec_error *err);

/** codec_hex() — a base16 codec writing digits in case `c`.
 * @return a codec to free with codec_free(), or NULL (CODEC_E_USAGE for an
 *         unknown case, CODEC_E_NOMEM).
 * Decode errors (CODEC_E_INVALID_PAYLOAD): a non-digit (CODEC_D_CORRUPT at
 *   its offset), an odd number of digits (CODEC_D_TRUNCATED at the length).
 * Threads: immutable; share it freely. Since: 0.1 */
CODEC_API codec *codec_hex(codec_hex_case c, codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_TEXT_H */
