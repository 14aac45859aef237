/* random.c — random bytes from OpenSSL's private DRBG (seeded by the
 * operating system), drawn 1 KiB at a time: one RAND_priv_bytes call costs
 * about as much whatever its size up to a few hundred bytes, more than sealing a small
 * message (docs/formats/envelope.md, "Costs behind the design"), so nonces
 * and data keys are served from a per-context block.
 *
 * A block must never be used in two processes: after fork() the child's
 * buffered bytes would repeat the parent's nonces. The fork handler
 * (fork.c) bumps a generation number and buffers filled in an older
 * generation are thrown away. */
#include "crypto_internal.h"

#include <string.h>
#include <time.h>

void codec__crypto_random_init(crypto_random *r)
{
    r->fork_generation = codec__crypto_fork_generation();
    r->avail = 0;
}

void codec__crypto_random_wipe(crypto_random *r)
{
    OPENSSL_cleanse(r->buf, sizeof r->buf);
    r->avail = 0;
}

int codec__crypto_random_fill(void *ctx, uint8_t *dst, size_t n)
{
    crypto_random *r = ctx;
    unsigned gen = codec__crypto_fork_generation();
    if (gen != r->fork_generation) {
        codec__crypto_random_wipe(r);
        r->fork_generation = gen;
    }
    if (n > sizeof r->buf) /* a provider asking for more than a block */
        return codec__random_bytes(dst, n);
    if (r->avail < n) {
        if (codec__random_bytes(r->buf, sizeof r->buf) != 0)
            return -1;
        r->avail = sizeof r->buf;
    }
    uint8_t *src = r->buf + sizeof r->buf - r->avail;
    memcpy(dst, src, n);
    OPENSSL_cleanse(src, n);
    r->avail -= n;
    return 0;
}

uint64_t codec__crypto_next_serial(void)
{
    static atomic_uint_fast64_t serial;
    return (uint64_t)atomic_fetch_add(&serial, 1) + 1;
}

uint64_t codec__crypto_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
