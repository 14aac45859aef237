/* load_internal.h — unaligned loads of native-endian words, for the word-
 * at-a-time scans and compares of the parsers and the deflate encoder
 * (memcpy compiles to one load on every target we build for), and the
 * big-endian loads and stores every wire format with a big-endian field
 * uses (CBOR, MessagePack, the envelope, checksum trailers, the Redisson
 * length prefixes): one place, correct on hosts of either byte order. */
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

/* The 8 bytes at p as a little-endian word: byte 0 in the low bits on
 * every CPU, for the SWAR scans that find the first match by counting
 * trailing zero bits (one byte swap on big-endian targets). */
static inline uint64_t codec_load_le64(const void *p)
{
    uint64_t v = codec_load64(p);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint32_t codec_load32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* The same for 4 bytes: hashes that must give the same output everywhere. */
static inline uint32_t codec_load_le32(const void *p)
{
    uint32_t v = codec_load32(p);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

/* CODEC_BE16/32/64(v): v in big-endian byte order, and back (a swap on
 * little-endian CPUs, nothing on big-endian ones). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CODEC_BE16(v) (v)
#define CODEC_BE32(v) (v)
#define CODEC_BE64(v) (v)
#else
#define CODEC_BE16(v) __builtin_bswap16(v)
#define CODEC_BE32(v) __builtin_bswap32(v)
#define CODEC_BE64(v) __builtin_bswap64(v)
#endif

static inline uint16_t codec_load16(const void *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CODEC_BE16(v) (v)
#define CODEC_BE32(v) (v)
#define CODEC_BE64(v) (v)
#else
#define CODEC_BE16(v) __builtin_bswap16(v)
#define CODEC_BE32(v) __builtin_bswap32(v)
#define CODEC_BE64(v) __builtin_bswap64(v)
#endif

static inline uint16_t codec_load_be16(const void *p)
{
    return CODEC_BE16(codec_load16(p));
}

static inline uint32_t codec_load_be32(const void *p)
{
    return CODEC_BE32(codec_load32(p));
}

static inline uint64_t codec_load_be64(const void *p)
{
    return CODEC_BE64(codec_load64(p));
}

static inline void codec_store_be16(void *p, uint16_t v)
{
    v = CODEC_BE16(v);
    memcpy(p, &v, 2);
}

static inline void codec_store_be32(void *p, uint32_t v)
{
    v = CODEC_BE32(v);
    memcpy(p, &v, 4);
}

static inline void codec_store_be64(void *p, uint64_t v)
{
    v = CODEC_BE64(v);
    memcpy(p, &v, 8);
}

#endif
