/* codec__crc32c_sse42.c — CRC-32C with the SSE4.2 crc32 instruction.
 *
 * The instruction has a latency of 3 cycles but a throughput of 1, so one
 * stream leaves two thirds of it idle. Long inputs are cut into rounds of
 * three equal blocks computed side by side; each round's three CRCs are
 * merged by moving the first two over the blocks that follow them
 * (crc32c_hw_mul) and XORing. Rounds of 3 x 1024 bytes, then 3 x 128,
 * then one stream for the rest. codec__crc32c_copy_sse42 is the same
 * kernel storing each word it reads to the destination as it goes. */
#include "crc32c_hw_internal.h"

/* Runs rounds of 3 blocks of `len` bytes while they fit; k1 and k2 shift a
 * CRC over len and 2*len bytes. With `copy`, each word read is also stored
 * `delta` bytes on (crc32c_hw_internal.h). */
CRC32C_INLINE uint32_t crc32c_three_way(uint32_t c, const uint8_t **pp, size_t *pn, size_t len,
                                        uint32_t k1, uint32_t k2, uintptr_t delta, bool copy)
{
    const uint8_t *p = *pp;
    size_t n = *pn;
    for (; n >= 3 * len; p += 3 * len, n -= 3 * len) {
        uint64_t c0 = c, c1 = 0, c2 = 0;
        for (size_t i = 0; i < len; i += 8) {
            uint64_t v0 = crc32c_load64(p + i), v1 = crc32c_load64(p + len + i),
                     v2 = crc32c_load64(p + 2 * len + i);
            if (copy) {
                crc32c_store64(p + i, delta, v0);
                crc32c_store64(p + len + i, delta, v1);
                crc32c_store64(p + 2 * len + i, delta, v2);
            }
            c0 = _mm_crc32_u64(c0, v0);
            c1 = _mm_crc32_u64(c1, v1);
            c2 = _mm_crc32_u64(c2, v2);
        }
        uint64_t moved = crc32c_hw_mul((uint32_t)c0, k2) ^ crc32c_hw_mul((uint32_t)c1, k1);
        c = (uint32_t)_mm_crc32_u64(0, moved) ^ (uint32_t)c2;
    }
    *pp = p;
    *pn = n;
    return c;
}

CRC32C_INLINE uint32_t crc32c_sse42_body(uint32_t crc, const uint8_t *p, size_t n,
                                         uintptr_t delta, bool copy)
{
    uint32_t c = ~crc;
    c = crc32c_three_way(c, &p, &n, 1024, CRC32C_X8159, CRC32C_X16351, delta, copy);
    c = crc32c_three_way(c, &p, &n, 128, CRC32C_X991, CRC32C_X2015, delta, copy);
    return ~crc32c_hw_stream(c, p, n, delta, copy);
}

uint32_t codec__crc32c_sse42(uint32_t crc, const void *buf, size_t n)
{
    return crc32c_sse42_body(crc, buf, n, 0, false);
}

uint32_t codec__crc32c_copy_sse42(uint32_t crc, void *dst, const void *src, size_t n)
{
    return crc32c_sse42_body(crc, src, n, (uintptr_t)dst - (uintptr_t)src, true);
}
