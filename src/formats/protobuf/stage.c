/* stage.c — the `protobuf` backend stage and codec_protobuf(). The stage
 * state holds the resolved options and the plan built from the type. */
#include "formats/protobuf/pb_internal.h"
#include "core/error_internal.h"

#include <stdio.h>

static int pb_encode_value(const codec_stage *s, const void *value, codec_buf *out,
                           codec_error *err)
{
    return codec__pb_encode(s->state, value, out, err);
}

static int pb_decode_value(const codec_stage *s, const uint8_t *src, size_t n, void *value_out,
                           codec_arena *arena, codec_error *err)
{
    return codec__pb_decode(s->state, src, n, value_out, arena, err);
}

static void pb_destroy(codec_stage *s)
{
    pb_state *st = s->state;
    const codec_allocator *a = codec_default_allocator();
    codec__pb_plan_free(st);
    a->release(a->ctx, st, sizeof *st);
}

static const codec_stage_ops pb_ops = {
    .encode_value = pb_encode_value,
    .decode_value = pb_decode_value,
    .destroy = pb_destroy,
};

static int read_options(codec_args *a, codec_protobuf_options *o, bool *no_codegen,
                        codec_error *err)
{
    static const char *const unknown[] = {"keep", "skip", "reject", NULL};
    static const char *const codegen[] = {"on", "off", NULL};
    size_t unk, gen;
    int rc;
    if ((rc = codec__args_choice(a, "unknown", true, unknown, 0, &unk, err)) ||
        (rc = codec__args_choice(a, "codegen", false, codegen, 0, &gen, err)) ||
        (rc = codec__args_size(a, "max-depth", false, CODEC_PROTOBUF_DEFAULT_MAX_DEPTH, 1,
                               CODEC_PROTOBUF_MAX_DEPTH_LIMIT, &o->max_depth, err)) ||
        (rc = codec__args_size(a, "max-size", false, CODEC_PROTOBUF_DEFAULT_MAX_SIZE, 1, SIZE_MAX,
                               &o->max_size, err)) ||
        (rc = codec__args_size(a, "max-elements", false, CODEC_PROTOBUF_DEFAULT_MAX_ELEMENTS, 1,
                               SIZE_MAX, &o->max_elements, err)))
        return rc;
    o->unknown = (codec_protobuf_unknown)unk;
    *no_codegen = gen == 1;
    return CODEC_OK;
}

int codec__stage_ctor_protobuf(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    codec_protobuf_options o = {0};
    bool no_codegen = false;
    int rc = read_options(a, &o, &no_codegen, err);
    if (rc)
        return rc;
    const codec_allocator *al = codec_default_allocator();
    pb_state *st = al->alloc(al->ctx, sizeof *st);
    if (!st)
        return codec__nomem(err, PB_STAGE);
    *st = (pb_state){.o = o, .no_codegen = no_codegen};
    if ((rc = codec__pb_plan_build(st, t, err))) {
        codec__pb_plan_free(st);
        al->release(al->ctx, st, sizeof *st);
        return rc;
    }
    s->ops = &pb_ops;
    s->state = st;
    s->type = t;
    return CODEC_OK;
}

codec *codec_protobuf(const codec_type *t, const codec_protobuf_options *o, codec_error *err)
{
    if (o && codec_options_reserved(o->reserved, "protobuf", "codec_protobuf_options", err))
        return NULL;
    static const char *const unknown[] = {"keep", "skip", "reject"};
    static const codec_protobuf_options zero;
    if (!o)
        o = &zero;
    if ((unsigned)o->unknown > CODEC_PROTOBUF_UNKNOWN_REJECT) {
        codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, PB_STAGE, CODEC_NO_OFFSET,
                        "unknown policy %d is not keep, skip or reject", (int)o->unknown);
        return NULL;
    }
    /* The spec text is what codec_spec() shows; defaults are left out. */
    char args[160];
    int n = snprintf(args, sizeof args, "%s", o->unknown ? unknown[o->unknown] : "");
    const struct {
        size_t value;
        const char *key;
    } limits[] = {{o->max_depth, "max-depth"},
                  {o->max_size, "max-size"},
                  {o->max_elements, "max-elements"}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (limits[i].value)
            n += snprintf(args + n, sizeof args - (size_t)n, "%s%s=%zu", n ? "," : "",
                          limits[i].key, limits[i].value);
    return codec__make("protobuf", args, t, err);
}
