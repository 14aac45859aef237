/* versioned.c — the versioned header [C0 DC][version][payload]: the spec
 * stage `versioned:V[,accept=LIST]` and the routing codec_versioned(). */
#include "codec/framing.h"
#include "compose/stage_internal.h"
#include "compose/stream_internal.h"
#include "core/error_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC0 0xC0
#define MAGIC1 0xDC
#define HEADER_SIZE 3
#define STAGE "versioned"      /* the error stage, as the registry names it */

typedef struct versioned_state {
    uint8_t write_version;
    uint8_t accept[32];       /* bit v set: version v is read */
    bool routed;              /* routes[] is present (codec_versioned) */
    codec *routes[];          /* routed only: per version, NULL = as is */
} versioned_state;

static bool accepts(const versioned_state *st, unsigned v)
{
    return st->accept[v / 8] >> (v % 8) & 1;
}

static size_t state_size(bool routed)
{
    return sizeof(versioned_state) + (routed ? 256 * sizeof(codec *) : 0);
}

/* Frees the state and the route codecs it holds. */
static void state_free(versioned_state *st)
{
    if (st->routed)
        for (size_t v = 0; v < 256; v++)
            codec_free(st->routes[v]);
    codec_default_allocator()->release(NULL, st, state_size(st->routed));
}

static void versioned_destroy(codec_stage *s)
{
    state_free(s->state);
}

/* Writes the accepted versions as "1-3,7" (the `accept=` syntax). */
static void format_versions(const versioned_state *st, char *dst, size_t cap)
{
    size_t used = 0;
    dst[0] = '\0';
    for (unsigned v = 1; v < 256 && used < cap; v++) {
        if (!accepts(st, v))
            continue;
        unsigned last = v;
        while (last < 255 && accepts(st, last + 1))
            last++;
        int w = last == v ? snprintf(dst + used, cap - used, "%s%u", used ? "," : "", v)
                          : snprintf(dst + used, cap - used, "%s%u-%u", used ? "," : "", v, last);
        used += w > 0 ? (size_t)w : 0;
        v = last;
    }
}

static int versioned_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                            codec_error *err)
{
    const versioned_state *st = s->state;
    const uint8_t header[HEADER_SIZE] = {MAGIC0, MAGIC1, st->write_version};
    size_t base = out->len;
    const codec *route = st->routed ? st->routes[st->write_version] : NULL;
    if (codec_buf_append(out, header, HEADER_SIZE) ||
        (!route && codec_buf_append(out, src, n))) {
        out->len = base;
        return codec__nomem(err, s->name);
    }
    if (!route)
        return CODEC_OK;
    int rc = codec__run_encode(route, src, n, out, err);
    if (rc)
        out->len = base;
    return rc;
}

/* The header checks of decode, in its order, on src[0..n) (the n <= 3
 * bytes seen so far of a stream; all of it when `whole`). The stream and
 * codec inspect (codec__inspect_versioned) run the same: inspect with no
 * state (any version but 0 is accepted) and `field` reporting what the
 * checks read. */
static int read_header(const versioned_state *st, const uint8_t *src, size_t n, bool whole,
                       codec_inspect_fn field, void *ctx, codec_error *err)
{
    if (n >= 1 && src[0] != MAGIC0)
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_BAD_MAGIC, STAGE, 0,
                               "bad magic: not a versioned header (expected C0 DC)");
    if (n >= 2 && src[1] != MAGIC1)
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_BAD_MAGIC, STAGE, 1,
                               "bad magic: not a versioned header (expected C0 DC)");
    if (n < HEADER_SIZE)
        return whole ? codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, STAGE, n,
                                       "input of %zu bytes is shorter than the 3-byte "
                                       "versioned header", n)
                     : CODEC_OK;
    unsigned v = src[2];
    codec__inspect_printf(field, ctx, "version", "%u", v);
    if (v == 0)
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, STAGE, 2,
                               "version 0 is reserved and never valid");
    if (st && !accepts(st, v)) {
        char list[160];
        format_versions(st, list, sizeof list);
        return codec_error_set(err, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, STAGE, 2,
                               "unsupported version %u (accepted: %s)", v, list);
    }
    codec__inspect_printf(field, ctx, "payload size", "%zu", n - HEADER_SIZE);
    return CODEC_OK;
}

static int versioned_check(const codec_stage *s, const uint8_t *src, size_t n, bool whole,
                           codec_error *err)
{
    return read_header(s->state, src, n, whole, NULL, NULL, err);
}

