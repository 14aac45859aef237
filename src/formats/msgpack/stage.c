/* stage.c — the `msgpack` backend stage, codec_msgpack() and the ext
 * descriptor. */
#include "formats/binary/stage_common_internal.h"
#include "formats/msgpack/msgpack_internal.h"

static const codec_field ext_fields[] = {
    CODEC_FIELD(codec_msgpack_ext, type, 1, CODEC_INT8),
    CODEC_FIELD(codec_msgpack_ext, data, 2, CODEC_BYTES)};
static codec_type_cache ext_cache;
const codec_type codec_msgpack_ext_type = {
    .kind = CODEC_T_STRUCT, .name = "msgpack_ext", .size = sizeof(codec_msgpack_ext),
    .align = alignof(codec_msgpack_ext), .fields = ext_fields, .count = 2, .cache = &ext_cache};

_Static_assert(CODEC_MSGPACK_DEFAULT_MAX_DEPTH == BIN_DEFAULT_MAX_DEPTH &&
                   CODEC_MSGPACK_MAX_DEPTH_LIMIT == BIN_MAX_DEPTH_LIMIT &&
                   CODEC_MSGPACK_DEFAULT_MAX_SIZE == BIN_DEFAULT_MAX_SIZE &&
                   CODEC_MSGPACK_DEFAULT_MAX_STRING == BIN_DEFAULT_MAX_STRING &&
                   CODEC_MSGPACK_DEFAULT_MAX_ELEMENTS == BIN_DEFAULT_MAX_ELEMENTS,
               "the public limits are the shared ones");

static bin_limits limits_of(codec_msgpack_options *o)
{
    return (bin_limits){&o->max_depth, &o->max_size, &o->max_string, &o->max_elements};
}

static void mp_options_resolve(const codec_msgpack_options *in, codec_msgpack_options *out)
{
    static const codec_msgpack_options zero;
    *out = in ? *in : zero;
    codec__bin_limits_resolve(limits_of(out));
}

static int mp_decode_value(const codec_stage *s, const uint8_t *src, size_t n, void *value_out,
                           codec_arena *arena, codec_error *err)
{
    return codec__mp_decode_typed(s->state, s->type, src, n, value_out, arena, err);
}

static void mp_destroy(codec_stage *s)
{
    const codec_allocator *a = codec_default_allocator();
    codec__bin_plan_free(&((mp_state *)s->state)->plan);
    a->release(a->ctx, s->state, sizeof(mp_state));
}

static const codec_stage_ops mp_ops = {
    .encode_value = codec__mp_encode_value,
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
    if ((rc = codec__args_choice(a, "structs", false, structs, 0, &st, err)) ||
        (rc = codec__args_choice(a, "unknown", false, unknown, 0, &unk, err)) ||
        (rc = codec__args_choice(a, "require", false, require, 0, &req, err)) ||
        (rc = codec__args_choice(a, "duplicates", false, dups, 0, &dup, err)) ||
        (rc = codec__bin_limits_read(a, limits_of(o), err)))
        return rc;
    o->struct_arrays = st == 1;
    o->reject_unknown = unk == 1;
    o->require_all = req == 1;
    o->allow_duplicates = dup == 1;
    return CODEC_OK;
}

int codec__stage_ctor_msgpack(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    mp_state st = {0};
    int rc = read_options(a, &st.o, err);
    if (rc || (rc = codec__bin_stage_init(s, &mp_ops, t, &st, sizeof st, err)))
        return rc;
    const bin_plan_spec spec = {.key = codec__mp_plan_key, .map_head = codec__mp_plan_map_head,
                                .require_all = st.o.require_all};
    if ((rc = codec__bin_plan_build(&((mp_state *)s->state)->plan, t, &spec, "msgpack", err))) {
        mp_destroy(s);
        s->state = NULL;
    }
    return rc;
}

codec *codec_msgpack(const codec_type *t, const codec_msgpack_options *o, codec_error *err)
{
    if (o && codec_options_reserved(o->reserved, "msgpack", "codec_msgpack_options", err))
        return NULL;
    codec_msgpack_options r;
    mp_options_resolve(o, &r);
    const bin_flag flags[] = {{r.struct_arrays, "structs=array"},
                              {r.reject_unknown, "unknown=reject"},
                              {r.require_all, "require=all"},
                              {r.allow_duplicates, "duplicates=allow"}};
    return codec__bin_make("msgpack", t, flags, sizeof flags / sizeof flags[0], limits_of(&r), err);
}
