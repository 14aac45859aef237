/* base64_avx2.c — base64 kernels for AVX2 (see text_internal.h).
 *
 * Encode, 24 bytes -> 32 symbols: each 128-bit lane gets 12 bytes, vpshufb
 * lays every group [a b c] out as the dword [b a c b], a mulhi/mullo pair
 * moves the four 6-bit fields into the four bytes, and the fields become
 * symbols by adding a per-range offset chosen with vpshufb (A-Z, a-z, 0-9,
 * then the alphabet's two last symbols, so both alphabets share the code).
 *
 * Decode, 32 symbols -> 24 bytes: range compares give each character its
 * offset and its validity; vpmaddubsw/vpmaddwd pack 4 values into 24 bits,
 * vpshufb and vpermd gather the 24 bytes. */
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

size_t codec_b64_encode_avx2(const b64_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
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

/* Symbol values of 32 characters; *valid gets one bit per symbol. */
static inline __m256i decode_values(__m256i c, __m256i sym62, __m256i sym63, __m256i off62,
                                    __m256i off63, uint32_t *valid)
{
    __m256i upper = _mm256_and_si256(_mm256_cmpgt_epi8(c, _mm256_set1_epi8('A' - 1)),
                                     _mm256_cmpgt_epi8(_mm256_set1_epi8('Z' + 1), c));
    __m256i lower = _mm256_and_si256(_mm256_cmpgt_epi8(c, _mm256_set1_epi8('a' - 1)),
                                     _mm256_cmpgt_epi8(_mm256_set1_epi8('z' + 1), c));
    __m256i digit = _mm256_and_si256(_mm256_cmpgt_epi8(c, _mm256_set1_epi8('0' - 1)),
                                     _mm256_cmpgt_epi8(_mm256_set1_epi8('9' + 1), c));
    __m256i is62 = _mm256_cmpeq_epi8(c, sym62);
    __m256i is63 = _mm256_cmpeq_epi8(c, sym63);
    __m256i off = _mm256_or_si256(
        _mm256_or_si256(_mm256_and_si256(upper, _mm256_set1_epi8(-'A')),
                        _mm256_and_si256(lower, _mm256_set1_epi8(26 - 'a'))),
        _mm256_or_si256(_mm256_and_si256(digit, _mm256_set1_epi8(52 - '0')),
                        _mm256_or_si256(_mm256_and_si256(is62, off62),
                                        _mm256_and_si256(is63, off63))));
    __m256i ok = _mm256_or_si256(_mm256_or_si256(upper, lower),
                                 _mm256_or_si256(digit, _mm256_or_si256(is62, is63)));
    *valid = (uint32_t)_mm256_movemask_epi8(ok);
    return _mm256_add_epi8(c, off);
}

size_t codec_b64_decode_avx2(const b64_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
{
    const uint8_t c62 = (uint8_t)t->alphabet[62], c63 = (uint8_t)t->alphabet[63];
    const __m256i sym62 = _mm256_set1_epi8((char)c62), sym63 = _mm256_set1_epi8((char)c63);
    const __m256i off62 = _mm256_set1_epi8((char)(62 - c62));
    const __m256i off63 = _mm256_set1_epi8((char)(63 - c63));
    /* byte 3k+m of each lane's 12 comes from byte 2-m of dword k */
    const __m256i gather = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1,
                                            -1, 2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1,
                                            -1, -1);
    const __m256i pack = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    size_t i = 0;
    for (; i + 32 <= n; i += 32, dst += 24) {
        uint32_t valid;
        __m256i v = decode_values(_mm256_loadu_si256((const __m256i *)(src + i)), sym62, sym63,
                                  off62, off63, &valid);
        if (valid != 0xFFFFFFFFu)
            return i;
        __m256i pairs = _mm256_maddubs_epi16(v, _mm256_set1_epi32(0x01400140));
        __m256i quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
        __m256i out = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(quads, gather), pack);
        _mm_storeu_si128((__m128i *)dst, _mm256_castsi256_si128(out));
        _mm_storel_epi64((__m128i *)(dst + 16), _mm256_extracti128_si256(out, 1));
    }
    return i;
}
