/* check.h — the tests' tiny assertion kit. A failed CHECK prints the place
 * and carries on; check_done() makes the exit status 1 if anything failed. */
#ifndef CODEC_TEST_CHECK_H
#define CODEC_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                              \
    do {                                                                         \
        check_count++;                                                           \
        if (!(cond)) {                                                           \
            check_failures++;                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_INT(a, b)                                                          \
    do {                                                                         \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);          \
        check_count++;                                                           \
        if (check_a_ != check_b_) {                                              \
            check_failures++;                                                    \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__,  \
                    __LINE__, #a, #b, check_a_, check_b_);                       \
        }                                                                        \
    } while (0)

#define CHECK_MEM(a, alen, b, blen)                                              \
    do {                                                                         \
        size_t check_al_ = (alen), check_bl_ = (blen);                           \
        check_count++;                                                           \
        if (check_al_ != check_bl_ || (check_al_ && memcmp((a), (b), check_al_) != 0)) { \
            check_failures++;                                                    \
            fprintf(stderr, "%s:%d: bytes differ: %s (%zu) vs %s (%zu)\n",       \
                    __FILE__, __LINE__, #a, check_al_, #b, check_bl_);           \
        }                                                                        \
    } while (0)

#define CHECK_STR(a, b) CHECK(strcmp((a), (b)) == 0)

static inline int check_done(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

/* xorshift64*: deterministic pseudo-random bytes for round-trip tests. */
static inline uint64_t check_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Du;
}

/* Reads a whole file into a malloc'd buffer; NULL when it cannot. */
static inline unsigned char *check_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc(n > 0 ? (size_t)n : 1);
    *len = fread(p, 1, n > 0 ? (size_t)n : 0, f);
    fclose(f);
    return p;
}

#endif
