/* base64_avx512vbmi.c — base64 kernels for AVX-512 VBMI (see text_internal.h).
 *
 * Encode, 48 bytes -> 64 symbols: vpermb places the bytes of each 3-byte
 * group [a b c] as the dword [b a c b]; vpmultishiftqb pulls the four 6-bit
 * fields out of it; vpermb looks the fields up in the 64-symbol alphabet
 * (it only reads the low 6 bits of each index, so no mask is needed).
 *
 * Decode, 64 symbols -> 48 bytes: vpermi2b looks every character up in the
 * 128-entry table (0x80 = not a symbol; characters >= 0x80 are caught by
 * OR-ing the input into the sign test); vpmaddubsw and vpmaddwd pack four
 * 6-bit values into 24 bits per dword; vpermb gathers the 3 bytes of each
 * dword in big-endian order. */
#include "../text_internal.h"
#include "vbmi_internal.h"

#include <immintrin.h>

/* dword k of the block: bytes 3k+1, 3k, 3k+2, 3k+1. */
static __m512i encode_shuffle(void)
{
    return _mm512_setr_epi32(0x01020001, 0x04050304, 0x07080607, 0x0a0b090a, 0x0d0e0c0d,
                             0x10110f10, 0x13141213, 0x16171516, 0x191a1819, 0x1c1d1b1c,
                             0x1f201e1f, 0x22232122, 0x25262425, 0x28292728, 0x2b2c2a2b,
                             0x2e2f2d2e);
}

/* In the dword b | a<<8 | c<<16 | b<<24 the four symbols start at bits
 * 10, 4, 22 and 16 (and 32 more for the upper dword of each qword). */
#define ENCODE_SHIFTS 0x3036242a1016040aULL

static inline __m512i encode_block(__m512i in, __m512i shuffle, __m512i alphabet)
{
    return vbmi_spread_shift_lookup(in, shuffle, ENCODE_SHIFTS, alphabet);
}

size_t codec__b64_encode_avx512(const b64_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
{
    const __m512i shuffle = encode_shuffle();
    const __m512i alphabet = _mm512_loadu_si512(t->alphabet);
    size_t i = 0;
    /* Full loads while 64 readable bytes remain, masked loads for the rest. */
    for (; i + 64 <= n; i += 48, dst += 64)
        _mm512_storeu_si512(dst, encode_block(_mm512_loadu_si512(src + i), shuffle, alphabet));
    for (; i + 48 <= n; i += 48, dst += 64) {
        __m512i in = _mm512_maskz_loadu_epi8((__mmask64)0xFFFFFFFFFFFFull, src + i);
        _mm512_storeu_si512(dst, encode_block(in, shuffle, alphabet));
    }
    size_t rest = (n - i) / 3 * 3;
    if (rest) {
        __m512i in = _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)rest), src + i);
        _mm512_mask_storeu_epi8(dst, _bzhi_u64(~0ull, (unsigned)(rest / 3 * 4)),
                                encode_block(in, shuffle, alphabet));
        i += rest;
    }
    return i;
}

/* Output byte 3k+m comes from byte (2 - m) of dword k. */
static __m512i decode_gather(void)
{
    return _mm512_setr_epi32(0x06000102, 0x090a0405, 0x0c0d0e08, 0x16101112, 0x191a1415,
                             0x1c1d1e18, 0x26202122, 0x292a2425, 0x2c2d2e28, 0x36303132,
                             0x393a3435, 0x3c3d3e38, 0, 0, 0, 0);
}

/* Values of 64 symbols, or 0 with *bad set when any is not a symbol. */
static inline __m512i decode_block(__m512i in, __m512i lo, __m512i hi, __m512i gather,
                                   __mmask64 valid, __mmask64 *bad)
{
    __m512i v = vbmi_lookup128(in, lo, hi, valid, bad);
    __m512i pairs = _mm512_maddubs_epi16(v, _mm512_set1_epi32(0x01400140));
    __m512i quads = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x00011000));
    return _mm512_permutexvar_epi8(gather, quads);
}

size_t codec__b64_decode_avx512(const b64_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
{
    const __m512i lo = _mm512_loadu_si512(t->dec128);
    const __m512i hi = _mm512_loadu_si512(t->dec128 + 64);
    const __m512i gather = decode_gather();
    const __mmask64 out48 = 0xFFFFFFFFFFFFull;
    size_t i = 0;
    __mmask64 bad;
    for (; i + 64 <= n; i += 64, dst += 48) {
        __m512i out = decode_block(_mm512_loadu_si512(src + i), lo, hi, gather, ~0ull, &bad);
        if (bad)
            return i;
        _mm512_mask_storeu_epi8(dst, out48, out);
    }
    size_t rest = (n - i) / 4 * 4;
    if (rest) {
        /* Lanes past the input load as zero, which is not a symbol: only the
         * loaded lanes are tested. */
        __mmask64 in_mask = _bzhi_u64(~0ull, (unsigned)rest);
        __m512i in = _mm512_maskz_loadu_epi8(in_mask, src + i);
        __m512i out = decode_block(in, lo, hi, gather, in_mask, &bad);
        if (bad)
            return i;
        _mm512_mask_storeu_epi8(dst, _bzhi_u64(~0ull, (unsigned)(rest / 4 * 3)), out);
        i += rest;
    }
    return i;
}
