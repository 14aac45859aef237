/* stage_common.c — option plumbing shared by the binary backends. */
#include "formats/binary/stage_common_internal.h"
#include "codec/types.h"
#include "types/value_internal.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <string.h>

void codec__bin_limits_resolve(bin_limits l)
{
    if (!*l.depth)
        *l.depth = BIN_DEFAULT_MAX_DEPTH;
    if (*l.depth > BIN_MAX_DEPTH_LIMIT)
        *l.depth = BIN_MAX_DEPTH_LIMIT;
    if (!*l.size)
        *l.size = BIN_DEFAULT_MAX_SIZE;
    if (!*l.string)
        *l.string = BIN_DEFAULT_MAX_STRING;
    if (!*l.elements)
        *l.elements = BIN_DEFAULT_MAX_ELEMENTS;
}

int codec__bin_limits_read(codec_args *a, bin_limits l, codec_error *err)
{
    int rc;
    if ((rc = codec__args_size(a, "max-depth", false, BIN_DEFAULT_MAX_DEPTH, 1, BIN_MAX_DEPTH_LIMIT,
                               l.depth, err)) ||
        (rc = codec__args_size(a, "max-size", false, BIN_DEFAULT_MAX_SIZE, 1, SIZE_MAX, l.size,
                               err)) ||
        (rc = codec__args_size(a, "max-string", false, BIN_DEFAULT_MAX_STRING, 0, SIZE_MAX,
                               l.string, err)))
        return rc;
    return codec__args_size(a, "max-elements", false, BIN_DEFAULT_MAX_ELEMENTS, 0, SIZE_MAX,
                            l.elements, err);
}

codec *codec__bin_make(const char *name, const codec_type *t, const bin_flag *flags, size_t count,
                       bin_limits l, codec_error *err)
{
    char args[256];
    int n = 0;
    args[0] = '\0';
    /* The spec text is what codec_spec() shows; defaults are left out. */
    for (size_t i = 0; i < count; i++)
        if (flags[i].on)
            n += snprintf(args + n, sizeof args - (size_t)n, "%s%s", n ? "," : "",
                          flags[i].text);
    const struct {
        size_t value, def;
        const char *key;
    } limits[] = {{*l.depth, BIN_DEFAULT_MAX_DEPTH, "max-depth"},
                  {*l.size, BIN_DEFAULT_MAX_SIZE, "max-size"},
                  {*l.string, BIN_DEFAULT_MAX_STRING, "max-string"},
                  {*l.elements, BIN_DEFAULT_MAX_ELEMENTS, "max-elements"}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (limits[i].value != limits[i].def)
            n += snprintf(args + n, sizeof args - (size_t)n, "%s%s=%zu", n ? "," : "",
                          limits[i].key, limits[i].value);
    return codec__make(name, args, t, err);
}

int codec__bin_stage_init(codec_stage *s, const codec_stage_ops *ops, const codec_type *t,
                          const void *o, size_t size, codec_error *err)
{
    int rc = codec_type_check(t, err);
    if (!rc)
        rc = codec__type_refuse_pointers(t, s->name, err);
    if (rc)
        return rc;
    const codec_allocator *al = codec_default_allocator();
    void *state = al->alloc(al->ctx, size);
    if (!state)
        return codec__nomem(err, s->name);
    memcpy(state, o, size);
    s->ops = ops;
    s->state = state;
    s->type = t;
    return CODEC_OK;
}
