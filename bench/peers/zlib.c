/* zlib.c — peer: zlib's deflate/inflate with reused streams.
 * Spec: "zlib:LEVEL" (zlib framing, like codec's deflate) or "gzip:LEVEL". */
#include "peer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct zl_conf {
    int level;
    int window_bits;   /* 15 zlib, 31 gzip */
} zl_conf;

typedef struct zl_worker {
    z_stream def, inf;
    peer_bytes out, dec;
} zl_worker;

static const char *zl_version(void)
{
    static char v[32];
    snprintf(v, sizeof v, "zlib %s", zlibVersion());
    return v;
}

static void *zl_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    zl_conf c = {6, 15};
    if (p->model) {
        snprintf(why, cap, "the zlib peer takes bytes payloads only");
        return NULL;
    }
    if (strncmp(spec, "gzip", 4) == 0)
        c.window_bits = 31;
    else if (strncmp(spec, "zlib", 4) != 0) {
        snprintf(why, cap, "zlib peer spec must be zlib:N or gzip:N");
        return NULL;
    }
    if (peer_level(spec, 6, 0, 9, &c.level, why, cap) != 0)
        return NULL;
    zl_conf *s = malloc(sizeof *s);
    if (s)
        *s = c;
    return s;
}

static void *zl_worker_new(void *shared)
{
    const zl_conf *c = shared;
    zl_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    if (deflateInit2(&w->def, c->level, Z_DEFLATED, c->window_bits, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK) {
        free(w);
        return NULL;
    }
    if (inflateInit2(&w->inf, c->window_bits) != Z_OK) {
        deflateEnd(&w->def);
        free(w);
        return NULL;
    }
    return w;
}

static void zl_worker_free(void *worker)
{
    zl_worker *w = worker;
    deflateEnd(&w->def);
    inflateEnd(&w->inf);
    peer_bytes_free(&w->out);
    peer_bytes_free(&w->dec);
    free(w);
}

static int zl_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    zl_worker *w = worker;
    size_t bound = deflateBound(&w->def, (uLong)p->len);
    if (peer_reserve(&w->out, bound) != 0 || deflateReset(&w->def) != Z_OK)
        return -1;
    w->def.next_in = (Bytef *)p->bytes;
    w->def.avail_in = (uInt)p->len;
    w->def.next_out = w->out.data;
    w->def.avail_out = (uInt)w->out.cap;
    if (deflate(&w->def, Z_FINISH) != Z_STREAM_END)
        return -1;
    *out = w->out.data;
    *len = w->def.total_out;
    return 0;
}

static int zl_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    zl_worker *w = worker;
    if (inflateReset(&w->inf) != Z_OK || peer_reserve(&w->dec, 4 * n + 64) != 0)
        return -1;
    w->inf.next_in = (Bytef *)in;
    w->inf.avail_in = (uInt)n;
    size_t got = 0;
    for (;;) {
        w->inf.next_out = w->dec.data + got;
        w->inf.avail_out = (uInt)(w->dec.cap - got);
        int rc = inflate(&w->inf, Z_FINISH);
        got = w->dec.cap - w->inf.avail_out;
        if (rc == Z_STREAM_END)
            break;
        if ((rc != Z_BUF_ERROR && rc != Z_OK) || w->inf.avail_out != 0 ||
            w->dec.cap >= PEER_MAX_OUTPUT || peer_reserve(&w->dec, 2 * w->dec.cap) != 0)
            return -1;
    }
    *out = w->dec.data;
    *len = got;
    return 0;
}

const bench_driver bench_peer_zlib = {
    "zlib", zl_version, zl_open, free, zl_worker_new, zl_worker_free,
    zl_encode, zl_decode, NULL, NULL, NULL};
