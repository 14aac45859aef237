/* base32_avx512vbmi.c — base32 kernels for AVX-512 VBMI (see text_internal.h).
 *
 * Encode, 40 bytes -> 64 symbols: vpermb puts each 5-byte group into a
 * qword as a 40-bit big-endian number (bytes 4..0, then filler);
 * vpmultishiftqb pulls out the eight 5-bit fields (each with one filler bit
 * on top), and vpermb looks them up in the alphabet written twice, so that
 * bit does not matter.
 *
 * Decode, 64 symbols -> 40 bytes: vpermi2b maps characters through the
 * 128-entry table (0x80 = not a symbol; aliases such as crockford's I and O
 * are in the table), vpmaddubsw and vpmaddwd pack pairs into 10 and 20
 * bits, a shift joins the two 20-bit halves of each qword, and vpermb picks
 * the 5 bytes of every qword in big-endian order. */
#include "../text_internal.h"
#include "vbmi_internal.h"

#include <immintrin.h>
#include <string.h>

/* Symbol k of a group sits at bits 35 - 5k of the 40-bit number. */
#define ENCODE_SHIFTS 0x00050a0f14191e23ULL

static inline __m512i encode_block(__m512i in, __m512i spread, __m512i alphabet)
{
    return vbmi_spread_shift_lookup(in, spread, ENCODE_SHIFTS, alphabet);
}

size_t codec__b32_encode_avx512(const b32_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
{
    const __m512i spread = _mm512_setr_epi64(
        0x0000000001020304, 0x0505050506070809, 0x0a0a0a0a0b0c0d0e, 0x0f0f0f0f10111213,
        0x1414141415161718, 0x191919191a1b1c1d, 0x1e1e1e1e1f202122, 0x2323232324252627);
    char twice[64];
    memcpy(twice, t->alphabet, 32);
    memcpy(twice + 32, t->alphabet, 32);
    const __m512i alphabet = _mm512_loadu_si512(twice);
    size_t i = 0;
    for (; i + 64 <= n; i += 40, dst += 64)
        _mm512_storeu_si512(dst, encode_block(_mm512_loadu_si512(src + i), spread, alphabet));
    for (; i + 5 <= n; i += 40, dst += 64) {
        size_t len = (n - i) / 5 * 5;
        if (len > 40)
            len = 40;
        __m512i in = _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)len), src + i);
        _mm512_mask_storeu_epi8(dst, _bzhi_u64(~0ull, (unsigned)(len / 5 * 8)),
                                encode_block(in, spread, alphabet));
        if (len < 40)
            return i + len;
    }
    return i;
}

static inline __m512i decode_block(__m512i in, __m512i lo, __m512i hi, __m512i gather,
                                   __mmask64 valid, __mmask64 *bad)
{
    __m512i v = vbmi_lookup128(in, lo, hi, valid, bad);
    __m512i pairs = _mm512_maddubs_epi16(v, _mm512_set1_epi16(0x0120));
    __m512i quads = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x00010400));
    __m512i joined = _mm512_or_si512(
        _mm512_slli_epi64(_mm512_and_si512(quads, _mm512_set1_epi64(0xFFFFF)), 20),
        _mm512_srli_epi64(quads, 32));
    return _mm512_permutexvar_epi8(gather, joined);
}

size_t codec__b32_decode_avx512(const b32_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
{
    const __m512i lo = _mm512_loadu_si512(t->dec128);
    const __m512i hi = _mm512_loadu_si512(t->dec128 + 64);
    /* Output byte 5j+m is byte 4-m of qword j. */
    const __m512i gather = _mm512_setr_epi64(0x0a0b0c0001020304, 0x1c10111213140809,
                                             0x2122232418191a1b, 0x333428292a2b2c20,
                                             0x38393a3b3c303132, 0, 0, 0);
    const __mmask64 out40 = 0xFFFFFFFFFFull;
    size_t i = 0;
    __mmask64 bad;
    for (; i + 64 <= n; i += 64, dst += 40) {
        __m512i out = decode_block(_mm512_loadu_si512(src + i), lo, hi, gather, ~0ull, &bad);
        if (bad)
            return i;
        _mm512_mask_storeu_epi8(dst, out40, out);
    }
    size_t rest = (n - i) / 8 * 8;
    if (rest) {
        /* Lanes past the input load as zero: only the loaded lanes are tested. */
        __mmask64 in_mask = _bzhi_u64(~0ull, (unsigned)rest);
        __m512i out = decode_block(_mm512_maskz_loadu_epi8(in_mask, src + i), lo, hi, gather,
                                   in_mask, &bad);
        if (bad)
            return i;
        _mm512_mask_storeu_epi8(dst, _bzhi_u64(~0ull, (unsigned)(rest / 8 * 5)), out);
        i += rest;
    }
    return i;
}
