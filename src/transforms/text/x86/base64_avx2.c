/* base64_avx2.c — base64 kernels for AVX2 (see text_internal.h).
 *
 * Encode, 24 bytes -> 32 symbols: each 128-bit lane gets 12 bytes, vpshufb
 * lays every group [a b c] out as the dword [b a c b], a mulhi/mullo pair
 * moves the four 6-bit fields into the four bytes, and the fields become
 * symbols by adding a per-range offset chosen with vpshufb (A-Z, a-z, 0-9,
 * then the alphabet's two last symbols, so both alphabets share the code).
 *
 * Decode, 32 symbols -> 24 bytes: two vpshufb nibble lookups tell symbols
 * from the rest (see b64_tables), a third gives the offset from character
 * to value, with the alphabet's symbols 62 and 63 patched in by compare;
 * vpmaddubsw/vpmaddwd pack 4 values into 24 bits, vpshufb and vpermd gather
 * the 24 bytes. */
#include "../text_internal.h"

#include <immintrin.h>

static inline __m256i encode_fields(__m256i in)
{
    const __m256i shuf = _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,
                                          1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
    __m256i g = _mm256_shuffle_epi8(in, shuf);
    /* bits 10..15 -> byte 0, 22..27 -> byte 2 (mulhi); 4..9 -> byte 1, 16..21 -> byte 3 (mullo) */
    __m256i hi = _mm256_mulhi_epu16(_mm256_and_si256(g, _mm256_set1_epi32(0x0fc0fc00)),
                                    _mm256_set1_epi32(0x04000040));
    __m256i lo = _mm256_mullo_epi16(_mm256_and_si256(g, _mm256_set1_epi32(0x003f03f0)),
                                    _mm256_set1_epi32(0x01000010));
    return _mm256_or_si256(hi, lo);
}

/* offsets[k]: what to add to a field whose class is k (see encode_symbols). */
static inline __m256i encode_symbols(__m256i fields, __m256i offsets)
{
    /* class = 0 for 26..51, 1..12 for 52..63, 13 for 0..25 */
    __m256i cls = _mm256_subs_epu8(fields, _mm256_set1_epi8(51));
    __m256i low = _mm256_cmpgt_epi8(_mm256_set1_epi8(26), fields);
    cls = _mm256_or_si256(cls, _mm256_and_si256(low, _mm256_set1_epi8(13)));
    return _mm256_add_epi8(fields, _mm256_shuffle_epi8(offsets, cls));
}

size_t codec__b64_encode_avx2(const b64_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
{
    int8_t off[16];
    off[0] = 'a' - 26;
    for (int k = 1; k <= 10; k++)
        off[k] = '0' - 52;
    off[11] = (int8_t)(t->alphabet[62] - 62);
    off[12] = (int8_t)(t->alphabet[63] - 63);
    off[13] = 'A';
    off[14] = off[15] = 0;
    const __m256i offsets = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)off));
    size_t i = 0;
    /* Each lane loads 16 bytes and uses 12: the last read is at i + 27. */
    for (; i + 28 <= n; i += 24, dst += 32) {
        __m256i in = _mm256_loadu2_m128i((const __m128i *)(src + i + 12),
                                         (const __m128i *)(src + i));
        _mm256_storeu_si256((__m256i *)dst, encode_symbols(encode_fields(in), offsets));
    }
    return i;
}

/* Symbol values of 32 characters; *bad gets one bit per non-symbol. */
static inline __m256i decode_values(__m256i c, const __m256i *lut, uint32_t *bad)
{
    const __m256i low4 = _mm256_set1_epi8(15);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi32(c, 4), low4);
    __m256i lo = _mm256_and_si256(c, low4);
    __m256i classes = _mm256_and_si256(_mm256_shuffle_epi8(lut[0], hi),
                                       _mm256_shuffle_epi8(lut[1], lo));
    *bad = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(classes, _mm256_setzero_si256()));
    __m256i off = _mm256_shuffle_epi8(lut[2], hi);
    off = _mm256_blendv_epi8(off, lut[4], _mm256_cmpeq_epi8(c, lut[3]));
    off = _mm256_blendv_epi8(off, lut[6], _mm256_cmpeq_epi8(c, lut[5]));
    return _mm256_add_epi8(c, off);
}

static inline __m256i pack24(__m256i v)
{
    /* byte 3k+m of each lane's 12 comes from byte 2-m of dword k */
    const __m256i gather = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1,
                                            -1, 2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1,
                                            -1, -1);
    __m256i pairs = _mm256_maddubs_epi16(v, _mm256_set1_epi32(0x01400140));
    __m256i quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
    return _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(quads, gather),
                                       _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
}

static inline __m256i broadcast16(const void *p)
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
}

size_t codec__b64_decode_avx2(const b64_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
{
    const uint8_t c62 = (uint8_t)t->alphabet[62], c63 = (uint8_t)t->alphabet[63];
    const __m256i lut[7] = {
        broadcast16(t->class_hi), broadcast16(t->class_lo), broadcast16(t->offset),
        _mm256_set1_epi8((char)c62), _mm256_set1_epi8((char)(62 - c62)),
        _mm256_set1_epi8((char)c63), _mm256_set1_epi8((char)(63 - c63))};
    size_t i = 0;
    /* 64 characters per round, one test for both halves */
    for (; i + 64 <= n; i += 64, dst += 48) {
        uint32_t bad_a, bad_b;
        __m256i a = decode_values(_mm256_loadu_si256((const __m256i *)(src + i)), lut, &bad_a);
        __m256i b = decode_values(_mm256_loadu_si256((const __m256i *)(src + i + 32)), lut,
                                  &bad_b);
        if (bad_a | bad_b)
            break;
        _mm256_storeu_si256((__m256i *)dst, pack24(a));
        __m256i pb = pack24(b);
        _mm_storeu_si128((__m128i *)(dst + 24), _mm256_castsi256_si128(pb));
        _mm_storel_epi64((__m128i *)(dst + 40), _mm256_extracti128_si256(pb, 1));
    }
    for (; i + 32 <= n; i += 32, dst += 24) {
        uint32_t bad;
        __m256i out = pack24(decode_values(_mm256_loadu_si256((const __m256i *)(src + i)), lut,
                                           &bad));
        if (bad)
            return i;
        _mm_storeu_si128((__m128i *)dst, _mm256_castsi256_si128(out));
        _mm_storel_epi64((__m128i *)(dst + 16), _mm256_extracti128_si256(out, 1));
    }
    return i;
}
