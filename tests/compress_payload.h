/* compress_payload.h — test inputs for the compression tests: the
 * benchmark's "large" prose payload (docs: /design PAYLOADS.md, section 1),
 * reproduced from java.util.Random so its zlib sizes can be checked, and
 * mixed buffers (runs, text, noise) for round trips. */
#ifndef CODEC_TEST_COMPRESS_PAYLOAD_H
#define CODEC_TEST_COMPRESS_PAYLOAD_H

#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t state;
} java_random;

static inline void java_random_seed(java_random *r, uint64_t seed)
{
    r->state = (seed ^ 0x5DEECE66DULL) & ((1ULL << 48) - 1);
}

static inline int32_t java_random_next(java_random *r, int bits)
{
    r->state = (r->state * 0x5DEECE66DULL + 0xB) & ((1ULL << 48) - 1);
    return (int32_t)(r->state >> (48 - bits));
}

static inline int32_t java_random_int(java_random *r, int32_t bound)
{
    if ((bound & -bound) == bound)
        return (int32_t)(((int64_t)bound * java_random_next(r, 31)) >> 31);
    int32_t bits, val;
    do {
        bits = java_random_next(r, 31);
        val = bits % bound;
    } while ((int32_t)((uint32_t)bits - (uint32_t)val + (uint32_t)(bound - 1)) < 0);
    return val;
}

static const char *const payload_words[36] = {
    "codec", "encode", "decode", "payload", "stream", "buffer", "byte", "frame", "block",
    "cache", "queue", "record", "field", "value", "compress", "encrypt", "wrap", "key",
    "nonce", "tag", "header", "version", "format", "text", "binary", "the", "of", "and",
    "with", "into", "from", "over", "under", "between", "before", "after"};

/* prose(n): Random(7); words and ". " until at least n bytes, cut to n. */
static inline uint8_t *payload_prose(size_t n)
{
    uint8_t *p = malloc(n + 32);
    size_t len = 0;
    java_random r;
    java_random_seed(&r, 7);
    while (len < n) {
        const char *w = payload_words[java_random_int(&r, 36)];
        size_t l = strlen(w);
        memcpy(p + len, w, l);
        len += l;
        p[len++] = ' ';
        if (java_random_int(&r, 12) == 0) {
            p[len++] = '.';
            p[len++] = ' ';
        }
    }
    return p;
}

/* n bytes mixing runs, prose-like text and noise, from `seed`. */
static inline uint8_t *payload_mixed(size_t n, uint64_t seed)
{
    uint8_t *p = malloc(n ? n : 1);
    uint64_t x = seed | 1;
    size_t i = 0;
    while (i < n) {
        uint64_t v = check_rand(&x);
        size_t run = 1 + (size_t)(v >> 8) % 300;
        if (run > n - i)
            run = n - i;
        switch (v % 3) {
        case 0: memset(p + i, (int)(v >> 40), run); break;
        case 1: {
            const char *w = payload_words[(v >> 20) % 36];
            size_t wl = strlen(w);
            for (size_t j = 0; j < run; j++)
                p[i + j] = (uint8_t)w[j % wl];
            break;
        }
        default:
            for (size_t j = 0; j < run; j++)
                p[i + j] = (uint8_t)check_rand(&x);
        }
        i += run;
    }
    return p;
}

/* `count` short JSON records back to back, for training zstd dictionaries;
 * *sizes gets a malloc'd array of their lengths. */
static inline uint8_t *payload_json_samples(size_t count, uint64_t seed, size_t **sizes)
{
    uint8_t *samples = malloc(count * 128);
    *sizes = malloc(count * sizeof **sizes);
    size_t total = 0;
    uint64_t x = seed;
    for (size_t i = 0; i < count; i++) {
        const char *w1 = payload_words[check_rand(&x) % 36];
        const char *w2 = payload_words[check_rand(&x) % 36];
        int w = snprintf((char *)samples + total, 128,
                         "{\"id\":%zu,\"name\":\"%s %s\",\"active\":%s,\"score\":%u}",
                         1000 + i, w1, w2, check_rand(&x) % 2 ? "true" : "false",
                         (unsigned)(check_rand(&x) % 1000));
        (*sizes)[i] = (size_t)w;
        total += (size_t)w;
    }
    return samples;
}

#endif
