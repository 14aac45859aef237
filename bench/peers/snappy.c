/* snappy.c — peer: the Snappy raw block format through snappy-c.h.
 * Spec: "raw". */
#include "peer.h"

#include <snappy-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sn_worker {
    peer_bytes out, dec;
} sn_worker;

static const char *sn_version(void)
{
    return "snappy " BENCH_SNAPPY_VERSION;
}

static void *sn_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    if (p->model || strcmp(spec, "raw") != 0) {
        snprintf(why, cap, "the snappy peer takes spec raw on bytes payloads");
        return NULL;
    }
    return calloc(1, 1);
}

static void *sn_worker_new(void *shared)
{
    (void)shared;
    return calloc(1, sizeof(sn_worker));
}

static void sn_worker_free(void *worker)
{
    sn_worker *w = worker;
    peer_bytes_free(&w->out);
    peer_bytes_free(&w->dec);
    free(w);
}

static int sn_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    sn_worker *w = worker;
    size_t n = snappy_max_compressed_length(p->len);
    if (peer_reserve(&w->out, n) != 0 ||
        snappy_compress((const char *)p->bytes, p->len, (char *)w->out.data, &n) != SNAPPY_OK)
        return -1;
    *out = w->out.data;
    *len = n;
    return 0;
}

static int sn_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    sn_worker *w = worker;
    size_t size;
    if (snappy_uncompressed_length((const char *)in, n, &size) != SNAPPY_OK ||
        size > PEER_MAX_OUTPUT || peer_reserve(&w->dec, size + 1) != 0 ||
        snappy_uncompress((const char *)in, n, (char *)w->dec.data, &size) != SNAPPY_OK)
        return -1;
    *out = w->dec.data;
    *len = size;
    return 0;
}

const bench_driver bench_peer_snappy = {
    "snappy", sn_version, sn_open, free, sn_worker_new, sn_worker_free,
    sn_encode, sn_decode, NULL, NULL, NULL};
