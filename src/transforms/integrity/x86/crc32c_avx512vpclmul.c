/* crc32c_avx512vpclmul.c — CRC-32C by carry-less multiplication (VPCLMULQDQ on
 * 512-bit registers), with the crc32 instruction working alongside.
 *
 * CRC is linear, so a 128-bit block B followed by D bits of message can be
 * replaced by B * x^D mod P placed over the 128-bit block D bits later:
 * "folding". Two carry-less multiplies per 128-bit lane do it without any
 * reduction (constants in crc32c_internal.h). Four zmm accumulators fold
 * 256 bytes per step, D = 2048 bits.
 *
 * Long inputs are cut into hybrid chunks: while the vector unit folds 2304
 * bytes, the crc32 instruction (other execution ports) runs three streams
 * over the 960 bytes after them. The streams are merged into one CRC, which
 * is XORed into the first bytes of the next block (a CRC carried forward is
 * just the message's next 32 bits flipped), and the accumulators jump over
 * the 960 bytes (D = 2048 + 7680 bits). That is faster than folding alone
 * (docs/formats/integrity.md has the figures).
 *
 * At the end the four accumulators are folded into one (D = 1536, 1024,
 * 512), which takes 64-byte steps; its four lanes are folded into one
 * (D = 384, 256, 128) and the crc32 instruction reduces the last 128 bits.
 * Inputs under 256 bytes, and the tail, go through the crc32 instruction
 * directly: for those, setting up the fold costs more than it saves.
 *
 * codec__crc32c_copy_avx512 is the same kernel copying as it reads: every
 * 64-byte block it folds is stored to the destination from the register
 * it was loaded into, and the crc32 streams' bytes are copied 32 at a
 * time beside them, so the copy costs stores only (no second read). */
#include "crc32c_hw_internal.h"

#define FOLD_MIN 256
#define HYBRID_FOLD (9 * 256)  /* folded per chunk, after its first block */
#define HYBRID_STREAM 320      /* bytes per crc32 stream, 3 streams per chunk */
#define HYBRID_REST (HYBRID_FOLD + 3 * HYBRID_STREAM)

/* Per-lane constants: `first` multiplies the lane's first 8 bytes, `second`
 * its last 8. */
static inline __m512i fold_consts(uint32_t first, uint32_t second)
{
    return _mm512_set_epi64(second, first, second, first, second, first, second, first);
}

/* x folded forward by the distance of k, XORed with y. */
static inline __m512i fold(__m512i x, __m512i k, __m512i y)
{
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
                                     _mm512_clmulepi64_epi128(x, k, 0x11), y, 0x96);
}

/* The 64 bytes at p; with `copy` also stored `delta` bytes on. */
CRC32C_INLINE __m512i load(const uint8_t *p, uintptr_t delta, bool copy)
{
    __m512i v = _mm512_loadu_si512((const void *)p);
    if (copy)
        _mm512_storeu_si512((void *)crc32c_dst(p, delta), v);
    return v;
}

/* A CRC register placed over the first 4 bytes of a block. */
static inline __m512i carried(uint32_t c)
{
    return _mm512_castsi128_si512(_mm_cvtsi32_si128((int)c));
}

/* The four accumulators folded over the 256 bytes at p; `c` is XORed into
 * the first 4 of them. */
CRC32C_INLINE void fold4(__m512i x[4], __m512i k, const uint8_t *p, uint32_t c, uintptr_t delta,
                         bool copy)
{
    x[0] = fold(x[0], k, _mm512_xor_si512(load(p, delta, copy), carried(c)));
    x[1] = fold(x[1], k, load(p + 64, delta, copy));
    x[2] = fold(x[2], k, load(p + 128, delta, copy));
    x[3] = fold(x[3], k, load(p + 192, delta, copy));
}

/* 32 bytes of each of the three streams at b, b + 320, b + 640. With
 * `copy`, every other step copies 64 bytes of each stream (a stream is
 * 320 bytes: five such copies). */
CRC32C_INLINE void streams_step(uint64_t s[3], const uint8_t *b, uintptr_t delta, bool copy,
                                bool copy_now)
{
    if (copy && copy_now)
        for (int j = 0; j < 3; j++)
            load(b + j * HYBRID_STREAM, delta, true);
    for (int q = 0; q < 32; q += 8) {
        s[0] = _mm_crc32_u64(s[0], crc32c_load64(b + q));
        s[1] = _mm_crc32_u64(s[1], crc32c_load64(b + HYBRID_STREAM + q));
        s[2] = _mm_crc32_u64(s[2], crc32c_load64(b + 2 * HYBRID_STREAM + q));
    }
}

