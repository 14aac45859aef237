/* load_internal.h — unaligned loads of native-endian words, for the word-
 * at-a-time scans and compares of the parsers and the deflate encoder
 * (memcpy compiles to one load on every target we build for). */
#ifndef CODEC_LOAD_INTERNAL_H
#define CODEC_LOAD_INTERNAL_H

#include <stdint.h>
#include <string.h>

static inline uint64_t codec_load64(const void *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint32_t codec_load32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline uint16_t codec_load16(const void *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

#endif
