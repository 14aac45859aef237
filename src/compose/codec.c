/* codec.c — the codec handle: a backend (optional) followed by transforms. */
#include "stage_internal.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <string.h>

struct codec {
    size_t count;
    char *spec;             /* "json | zstd:3 | base64", owned */
    codec_stage stages[];   /* stages[0] may be a backend */
};

static const codec_allocator *heap(void)
{
    return codec_default_allocator();
}

static int nomem(codec_error *err, const char *stage)
{
    return codec__nomem(err, stage);
}

void codec__stage_destroy(codec_stage *s)
{
    if (s->ops && s->ops->destroy)
        s->ops->destroy(s);
    s->ops = NULL;
    s->state = NULL;
}

int codec__stage_check_cap(const codec_stage *s, size_t needed, codec_error *err)
{
    if (s->max_output && needed > s->max_output)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, CODEC_NO_OFFSET,
                          "decoded size %zu exceeds the limit of %zu bytes (raise max=)",
                          needed, s->max_output);
    return CODEC_OK;
}

static codec *codec_alloc(size_t count)
{
    codec *c = heap()->alloc(NULL, sizeof *c + count * sizeof c->stages[0]);
    if (c) {
        c->count = 0;
        c->spec = NULL;
    }
    return c;
}

static void codec_release_shell(codec *c)
{
    if (c->spec)
        heap()->release(NULL, c->spec, strlen(c->spec) + 1);
    heap()->release(NULL, c, sizeof *c + c->count * sizeof c->stages[0]);
}

/* Joins the stage specs with " | " into c->spec. */
static int codec_build_spec(codec *c, codec_error *err)
{
    size_t len = 1;
    for (size_t i = 0; i < c->count; i++)
        len += strlen(c->stages[i].spec) + (i ? 3 : 0);
    c->spec = heap()->alloc(NULL, len);
    if (!c->spec)
        return nomem(err, "codec");
    size_t used = 0;
    c->spec[0] = '\0';
    for (size_t i = 0; i < c->count; i++)
        used += (size_t)snprintf(c->spec + used, len - used, "%s%s", i ? " | " : "",
                                 c->stages[i].spec);
    return CODEC_OK;
}

void codec_free(codec *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->count; i++)
        codec__stage_destroy(&c->stages[i]);
    codec_release_shell(c);
}

codec *codec_parse(const char *spec, const codec_type *type, codec_error *err)
{
    if (!spec) {
        codec_error_set(err, CODEC_E_USAGE, CODEC_D_SPEC, "spec", CODEC_NO_OFFSET, "no spec");
        return NULL;
    }
    size_t cap = codec__spec_stage_bound(spec);
    codec *c = codec_alloc(cap);
    if (!c) {
        nomem(err, "spec");
        return NULL;
    }
    size_t count = 0;
    if (codec__spec_parse(spec, type, c->stages, cap, &count, err)) {
        codec_release_shell(c);
        return NULL;
    }
    c->count = count;
    if (codec_build_spec(c, err)) {
        codec_free(c);
        return NULL;
    }
    return c;
}

codec *codec__from_stage(const codec_stage *s, codec_error *err)
{
    codec *c = codec_alloc(1);
    if (!c) {
        codec_stage tmp = *s;
        codec__stage_destroy(&tmp);
        nomem(err, s->name);
        return NULL;
    }
    c->stages[0] = *s;
    c->count = 1;
    if (codec_build_spec(c, err)) {
        codec_free(c);
        return NULL;
    }
    return c;
}

codec *codec__make(const char *name, const char *args_text, const codec_type *type,
                   codec_error *err)
{
    char spec[2048];
    int w = snprintf(spec, sizeof spec, "%s%s%s", name, args_text && *args_text ? ":" : "",
                     args_text ? args_text : "");
    if (w < 0 || (size_t)w >= sizeof spec) {
        codec_error_set(err, CODEC_E_USAGE, CODEC_D_SPEC, name, CODEC_NO_OFFSET,
                        "arguments too long");
        return NULL;
    }
    return codec_parse(spec, type, err);
}

codec *codec_then(codec *first, codec *next, codec_error *err)
{
    codec *c = NULL;
    if (!first || !next) {
        codec_error_set(err, CODEC_E_USAGE, 0, "codec", CODEC_NO_OFFSET,
                        "codec_then needs two codecs");
    } else if (next->count && next->stages[0].kind == CODEC_KIND_BACKEND) {
        codec_error_set(err, CODEC_E_USAGE, 0, next->stages[0].name, CODEC_NO_OFFSET,
                        "a backend can only be the first stage");
    } else if (!(c = codec_alloc(first->count + next->count))) {
        nomem(err, "codec");
    } else {
        /* Move the stages (and the ownership of their state) into c. */
        memcpy(c->stages, first->stages, first->count * sizeof c->stages[0]);
        memcpy(c->stages + first->count, next->stages, next->count * sizeof c->stages[0]);
        c->count = first->count + next->count;
        first->count = next->count = 0;
        if (codec_build_spec(c, err)) {
            codec_free(c);
            c = NULL;
        }
    }
    codec_free(first);
    codec_free(next);
    return c;
}

