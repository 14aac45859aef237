/* hex_avx2.c — base16 kernels for AVX2 (see text_internal.h).
 *
 * Encode, 32 bytes -> 64 digits: vpshufb looks the nibbles up, unpack
 * interleaves them within lanes and vperm2i128 restores the order.
 * Decode, 64 digits -> 32 bytes: range compares give each character its
 * value and validity, vpmaddubsw joins the pairs, vpackuswb + vpermq pack. */
#include "../text_internal.h"

#include <immintrin.h>

size_t codec_hex_encode_avx2(const char *digits, const uint8_t *src, size_t n, uint8_t *dst)
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

static inline __m256i in_range(__m256i c, char first, char last)
{
    return _mm256_and_si256(_mm256_cmpgt_epi8(c, _mm256_set1_epi8((char)(first - 1))),
                            _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(last + 1)), c));
}

/* 32 digits -> 16 words hi*16+lo; *valid gets one bit per digit. */
static inline __m256i decode_pairs(__m256i c, uint32_t *valid)
{
    __m256i folded = _mm256_or_si256(c, _mm256_set1_epi8(0x20));
    __m256i digit = in_range(c, '0', '9'), letter = in_range(folded, 'a', 'f');
    __m256i v = _mm256_or_si256(
        _mm256_and_si256(digit, _mm256_sub_epi8(c, _mm256_set1_epi8('0'))),
        _mm256_and_si256(letter, _mm256_sub_epi8(folded, _mm256_set1_epi8('a' - 10))));
    *valid = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(digit, letter));
    return _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x0110));
}

size_t codec_hex_decode_avx2(const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64, dst += 32) {
        uint32_t va, vb;
        __m256i a = decode_pairs(_mm256_loadu_si256((const __m256i *)(src + i)), &va);
        __m256i b = decode_pairs(_mm256_loadu_si256((const __m256i *)(src + i + 32)), &vb);
        if ((va & vb) != 0xFFFFFFFFu)
            return i;
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
        _mm256_storeu_si256((__m256i *)dst, packed);
    }
    return i;
}
