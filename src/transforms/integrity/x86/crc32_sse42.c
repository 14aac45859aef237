/* crc32_sse42.c — zlib's CRC-32 by carry-less multiplication (PCLMULQDQ on
 * 128-bit registers): four accumulators fold 64 bytes per step, then one
 * folds 16 at a time (crc32_internal.h has the constants and the method,
 * which is CRC-32C's in crc32c_avx512vpclmul.c on narrower registers). */
#include <immintrin.h>

#include "../crc32_internal.h"

/* x folded forward by the distance of k, XORed with y. */
static inline __m128i fold(__m128i x, __m128i k, __m128i y)
{
    return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
                                       _mm_clmulepi64_si128(x, k, 0x11)),
                         y);
}

static inline __m128i load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

void codec__crc32_fold_sse42(uint32_t c, const uint8_t *p, size_t n, uint8_t out[16])
{
    const __m128i k512 = _mm_set_epi64x(CRC32_X479, CRC32_X543);
    const __m128i k128 = _mm_set_epi64x(CRC32_X95, CRC32_X159);
    __m128i x = _mm_xor_si128(load(p), _mm_cvtsi32_si128((int)c));
    p += 16, n -= 16;
    if (n >= 112) { /* four accumulators while two 64-byte steps remain */
        __m128i x1 = load(p), x2 = load(p + 16), x3 = load(p + 32);
        p += 48, n -= 48;
        for (; n >= 64; p += 64, n -= 64) {
            x = fold(x, k512, load(p));
            x1 = fold(x1, k512, load(p + 16));
            x2 = fold(x2, k512, load(p + 32));
            x3 = fold(x3, k512, load(p + 48));
        }
        x = fold(fold(fold(x, k128, x1), k128, x2), k128, x3);
    }
    for (; n; p += 16, n -= 16)
        x = fold(x, k128, load(p));
    _mm_storeu_si128((__m128i *)(void *)out, x);
}
