/* registry.c — the user type registry handle (ids <-> descriptors). */
#include "formats/fory/fory_internal.h"

#include <string.h>

codec_fory_registry *codec_fory_registry_new(codec_error *err)
{
    const codec_allocator *a = codec_default_allocator();
    codec_fory_registry *r = a->alloc(a->ctx, sizeof *r);
    if (!r) {
        FORY_NOMEM(err);
        return NULL;
    }
    memset(r, 0, sizeof *r);
    return r;
}

int codec_fory_register(codec_fory_registry *r, const codec_type *t, uint32_t id,
                        codec_error *err)
{
    if (!r || !t || (t->kind != CODEC_T_STRUCT && t->kind != CODEC_T_ENUM) || id > 65535)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "fory", CODEC_NO_OFFSET,
                               "register a struct or enum type with an id in 0..65535");
    for (size_t i = 0; i < r->count; i++)
        if (r->items[i].t == t || (r->items[i].id == id && r->items[i].t->kind == t->kind))
            return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "fory",
                                   CODEC_NO_OFFSET, "type %s or id %u registered twice",
                                   t->name ? t->name : "?", id);
    if (r->count == r->cap) {
        const codec_allocator *a = codec_default_allocator();
        size_t ncap = r->cap ? r->cap * 2 : 16;
        fory_reg_entry *n = a->resize(a->ctx, r->items, r->cap * sizeof *n, ncap * sizeof *n);
        if (!n)
            return FORY_NOMEM(err);
        r->items = n;
        r->cap = ncap;
    }
    r->items[r->count++] = (fory_reg_entry){t, id};
    return CODEC_OK;
}

void codec_fory_registry_free(codec_fory_registry *r)
{
    if (!r)
        return;
    const codec_allocator *a = codec_default_allocator();
    a->release(a->ctx, r->items, r->cap * sizeof *r->items);
    a->release(a->ctx, r, sizeof *r);
}
