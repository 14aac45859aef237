/* base32_avx2.c — base32 kernels for AVX2 (see text_internal.h).
 *
 * Encode, 20 bytes -> 32 symbols: each lane takes two 5-byte groups.
 * vpshufb makes every pair of symbols one 16-bit word holding the two bytes
 * their 10 bits span (bits 39..30 of the 40-bit group sit in bytes 0-1,
 * 29..20 in bytes 1-2, 19..10 in 2-3, 9..0 in 3-4, at shifts 6, 4, 2, 0); a
 * vpmulhuw moves the upper symbol into the low byte and a vpmullw the lower
 * symbol into the high byte. Two vpshufb over the 32-symbol alphabet, picked
 * by bit 4, give the characters.
 *
 * Decode, 32 symbols -> 20 bytes: every alphabet lives in ASCII 0x30..0x7F,
 * so five vpshufb lookups (one per high nibble 3..7) give each character's
 * value or mark it as a non-symbol; vpmaddubsw/vpmaddwd pack pairs into 10 and
 * 20 bits, shifts join the 40 bits of a group, and vpshufb gathers them. */
#include "../text_internal.h"

#include <immintrin.h>
#include <string.h>

static inline __m256i encode_indices(__m256i in)
{
    const __m256i pairs = _mm256_setr_epi8(1, 0, 2, 1, 3, 2, 4, 3, 6, 5, 7, 6, 8, 7, 9, 8,
                                           1, 0, 2, 1, 3, 2, 4, 3, 6, 5, 7, 6, 8, 7, 9, 8);
    /* per word k of each group (shift s = 6, 4, 2, 0), as 4 packed words:
     * upper symbol mask 0x1F << (s + 5), times 2^(11 - s), high half;
     * lower symbol mask 0x1F << s, times 2^(8 - s), low half */
    const __m256i mask_hi = _mm256_set1_epi64x(0x03E00F803E00F800);
    const __m256i mul_hi = _mm256_set1_epi64x(0x0800020000800020);
    const __m256i mask_lo = _mm256_set1_epi64x(0x001F007C01F007C0);
    const __m256i mul_lo = _mm256_set1_epi64x(0x0100004000100004);
    __m256i w = _mm256_shuffle_epi8(in, pairs);
    __m256i upper = _mm256_mulhi_epu16(_mm256_and_si256(w, mask_hi), mul_hi);
    __m256i lower = _mm256_mullo_epi16(_mm256_and_si256(w, mask_lo), mul_lo);
    return _mm256_or_si256(upper, lower);
}

size_t codec__b32_encode_avx2(const b32_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
{
    const __m256i first16 = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)t->alphabet));
    const __m256i last16 = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(t->alphabet + 16)));
    size_t i = 0;
    /* Each lane loads 16 bytes and uses 10: the last read is at i + 25. */
    for (; i + 26 <= n; i += 20, dst += 32) {
        __m256i in = _mm256_loadu2_m128i((const __m128i *)(src + i + 10),
                                         (const __m128i *)(src + i));
        __m256i idx = encode_indices(in);
        __m256i chars = _mm256_blendv_epi8(_mm256_shuffle_epi8(first16, idx),
                                           _mm256_shuffle_epi8(last16, idx),
                                           _mm256_slli_epi16(idx, 3));
        _mm256_storeu_si256((__m256i *)dst, chars);
    }
    return i;
}

/* Values of 32 characters, and in *bad a bit for each non-symbol. Slice h
 * holds the table entries of the characters 0xh0..0xhF as value | 0x40
 * (0x80 for a non-symbol). A character is looked up in every slice at index
 * (c ^ h0) + 0x70 with unsigned saturation: below 0x80, and so read, only in
 * the slice of its own high nibble. OR-ing the five lookups leaves 0x40 |
 * value for symbols, 0x80 for non-symbols and 0 for characters outside
 * 0x30..0x7F; XOR with 0x40 then leaves the value with bits 6 and 7 clear
 * exactly for symbols. */
static inline __m256i decode_values(__m256i c, const __m256i *slice, uint32_t *bad)
{
    const __m256i bias = _mm256_set1_epi8(0x70);
#define B32_LOOKUP(h) \
    _mm256_shuffle_epi8(slice[h], _mm256_adds_epu8( \
        _mm256_xor_si256(c, _mm256_set1_epi8((char)(((h) + 3) << 4))), bias))
    __m256i r = _mm256_or_si256(_mm256_or_si256(B32_LOOKUP(0), B32_LOOKUP(1)),
                                _mm256_or_si256(B32_LOOKUP(2), B32_LOOKUP(3)));
    r = _mm256_xor_si256(_mm256_or_si256(r, B32_LOOKUP(4)), _mm256_set1_epi8(0x40));
#undef B32_LOOKUP
    *bad = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(r, _mm256_slli_epi16(r, 1)));
    return r;
}

size_t codec__b32_decode_avx2(const b32_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
{
    __m256i slice[5];
    for (int h = 0; h < 5; h++) {
        uint8_t entries[16];
        for (int l = 0; l < 16; l++) {
            uint8_t d = t->dec128[16 * (h + 3) + l];
            entries[l] = d & 0x80 ? 0x80 : (uint8_t)(d | 0x40);
        }
        slice[h] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)entries));
    }
    /* output byte m of a group is byte 4-m of its qword */
    const __m256i gather = _mm256_setr_epi8(4, 3, 2, 1, 0, 12, 11, 10, 9, 8, -1, -1, -1, -1, -1,
                                            -1, 4, 3, 2, 1, 0, 12, 11, 10, 9, 8, -1, -1, -1, -1,
                                            -1, -1);
    size_t i = 0;
    for (; i + 32 <= n; i += 32, dst += 20) {
        uint32_t bad;
        __m256i v = decode_values(_mm256_loadu_si256((const __m256i *)(src + i)), slice, &bad);
        if (bad)
            return i;
        __m256i pairs = _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x0120));
        __m256i quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00010400));
        __m256i joined = _mm256_or_si256(
            _mm256_slli_epi64(_mm256_and_si256(quads, _mm256_set1_epi64x(0xFFFFF)), 20),
            _mm256_srli_epi64(quads, 32));
        __m256i out = _mm256_shuffle_epi8(joined, gather);
        __m128i lo = _mm256_castsi256_si128(out), hi = _mm256_extracti128_si256(out, 1);
        uint16_t tail_lo = (uint16_t)_mm_extract_epi16(lo, 4);
        uint16_t tail_hi = (uint16_t)_mm_extract_epi16(hi, 4);
        _mm_storel_epi64((__m128i *)dst, lo);
        memcpy(dst + 8, &tail_lo, 2);
        _mm_storel_epi64((__m128i *)(dst + 10), hi);
        memcpy(dst + 18, &tail_hi, 2);
    }
    return i;
}
