/* varint_internal.h — LEB128 varints and zigzag, the one copy protobuf and
 * Fory use (Fory's 64-bit varint, LEB128 for 8 bytes then a full 9th
 * byte, is its own: fory_internal.h). */
#ifndef CODEC_VARINT_INTERNAL_H
#define CODEC_VARINT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* Bytes the LEB128 of v takes (1..10). */
static inline size_t codec_leb128_size(uint64_t v)
{
    /* 64 - clz(v|1) bits, 7 per byte: (bits * 9 + 64) / 64 is ceil(bits / 7). */
    unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1);
    return (bits * 9 + 64) / 64;
}

/* Writes the LEB128 of v at p (room for codec_leb128_size(v) bytes: 10 at
 * most, 5 for a 32-bit value); returns the end. */
static inline uint8_t *codec_leb128_put(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* Reads a LEB128 from *pp (never at or past `end`) whose value must fit
 * `bits` bits (32 or 64): the byte that completes `bits` may carry no more.
 * *pp moves past every byte read, also on failure.
 * @return 0 (*out set); -1 when the input ends inside the varint; -2 when
 *         it is longer or larger than `bits` allow. */
static inline int codec_leb128_get(const uint8_t **pp, const uint8_t *end, unsigned bits,
                                   uint64_t *out)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (p == end) {
            *pp = p;
            return -1;
        }
        uint8_t b = *p++;
        if (bits - shift <= 7) {   /* the last byte there can be */
            *pp = p;
            if (b >= 1u << (bits - shift))
                return -2;
            *out = v | (uint64_t)b << shift;
            return 0;
        }
        v |= (uint64_t)(b & 0x7f) << shift;
        if (b < 0x80) {
            *pp = p;
            *out = v;
            return 0;
        }
    }
}

static inline uint32_t codec_zigzag32(int32_t v)
{
    return ((uint32_t)v << 1) ^ (uint32_t)(v >> 31);
}

static inline uint64_t codec_zigzag64(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int32_t codec_unzigzag32(uint32_t v)
{
    return (int32_t)(v >> 1) ^ -(int32_t)(v & 1);
}

static inline int64_t codec_unzigzag64(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

#endif /* CODEC_VARINT_INTERNAL_H */
