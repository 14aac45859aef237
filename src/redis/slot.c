/* slot.c — Redis Cluster's hash slot of a key: CRC16 (XMODEM: polynomial
 * 0x1021, initial value 0, no reflection) of the key, or of the part
 * between the first '{' and the next '}' when that part is not empty,
 * modulo 16384 (the Redis Cluster specification). */
#include "redis_internal.h"

#include <string.h>

static uint16_t crc16(const uint8_t *p, size_t n)
{
    uint16_t crc = 0;
    for (size_t i = 0; i < n; i++) {
        crc ^= (uint16_t)(p[i] << 8);
        for (int b = 0; b < 8; b++)
            crc = (uint16_t)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
    }
    return crc;
}

unsigned codec_redis_slot(const void *key, size_t key_len)
{
    const uint8_t *k = key ? key : (const uint8_t *)"";
    const uint8_t *open = memchr(k, '{', key_len);
    if (open) {
        size_t start = (size_t)(open - k) + 1;
        const uint8_t *close = memchr(k + start, '}', key_len - start);
        if (close && close > k + start)
            return crc16(k + start, (size_t)(close - k) - start) & (REDIS_SLOTS - 1);
    }
    return crc16(k, key_len) & (REDIS_SLOTS - 1);
}
