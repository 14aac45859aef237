/* codec_json_api.c — codec's JSON API without descriptors, as two more
 * "codec" drivers for the json suite (suites.c adds their cells by pointer,
 * so the report shows them as codec beside their peers):
 *   stream    codec_json_reader reads every token of the document into a
 *             tape, codec_json_writer writes the tape back (json_tape.h);
 *   validate  codec_json_validate() over the document, nothing built
 *             (a decode-only cell: the harness times no encode).
 * Workers keep their tape, arena and output buffer across operations, on a
 * counting codec_allocator like the typed codec driver's. */
#include "drivers.h"

#include "codec/json.h"
#include "json_tape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct api_worker {
    const bench_payload *p;
    bench_alloc_tally tally;
    codec_allocator alloc;
    codec_arena arena;        /* unescaped strings of the decoded tape */
    codec_arena ref_arena;    /* ... and of the payload's tape */
    bench_tape ref, tape;
    codec_buf out;
} api_worker;

static const char *api_version(void)
{
    return bench_driver_codec.version();
}

static void *api_open(const char *spec, const bench_payload *p, const char *want, char *why,
                      size_t cap)
{
    if (strcmp(spec, want) != 0) {
        snprintf(why, cap, "the spec of this cell is \"%s\"", want);
        return NULL;
    }
    if (!p->model) {
        snprintf(why, cap, "%s is not JSON", p->name);
        return NULL;
    }
    return (void *)p;
}

static void *stream_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return api_open(spec, p, BENCH_CODEC_STREAM_SPEC, why, cap);
}

static void *validate_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return api_open(spec, p, BENCH_CODEC_VALIDATE_SPEC, why, cap);
}

static void api_close(void *shared)
{
    (void)shared;   /* the payload itself */
}

static void *api_worker_new(void *shared)
{
    api_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->p = shared;
    bench_counting_allocator(&w->alloc, &w->tally);
    codec_arena_init(&w->arena, &w->alloc, 0);
    codec_arena_init(&w->ref_arena, NULL, 0);
    codec_buf_init(&w->out, &w->alloc);
    return w;
}

static void api_worker_free(void *worker)
{
    api_worker *w = worker;
    bench_tape_free(&w->ref);
    bench_tape_free(&w->tape);
    codec_arena_free(&w->arena);
    codec_arena_free(&w->ref_arena);
    codec_buf_free(&w->out);
    free(w);
}

static void *stream_worker_new(void *shared)
{
    api_worker *w = api_worker_new(shared);
    if (w && bench_tape_load(&w->ref, w->p, &w->ref_arena) != 0) {
        api_worker_free(w);
        return NULL;
    }
    return w;
}

static int stream_encode(void *worker, const bench_payload *p, const uint8_t **out,
                         size_t *len)
{
    api_worker *w = worker;
    (void)p;   /* its tape is w->ref */
    codec_buf_clear(&w->out);
    if (bench_tape_write(&w->ref, &w->out) != 0)
        return -1;
    *out = w->out.data;
    *len = w->out.len;
    return 0;
}

static int stream_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                         size_t *len)
{
    api_worker *w = worker;
    codec_arena_reset(&w->arena);
    *out = NULL, *len = 0;
    return bench_tape_read(&w->tape, in, n, &w->arena);
}

static int stream_matches(void *worker, const bench_payload *p)
{
    api_worker *w = worker;
    (void)p;
    return bench_tape_equal(&w->tape, &w->ref);
}

/* Never timed (decode-only cells); the harness does not call it. */
static int validate_encode(void *worker, const bench_payload *p, const uint8_t **out,
                           size_t *len)
{
    (void)worker, (void)p, (void)out, (void)len;
    return -1;
}

static int validate_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                           size_t *len)
{
    (void)worker;
    /* The document itself is what a validator hands on. */
    *out = in, *len = n;
    return codec_json_validate(in, n, NULL, NULL) == 0 ? 0 : -1;
}

static const bench_alloc_tally *api_tally(void *worker)
{
    return &((api_worker *)worker)->tally;
}

const bench_driver bench_driver_codec_stream = {
    "codec", api_version, stream_open, api_close, stream_worker_new, api_worker_free,
    stream_encode, stream_decode, stream_matches, api_tally, NULL};

const bench_driver bench_driver_codec_validate = {
    "codec", api_version, validate_open, api_close, api_worker_new, api_worker_free,
    validate_encode, validate_decode, NULL, api_tally, NULL};
