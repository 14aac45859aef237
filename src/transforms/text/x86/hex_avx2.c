/* hex_avx2.c — base16 kernels for AVX2 (see text_internal.h).
 *
 * Encode, 32 bytes -> 64 digits: vpshufb looks the nibbles up, unpack
 * interleaves them within lanes and vperm2i128 restores the order.
 * Decode, 64 digits -> 32 bytes: two vpshufb nibble-class lookups tell
 * digits from the rest, a third gives the value, vpmaddubsw joins the
 * pairs, vpackuswb + vpermq pack. */
#include "../text_internal.h"

#include <immintrin.h>

size_t codec__hex_encode_avx2(const char *digits, const uint8_t *src, size_t n, uint8_t *dst)
{
    const __m256i table = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)digits));
    const __m256i low4 = _mm256_set1_epi8(15);
    size_t i = 0;
    for (; i + 32 <= n; i += 32, dst += 64) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(src + i));
        __m256i h = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(x, 4), low4));
        __m256i l = _mm256_shuffle_epi8(table, _mm256_and_si256(x, low4));
        __m256i a = _mm256_unpacklo_epi8(h, l), b = _mm256_unpackhi_epi8(h, l);
        _mm256_storeu_si256((__m256i *)dst, _mm256_permute2x128_si256(a, b, 0x20));
        _mm256_storeu_si256((__m256i *)(dst + 32), _mm256_permute2x128_si256(a, b, 0x31));
    }
    return i;
}

/* 32 digits -> 16 words hi*16+lo; *bad gets one bit per non-digit. A digit
 * is '0'-'9' (high nibble 3, low 0..9) or a letter 'A'-'F' / 'a'-'f' (high
 * nibble 4 or 6, low 1..6): the two nibble lookups share a class bit only
 * for those, and the value is the low nibble plus 0 or 9. */
static inline __m256i decode_pairs(__m256i c, uint32_t *bad)
{
    const __m256i class_hi = _mm256_setr_epi8(0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                              0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i class_lo = _mm256_setr_epi8(1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0,
                                              1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0);
    const __m256i offset = _mm256_setr_epi8(0, 0, 0, 0, 9, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                            0, 0, 0, 0, 9, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i low4 = _mm256_set1_epi8(15);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(c, 4), low4);
    __m256i lo = _mm256_and_si256(c, low4);
    __m256i classes = _mm256_and_si256(_mm256_shuffle_epi8(class_hi, hi),
                                       _mm256_shuffle_epi8(class_lo, lo));
    *bad = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(classes, _mm256_setzero_si256()));
    __m256i v = _mm256_add_epi8(lo, _mm256_shuffle_epi8(offset, hi));
    return _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x0110));
}

size_t codec__hex_decode_avx2(const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64, dst += 32) {
        uint32_t bad_a, bad_b;
        __m256i a = decode_pairs(_mm256_loadu_si256((const __m256i *)(src + i)), &bad_a);
        __m256i b = decode_pairs(_mm256_loadu_si256((const __m256i *)(src + i + 32)), &bad_b);
        if (bad_a | bad_b)
            return i;
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
        _mm256_storeu_si256((__m256i *)dst, packed);
    }
    return i;
}