/* One hybrid chunk at p (HYBRID_REST bytes); returns the CRC of its stream
 * part, to be carried into the next block. */
CRC32C_INLINE uint32_t hybrid_chunk(__m512i x[4], __m512i k2048, const uint8_t *p,
                                    uintptr_t delta, bool copy)
{
    const uint8_t *b = p + HYBRID_FOLD;
    uint64_t s[3] = {0, 0, 0};
    int step = 0;
    for (int j = 0; j < HYBRID_FOLD / 256; j++, p += 256, b += 32, step++) {
        fold4(x, k2048, p, 0, delta, copy);
        streams_step(s, b, delta, copy, step % 2 == 0);
    }
    for (; b < p + HYBRID_STREAM; b += 32, step++)
        streams_step(s, b, delta, copy, step % 2 == 0);
    uint64_t moved = crc32c_hw_mul((uint32_t)s[0], CRC32C_X5087) ^
                     crc32c_hw_mul((uint32_t)s[1], CRC32C_X2527);
    return (uint32_t)_mm_crc32_u64(0, moved) ^ (uint32_t)s[2];
}

/* Folds the four lanes of x into one 128-bit remainder and reduces it. */
static uint32_t reduce_lanes(__m512i x)
{
    const __m512i k = _mm512_set_epi64(0, 0, CRC32C_X95, CRC32C_X159, CRC32C_X223,
                                       CRC32C_X287, CRC32C_X351, CRC32C_X415);
    __m512i last = _mm512_maskz_mov_epi64(0xC0, x); /* lane 3 stays in place */
    __m512i t = fold(x, k, last);                   /* lanes 0..2 moved onto it */
    __m256i t256 = _mm256_xor_si256(_mm512_castsi512_si256(t), _mm512_extracti64x4_epi64(t, 1));
    __m128i r = _mm_xor_si128(_mm256_castsi256_si128(t256), _mm256_extracti128_si256(t256, 1));
    uint64_t c = _mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(r));
    return (uint32_t)_mm_crc32_u64(c, (uint64_t)_mm_extract_epi64(r, 1));
}

CRC32C_INLINE uint32_t crc32c_avx512_body(uint32_t crc, const uint8_t *p, size_t n,
                                          uintptr_t delta, bool copy)
{
    uint32_t c = ~crc;
    if (n < FOLD_MIN)
        return ~crc32c_hw_stream(c, p, n, delta, copy);

    __m512i x[4] = {_mm512_xor_si512(load(p, delta, copy), carried(c)), load(p + 64, delta, copy),
                    load(p + 128, delta, copy), load(p + 192, delta, copy)};
    p += 256, n -= 256;
    const __m512i k2048 = fold_consts(CRC32C_X2079, CRC32C_X2015);
    const __m512i kjump = fold_consts(CRC32C_X9759, CRC32C_X9695);
    for (; n >= HYBRID_REST + 256; p += HYBRID_REST + 256, n -= HYBRID_REST + 256)
        fold4(x, kjump, p + HYBRID_REST, hybrid_chunk(x, k2048, p, delta, copy), delta, copy);
    for (; n >= 256; p += 256, n -= 256)
        fold4(x, k2048, p, 0, delta, copy);

    const __m512i k512 = fold_consts(CRC32C_X543, CRC32C_X479);
    __m512i one = fold(x[2], k512, x[3]);
    one = _mm512_xor_si512(one, fold(x[1], fold_consts(CRC32C_X1055, CRC32C_X991),
                                     fold(x[0], fold_consts(CRC32C_X1567, CRC32C_X1503),
                                          _mm512_setzero_si512())));
    for (; n >= 64; p += 64, n -= 64)
        one = fold(one, k512, load(p, delta, copy));
    return ~crc32c_hw_stream(reduce_lanes(one), p, n, delta, copy);
}

uint32_t codec__crc32c_avx512(uint32_t crc, const void *buf, size_t n)
{
    return crc32c_avx512_body(crc, buf, n, 0, false);
}

/* The copy first takes the bytes up to dst's next 64-byte boundary through
 * the crc32 instruction, so every 512-bit store after them is aligned (a
 * store across two cache lines costs two). */
uint32_t codec__crc32c_copy_avx512(uint32_t crc, void *dst, const void *src, size_t n)
{
    const uint8_t *p = src;
    uintptr_t delta = (uintptr_t)dst - (uintptr_t)src;
    size_t head = (size_t)(-(uintptr_t)dst & 63);
    if (n >= FOLD_MIN + 64 && head) {
        crc = ~crc32c_hw_stream(~crc, p, head, delta, true);
        p += head, n -= head;
    }
    return crc32c_avx512_body(crc, p, n, delta, true);
}
