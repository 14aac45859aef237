/* vbmi_internal.h — the two AVX-512 VBMI steps the text kernels share.
 * Include only from *_avx512vbmi.c files (they are built with the VBMI flags). */
#ifndef CODEC_TEXT_VBMI_INTERNAL_H
#define CODEC_TEXT_VBMI_INTERNAL_H

#include <immintrin.h>
#include <stdint.h>

/** Encode step: vpermb places the input bytes (`spread`), vpmultishiftqb
 * takes an 8-bit field at each byte's offset in `shifts` from its qword,
 * and vpermb maps the low 6 bits of each field through `alphabet`. */
static inline __m512i vbmi_spread_shift_lookup(__m512i in, __m512i spread, uint64_t shifts,
                                               __m512i alphabet)
{
    __m512i placed = _mm512_permutexvar_epi8(spread, in);
    __m512i fields = _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)shifts), placed);
    return _mm512_permutexvar_epi8(fields, alphabet);
}

/** Decode step: the 128-entry table lo:hi (0x80 marks a non-symbol) looked
 * up with vpermi2b; characters >= 0x80 are non-symbols too. Sets in *bad
 * the lanes of `valid` that hold a non-symbol. */
static inline __m512i vbmi_lookup128(__m512i in, __m512i lo, __m512i hi, __mmask64 valid,
                                     __mmask64 *bad)
{
    __m512i v = _mm512_permutex2var_epi8(lo, in, hi);
    *bad = _mm512_mask_test_epi8_mask(valid, _mm512_or_si512(v, in),
                                      _mm512_set1_epi8((char)0x80));
    return v;
}

#endif
