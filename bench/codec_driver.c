/* codec_driver.c — codec itself as a benchmark driver: the cell's spec is a
 * pipeline spec given to codec_parse(), with the type descriptor of the
 * payload's model (models_types.c) for typed payloads. The handle is shared
 * by all threads (it is immutable); each worker has its own output buffer,
 * arena and decoded value, all on a counting codec_allocator. */
#include "drivers.h"

#include "codec/codec.h"
#include "models_types.h"
#ifdef BENCH_HAVE_CODEC_GEN_FORY
#include "codec/codegen.h"
#include "fory_models.codec.h"   /* codec-gen --specialize, bench/fory_models.fdl */
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct codec_shared {
    codec *c;
    const codec_type *type;   /* NULL: a bytes pipeline */
} codec_shared;

typedef struct codec_worker {
    const codec_shared *s;
    bench_alloc_tally tally;
    codec_allocator alloc;
    codec_buf out;
    codec_arena arena;
    void *value;              /* typed: the decoded value, type->size bytes */
    codec_bytes bytes;        /* bytes pipeline: the decoded bytes */
} codec_worker;

static const char *codec_version(void)
{
    return "codec " CODEC_VERSION_STRING;
}

/* Whether the first stage of `spec` is a backend: a bytes pipeline given a
 * typed value would read the struct as a codec_bytes. */
static bool starts_with_backend(const char *spec)
{
    spec += strspn(spec, " ");
    size_t n = strcspn(spec, " |:");
    for (size_t i = 0; i < codec_registry_count(); i++) {
        const codec_stage_info *si = codec_registry_info(i);
        if (si->kind == CODEC_KIND_BACKEND && strlen(si->name) == n &&
            strncmp(si->name, spec, n) == 0)
            return true;
    }
    return false;
}

/* A codec for `spec` on type t (NULL: the payload's model). */
static codec_shared *open_typed(const char *spec, const bench_payload *p, const codec_type *t,
                                char *why, size_t cap)
{
    codec_shared *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, cap, "out of memory");
        return NULL;
    }
    s->type = t ? t : bench_model_type(p);
    if (p->model && !s->type) {
        snprintf(why, cap, "no type descriptor for model %s", p->model);
        free(s);
        return NULL;
    }
    if (s->type && !starts_with_backend(spec)) {
        snprintf(why, cap, "%s is a typed value: the spec needs a backend first", p->name);
        free(s);
        return NULL;
    }
    codec_error err;
    if (!(s->c = codec_parse(spec, s->type, &err))) {
        char msg[256];
        snprintf(why, cap, "%s", codec_error_format(&err, msg, sizeof msg));
        free(s);
        return NULL;
    }
    return s;
}

static void *codec_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return open_typed(spec, p, NULL, why, cap);
}

static void codec_close(void *shared)
{
    codec_shared *s = shared;
    codec_free(s->c);
    free(s);
}

static void *codec_worker_new(void *shared)
{
    const codec_shared *s = shared;
    codec_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    /* Max-aligned (malloc), zeroed, kept across decodes like a peer's struct. */
    if (s->type && !(w->value = calloc(1, s->type->size))) {
        free(w);
        return NULL;
    }
    w->s = s;
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
    free(w->value);
    free(w);
}

static int codec_enc(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    codec_worker *w = worker;
    codec_bytes in = {p->bytes, p->len};
    codec_buf_clear(&w->out);
    if (codec_encode(w->s->c, w->s->type ? p->value : &in, &w->out, NULL) != 0)
        return -1;
    *out = w->out.data;
    *len = w->out.len;
    return 0;
}

static int codec_dec(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    codec_worker *w = worker;
    codec_arena_reset(&w->arena);
    if (w->s->type) {
        *out = NULL, *len = 0;
        return codec_decode(w->s->c, in, n, w->value, &w->arena, NULL) != 0 ? -1 : 0;
    }
    if (codec_decode(w->s->c, in, n, &w->bytes, &w->arena, NULL) != 0)
        return -1;
    *out = w->bytes.data;
    *len = w->bytes.len;
    return 0;
}

/* Typed: the decoded value rendered as compact JSON equals the payload's
 * (p->rendered). Bytes: the decoded bytes equal them. Uses `out` as scratch (the
 * harness keeps its own copy of the encoded input). */
static int codec_matches(void *worker, const bench_payload *p)
{
    codec_worker *w = worker;
    if (!w->s->type)
        return w->bytes.len == p->len && memcmp(w->bytes.data, p->bytes, p->len) == 0;
    codec_buf_clear(&w->out);
    if (bench_payload_render(p, w->value, &w->out) != 0)
        return -1;
    return w->out.len == p->rendered_len && memcmp(w->out.data, p->rendered, w->out.len) == 0;
}

static const bench_alloc_tally *codec_tally(void *worker)
{
    return &((codec_worker *)worker)->tally;
}

const bench_driver bench_driver_codec = {
    "codec", codec_version, codec_open, codec_close, codec_worker_new, codec_worker_free,
    codec_enc, codec_dec, codec_matches, codec_tally, NULL};

/* The view cells (bench/suites.c, group "crc32c-view"): the same codec,
 * decoded with codec_decode_view(), which hands back a range of the input
 * where every stage can (the checksum trailers, headers) instead of a copy
 * in the arena. Bytes pipelines only. The arena is reset as in codec_dec:
 * a caller keeps one for the pipelines that fall back to it. */
