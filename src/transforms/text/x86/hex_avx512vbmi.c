/* hex_avx512vbmi.c — base16 kernels for AVX-512 VBMI (see text_internal.h).
 *
 * Encode, 64 bytes -> 128 digits: the nibbles are looked up with vpshufb in
 * the 16-digit table and interleaved high/low with two vpermt2b.
 * Decode, 128 digits -> 64 bytes: vpermi2b maps every character through a
 * 128-entry table (0x80 = not a digit), vpmaddubsw joins each pair into a
 * 16-bit word, and one vpermt2b keeps the low byte of all 64 words. */
#include "../text_internal.h"
#include "vbmi_internal.h"

#include <immintrin.h>

static inline void encode_block(__m512i in, __m512i digits, __m512i first, __m512i second,
                                __m512i *out0, __m512i *out1)
{
    __m512i hi = _mm512_and_si512(_mm512_srli_epi16(in, 4), _mm512_set1_epi8(15));
    __m512i lo = _mm512_and_si512(in, _mm512_set1_epi8(15));
    __m512i h = _mm512_shuffle_epi8(digits, hi), l = _mm512_shuffle_epi8(digits, lo);
    *out0 = _mm512_permutex2var_epi8(h, first, l);
    *out1 = _mm512_permutex2var_epi8(h, second, l);
}

/* Interleave indices: digit 2j is h[base+j], digit 2j+1 is l[base+j]. */
static __m512i interleave(int base)
{
    uint8_t idx[64];
    for (int j = 0; j < 32; j++) {
        idx[2 * j] = (uint8_t)(base + j);
        idx[2 * j + 1] = (uint8_t)(64 + base + j);
    }
    return _mm512_loadu_si512(idx);
}

size_t codec__hex_encode_avx512(const char *digits, const uint8_t *src, size_t n, uint8_t *dst)
{
    const __m512i table = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)digits));
    const __m512i first = interleave(0), second = interleave(32);
    __m512i a, b;
    size_t i = 0;
    for (; i + 64 <= n; i += 64, dst += 128) {
        encode_block(_mm512_loadu_si512(src + i), table, first, second, &a, &b);
        _mm512_storeu_si512(dst, a);
        _mm512_storeu_si512(dst + 64, b);
    }
    size_t rest = n - i;
    if (rest) {
        encode_block(_mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)rest), src + i), table,
                     first, second, &a, &b);
        size_t chars = 2 * rest;
        _mm512_mask_storeu_epi8(dst, _bzhi_u64(~0ull, (unsigned)(chars < 64 ? chars : 64)), a);
        if (chars > 64)
            _mm512_mask_storeu_epi8(dst + 64, _bzhi_u64(~0ull, (unsigned)(chars - 64)), b);
    }
    return n;
}

/* Digit values of the 128-entry ASCII table, 0x80 elsewhere. */
static void nibble_table(__m512i *lo, __m512i *hi)
{
    uint8_t t[128];
    for (int c = 0; c < 128; c++)
        t[c] = c >= '0' && c <= '9'   ? (uint8_t)(c - '0')
               : c >= 'a' && c <= 'f' ? (uint8_t)(c - 'a' + 10)
               : c >= 'A' && c <= 'F' ? (uint8_t)(c - 'A' + 10)
                                      : 0x80;
    *lo = _mm512_loadu_si512(t);
    *hi = _mm512_loadu_si512(t + 64);
}

/* 64 digits -> 32 words hi*16+lo; *bad flags non-digits among `valid`. */
static inline __m512i decode_pairs(__m512i c, __m512i lo, __m512i hi, __mmask64 valid,
                                   __mmask64 *bad)
{
    __mmask64 here;
    __m512i v = vbmi_lookup128(c, lo, hi, valid, &here);
    *bad |= here;
    return _mm512_maddubs_epi16(v, _mm512_set1_epi16(0x0110));
}

size_t codec__hex_decode_avx512(const uint8_t *src, size_t n, uint8_t *dst)
{
    __m512i lo, hi;
    nibble_table(&lo, &hi);
    uint8_t idx[64];
    for (int j = 0; j < 64; j++)
        idx[j] = (uint8_t)(2 * j); /* the low byte of word j of a, then of b */
    const __m512i evens = _mm512_loadu_si512(idx);
    size_t i = 0;
    for (; i + 128 <= n; i += 128, dst += 64) {
        __mmask64 bad = 0;
        __m512i a = decode_pairs(_mm512_loadu_si512(src + i), lo, hi, ~0ull, &bad);
        __m512i b = decode_pairs(_mm512_loadu_si512(src + i + 64), lo, hi, ~0ull, &bad);
        if (bad)
            return i;
        _mm512_storeu_si512(dst, _mm512_permutex2var_epi8(a, evens, b));
    }
    size_t rest = (n - i) & ~(size_t)1;
    if (rest) {
        __mmask64 ma = _bzhi_u64(~0ull, (unsigned)(rest < 64 ? rest : 64));
        __mmask64 mb = rest > 64 ? _bzhi_u64(~0ull, (unsigned)(rest - 64)) : 0;
        __mmask64 bad = 0;
        __m512i a = decode_pairs(_mm512_maskz_loadu_epi8(ma, src + i), lo, hi, ma, &bad);
        __m512i b = decode_pairs(_mm512_maskz_loadu_epi8(mb, src + i + 64), lo, hi, mb, &bad);
        if (bad)
            return i;
        _mm512_mask_storeu_epi8(dst, _bzhi_u64(~0ull, (unsigned)(rest / 2)),
                                _mm512_permutex2var_epi8(a, evens, b));
        i += rest;
    }
    return i;
}
