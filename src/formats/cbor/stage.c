/* stage.c — the `cbor` backend stage and codec_cbor(). The stage state is
 * the resolved option block; the type is checked once, here. */
#include "compose/stage_internal.h"
#include "formats/cbor/cbor_internal.h"

#include <stdio.h>

void cbor_options_resolve(const codec_cbor_options *in, codec_cbor_options *out)
{
    static const codec_cbor_options zero;
    *out = in ? *in : zero;
    if (!out->max_depth)
        out->max_depth = CODEC_CBOR_DEFAULT_MAX_DEPTH;
    if (out->max_depth > CODEC_CBOR_MAX_DEPTH_LIMIT)
        out->max_depth = CODEC_CBOR_MAX_DEPTH_LIMIT;
    if (!out->max_size)
        out->max_size = CODEC_CBOR_DEFAULT_MAX_SIZE;
    if (!out->max_string)
        out->max_string = CODEC_CBOR_DEFAULT_MAX_STRING;
    if (!out->max_elements)
        out->max_elements = CODEC_CBOR_DEFAULT_MAX_ELEMENTS;
}

static int cbor_encode_value(const codec_stage *s, const void *value, codec_buf *out,
                             codec_error *err)
{
    size_t base = out->len;
    int rc = cbor_encode_typed(s->type, value, s->state, out, err);
    if (rc)
        out->len = base;
    return rc;
}

static int cbor_decode_value(const codec_stage *s, const uint8_t *src, size_t n,
                             void *value_out, codec_arena *arena, codec_error *err)
{
    return cbor_decode_typed(s->type, src, n, value_out, s->state, arena, err);
}

static void cbor_destroy(codec_stage *s)
{
    const codec_allocator *a = codec_default_allocator();
    a->release(a->ctx, s->state, sizeof(codec_cbor_options));
}

static const codec_stage_ops cbor_ops = {
    .encode_value = cbor_encode_value,
    .decode_value = cbor_decode_value,
    .destroy = cbor_destroy,
};

static int read_options(codec_args *a, codec_cbor_options *o, codec_error *err)
{
    static const char *const modes[] = {"plain", "deterministic", NULL};
    static const char *const keys[] = {"names", "tags", NULL};
    static const char *const unknown[] = {"skip", "reject", NULL};
    static const char *const require[] = {"none", "all", NULL};
    static const char *const dups[] = {"reject", "allow", NULL};
    size_t mode, key, unk, req, dup;
    int rc;
    if ((rc = codec_args_choice(a, "mode", true, modes, 0, &mode, err)) ||
        (rc = codec_args_choice(a, "keys", false, keys, 0, &key, err)) ||
        (rc = codec_args_choice(a, "unknown", false, unknown, 0, &unk, err)) ||
        (rc = codec_args_choice(a, "require", false, require, 0, &req, err)) ||
        (rc = codec_args_choice(a, "duplicates", false, dups, 0, &dup, err)) ||
        (rc = codec_args_size(a, "max-depth", false, CODEC_CBOR_DEFAULT_MAX_DEPTH, 1,
                              CODEC_CBOR_MAX_DEPTH_LIMIT, &o->max_depth, err)) ||
        (rc = codec_args_size(a, "max-size", false, CODEC_CBOR_DEFAULT_MAX_SIZE, 1, SIZE_MAX,
                              &o->max_size, err)) ||
        (rc = codec_args_size(a, "max-string", false, CODEC_CBOR_DEFAULT_MAX_STRING, 0,
                              SIZE_MAX, &o->max_string, err)) ||
        (rc = codec_args_size(a, "max-elements", false, CODEC_CBOR_DEFAULT_MAX_ELEMENTS, 0,
                              SIZE_MAX, &o->max_elements, err)))
        return rc;
    o->deterministic = mode == 1;
    o->tag_keys = key == 1;
    o->reject_unknown = unk == 1;
    o->require_all = req == 1;
    o->allow_duplicates = dup == 1;
    return CODEC_OK;
}

int codec_stage_ctor_cbor(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    codec_cbor_options o = {0};
    int rc = read_options(a, &o, err);
    if (rc || (rc = codec_type_check(t, err)))
        return rc;
    const codec_allocator *al = codec_default_allocator();
    codec_cbor_options *state = al->alloc(al->ctx, sizeof *state);
    if (!state)
        return CBOR_NOMEM(err);
    *state = o;
    s->ops = &cbor_ops;
    s->state = state;
    s->type = t;
    return CODEC_OK;
}

codec *codec_cbor(const codec_type *t, const codec_cbor_options *o, codec_error *err)
{
    codec_cbor_options r;
    cbor_options_resolve(o, &r);
    char args[256];
    /* The spec text is what codec_spec() shows; defaults are left out. */
    int n = snprintf(args, sizeof args, "%s", r.deterministic ? "deterministic" : "");
    const struct {
        bool on;
        const char *text;
    } flags[] = {{r.tag_keys, "keys=tags"},
                 {r.reject_unknown, "unknown=reject"},
                 {r.require_all, "require=all"},
                 {r.allow_duplicates, "duplicates=allow"}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (flags[i].on)
            n += snprintf(args + n, sizeof args - (size_t)n, "%s%s", n ? "," : "",
                          flags[i].text);
    const struct {
        size_t value, def;
        const char *key;
    } limits[] = {{r.max_depth, CODEC_CBOR_DEFAULT_MAX_DEPTH, "max-depth"},
                  {r.max_size, CODEC_CBOR_DEFAULT_MAX_SIZE, "max-size"},
                  {r.max_string, CODEC_CBOR_DEFAULT_MAX_STRING, "max-string"},
                  {r.max_elements, CODEC_CBOR_DEFAULT_MAX_ELEMENTS, "max-elements"}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (limits[i].value != limits[i].def)
            n += snprintf(args + n, sizeof args - (size_t)n, "%s%s=%zu", n ? "," : "",
                          limits[i].key, limits[i].value);
    return codec_make("cbor", args, t, err);
}
