/* brotli.c — peer: libbrotli's one-shot encoder and decoder (the one-shot
 * API makes its state per call; that is the library's cost, not ours).
 * Spec: "QUALITY" (0..11, default 11, window 22 as the brotli tool uses). */
#include "peer.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct br_worker {
    int quality;
    peer_bytes out, dec;
} br_worker;

static const char *br_version(void)
{
    static char v[32];
    uint32_t x = BrotliEncoderVersion();
    snprintf(v, sizeof v, "brotli %u.%u.%u", x >> 24, (x >> 12) & 0xfff, x & 0xfff);
    return v;
}

static void *br_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    int q;
    if (p->model) {
        snprintf(why, cap, "the brotli peer takes bytes payloads only");
        return NULL;
    }
    if (peer_level(spec, BROTLI_DEFAULT_QUALITY, BROTLI_MIN_QUALITY, BROTLI_MAX_QUALITY, &q,
                   why, cap) != 0)
        return NULL;
    int *s = malloc(sizeof *s);
    if (s)
        *s = q;
    return s;
}

static void *br_worker_new(void *shared)
{
    br_worker *w = calloc(1, sizeof *w);
    if (w)
        w->quality = *(const int *)shared;
    return w;
}

static void br_worker_free(void *worker)
{
    br_worker *w = worker;
    peer_bytes_free(&w->out);
    peer_bytes_free(&w->dec);
    free(w);
}

static int br_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    br_worker *w = worker;
    size_t n = BrotliEncoderMaxCompressedSize(p->len);
    if (n == 0 || peer_reserve(&w->out, n) != 0 ||
        !BrotliEncoderCompress(w->quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, p->len,
                               p->bytes, &n, w->out.data))
        return -1;
    *out = w->out.data;
    *len = n;
    return 0;
}

static int br_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    br_worker *w = worker;
    if (peer_reserve(&w->dec, 4 * n + 64) != 0)
        return -1;
    for (;;) {
        size_t got = w->dec.cap;
        BrotliDecoderResult r = BrotliDecoderDecompress(n, in, &got, w->dec.data);
        if (r == BROTLI_DECODER_RESULT_SUCCESS) {
            *out = w->dec.data;
            *len = got;
            return 0;
        }
        /* the one-shot decoder reports a full buffer as an error: retry larger */
        if (w->dec.cap >= PEER_MAX_OUTPUT || peer_reserve(&w->dec, 2 * w->dec.cap) != 0)
            return -1;
    }
}

const bench_driver bench_peer_brotli = {
    "brotli", br_version, br_open, free, br_worker_new, br_worker_free,
    br_encode, br_decode, NULL, NULL, NULL};
