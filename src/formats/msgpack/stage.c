/* stage.c — the `msgpack` backend stage, codec_msgpack() and the ext
 * descriptor. */
#include "compose/stage_internal.h"
#include "formats/msgpack/msgpack_internal.h"

#include <stdio.h>

static const codec_field ext_fields[] = {
    CODEC_FIELD(codec_msgpack_ext, type, 1, CODEC_INT8),
    CODEC_FIELD(codec_msgpack_ext, data, 2, CODEC_BYTES)};
static codec_type_cache ext_cache;
const codec_type codec_msgpack_ext_type = {
    .kind = CODEC_T_STRUCT, .name = "msgpack_ext", .size = sizeof(codec_msgpack_ext),
    .align = alignof(codec_msgpack_ext), .fields = ext_fields, .count = 2, .cache = &ext_cache};

void mp_options_resolve(const codec_msgpack_options *in, codec_msgpack_options *out)
{
    static const codec_msgpack_options zero;
    *out = in ? *in : zero;
    if (!out->max_depth)
        out->max_depth = CODEC_MSGPACK_DEFAULT_MAX_DEPTH;
    if (out->max_depth > CODEC_MSGPACK_MAX_DEPTH_LIMIT)
        out->max_depth = CODEC_MSGPACK_MAX_DEPTH_LIMIT;
    if (!out->max_size)
        out->max_size = CODEC_MSGPACK_DEFAULT_MAX_SIZE;
    if (!out->max_string)
        out->max_string = CODEC_MSGPACK_DEFAULT_MAX_STRING;
    if (!out->max_elements)
        out->max_elements = CODEC_MSGPACK_DEFAULT_MAX_ELEMENTS;
}

static int mp_encode_value(const codec_stage *s, const void *value, codec_buf *out,
                           codec_error *err)
{
    size_t base = out->len;
    int rc = mp_encode_typed(s->type, value, s->state, out, err);
    if (rc)
        out->len = base;
    return rc;
}

static int mp_decode_value(const codec_stage *s, const uint8_t *src, size_t n, void *value_out,
                           codec_arena *arena, codec_error *err)
{
    return mp_decode_typed(s->type, src, n, value_out, s->state, arena, err);
}

static void mp_destroy(codec_stage *s)
{
    const codec_allocator *a = codec_default_allocator();
    a->release(a->ctx, s->state, sizeof(codec_msgpack_options));
}

static const codec_stage_ops mp_ops = {
    .encode_value = mp_encode_value,
    .decode_value = mp_decode_value,
    .destroy = mp_destroy,
};

static int read_options(codec_args *a, codec_msgpack_options *o, codec_error *err)
{
    static const char *const structs[] = {"map", "array", NULL};
    static const char *const unknown[] = {"skip", "reject", NULL};
    static const char *const require[] = {"none", "all", NULL};
    static const char *const dups[] = {"reject", "allow", NULL};
    size_t st, unk, req, dup;
    int rc;
    if ((rc = codec_args_choice(a, "structs", false, structs, 0, &st, err)) ||
        (rc = codec_args_choice(a, "unknown", false, unknown, 0, &unk, err)) ||
        (rc = codec_args_choice(a, "require", false, require, 0, &req, err)) ||
        (rc = codec_args_choice(a, "duplicates", false, dups, 0, &dup, err)) ||
        (rc = codec_args_size(a, "max-depth", false, CODEC_MSGPACK_DEFAULT_MAX_DEPTH, 1,
                              CODEC_MSGPACK_MAX_DEPTH_LIMIT, &o->max_depth, err)) ||
        (rc = codec_args_size(a, "max-size", false, CODEC_MSGPACK_DEFAULT_MAX_SIZE, 1,
                              SIZE_MAX, &o->max_size, err)) ||
        (rc = codec_args_size(a, "max-string", false, CODEC_MSGPACK_DEFAULT_MAX_STRING, 0,
                              SIZE_MAX, &o->max_string, err)) ||
        (rc = codec_args_size(a, "max-elements", false, CODEC_MSGPACK_DEFAULT_MAX_ELEMENTS, 0,
                              SIZE_MAX, &o->max_elements, err)))
        return rc;
    o->struct_arrays = st == 1;
    o->reject_unknown = unk == 1;
    o->require_all = req == 1;
    o->allow_duplicates = dup == 1;
    return CODEC_OK;
}

int codec_stage_ctor_msgpack(codec_stage *s, codec_args *a, const codec_type *t,
                             codec_error *err)
{
    codec_msgpack_options o = {0};
    int rc = read_options(a, &o, err);
    if (rc || (rc = codec_type_check(t, err)))
        return rc;
    const codec_allocator *al = codec_default_allocator();
    codec_msgpack_options *state = al->alloc(al->ctx, sizeof *state);
    if (!state)
        return MP_NOMEM(err);
    *state = o;
    s->ops = &mp_ops;
    s->state = state;
    s->type = t;
    return CODEC_OK;
}

codec *codec_msgpack(const codec_type *t, const codec_msgpack_options *o, codec_error *err)
{
    codec_msgpack_options r;
    mp_options_resolve(o, &r);
    char args[256];
    int n = 0;
    args[0] = '\0';
    const struct {
        bool on;
        const char *text;
    } flags[] = {{r.struct_arrays, "structs=array"},
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
    } limits[] = {{r.max_depth, CODEC_MSGPACK_DEFAULT_MAX_DEPTH, "max-depth"},
                  {r.max_size, CODEC_MSGPACK_DEFAULT_MAX_SIZE, "max-size"},
                  {r.max_string, CODEC_MSGPACK_DEFAULT_MAX_STRING, "max-string"},
                  {r.max_elements, CODEC_MSGPACK_DEFAULT_MAX_ELEMENTS, "max-elements"}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (limits[i].value != limits[i].def)
            n += snprintf(args + n, sizeof args - (size_t)n, "%s%s=%zu", n ? "," : "",
                          limits[i].key, limits[i].value);
    return codec_make("msgpack", args, t, err);
}
