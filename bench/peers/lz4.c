/* lz4.c — peer: the LZ4 frame format with the frame settings codec's lz4
 * and lz4hc use, on reused compression and decompression contexts.
 * Spec: "frame" (fast, level 0) or "hc" (LZ4HC default level 9). */
#include "peer.h"

#include <lz4.h>
#include <lz4frame.h>
#include <lz4hc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct l4_worker {
    LZ4F_preferences_t prefs;
    LZ4F_cctx *c;
    LZ4F_dctx *d;
    peer_bytes out, dec;
} l4_worker;

static const char *l4_version(void)
{
    static char v[32];
    snprintf(v, sizeof v, "lz4 %s", LZ4_versionString());
    return v;
}

static void *l4_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    if (p->model) {
        snprintf(why, cap, "the lz4 peer takes bytes payloads only");
        return NULL;
    }
    int level;
    if (strcmp(spec, "frame") == 0)
        level = 0;
    else if (strcmp(spec, "hc") == 0)
        level = LZ4HC_CLEVEL_DEFAULT;
    else {
        snprintf(why, cap, "lz4 peer spec must be frame or hc");
        return NULL;
    }
    int *s = malloc(sizeof *s);
    if (s)
        *s = level;
    return s;
}

static void *l4_worker_new(void *shared)
{
    l4_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    /* The frame codec's lz4 writes (and the JVM codec library reads): 64 KiB
     * independent blocks with a content checksum, so the peer does the
     * same work and its output has the same size. */
    w->prefs.frameInfo.blockSizeID = LZ4F_max64KB;
    w->prefs.frameInfo.blockMode = LZ4F_blockIndependent;
    w->prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    w->prefs.autoFlush = 1;
    w->prefs.compressionLevel = *(const int *)shared;
    if (LZ4F_isError(LZ4F_createCompressionContext(&w->c, LZ4F_VERSION)) ||
        LZ4F_isError(LZ4F_createDecompressionContext(&w->d, LZ4F_VERSION))) {
        LZ4F_freeCompressionContext(w->c);
        LZ4F_freeDecompressionContext(w->d);
        free(w);
        return NULL;
    }
    return w;
}

static void l4_worker_free(void *worker)
{
    l4_worker *w = worker;
    LZ4F_freeCompressionContext(w->c);
    LZ4F_freeDecompressionContext(w->d);
    peer_bytes_free(&w->out);
    peer_bytes_free(&w->dec);
    free(w);
}

static int l4_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    l4_worker *w = worker;
    size_t bound = LZ4F_HEADER_SIZE_MAX + LZ4F_compressBound(p->len, &w->prefs);
    if (peer_reserve(&w->out, bound) != 0)
        return -1;
    /* begin/update/end on a reused context: the stable API's one-shot path */
    size_t h = LZ4F_compressBegin(w->c, w->out.data, bound, &w->prefs);
    if (LZ4F_isError(h))
        return -1;
    size_t b = LZ4F_compressUpdate(w->c, w->out.data + h, bound - h, p->bytes, p->len, NULL);
    if (LZ4F_isError(b))
        return -1;
    size_t e = LZ4F_compressEnd(w->c, w->out.data + h + b, bound - h - b, NULL);
    if (LZ4F_isError(e))
        return -1;
    *out = w->out.data;
    *len = h + b + e;
    return 0;
}

static int l4_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    l4_worker *w = worker;
    LZ4F_resetDecompressionContext(w->d);
    if (peer_reserve(&w->dec, 4 * n + 64) != 0)
        return -1;
    size_t got = 0, used = 0;
    for (;;) {
        size_t src = n - used, dst = w->dec.cap - got;
        size_t hint = LZ4F_decompress(w->d, w->dec.data + got, &dst, in + used, &src, NULL);
        if (LZ4F_isError(hint))
            return -1;
        got += dst;
        used += src;
        if (hint == 0)
            break;
        if (used == n && dst == 0)
            return -1; /* truncated frame */
        if (got == w->dec.cap &&
            (w->dec.cap >= PEER_MAX_OUTPUT || peer_reserve(&w->dec, 2 * w->dec.cap) != 0))
            return -1;
    }
    *out = w->dec.data;
    *len = got;
    return 0;
}

const bench_driver bench_peer_lz4 = {
    "lz4", l4_version, l4_open, free, l4_worker_new, l4_worker_free,
    l4_encode, l4_decode, NULL, NULL, NULL};
