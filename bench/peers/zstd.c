/* zstd.c — peer: libzstd one-shot API with reused contexts. Spec: "LEVEL". */
#include "peer.h"

#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>

typedef struct zs_worker {
    int level;
    ZSTD_CCtx *c;
    ZSTD_DCtx *d;
    peer_bytes out, dec;
} zs_worker;

static const char *zs_version(void)
{
    static char v[32];
    snprintf(v, sizeof v, "zstd %s", ZSTD_versionString());
    return v;
}

static void *zs_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    int level;
    if (p->model) {
        snprintf(why, cap, "the zstd peer takes bytes payloads only");
        return NULL;
    }
    if (peer_level(spec, 3, ZSTD_minCLevel(), ZSTD_maxCLevel(), &level, why, cap) != 0)
        return NULL;
    int *s = malloc(sizeof *s);
    if (s)
        *s = level;
    return s;
}

static void *zs_worker_new(void *shared)
{
    zs_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->level = *(const int *)shared;
    w->c = ZSTD_createCCtx();
    w->d = ZSTD_createDCtx();
    if (!w->c || !w->d) {
        ZSTD_freeCCtx(w->c);
        ZSTD_freeDCtx(w->d);
        free(w);
        return NULL;
    }
    return w;
}

static void zs_worker_free(void *worker)
{
    zs_worker *w = worker;
    ZSTD_freeCCtx(w->c);
    ZSTD_freeDCtx(w->d);
    peer_bytes_free(&w->out);
    peer_bytes_free(&w->dec);
    free(w);
}

static int zs_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    zs_worker *w = worker;
    size_t bound = ZSTD_compressBound(p->len);
    if (peer_reserve(&w->out, bound) != 0)
        return -1;
    size_t n = ZSTD_compressCCtx(w->c, w->out.data, bound, p->bytes, p->len, w->level);
    if (ZSTD_isError(n))
        return -1;
    *out = w->out.data;
    *len = n;
    return 0;
}

static int zs_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    zs_worker *w = worker;
    unsigned long long size = ZSTD_getFrameContentSize(in, n);
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
        size > PEER_MAX_OUTPUT || peer_reserve(&w->dec, (size_t)size + 1) != 0)
        return -1;
    size_t got = ZSTD_decompressDCtx(w->d, w->dec.data, w->dec.cap, in, n);
    if (ZSTD_isError(got))
        return -1;
    *out = w->dec.data;
    *len = got;
    return 0;
}

const bench_driver bench_peer_zstd = {
    "zstd", zs_version, zs_open, free, zs_worker_new, zs_worker_free,
    zs_encode, zs_decode, NULL, NULL, NULL};