static void *codec_view_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    if (p->model) {
        snprintf(why, cap, "codec_decode_view takes bytes pipelines");
        return NULL;
    }
    return open_typed(spec, p, NULL, why, cap);
}

static int codec_dec_view(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                          size_t *len)
{
    codec_worker *w = worker;
    codec_arena_reset(&w->arena);
    if (codec_decode_view(w->s->c, in, n, &w->bytes, NULL, &w->arena, NULL) != 0)
        return -1;
    *out = w->bytes.data;
    *len = w->bytes.len;
    return 0;
}

const bench_driver bench_driver_codec_view = {
    "codec", codec_version, codec_view_open, codec_close, codec_worker_new, codec_worker_free,
    codec_enc, codec_dec_view, codec_matches, codec_tally, NULL};

#ifdef BENCH_HAVE_CODEC_GEN_FORY
/* The "codec-gen-fory" cells: this driver on the types codec-gen
 * --specialize generated from bench/fory_models.fdl, whose Fory functions
 * (codec/codegen.h) the backend runs. The generated structs have the bench
 * structs' layout (same_layout checks it), so the cells do the codec cells'
 * work on the same values, through the generated code instead of the
 * descriptor path; their encoding of the payload must equal the codec
 * cell's byte for byte before they are timed. */

static const codec_type *fory_gen_type(const bench_payload *p)
{
    static const struct {
        const char *payload;
        const codec_type *type;
    } rows[] = {{"person", &fbench_Person_type},
                {"order", &fbench_Order_type},
                {"media-item", &fbench_MediaItem_type},
                {"media-content", &fbench_MediaContent_type},
                {"struct", &fbench_NumericStruct_type}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (strcmp(p->name, rows[i].payload) == 0)
            return rows[i].type;
    return NULL;
}

/* Same kinds, sizes, member offsets and enum numbers, all the way down. */
static bool same_layout(const codec_type *a, const codec_type *b)
{
    if (a->kind != b->kind || a->size != b->size || a->count != b->count ||
        a->value_offset != b->value_offset || !a->elem != !b->elem ||
        (a->elem && !same_layout(a->elem, b->elem)))
        return false;
    for (size_t i = 0; a->kind == CODEC_T_STRUCT && i < a->count; i++)
        if (a->fields[i].offset != b->fields[i].offset ||
            !same_layout(a->fields[i].type, b->fields[i].type))
            return false;
    for (size_t i = 0; a->kind == CODEC_T_ENUM && i < a->count; i++)
        if (a->values[i].number != b->values[i].number)
            return false;
    return true;
}

/* Whether t holds a struct (in a field, a list or an optional). */
static bool holds_struct(const codec_type *t)
{
    for (size_t i = 0; i < t->count; i++) {
        const codec_type *f = t->fields[i].type;
        while (f->kind == CODEC_T_LIST || f->kind == CODEC_T_OPTIONAL)
            f = f->elem;
        if (f->kind == CODEC_T_STRUCT)
            return true;
    }
    return false;
}

static void *gen_fory_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    const codec_type *gen = fory_gen_type(p), *model = bench_model_type(p);
    if (!gen || !model) {
        snprintf(why, cap, "fory_models.fdl has person, order, media-item, media-content and "
                           "struct only");
        return NULL;
    }
    if (strncmp(spec, "fory", 4) != 0) {
        snprintf(why, cap, "the codec-gen-fory cells' specs are Fory's");
        return NULL;
    }
    if (!same_layout(gen, model) || !gen->codegen || !gen->codegen->reserved[0]) {
        snprintf(why, cap, "the generated %s has not the bench struct's layout, or no Fory "
                           "functions", gen->name ? gen->name : "type");
        return NULL;
    }
    if (strstr(spec, "compatible") && holds_struct(gen)) {
        /* codec/codegen.h: held structs carry TypeDefs there */
        snprintf(why, cap, "compatible mode: the generated code is used for structs that "
                           "hold no struct");
        return NULL;
    }
    codec_shared *s = open_typed(spec, p, gen, why, cap), *d = NULL;
    codec_buf a, b;
    codec_buf_init(&a, NULL);
    codec_buf_init(&b, NULL);
    bool same = s && (d = open_typed(spec, p, model, why, cap)) &&
                codec_encode(s->c, p->value, &a, NULL) == 0 &&
                codec_encode(d->c, p->value, &b, NULL) == 0 && a.len == b.len &&
                memcmp(a.data, b.data, a.len) == 0;
    codec_buf_free(&a);
    codec_buf_free(&b);
    if (d)
        codec_close(d);
    if (s && !same) {
        snprintf(why, cap, "the generated code's bytes differ from the descriptor path's");
        codec_close(s);
        return NULL;
    }
    return s;
}

static const char *gen_fory_version(void)
{
    return "codec " CODEC_VERSION_STRING " (codec-gen --specialize, Fory)";
}

const bench_driver bench_driver_codec_gen_fory = {
    "codec-gen-fory", gen_fory_version, gen_fory_open, codec_close, codec_worker_new,
    codec_worker_free, codec_enc, codec_dec, codec_matches, codec_tally, NULL};
#endif
