/* libdeflate.c — peer: libdeflate's whole-buffer compressor (the fastest
 * DEFLATE there is). Spec: "zlib:LEVEL" or "gzip:LEVEL" (1..12). */
#include "peer.h"

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ld_conf {
    int level;
    int gzip;
} ld_conf;

typedef struct ld_worker {
    int gzip;
    struct libdeflate_compressor *c;
    struct libdeflate_decompressor *d;
    peer_bytes out, dec;
} ld_worker;

static const char *ld_version(void)
{
    return "libdeflate " LIBDEFLATE_VERSION_STRING;
}

static void *ld_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    ld_conf c = {6, strncmp(spec, "gzip", 4) == 0};
    if (p->model) {
        snprintf(why, cap, "the libdeflate peer takes bytes payloads only");
        return NULL;
    }
    if (!c.gzip && strncmp(spec, "zlib", 4) != 0) {
        snprintf(why, cap, "libdeflate peer spec must be zlib:N or gzip:N");
        return NULL;
    }
    if (peer_level(spec, 6, 1, 12, &c.level, why, cap) != 0)
        return NULL;
    ld_conf *s = malloc(sizeof *s);
    if (s)
        *s = c;
    return s;
}

static void *ld_worker_new(void *shared)
{
    const ld_conf *c = shared;
    ld_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->gzip = c->gzip;
    w->c = libdeflate_alloc_compressor(c->level);
    w->d = libdeflate_alloc_decompressor();
    if (!w->c || !w->d) {
        libdeflate_free_compressor(w->c);
        libdeflate_free_decompressor(w->d);
        free(w);
        return NULL;
    }
    return w;
}

static void ld_worker_free(void *worker)
{
    ld_worker *w = worker;
    libdeflate_free_compressor(w->c);
    libdeflate_free_decompressor(w->d);
    peer_bytes_free(&w->out);
    peer_bytes_free(&w->dec);
    free(w);
}

static int ld_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    ld_worker *w = worker;
    size_t bound = w->gzip ? libdeflate_gzip_compress_bound(w->c, p->len)
                           : libdeflate_zlib_compress_bound(w->c, p->len);
    if (peer_reserve(&w->out, bound) != 0)
        return -1;
    size_t n = w->gzip ? libdeflate_gzip_compress(w->c, p->bytes, p->len, w->out.data, bound)
                       : libdeflate_zlib_compress(w->c, p->bytes, p->len, w->out.data, bound);
    if (n == 0)
        return -1;
    *out = w->out.data;
    *len = n;
    return 0;
}

static int ld_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    ld_worker *w = worker;
    if (peer_reserve(&w->dec, 4 * n + 64) != 0)
        return -1;
    for (;;) {
        enum libdeflate_result r =
            w->gzip ? libdeflate_gzip_decompress(w->d, in, n, w->dec.data, w->dec.cap, len)
                    : libdeflate_zlib_decompress(w->d, in, n, w->dec.data, w->dec.cap, len);
        if (r == LIBDEFLATE_SUCCESS)
            break;
        if (r != LIBDEFLATE_INSUFFICIENT_SPACE || w->dec.cap >= PEER_MAX_OUTPUT ||
            peer_reserve(&w->dec, 2 * w->dec.cap) != 0)
            return -1;
    }
    *out = w->dec.data;
    return 0;
}

const bench_driver bench_peer_libdeflate = {
    "libdeflate", ld_version, ld_open, free, ld_worker_new, ld_worker_free,
    ld_encode, ld_decode, NULL, NULL, NULL};
