/* stage.c — the `fory` backend stage and codec_fory(). The stage state is
 * the plan, built once from the descriptors. */
#include "compose/stage_internal.h"
#include "formats/fory/fory_internal.h"

#include <stdio.h>
#include <string.h>

#define FORY_DEFAULT_MAX_ELEMENTS ((size_t)1 << 24)

static int fory_encode_stage(const codec_stage *s, const void *value, codec_buf *out,
                             codec_error *err)
{
    size_t base = out->len;
    const fory_plan *p = s->state;
    int rc = p->root ? codec__fory_encode(p, value, out, err)
                     : codec__fory_encode_value(p, value, out, err);
    if (rc)
        out->len = base;
    return rc;
}

static int fory_decode_stage(const codec_stage *s, const uint8_t *src, size_t n, void *value_out,
                             codec_arena *arena, codec_error *err)
{
    const fory_plan *p = s->state;
    if (!p->root)
        return codec__fory_decode_value(p, src, n, value_out, arena, err);
    return codec__fory_decode(p, src, n, value_out, arena, err);
}

static void fory_destroy(codec_stage *s)
{
    const codec_allocator *a = codec_default_allocator();
    codec__fory_plan_free(s->state);
    a->release(a->ctx, s->state, sizeof(fory_plan));
}

static const codec_stage_ops fory_ops = {
    .encode_value = fory_encode_stage,
    .decode_value = fory_decode_stage,
    .destroy = fory_destroy,
};

static int make_stage(codec_stage *s, const codec_fory_registry *r, const codec_type *t,
                      const codec_fory_options *o, bool no_codegen, codec_error *err)
{
    int rc = codec_type_check(t, err);
    if (!rc)
        rc = codec__type_refuse_pointers(t, "fory", err);
    if (rc)
        return rc;
    const codec_allocator *a = codec_default_allocator();
    fory_plan *p = a->alloc(a->ctx, sizeof *p);
    if (!p)
        return FORY_NOMEM(err);
    memset(p, 0, sizeof *p);
    p->o = o ? *o : (codec_fory_options){0};
    p->no_codegen = no_codegen;
    if (!p->o.max_depth)
        p->o.max_depth = CODEC_FORY_DEFAULT_MAX_DEPTH;
    if (p->o.max_depth > CODEC_FORY_MAX_DEPTH_LIMIT)
        p->o.max_depth = CODEC_FORY_MAX_DEPTH_LIMIT;
    if (!p->o.max_elements)
        p->o.max_elements = FORY_DEFAULT_MAX_ELEMENTS;
    if ((rc = codec__fory_plan_build(p, r, t, err))) {
        codec__fory_plan_free(p);
        a->release(a->ctx, p, sizeof *p);
        return rc;
    }
    s->ops = &fory_ops;
    s->state = p;
    s->type = t;
    return CODEC_OK;
}

int codec__stage_ctor_fory(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    static const char *const modes[] = {"consistent", "compatible", NULL};
    static const char *const onoff[] = {"off", "on", NULL};
    size_t mode, ref, hash, gen;
    codec_fory_options o = {0};
    int rc;
    if ((rc = codec__args_choice(a, "mode", true, modes, 0, &mode, err)) ||
        (rc = codec__args_choice(a, "ref", false, onoff, 0, &ref, err)) ||
        (rc = codec__args_choice(a, "hash", false, onoff, 0, &hash, err)) ||
        (rc = codec__args_choice(a, "codegen", false, onoff, 1, &gen, err)) ||
        (rc = codec__args_size(a, "max-depth", false, CODEC_FORY_DEFAULT_MAX_DEPTH, 1,
                               CODEC_FORY_MAX_DEPTH_LIMIT, &o.max_depth, err)) ||
        (rc = codec__args_size(a, "max-elements", false, FORY_DEFAULT_MAX_ELEMENTS, 1, SIZE_MAX,
                               &o.max_elements, err)))
        return rc;
    o.mode = mode ? CODEC_FORY_COMPATIBLE : CODEC_FORY_CONSISTENT;
    o.track_ref = ref == 1;
    o.schema_hash = hash == 1;
    return make_stage(s, NULL, t, &o, gen == 0, err);
}

codec *codec_fory(const codec_fory_registry *r, const codec_type *root,
                  const codec_fory_options *o, codec_error *err)
{
    if (o && codec_options_reserved(o->reserved, "fory", "codec_fory_options", err))
        return NULL;
    codec_stage s;
    memset(&s, 0, sizeof s);
    s.kind = CODEC_KIND_BACKEND;
    snprintf(s.name, sizeof s.name, "fory");
    int rc = make_stage(&s, r, root, o, false, err);
    if (rc)
        return NULL;
    const fory_plan *p = s.state;
    snprintf(s.spec, sizeof s.spec, "fory:%s%s%s",
             p->o.mode == CODEC_FORY_COMPATIBLE ? "compatible" : "consistent",
             p->o.track_ref ? ",ref=on" : "", p->o.schema_hash ? ",hash=on" : "");
    return codec__from_stage(&s, err);
}