int codec__inspect_versioned(const uint8_t *p, size_t n, codec_inspect_fn field, void *ctx,
                             size_t *header_len, codec_error *err)
{
    int rc = read_header(NULL, p, n, true, field, ctx, err);
    if (rc == CODEC_OK && header_len)
        *header_len = HEADER_SIZE;
    return rc;
}

/* The payload after the header, unless the version has a route: its codec
 * decodes then (CODEC__NO_VIEW; a route of views too: the stage interface
 * has no nested view). */
static int versioned_view(const codec_stage *s, const uint8_t *src, size_t n, codec_bytes *body,
                          codec_error *err)
{
    const versioned_state *st = s->state;
    int rc = versioned_check(s, src, n, true, err);
    if (rc)
        return rc;
    if (st->routed && st->routes[src[2]])
        return CODEC__NO_VIEW;
    body->data = src + HEADER_SIZE;
    body->len = n - HEADER_SIZE;
    return CODEC_OK;
}

/* The view, copied to out, or the version's route. */
static int versioned_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                            codec_error *err)
{
    const versioned_state *st = s->state;
    codec_bytes body;
    int rc = versioned_view(s, src, n, &body, err);
    if (rc == CODEC__NO_VIEW)
        return codec__run_decode(st->routes[src[2]], src + HEADER_SIZE, n - HEADER_SIZE, out,
                                 err);
    if (rc)
        return rc;
    if (codec_buf_append(out, body.data, body.len))
        return codec__nomem(err, s->name);
    return CODEC_OK;
}

/* ---- streaming: the header, then the payload as it comes. A routed
 * stage (codec_versioned) holds its input whole. */

typedef struct versioned_stream {
    codec__push p;
    uint8_t head[HEADER_SIZE];
    size_t head_len;
} versioned_stream;

static int versioned_feed(codec__push *p, const uint8_t *src, size_t n, uint64_t at,
                          codec_buf *out, codec_error *err)
{
    versioned_stream *v = (versioned_stream *)p;
    const codec_stage *s = p->base.stage;
    (void)at;
    if (!p->base.decode) {
        const uint8_t header[HEADER_SIZE] = {MAGIC0, MAGIC1,
                                             ((const versioned_state *)s->state)->write_version};
        if (v->head_len == 0 && codec_buf_append(out, header, HEADER_SIZE))
            return codec__stream_nomem(s, err);
        v->head_len = HEADER_SIZE;
        return codec_buf_append(out, src, n) ? codec__stream_nomem(s, err) : CODEC_OK;
    }
    while (n && v->head_len < HEADER_SIZE) {
        v->head[v->head_len++] = *src++;
        n--;
        int rc = versioned_check(s, v->head, v->head_len, false, err);
        if (rc)
            return rc;
    }
    return codec_buf_append(out, src, n) ? codec__stream_nomem(s, err) : CODEC_OK;
}

static int versioned_finish(codec__push *p, uint64_t at, codec_buf *out, codec_error *err)
{
    versioned_stream *v = (versioned_stream *)p;
    if (!p->base.decode)
        return v->head_len ? CODEC_OK : versioned_feed(p, (const uint8_t *)"", 0, at, out, err);
    return v->head_len < HEADER_SIZE
               ? versioned_check(p->base.stage, v->head, v->head_len, true, err)
               : CODEC_OK;
}

static const codec__push_ops versioned_push_ops = {.feed = versioned_feed,
                                                   .finish = versioned_finish};

static int versioned_stream_open(const codec_stage *s, bool decode, codec__sstream **out,
                                 codec_error *err)
{
    if (((const versioned_state *)s->state)->routed)
        return codec__whole_open(s, decode, CODEC_DEFAULT_MAX_OUTPUT, out, err);
    codec__push *p = codec__push_new(sizeof(versioned_stream), &versioned_push_ops, s, decode);
    if (!p)
        return codec__stream_nomem(s, err);
    *out = &p->base;
    return CODEC_OK;
}

static const codec_stage_ops versioned_ops = {.encode = versioned_encode,
                                              .decode = versioned_decode,
                                              .destroy = versioned_destroy,
                                              .stream_open = versioned_stream_open,
                                              .view = versioned_view};

static versioned_state *state_new(bool routed)
{
    versioned_state *st = codec_default_allocator()->alloc(NULL, state_size(routed));
    if (st) {
        memset(st, 0, state_size(routed));
        st->routed = routed;
    }
    return st;
}