const char *codec_spec(const codec *c)
{
    return c->spec;
}

size_t codec_stage_count(const codec *c)
{
    return c->count;
}

bool codec__has_backend(const codec *c)
{
    return c->count && c->stages[0].kind == CODEC_KIND_BACKEND;
}

/* The spare buffer that multi-stage encodes ping-pong through. */
static codec_buf *spare_of(codec_buf *out)
{
    if (!out->spare) {
        out->spare = out->alloc->alloc(out->alloc->ctx, sizeof *out->spare);
        if (out->spare)
            codec_buf_init(out->spare, out->alloc);
    }
    return out->spare;
}

static bool buf_holds(const codec_buf *b, const uint8_t *p)
{
    return b->data && (uintptr_t)p >= (uintptr_t)b->data &&
           (uintptr_t)p < (uintptr_t)b->data + b->cap;
}

/* A scratch buffer for a pipeline that writes to `out` and reads `src`:
 * the first buffer down out's spare chain that does not hold `src`. At the
 * top level that is out->spare; a pipeline nested in a stage (see
 * codec__run_encode) may be reading the outer pipeline's spare, and then
 * takes the one after it. */
static codec_buf *scratch_for(codec_buf *out, const uint8_t *src)
{
    codec_buf *b = spare_of(out);
    while (b && buf_holds(b, src))
        b = spare_of(b);
    return b;
}

/* Runs the transforms first..count-1 of c on cur[0..cur_len). Stage i
 * writes to `out` (from `base`) when (count - 1 - i) is even, else to
 * `spare`, so the last stage always lands in `out` and no stage reads what
 * it writes. */
static int encode_transforms(const codec *c, size_t first, const uint8_t *cur, size_t cur_len,
                             codec_buf *out, size_t base, codec_buf *spare, codec_error *err)
{
    for (size_t i = first; i < c->count; i++) {
        codec_buf *dst = (c->count - 1 - i) % 2 == 0 ? out : spare;
        size_t start = dst == out ? base : 0;
        dst->len = start;
        int rc =
            codec__stage_encode(&c->stages[i], cur ? cur : (const uint8_t *)"", cur_len, dst, err);
        if (rc) {
            out->len = base;
            return rc;
        }
        cur = dst->data ? dst->data + start : NULL; /* NULL: empty, nothing allocated */
        cur_len = dst->len - start;
    }
    return CODEC_OK;
}

/* codec_encode past its checks when c is more than a lone backend. */
static __attribute__((noinline)) int encode_pipeline(const codec *c, const void *value,
                                                     codec_buf *out, codec_error *err)
{
    size_t base = out->len;
    size_t first = codec__has_backend(c) ? 1 : 0;
    codec_buf *spare = c->count > 1 ? spare_of(out) : NULL;
    if (c->count > 1 && !spare)
        return nomem(err, "codec");

    const uint8_t *cur = NULL;
    size_t cur_len = 0;
    if (first) {
        codec_buf *dst = (c->count - 1) % 2 == 0 ? out : spare;
        dst->len = dst == out ? base : 0;
        int rc = c->stages[0].ops->encode_value(&c->stages[0], value, dst, err);
        if (rc) {
            out->len = base;
            return rc;
        }
        cur = dst->data + (dst == out ? base : 0);
        cur_len = dst->len - (dst == out ? base : 0);
    } else {
        const codec_bytes *in = value;
        cur = in->data;
        cur_len = in->len;
    }
    return encode_transforms(c, first, cur, cur_len, out, base, spare, err);
}

int codec_encode(const codec *c, const void *value, codec_buf *out, codec_error *err)
{
    if (!c || !value || !out)
        return codec_error_set(err, CODEC_E_USAGE, 0, "codec", CODEC_NO_OFFSET,
                               "codec_encode needs a codec, a value and a buffer");
    /* A lone backend writes straight into out: no spare, no loop, and a
     * tail call (every encode_value restores out->len on failure). */
    if (c->count == 1 && c->stages[0].kind == CODEC_KIND_BACKEND)
        return c->stages[0].ops->encode_value(&c->stages[0], value, out, err);
    /* A lone ungated transform (`crc32c`, `lz4`): its encode, no loop. */
    if (c->count == 1 && !c->stages[0].gate) {
        const codec_bytes *in = value;
        size_t base = out->len;
        int rc = c->stages[0].ops->encode(&c->stages[0], in->data ? in->data : (const uint8_t *)"",
                                          in->len, out, err);
        if (rc)
            out->len = base;
        return rc;
    }
    return encode_pipeline(c, value, out, err);
}

int codec__run_encode(const codec *c, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    codec_buf *spare = c->count > 1 ? scratch_for(out, src) : NULL;
    if (c->count > 1 && !spare)
        return nomem(err, "codec");
    return encode_transforms(c, 0, src, n, out, out->len, spare, err);
}

