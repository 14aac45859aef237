/* crc32c_avx512.c — CRC-32C by carry-less multiplication (VPCLMULQDQ on
 * 512-bit registers).
 *
 * CRC is linear, so a 128-bit block B followed by D bits of message can be
 * replaced by B * x^D mod P placed over the 128-bit block D bits later:
 * "folding". Two carry-less multiplies per 128-bit lane do it without any
 * reduction (constants in crc32c_internal.h). Four zmm accumulators fold
 * 256 bytes per step, D = 2048 bits; they are folded into one (D = 1536,
 * 1024, 512), which then takes 64-byte steps; its four lanes are folded
 * into one (D = 384, 256, 128) and the crc32 instruction reduces the last
 * 128 bits. Inputs under 256 bytes, and the tail, go through the crc32
 * instruction directly: for those, setting up the fold costs more than it
 * saves. */
#include "crc32c_hw.h"

#define CRC32C_FOLD_MIN 256

/* Per-lane constants: `first` multiplies the lane's first 8 bytes, `second`
 * its last 8. */
static inline __m512i fold_consts(uint32_t first, uint32_t second)
{
    return _mm512_set_epi64(second, first, second, first, second, first, second, first);
}

/* x folded forward by the distance of k, XORed with y. */
static inline __m512i fold(__m512i x, __m512i k, __m512i y)
{
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
                                     _mm512_clmulepi64_epi128(x, k, 0x11), y, 0x96);
}

static inline __m512i load(const uint8_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}

/* Folds the four lanes of x into one 128-bit remainder and reduces it. */
static uint32_t reduce_lanes(__m512i x)
{
    const __m512i k = _mm512_set_epi64(0, 0, CRC32C_X95, CRC32C_X159, CRC32C_X223,
                                       CRC32C_X287, CRC32C_X351, CRC32C_X415);
    __m512i last = _mm512_maskz_mov_epi64(0xC0, x); /* lane 3 stays in place */
    __m512i t = fold(x, k, last);                   /* lanes 0..2 moved onto it */
    __m256i t256 = _mm256_xor_si256(_mm512_castsi512_si256(t), _mm512_extracti64x4_epi64(t, 1));
    __m128i r = _mm_xor_si128(_mm256_castsi256_si128(t256), _mm256_extracti128_si256(t256, 1));
    uint64_t c = _mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(r));
    return (uint32_t)_mm_crc32_u64(c, (uint64_t)_mm_extract_epi64(r, 1));
}

uint32_t crc32c_avx512(uint32_t crc, const void *buf, size_t n)
{
    const uint8_t *p = buf;
    uint32_t c = ~crc;
    if (n < CRC32C_FOLD_MIN)
        return ~crc32c_hw_serial(c, p, n);

    __m512i x0 = _mm512_xor_si512(load(p), _mm512_castsi128_si512(_mm_cvtsi32_si128((int)c)));
    __m512i x1 = load(p + 64), x2 = load(p + 128), x3 = load(p + 192);
    p += 256, n -= 256;
    const __m512i k2048 = fold_consts(CRC32C_X2079, CRC32C_X2015);
    for (; n >= 256; p += 256, n -= 256) {
        x0 = fold(x0, k2048, load(p));
        x1 = fold(x1, k2048, load(p + 64));
        x2 = fold(x2, k2048, load(p + 128));
        x3 = fold(x3, k2048, load(p + 192));
    }
    const __m512i k512 = fold_consts(CRC32C_X543, CRC32C_X479);
    x3 = fold(x2, k512, x3);
    x3 = _mm512_xor_si512(x3, fold(x1, fold_consts(CRC32C_X1055, CRC32C_X991),
                                   fold(x0, fold_consts(CRC32C_X1567, CRC32C_X1503),
                                        _mm512_setzero_si512())));
    for (; n >= 64; p += 64, n -= 64)
        x3 = fold(x3, k512, load(p));
    return ~crc32c_hw_serial(reduce_lanes(x3), p, n);
}