/* Parses one "N" or "N-M" (1..255) from *p. */
static bool parse_version(const char **p, unsigned *out)
{
    if (**p < '0' || **p > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long v = strtoul(*p, &end, 10);
    if (errno || v < 1 || v > 255)
        return false;
    *p = end;
    *out = (unsigned)v;
    return true;
}

/* Sets the bits of "1-3,7" in st->accept. */
static bool parse_accept(versioned_state *st, const char *list)
{
    const char *p = list;
    for (;;) {
        unsigned lo, hi;
        if (!parse_version(&p, &lo))
            return false;
        hi = lo;
        if (*p == '-' && (++p, !parse_version(&p, &hi) || hi < lo))
            return false;
        for (unsigned v = lo; v <= hi; v++)
            st->accept[v / 8] |= (uint8_t)(1u << (v % 8));
        if (*p == '\0')
            return true;
        if (*p++ != ',')
            return false;
    }
}

int codec__stage_ctor_versioned(codec_stage *s, codec_args *a, const codec_type *t,
                                codec_error *err)
{
    (void)t;
    long version;
    const char *accept;
    int rc = codec__args_int(a, "version", true, 1, 1, 255, &version, err);
    if (!rc)
        rc = codec__args_string(a, "accept", false, &accept, err);
    if (rc)
        return rc;
    versioned_state *st = state_new(false);
    if (!st)
        return codec__nomem(err, s->name);
    st->write_version = (uint8_t)version;
    if (!accept)
        st->accept[version / 8] |= (uint8_t)(1u << (version % 8));
    else if (!parse_accept(st, accept)) {
        state_free(st);
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                               "bad accept '%s': expected versions 1..255 and ranges, "
                               "e.g. 1-3,7", accept);
    }
    s->ops = &versioned_ops;
    s->state = st;
    return CODEC_OK;
}

codec *codec_versioned_header(unsigned write_version, const char *accept, codec_error *err)
{
    char args[300];
    int w = snprintf(args, sizeof args, "%u%s%s", write_version, accept ? ",accept=" : "",
                     accept ? accept : "");
    if (w < 0 || (size_t)w >= sizeof args) {
        codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "versioned", CODEC_NO_OFFSET,
                        "accept list too long");
        return NULL;
    }
    return codec__make("versioned", args, NULL, err);
}

/* Checks the table; on success every route codec is in st. */
static int routes_take(versioned_state *st, uint8_t write_version,
                       const codec_version_route *routes, size_t n, codec_error *err)
{
    if (n == 0 || !routes)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "versioned",
                               CODEC_NO_OFFSET, "codec_versioned needs at least one route");
    for (size_t i = 0; i < n; i++) {
        unsigned v = routes[i].version;
        if (v == 0 || accepts(st, v))
            return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "versioned",
                                   CODEC_NO_OFFSET, "route %zu: version %u %s", i, v,
                                   v ? "appears twice" : "is reserved (use 1..255)");
        if (routes[i].codec && codec__has_backend(routes[i].codec))
            return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "versioned",
                                   CODEC_NO_OFFSET,
                                   "route %zu: version %u has a typed codec; routes must be "
                                   "bytes codecs (put the backend in front)", i, v);
        st->accept[v / 8] |= (uint8_t)(1u << (v % 8));
    }
    if (!accepts(st, write_version))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "versioned",
                               CODEC_NO_OFFSET, "write version %u has no route", write_version);
    for (size_t i = 0; i < n; i++)
        st->routes[routes[i].version] = routes[i].codec;
    st->write_version = write_version;
    return CODEC_OK;
}

codec *codec_versioned(uint8_t write_version, const codec_version_route *routes, size_t n,
                       codec_error *err)
{
    versioned_state *st = state_new(true);
    int rc = st ? routes_take(st, write_version, routes, n, err)
                : codec__nomem(err, "versioned");
    if (rc) {
        for (size_t i = 0; routes && i < n; i++)
            codec_free(routes[i].codec);
        if (st)
            state_free(st); /* holds no routes yet: they are freed above */
        return NULL;
    }
    codec_stage s = {.ops = &versioned_ops, .kind = CODEC_KIND_FRAMING, .state = st};
    snprintf(s.name, sizeof s.name, "versioned");
    char list[64];
    format_versions(st, list, sizeof list);
    snprintf(s.spec, sizeof s.spec, "versioned:%u,accept=%s", write_version, list);
    return codec__from_stage(&s, err);
}
