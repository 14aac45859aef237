/* string_avx2.c — the JSON string-body scanner, 32 bytes at a time: finds
 * the first '"', '\\' or control byte while checking that the UTF-8 before
 * it is valid (the lookup of utf8_lookup_internal.h); and the same scan that
 * also copies the body as it goes (one pass for the decoders' strings).
 * Compiled with -mavx2 (file suffix); used only when the CPU has all of
 * them (CODEC_CPU_FOR_AVX2). */
#include "formats/json/json_internal.h"
#include "formats/json/x86/utf8_lookup_internal.h"

#include <immintrin.h>
#include <stdbool.h>

/* A 16-entry byte table in both 128-bit lanes, for _mm256_shuffle_epi8. */
static inline __m256i table16(const uint8_t t[16])
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)t));
}

static inline __m256i high_nibbles(__m256i x)
{
    return _mm256_and_si256(_mm256_srli_epi16(x, 4), _mm256_set1_epi8(0x0F));
}

/* The bytes of `in` shifted by n positions, the first n taken from the end
 * of `before`. */
#define PREVIOUS(in, before, n) \
    _mm256_alignr_epi8((in), _mm256_permute2x128_si256((before), (in), 0x21), 16 - (n))

static inline __m256i utf8_errors(__m256i in, __m256i before)
{
    __m256i prev1 = PREVIOUS(in, before, 1);
    __m256i special = _mm256_and_si256(
        _mm256_and_si256(_mm256_shuffle_epi8(table16(utf8_byte_1_high), high_nibbles(prev1)),
                         _mm256_shuffle_epi8(table16(utf8_byte_1_low),
                                             _mm256_and_si256(prev1, _mm256_set1_epi8(0x0F)))),
        _mm256_shuffle_epi8(table16(utf8_byte_2_high), high_nibbles(in)));
    /* Third and fourth bytes of a sequence must be continuations. */
    __m256i prev2 = PREVIOUS(in, before, 2), prev3 = PREVIOUS(in, before, 3);
    __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80)));
    __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
    __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(must23, special);
}

/* Non-zero where a sequence that starts in the last three bytes of `in`
 * is not finished within it. */
static inline __m256i unfinished(__m256i in)
{
    const __m256i max = _mm256_setr_epi8(
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        (char)(0xF0 - 1), (char)(0xE0 - 1), (char)(0xC0 - 1));
    return _mm256_subs_epu8(in, max);
}

/* The scanner of both kernels; with `copy`, each 32-byte block is also
 * stored to dst as it is classified (the compiler drops what the scan alone
 * does not use). */
static inline __attribute__((always_inline)) const uint8_t *
scan_blocks(const uint8_t *p, const uint8_t *end, uint8_t *dst, const uint8_t *dst_end, bool copy)
{
    const __m256i quote = _mm256_set1_epi8('"'), bslash = _mm256_set1_epi8('\\');
    const __m256i control_max = _mm256_set1_epi8(0x1F);
    __m256i before = _mm256_setzero_si256(), pending = _mm256_setzero_si256();
    __m256i errors = _mm256_setzero_si256();
    const uint8_t *start = p;
    while (end - p >= 32 && (!copy || dst_end - dst >= 32)) {
        __m256i in = _mm256_loadu_si256((const __m256i *)p);
        if (copy)
            _mm256_storeu_si256((__m256i *)dst, in);
        __m256i stop = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(in, quote), _mm256_cmpeq_epi8(in, bslash)),
            _mm256_cmpeq_epi8(_mm256_min_epu8(in, control_max), in));
        if (_mm256_movemask_epi8(in) == 0) {
            errors = _mm256_or_si256(errors, pending);
            pending = _mm256_setzero_si256();
        } else {
            errors = _mm256_or_si256(errors, utf8_errors(in, before));
            pending = unfinished(in);
        }
        /* Bytes after the stop belong to the document too, and a valid
         * document is valid UTF-8 throughout: checking them is harmless. */
        unsigned m = (unsigned)_mm256_movemask_epi8(stop);
        if (m)
            return _mm256_testz_si256(errors, errors) ? p + __builtin_ctz(m) : NULL;
        before = in;
        p += 32;
        if (copy)
            dst += 32;
    }
    if (!_mm256_testz_si256(errors, errors))
        return NULL;
    /* Back to the start of a sequence the last block left unfinished; the
     * caller checks it whole. */
    if (p > start) {
        if (p[-1] >= 0xC0)
            p -= 1;
        else if (p[-2] >= 0xE0)
            p -= 2;
        else if (p[-3] >= 0xF0)
            p -= 3;
    }
    return p;
}

const uint8_t *codec__json_scan_string_avx2(const uint8_t *p, const uint8_t *end)
{
    return scan_blocks(p, end, NULL, NULL, false);
}

const uint8_t *codec__json_copy_string_avx2(const uint8_t *p, const uint8_t *end, uint8_t *dst,
                                            const uint8_t *dst_end)
{
    return scan_blocks(p, end, dst, dst_end, true);
}
