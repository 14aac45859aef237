/* crc32c_hw_internal.h — pieces shared by the x86 CRC-32C kernels (both files are
 * built with SSE4.2 and PCLMULQDQ enabled). `c` is the raw CRC register
 * (not inverted). */
#ifndef CODEC_INTEGRITY_CRC32C_HW_H
#define CODEC_INTEGRITY_CRC32C_HW_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../crc32c_internal.h"

static inline uint64_t crc32c_load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The fused copy kernels (codec__crc32c_copy_*) run the same code as the
 * checksum-only ones with `copy` true: every word the CRC reads is also
 * stored `delta` bytes further on (delta = dst - src, as an integer, so
 * the two buffers need no relation). The functions are always inlined with
 * a constant `copy`, so the checksum-only kernels carry no store or test. */
#define CRC32C_INLINE static inline __attribute__((always_inline))

static inline uint8_t *crc32c_dst(const uint8_t *p, uintptr_t delta)
{
    return (uint8_t *)((uintptr_t)p + delta);
}

static inline void crc32c_store64(const uint8_t *p, uintptr_t delta, uint64_t v)
{
    memcpy(crc32c_dst(p, delta), &v, sizeof v);
}

/* One stream through the crc32 instruction, 8 bytes at a time (copying
 * them when `copy`). */
CRC32C_INLINE uint32_t crc32c_hw_stream(uint32_t c, const uint8_t *p, size_t n, uintptr_t delta,
                                        bool copy)
{
    uint64_t c64 = c;
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t v = crc32c_load64(p);
        if (copy)
            crc32c_store64(p, delta, v);
        c64 = _mm_crc32_u64(c64, v);
    }
    c = (uint32_t)c64;
    for (; n; p++, n--) {
        if (copy)
            *crc32c_dst(p, delta) = *p;
        c = _mm_crc32_u8(c, *p);
    }
    return c;
}

/* One stream through the crc32 instruction, checksum only. */
static inline uint32_t crc32c_hw_serial(uint32_t c, const uint8_t *p, size_t n)
{
    return crc32c_hw_stream(c, p, n, 0, false);
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