int codec__run_decode(const codec *c, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    /* Intermediate results grow with out's allocator (the caller's arena
     * during codec_decode) and are released as soon as they are consumed. */
    codec_buf held;
    codec_buf_init(&held, out->alloc);
    int rc = CODEC_OK;
    for (size_t i = c->count; i-- > 0 && rc == CODEC_OK;) {
        codec_buf next;
        codec_buf_init(&next, out->alloc);
        rc = codec__stage_decode(&c->stages[i], src, n, i ? &next : out, err);
        codec_buf_free(&held);
        held = next;
        src = held.data ? held.data : (const uint8_t *)"";
        n = held.len;
    }
    codec_buf_free(&held);
    return rc;
}

/* The transforms first..count-1 of c, right to left, from *cur to their
 * result in *cur. Each decodes into the arena, or, with `borrowed` (the
 * view decode), a stage that can returns a sub-range of its input instead
 * (codec__stage_view); *borrowed turns false at the first stage that
 * decodes, which needs an arena (NULL: CODEC_E_USAGE). Inlined in both
 * callers: the view's fixed cost over its kernel is on this path. */
static inline __attribute__((always_inline)) int
decode_transforms(const codec *c, size_t first, codec_bytes *cur, codec_arena *arena,
                  bool *borrowed, codec_error *err)
{
    for (size_t i = c->count; i-- > first;) {
        const codec_stage *s = &c->stages[i];
        int rc = borrowed ? codec__stage_view(s, cur->data, cur->len, cur, err) : CODEC__NO_VIEW;
        if (rc == CODEC__NO_VIEW) {
            if (!arena)
                return codec_error_set(err, CODEC_E_USAGE, 0, s->name, CODEC_NO_OFFSET,
                                       "%s decodes to new bytes: codec_decode_view needs an "
                                       "arena for this codec", s->name);
            /* codec_buf_init(&dst, codec_arena_allocator(arena)), inline */
            codec_buf dst = {NULL, 0, 0, &arena->as_allocator, NULL};
            rc = codec__stage_decode(s, cur->data, cur->len, &dst, err);
            cur->data = dst.data ? dst.data : (const uint8_t *)"";
            cur->len = dst.len;
            if (borrowed)
                *borrowed = false;
        }
        if (rc)
            return rc;
    }
    return CODEC_OK;
}

/* codec_decode past the fast path: the transforms right to left, then the
 * backend. Out of line, so the fast path's prologue stays short. */
static __attribute__((noinline)) int decode_pipeline(const codec *c, const uint8_t *cur,
                                                     size_t cur_len, void *value_out,
                                                     codec_arena *arena, codec_error *err)
{
    size_t first = codec__has_backend(c) ? 1 : 0;
    codec_bytes bytes = {cur, cur_len};
    int rc = decode_transforms(c, first, &bytes, arena, NULL, err);
    if (rc)
        return rc;
    if (first)
        return c->stages[0].ops->decode_value(&c->stages[0], bytes.data, bytes.len, value_out,
                                              arena, err);
    *(codec_bytes *)value_out = bytes;
    return CODEC_OK;
}

int codec_decode(const codec *c, const uint8_t *in, size_t n, void *value_out,
                 codec_arena *arena, codec_error *err)
{
    if (!c || (!in && n) || !value_out || !arena)
        return codec_error_set(err, CODEC_E_USAGE, 0, "codec", CODEC_NO_OFFSET,
                               "codec_decode needs a codec, input, an output and an arena");
    const uint8_t *cur = in ? in : (const uint8_t *)"";
    /* A bytes codec of one ungated transform (`lz4`, `snappy`, `crc32c`):
     * the stage's decode straight into the arena. This is the fixed cost
     * every such decode pays over its library. */
    const codec_stage *s = &c->stages[0];
    if (c->count == 1 && s->kind != CODEC_KIND_BACKEND && !s->gate) {
        codec_buf dst = {NULL, 0, 0, &arena->as_allocator, NULL};
        int rc = s->ops->decode(s, cur, n, &dst, err);
        codec_bytes *bytes = value_out;
        bytes->data = dst.data ? dst.data : (const uint8_t *)"";
        bytes->len = dst.len;
        return rc;
    }
    return decode_pipeline(c, cur, n, value_out, arena, err);
}

int codec_decode_view(const codec *c, const uint8_t *in, size_t n, codec_bytes *out,
                      bool *borrowed, codec_arena *arena, codec_error *err)
{
    if (!c || (!in && n) || !out)
        return codec_error_set(err, CODEC_E_USAGE, 0, "codec", CODEC_NO_OFFSET,
                               "codec_decode_view needs a codec, input and an output");
    if (codec__has_backend(c))
        return codec_error_set(err, CODEC_E_USAGE, 0, c->stages[0].name, CODEC_NO_OFFSET,
                               "codec_decode_view takes a bytes pipeline; %s decodes to a "
                               "typed value (use codec_decode)", c->stages[0].name);
    bool held = true;
    out->data = in ? in : (const uint8_t *)"";
    out->len = n;
    int rc = decode_transforms(c, 0, out, arena, &held, err);
    if (rc == CODEC_OK && borrowed)
        *borrowed = held;
    return rc;
}

const codec_stage *codec__stage_at(const codec *c, size_t i)
{
    return i < c->count ? &c->stages[i] : NULL;
}
