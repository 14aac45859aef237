/* kernel.c — peer: the CRC-32C kernel alone, the yardstick of the crc32c
 * cells (issue 20: the stage at >= 0.9x its own kernel). Encode is what a
 * caller writes by hand with it (copy the payload, append the big-endian
 * trailer); decode checks the trailer and hands back the body where it is,
 * so the decode column is the checksum kernel and nothing else. The kernel
 * is the one the `crc32c` stage picks (kernel=auto), called directly.
 * Spec: crc32c. */
#include "peer.h"

#include "transforms/integrity/crc32c_internal.h"
#include "codec/codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *k_version(void)
{
    return "codec " CODEC_VERSION_STRING " (crc32c kernel, kernel=auto)";
}

static void *k_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    crc32c_kernel_fn fn = codec__crc32c_kernel(CRC32C_AUTO);
    if (p->model || strcmp(spec, "crc32c") != 0 || !fn) {
        snprintf(why, cap, "the kernel peer takes spec crc32c on bytes payloads");
        return NULL;
    }
    crc32c_kernel_fn *shared = malloc(sizeof *shared);
    if (shared)
        *shared = fn;
    return shared;
}

typedef struct k_worker {
    crc32c_kernel_fn fn;
    peer_bytes out;
} k_worker;

static void *k_worker_new(void *shared)
{
    k_worker *w = calloc(1, sizeof *w);
    if (w)
        w->fn = *(crc32c_kernel_fn *)shared;
    return w;
}

static void k_worker_free(void *worker)
{
    k_worker *w = worker;
    peer_bytes_free(&w->out);
    free(w);
}

static int k_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    k_worker *w = worker;
    if (peer_reserve(&w->out, p->len + 4) != 0)
        return -1;
    memcpy(w->out.data, p->bytes, p->len);
    uint32_t crc = w->fn(0, p->bytes, p->len);
    uint8_t *t = w->out.data + p->len;
    t[0] = (uint8_t)(crc >> 24), t[1] = (uint8_t)(crc >> 16), t[2] = (uint8_t)(crc >> 8),
    t[3] = (uint8_t)crc;
    *out = w->out.data;
    *len = p->len + 4;
    return 0;
}

static int k_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                    size_t *len)
{
    k_worker *w = worker;
    if (n < 4)
        return -1;
    const uint8_t *t = in + n - 4;
    uint32_t want = (uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3];
    if (w->fn(0, in, n - 4) != want)
        return -1;
    *out = in;
    *len = n - 4;
    return 0;
}

const bench_driver bench_peer_kernel = {
    "kernel", k_version, k_open, free, k_worker_new, k_worker_free,
    k_encode, k_decode, NULL, NULL, NULL};
