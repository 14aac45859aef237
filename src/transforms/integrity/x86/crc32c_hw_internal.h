/* crc32c_hw_internal.h — pieces shared by the x86 CRC-32C kernels (both files are
 * built with SSE4.2 and PCLMULQDQ enabled). `c` is the raw CRC register
 * (not inverted). */
#ifndef CODEC_INTEGRITY_CRC32C_HW_H
#define CODEC_INTEGRITY_CRC32C_HW_H

#include <immintrin.h>
#include <string.h>

#include "../crc32c_internal.h"

static inline uint64_t crc32c_load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* One stream through the crc32 instruction, 8 bytes at a time. */
static inline uint32_t crc32c_hw_serial(uint32_t c, const uint8_t *p, size_t n)
{
    uint64_t c64 = c;
    for (; n >= 8; p += 8, n -= 8)
        c64 = _mm_crc32_u64(c64, crc32c_load64(p));
    c = (uint32_t)c64;
    for (; n; p++, n--)
        c = _mm_crc32_u8(c, *p);
    return c;
}

/* c * x^(8L) mod P, i.e. c moved over L later bytes, given k = x^(8L-33):
 * one carry-less multiply, then the crc32 instruction does the reduction. */
static inline uint64_t crc32c_hw_mul(uint32_t c, uint32_t k)
{
    __m128i prod = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)c), _mm_cvtsi32_si128((int)k),
                                        0x00);
    return (uint64_t)_mm_cvtsi128_si64(prod);
}

#endif
