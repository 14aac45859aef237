/* codec__crc32c_sse42.c — CRC-32C with the SSE4.2 crc32 instruction.
 *
 * The instruction has a latency of 3 cycles but a throughput of 1, so one
 * stream leaves two thirds of it idle. Long inputs are cut into rounds of
 * three equal blocks computed side by side; each round's three CRCs are
 * merged by moving the first two over the blocks that follow them
 * (crc32c_hw_mul) and XORing. Rounds of 3 x 1024 bytes, then 3 x 128,
 * then one stream for the rest. */
#include "crc32c_hw_internal.h"

/* Runs rounds of 3 blocks of `len` bytes while they fit; k1 and k2 shift a
 * CRC over len and 2*len bytes. */
static uint32_t crc32c_three_way(uint32_t c, const uint8_t **pp, size_t *pn, size_t len,
                                 uint32_t k1, uint32_t k2)
{
    const uint8_t *p = *pp;
    size_t n = *pn;
    for (; n >= 3 * len; p += 3 * len, n -= 3 * len) {
        uint64_t c0 = c, c1 = 0, c2 = 0;
        for (size_t i = 0; i < len; i += 8) {
            c0 = _mm_crc32_u64(c0, crc32c_load64(p + i));
            c1 = _mm_crc32_u64(c1, crc32c_load64(p + len + i));
            c2 = _mm_crc32_u64(c2, crc32c_load64(p + 2 * len + i));
        }
        uint64_t moved = crc32c_hw_mul((uint32_t)c0, k2) ^ crc32c_hw_mul((uint32_t)c1, k1);
        c = (uint32_t)_mm_crc32_u64(0, moved) ^ (uint32_t)c2;
    }
    *pp = p;
    *pn = n;
    return c;
}

uint32_t codec__crc32c_sse42(uint32_t crc, const void *buf, size_t n)
{
    const uint8_t *p = buf;
    uint32_t c = ~crc;
    c = crc32c_three_way(c, &p, &n, 1024, CRC32C_X8159, CRC32C_X16351);
    c = crc32c_three_way(c, &p, &n, 128, CRC32C_X991, CRC32C_X2015);
    return ~crc32c_hw_serial(c, p, n);
}
