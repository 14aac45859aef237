/* binary_internal.h — what the binary backends (CBOR, MessagePack) share:
 * float narrowing (big-endian loads and stores are core's,
 * core/load_internal.h), UTF-8 validation, and the
 * conversions between big integers / decimal text used for bignums and
 * decimal fields. */
#ifndef CODEC_BINARY_INTERNAL_H
#define CODEC_BINARY_INTERNAL_H

#include "codec/types.h"
#include "core/load_internal.h"
#include "types/value_internal.h"

#include <stdbool.h>
#include <string.h>

static inline uint32_t bin_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline float bin_bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t bin_double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static inline double bin_bits_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* Copies the C string `name` to dst while measuring it, up to `max` bytes
 * (names are short: this beats strlen + memcpy). Returns its length, or max
 * when it is at least that long (then dst holds only the first max bytes). */
static inline size_t bin_copy_name(uint8_t *dst, const char *name, size_t max)
{
    size_t n = 0;
    while (n < max && name[n]) {
        dst[n] = (uint8_t)name[n];
        n++;
    }
    return n;
}

/* Room for the "seen" bitmap of a struct: the words a caller keeps on its
 * stack cover structs of up to 256 fields. */
#define BIN_SEEN_SMALL 4

/* The zeroed "seen" bitmap (one bit per field) of a struct with `count`
 * fields: `small` (BIN_SEEN_SMALL words, zeroed here) when it is enough,
 * else words from the arena; NULL when out of memory. */
static inline uint64_t *bin_seen_bitmap(codec_arena *arena, size_t count, uint64_t *small)
{
    size_t words = (count + 63) / 64;
    uint64_t *seen = small;
    if (words > BIN_SEEN_SMALL && !(seen = codec_arena_alloc(arena, words * 8, 8)))
        return NULL;
    memset(seen, 0, (words > BIN_SEEN_SMALL ? words : BIN_SEEN_SMALL) * 8);
    return seen;
}

/* True when double d survives a round trip through float (NaN excluded). */
static inline bool bin_fits_float(double d)
{
    return (double)(float)d == d;
}

/* IEEE 754 binary16 -> double (exact). */
double codec__bin_half_to_double(uint16_t h);

/* The binary16 bits of `f` when it is exactly representable as a half
 * (infinities included, NaN excluded): true and *h set; false otherwise. */
bool codec__bin_float_to_half(float f, uint16_t *h);

/* The most bytes of a bignum the decimal conversions accept (1233 digits). */
#define BIN_BIGNUM_MAX_BYTES 512

/* Big-endian magnitude mag[0..n) as decimal text (with '-' when neg) into
 * dst, which needs n * 2.41 + 2 bytes (3 * n + 2 is enough). Returns the
 * length. n <= BIN_BIGNUM_MAX_BYTES. */
size_t codec__bin_bignum_to_text(const uint8_t *mag, size_t n, bool neg, char *dst);

/* The parts of a decimal in JSON number grammar: the digits without the
 * point as a big-endian magnitude, the sign, and the power of ten.
 * Returns 0, or -1 when the text is not a number or is too long
 * (mantissa > BIN_BIGNUM_MAX_BYTES bytes, exponent beyond +-2^62). */
typedef struct bin_decimal {
    bool neg;
    int64_t exponent;
    size_t len;                            /* bytes of mag, no leading zeros */
    uint8_t mag[BIN_BIGNUM_MAX_BYTES];
} bin_decimal;
int codec__bin_decimal_parse(const char *s, size_t n, bin_decimal *out);

/* The magnitude as a uint64 when it fits (len <= 8). */
static inline uint64_t bin_mag_u64(const uint8_t *mag, size_t len)
{
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++)
        v = v << 8 | mag[i];
    return v;
}

/* codec_copy_ascii for the encoders' text: 8 to 16 bytes (most field
 * values) are two overlapping words, no loop. */
static inline uint64_t bin_copy_text(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n - 8 <= 8) {
        uint64_t a, b;
        memcpy(&a, src, 8);
        memcpy(&b, src + n - 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + n - 8, &b, 8);
        return (a | b) & 0x8080808080808080ull;
    }
    return codec_copy_ascii(dst, src, n);
}

#endif
