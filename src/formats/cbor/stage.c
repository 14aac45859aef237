/* stage.c — the `cbor` backend stage and codec_cbor(). The stage state is
 * the resolved option block; the type is checked once, here. */
#include "formats/binary/stage_common_internal.h"
#include "formats/cbor/cbor_internal.h"

_Static_assert(CODEC_CBOR_DEFAULT_MAX_DEPTH == BIN_DEFAULT_MAX_DEPTH &&
                   CODEC_CBOR_MAX_DEPTH_LIMIT == BIN_MAX_DEPTH_LIMIT &&
                   CODEC_CBOR_DEFAULT_MAX_SIZE == BIN_DEFAULT_MAX_SIZE &&
                   CODEC_CBOR_DEFAULT_MAX_STRING == BIN_DEFAULT_MAX_STRING &&
                   CODEC_CBOR_DEFAULT_MAX_ELEMENTS == BIN_DEFAULT_MAX_ELEMENTS,
               "the public limits are the shared ones");

static bin_limits limits_of(codec_cbor_options *o)
{
    return (bin_limits){&o->max_depth, &o->max_size, &o->max_string, &o->max_elements};
}

void codec__cbor_options_resolve(const codec_cbor_options *in, codec_cbor_options *out)
{
    static const codec_cbor_options zero;
    *out = in ? *in : zero;
    codec__bin_limits_resolve(limits_of(out));
}

static int cbor_decode_value(const codec_stage *s, const uint8_t *src, size_t n,
                             void *value_out, codec_arena *arena, codec_error *err)
{
    return codec__cbor_decode_typed(s->state, s->type, src, n, value_out, arena, err);
}

static void cbor_destroy(codec_stage *s)
{
    const codec_allocator *a = codec_default_allocator();
    codec__bin_plan_free(&((cbor_state *)s->state)->plan);
    a->release(a->ctx, s->state, sizeof(cbor_state));
}

static const codec_stage_ops cbor_ops = {
    .encode_value = codec__cbor_encode_value,
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
    if ((rc = codec__args_choice(a, "mode", true, modes, 0, &mode, err)) ||
        (rc = codec__args_choice(a, "keys", false, keys, 0, &key, err)) ||
        (rc = codec__args_choice(a, "unknown", false, unknown, 0, &unk, err)) ||
        (rc = codec__args_choice(a, "require", false, require, 0, &req, err)) ||
        (rc = codec__args_choice(a, "duplicates", false, dups, 0, &dup, err)) ||
        (rc = codec__bin_limits_read(a, limits_of(o), err)))
        return rc;
    o->deterministic = mode == 1;
    o->tag_keys = key == 1;
    o->reject_unknown = unk == 1;
    o->require_all = req == 1;
    o->allow_duplicates = dup == 1;
    return CODEC_OK;
}

int codec__stage_ctor_cbor(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    cbor_state st = {0};
    int rc = read_options(a, &st.o, err);
    if (rc || (rc = codec__bin_stage_init(s, &cbor_ops, t, &st, sizeof st, err)))
        return rc;
    cbor_state *state = s->state;
    const bin_plan_spec spec = {.key = codec__cbor_plan_key, .key_ctx = &state->o,
                                .map_head = codec__cbor_plan_map_head,
                                .require_all = st.o.require_all, .sort_keys = st.o.deterministic};
    if ((rc = codec__bin_plan_build(&state->plan, t, &spec, "cbor", err))) {
        cbor_destroy(s);
        s->state = NULL;
    }
    return rc;
}

codec *codec_cbor(const codec_type *t, const codec_cbor_options *o, codec_error *err)
{
    if (o && codec_options_reserved(o->reserved, "cbor", "codec_cbor_options", err))
        return NULL;
    codec_cbor_options r;
    codec__cbor_options_resolve(o, &r);
    const bin_flag flags[] = {{r.deterministic, "deterministic"},
                              {r.tag_keys, "keys=tags"},
                              {r.reject_unknown, "unknown=reject"},
                              {r.require_all, "require=all"},
                              {r.allow_duplicates, "duplicates=allow"}};
    return codec__bin_make("cbor", t, flags, sizeof flags / sizeof flags[0], limits_of(&r), err);
}
