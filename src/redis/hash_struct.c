/* hash_struct.c — a struct across the fields of a Redis hash: one hash
 * field per struct field (its wire name), each value through a codec built
 * from one spec for that field's own type, on top of codec_redis_hset and
 * codec_redis_hget. */
#include "redis_internal.h"

#include "codec/types.h"

#include <stdio.h>
#include <string.h>

/* The per-field codecs and items of one call. */
typedef struct struct_fields {
    const codec_allocator *alloc;
    codec_redis_item *items;
    codec **codecs;
    size_t n;            /* codecs built so far (all of them once ready) */
    size_t cap;
} struct_fields;

static void fields_free(struct_fields *f)
{
    for (size_t i = 0; i < f->n; i++)
        codec_free(f->codecs[i]);
    if (f->items)
        f->alloc->release(f->alloc->ctx, f->items, f->cap * sizeof *f->items);
    if (f->codecs)
        f->alloc->release(f->alloc->ctx, f->codecs, f->cap * sizeof *f->codecs);
}

/* A spec that does not suit one field's type: the message says which. */
static int field_error(const codec_field *fd, codec_error *err)
{
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    return codec_error_set(err, err->family, err->detail, err->stage, err->offset,
                           "field '%s': %s", fd->name, msg);
}

/* Builds a codec per field and an item naming its hash field; `base` is
 * the struct value (read for a set, written for a get). */
static int fields_build(codec_redis *r, const codec_type *t, const char *spec, bool get,
                        const void *base, struct_fields *f, codec_error *err)
{
    memset(f, 0, sizeof *f);
    if (!r || !t || !spec || !base)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "a struct call needs a connection, a type, a spec and a value");
    int rc = codec_type_check(t, err);
    if (rc)
        return rc;
    if (t->kind != CODEC_T_STRUCT || t->count == 0)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "type '%s' is not a struct with fields", t->name ? t->name : "?");
    f->alloc = r->alloc;
    f->cap = t->count;
    f->items = f->alloc->alloc(f->alloc->ctx, f->cap * sizeof *f->items);
    f->codecs = f->alloc->alloc(f->alloc->ctx, f->cap * sizeof *f->codecs);
    if (!f->items || !f->codecs) {
        fields_free(f);
        return codec_error_set(err, CODEC_E_NOMEM, 0, "redis", CODEC_NO_OFFSET,
                               "no memory for %zu fields", f->cap);
    }
    for (size_t i = 0; i < t->count; i++) {
        const codec_field *fd = &t->fields[i];
        if (!(f->codecs[i] = codec_parse(spec, fd->type, err))) {
            rc = field_error(fd, err);
            fields_free(f);
            return rc;
        }
        f->n = i + 1;
        void *member = (char *)(uintptr_t)base + fd->offset;
        f->items[i] = (codec_redis_item){.key = fd->name, .key_len = strlen(fd->name),
                                         .codec = f->codecs[i], .value = get ? NULL : member,
                                         .value_out = get ? member : NULL};
    }
    return CODEC_OK;
}

int codec_redis_hset_struct(codec_redis *r, const char *key, size_t key_len,
                            const codec_type *struct_type, const void *value,
                            const char *field_spec, int64_t ttl_ms, codec_error *err)
{
    struct_fields f;
    int rc = fields_build(r, struct_type, field_spec, false, value, &f, err);
    if (rc)
        return rc;
    rc = codec_redis_hset(r, key, key_len, f.items, f.n, ttl_ms, err);
    fields_free(&f);
    return rc;
}

int codec_redis_hget_struct(codec_redis *r, const char *key, size_t key_len,
                            const codec_type *struct_type, void *value_out,
                            const char *field_spec, codec_arena *arena, codec_error *err)
{
    struct_fields f;
    int rc = fields_build(r, struct_type, field_spec, true, value_out, &f, err);
    if (rc)
        return rc;
    memset(value_out, 0, struct_type->size);
    rc = codec_redis_hget(r, key, key_len, f.items, f.n, arena, err);
    for (size_t i = 0; rc == CODEC_OK && i < f.n; i++)
        if (f.items[i].status != CODEC_OK && f.items[i].status != CODEC_E_NOT_FOUND) {
            rc = f.items[i].status;
            if (err)
                *err = f.items[i].error;
        }
    fields_free(&f);
    return rc;
}
