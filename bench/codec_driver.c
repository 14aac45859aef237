/* codec_driver.c — codec itself as a benchmark driver: the cell's spec is a
 * pipeline spec given to codec_parse(). The handle is shared by all threads
 * (it is immutable); each worker has its own output buffer and arena, both
 * on a counting codec_allocator. */
#include "drivers.h"

#include "codec/codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct codec_worker {
    const codec *c;
    bench_alloc_tally tally;
    codec_allocator alloc;
    codec_buf out;
    codec_arena arena;
} codec_worker;

static const char *codec_version(void)
{
    return "codec " CODEC_VERSION_STRING;
}

static void *codec_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    if (!c) {
        char msg[256];
        snprintf(why, cap, "%s", codec_error_format(&err, msg, sizeof msg));
    } else if (p->model) {
        /* Typed payloads need a type descriptor for their model; the types
         * layer binds models.h when it lands. Until then: not built. */
        snprintf(why, cap, "no type descriptor bound for %s yet", p->model);
        codec_free(c);
        c = NULL;
    }
    return c;
}

static void codec_close(void *shared)
{
    codec_free(shared);
}

static void *codec_worker_new(void *shared)
{
    codec_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->c = shared;
    bench_counting_allocator(&w->alloc, &w->tally);
    codec_buf_init(&w->out, &w->alloc);
    codec_arena_init(&w->arena, &w->alloc, 0);
    return w;
}

static void codec_worker_free(void *worker)
{
    codec_worker *w = worker;
    codec_buf_free(&w->out);
    codec_arena_free(&w->arena);
    free(w);
}

static int codec_enc(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    codec_worker *w = worker;
    codec_bytes in = {p->bytes, p->len};
    codec_buf_clear(&w->out);
    if (codec_encode(w->c, &in, &w->out, NULL) != 0)
        return -1;
    *out = w->out.data;
    *len = w->out.len;
    return 0;
}

static int codec_dec(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    codec_worker *w = worker;
    codec_bytes v;
    codec_arena_reset(&w->arena);
    if (codec_decode(w->c, in, n, &v, &w->arena, NULL) != 0)
        return -1;
    *out = v.data;
    *len = v.len;
    return 0;
}

static const bench_alloc_tally *codec_tally(void *worker)
{
    return &((codec_worker *)worker)->tally;
}

const bench_driver bench_driver_codec = {
    "codec", codec_version, codec_open, codec_close, codec_worker_new, codec_worker_free,
    codec_enc, codec_dec, NULL, codec_tally, NULL};
