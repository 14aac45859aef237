/* stage.c — the `json` backend stage and codec_json(). The stage state is
 * the resolved option block; the type is checked once, here. codec_json()
 * goes through the spec parser so that both routes validate the same way and
 * codec_spec() shows the options (every option set fits a stage's spec text
 * when sizes use k/m/g suffixes). */
#include "compose/stage_internal.h"
#include "formats/json/json_internal.h"
#include "formats/json/json_plan_internal.h"

#include <stdio.h>
#include <string.h>

void codec__json_options_resolve(const codec_json_options *in, codec_json_options *out)
{
    static const codec_json_options zero;
    *out = in ? *in : zero;
    if (!out->max_depth)
        out->max_depth = CODEC_JSON_DEFAULT_MAX_DEPTH;
    if (out->max_depth > CODEC_JSON_MAX_DEPTH_LIMIT)
        out->max_depth = CODEC_JSON_MAX_DEPTH_LIMIT;
    if (!out->max_size)
        out->max_size = CODEC_JSON_DEFAULT_MAX_SIZE;
    if (!out->max_string)
        out->max_string = CODEC_JSON_DEFAULT_MAX_STRING;
    if (!out->max_elements)
        out->max_elements = CODEC_JSON_DEFAULT_MAX_ELEMENTS;
}

/* The stage state: the options, what the decoder may skip checking, and
 * the encode plan. */
typedef struct json_state {
    codec_json_options o;
    bool plain_names;       /* codec__json_type_names_plain(type) */
    json_plan plan;
} json_state;

static int json_encode_value(const codec_stage *s, const void *value, codec_buf *out,
                             codec_error *err)
{
    const json_state *st = s->state;
    size_t base = out->len;
    int rc = codec__json_encode_typed(s->type, value, &st->o, &st->plan, out, err);
    if (rc)
        out->len = base;
    return rc;
}

static int json_decode_value(const codec_stage *s, const uint8_t *src, size_t n,
                             void *value_out, codec_arena *arena, codec_error *err)
{
    const json_state *st = s->state;
    return codec__json_decode_typed(s->type, src, n, value_out, &st->o, st->plain_names, arena,
                                    err);
}

static void json_destroy(codec_stage *s)
{
    const codec_allocator *a = codec_default_allocator();
    codec__json_plan_free(&((json_state *)s->state)->plan);
    a->release(a->ctx, s->state, sizeof(json_state));
}

static const codec_stage_ops json_ops = {
    .encode_value = json_encode_value,
    .decode_value = json_decode_value,
    .destroy = json_destroy,
};

static int read_options(codec_args *a, codec_json_options *o, codec_error *err)
{
    static const char *const styles[] = {"compact", "pretty", NULL};
    static const char *const unknown[] = {"skip", "reject", NULL};
    static const char *const require[] = {"none", "all", NULL};
    static const char *const dups[] = {"reject", "allow", NULL};
    size_t style, unk, req, dup, depth, elements;
    int rc;
    if ((rc = codec__args_choice(a, "style", true, styles, 0, &style, err)) ||
        (rc = codec__args_choice(a, "unknown", false, unknown, 0, &unk, err)) ||
        (rc = codec__args_choice(a, "require", false, require, 0, &req, err)) ||
        (rc = codec__args_choice(a, "duplicates", false, dups, 0, &dup, err)) ||
        (rc = codec__args_size(a, "max-depth", false, CODEC_JSON_DEFAULT_MAX_DEPTH, 1,
                               CODEC_JSON_MAX_DEPTH_LIMIT, &depth, err)) ||
        (rc = codec__args_size(a, "max-size", false, CODEC_JSON_DEFAULT_MAX_SIZE, 1, SIZE_MAX,
                               &o->max_size, err)) ||
        (rc = codec__args_size(a, "max-string", false, CODEC_JSON_DEFAULT_MAX_STRING, 0, SIZE_MAX,
                               &o->max_string, err)) ||
        (rc = codec__args_size(a, "max-elements", false, CODEC_JSON_DEFAULT_MAX_ELEMENTS, 0,
                               SIZE_MAX, &elements, err)))
        return rc;
    o->pretty = style == 1;
    o->reject_unknown = unk == 1;
    o->require_all = req == 1;
    o->allow_duplicates = dup == 1;
    o->max_depth = depth;
    o->max_elements = elements;
    return CODEC_OK;
}

int codec__stage_ctor_json(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    codec_json_options o = {0};
    int rc = read_options(a, &o, err);
    if (rc)
        return rc;
    if ((rc = codec_type_check(t, err)) || (rc = codec__type_refuse_pointers(t, "json", err)))
        return rc;
    const codec_allocator *al = codec_default_allocator();
    json_state *state = al->alloc(al->ctx, sizeof *state);
    if (!state)
        return JSON_NOMEM(err);
    if (codec__json_plan_build(&state->plan, t)) {
        al->release(al->ctx, state, sizeof *state);
        return JSON_NOMEM(err);
    }
    codec__json_options_resolve(&o, &state->o);
    state->plain_names = codec__json_type_names_plain(t);
    s->ops = &json_ops;
    s->state = state;
    s->type = t;
    return CODEC_OK;
}

/* Writes a size the way codec__args_size() reads it, as short as exact:
 * 65536 -> "64k", 1073741824 -> "1g". */
static int size_text(char *dst, size_t cap, size_t v)
{
    static const char units[] = "gmk";
    for (int i = 0; i < 3; i++) {
        size_t unit = (size_t)1 << (10 * (3 - i));
        if (v >= unit && v % unit == 0)
            return snprintf(dst, cap, "%zu%c", v / unit, units[i]);
    }
    return snprintf(dst, cap, "%zu", v);
}

codec *codec_json(const codec_type *t, const codec_json_options *o, codec_error *err)
{
    if (o && codec_options_reserved(o->reserved, "json", "codec_json_options", err))
        return NULL;
    codec_json_options r;
    codec__json_options_resolve(o, &r);
    char args[256];
    /* The spec text is what codec_spec() shows; defaults are left out. */
    int n = snprintf(args, sizeof args, "%s", r.pretty ? "pretty" : "");
    const struct {
        bool on;
        const char *text;
    } flags[] = {{r.reject_unknown, "unknown=reject"},
                 {r.require_all, "require=all"},
                 {r.allow_duplicates, "duplicates=allow"}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (flags[i].on)
            n += snprintf(args + n, sizeof args - (size_t)n, "%s%s", n ? "," : "",
                          flags[i].text);
    const struct {
        size_t value, def;
        const char *key;
    } limits[] = {{r.max_depth, CODEC_JSON_DEFAULT_MAX_DEPTH, "max-depth"},
                  {r.max_size, CODEC_JSON_DEFAULT_MAX_SIZE, "max-size"},
                  {r.max_string, CODEC_JSON_DEFAULT_MAX_STRING, "max-string"},
                  {r.max_elements, CODEC_JSON_DEFAULT_MAX_ELEMENTS, "max-elements"}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (limits[i].value != limits[i].def) {
            n += snprintf(args + n, sizeof args - (size_t)n, "%s%s=", n ? "," : "",
                          limits[i].key);
            n += size_text(args + n, sizeof args - (size_t)n, limits[i].value);
        }
    return codec__make("json", args, t, err);
}
