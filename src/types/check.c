/* check.c — codec_type_check(): validates a descriptor graph once, when a
 * codec is built, so that encoders and decoders can trust it. */
#include "codec/types.h"
#include "types/index_internal.h"
#include "types/value_internal.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <string.h>

/* The deepest type graph accepted (structs in structs in lists...). */
#define CHECK_MAX_DEPTH 64

typedef struct checker {
    codec_error *err;
    char path[160];                        /* "order.items[].sku" */
    const codec_type *stack[CHECK_MAX_DEPTH];
    size_t depth;
} checker;

static int fail(checker *c, const char *fmt, const char *a, size_t x, size_t y)
{
    char what[128];
    snprintf(what, sizeof what, fmt, a, x, y);
    return codec_error_set(c->err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "types",
                           CODEC_NO_OFFSET, "%s: %s", c->path[0] ? c->path : "type", what);
}

/* Appends `part` to the path; returns the old length to restore it. */
static size_t path_push(checker *c, const char *part)
{
    size_t old = strlen(c->path);
    snprintf(c->path + old, sizeof c->path - old, "%s", part);
    return old;
}

static int check_type(checker *c, const codec_type *t);

static bool leaf_kind(codec_type_kind k)
{
    return (k >= CODEC_T_BOOL && k <= CODEC_T_BYTES) ||
           (k >= CODEC_T_UUID && k <= CODEC_T_DECIMAL) || k == CODEC_T_VALUE;
}

static int check_child(checker *c, const codec_type *t, const char *part)
{
    size_t old = path_push(c, part);
    int rc = check_type(c, t);
    c->path[old] = '\0';
    return rc;
}

/* Whether `name` is a field of struct t, or a member of one of its flat
 * unions other than field `skip`. */
static bool flat_name_taken(const codec_type *t, const char *name, size_t skip)
{
    for (size_t i = 0; i < t->count; i++) {
        if (i != skip && strcmp(t->fields[i].name, name) == 0)
            return true;
        const codec_type *u = t->fields[i].type;
        if (i == skip || !codec_union_is_flat(u) || !u->fields)
            continue;
        for (size_t j = 0; j < u->count; j++)
            if (u->fields[j].name && strcmp(u->fields[j].name, name) == 0)
                return true;
    }
    return false;
}

/* The members of flat unions share the struct's JSON keys: unique there. */
static int check_flat_names(checker *c, const codec_type *t)
{
    for (size_t i = 0; i < t->count; i++) {
        const codec_type *u = t->fields[i].type;
        for (size_t j = 0; codec_union_is_flat(u) && u->fields && j < u->count; j++)
            if (u->fields[j].name && flat_name_taken(t, u->fields[j].name, i))
                return fail(c, "flat union member '%s' repeats a name of its struct",
                            u->fields[j].name, 0, 0);
    }
    return CODEC_OK;
}

/* The fields of a struct, or the members of a union: those lie after the
 * `uint32_t which` and may have tag 0 (a Fory case_id). */
static int check_fields(checker *c, const codec_type *t)
{
    bool is_union = t->kind == CODEC_T_UNION;
    size_t start = is_union ? sizeof(uint32_t) : 0;
    int rc_flat;
    if (!t->fields || t->count == 0)
        return fail(c, "%s has no fields or members", t->name ? t->name : "?", 0, 0);
    if (t->count > UINT32_MAX / 4)
        return fail(c, "type %s has too many fields", t->name ? t->name : "?", 0, 0);
    for (size_t i = 0; i < t->count; i++) {
        const codec_field *f = &t->fields[i];
        if (!f->name || !f->name[0])
            return fail(c, "field %s%zu has no name", "#", i, 0);
        if (!f->type)
            return fail(c, "field '%s' has no type", f->name, 0, 0);
        if (f->tag == 0 && !is_union)
            return fail(c, "field '%s' has tag 0 (tags start at 1)", f->name, 0, 0);
        if (is_union && f->type->kind == CODEC_T_OPTIONAL)
            return fail(c, "union member '%s' is an optional (the union has its own empty state)",
                        f->name, 0, 0);
        if (f->offset < start)
            return fail(c, "union member '%s' at offset %zu overlaps `uint32_t which`", f->name,
                        f->offset, 0);
        if (f->offset > t->size || f->size > t->size - f->offset)
            return fail(c, "field '%s' at offset %zu lies outside the struct (size %zu)", f->name,
                        f->offset, t->size);
        if (f->size != f->type->size)
            return fail(c, "field '%s' is %zu bytes in C but its type needs %zu", f->name,
                        f->size, f->type->size);
        if (f->type->align && f->offset % f->type->align)
            return fail(c, "field '%s' offset %zu is not aligned to %zu", f->name, f->offset,
                        f->type->align);
        for (size_t j = 0; j < i; j++) {
            if (strcmp(t->fields[j].name, f->name) == 0)
                return fail(c, "duplicate field name '%s'", f->name, 0, 0);
            if (t->fields[j].tag == f->tag)
                return fail(c, "field '%s' repeats tag %zu", f->name, f->tag, 0);
        }
    }
    if (!is_union && (rc_flat = check_flat_names(c, t)))
        return rc_flat;
    for (size_t i = 0; i < t->count; i++) {
        char part[80];
        snprintf(part, sizeof part, ".%s", t->fields[i].name);
        int rc = check_child(c, t->fields[i].type, part);
        if (rc)
            return rc;
    }
    if (codec__type_index_ready(t))
        return codec__nomem(c->err, "types");
    return CODEC_OK;
}

/* A struct or a union. */
static int check_struct(checker *c, const codec_type *t)
{
    /* A struct already being checked is a recursive reference (through a
     * list, map or pointer, since C cannot embed a struct in itself): fine. */
    for (size_t i = 0; i < c->depth; i++)
        if (c->stack[i] == t)
            return CODEC_OK;
    if (!t->cache)
        return fail(c, "type %s has no cache (declare it with CODEC_STRUCT or CODEC_UNION)",
                    t->name ? t->name : "?", 0, 0);
    if (c->depth == CHECK_MAX_DEPTH)
        return fail(c, "%stypes nest deeper than %zu levels", "", CHECK_MAX_DEPTH, 0);
    c->stack[c->depth++] = t;
    int rc = check_fields(c, t);
    c->depth--;
    return rc;
}

static int check_enum(checker *c, const codec_type *t)
{
    if (!t->values || t->count == 0)
        return fail(c, "enum %s has no values", t->name ? t->name : "?", 0, 0);
    if (t->size != sizeof(int32_t))
        return fail(c, "enum %s must be stored as int32 (size %zu)", t->name ? t->name : "?",
                    t->size, 0);
    for (size_t i = 0; i < t->count; i++) {
        if (!t->values[i].name || !t->values[i].name[0])
            return fail(c, "enum value %s%zu has no name", "#", i, 0);
        for (size_t j = 0; j < i; j++)   /* numbers may repeat: aliases */
            if (strcmp(t->values[j].name, t->values[i].name) == 0)
                return fail(c, "duplicate enum name '%s'", t->values[i].name, 0, 0);
    }
    return CODEC_OK;
}

static int check_map(checker *c, const codec_type *t)
{
    if (!t->key || !t->elem)
        return fail(c, "map %s needs a key and a value type", t->name ? t->name : "?", 0, 0);
    codec_type_kind k = t->key->kind;
    if (!(k == CODEC_T_STRING || k == CODEC_T_BOOL || codec_kind_is_signed(k) ||
          codec_kind_is_unsigned(k) || k == CODEC_T_ENUM || k == CODEC_T_UUID ||
          k == CODEC_T_DATE))
        return fail(c, "map key type %s is not a scalar", t->key->name ? t->key->name : "?", 0,
                    0);
    int rc = check_child(c, t->key, "{key}");
    return rc ? rc : check_child(c, t->elem, "{}");
}

static int check_optional(checker *c, const codec_type *t)
{
    if (!t->elem)
        return fail(c, "optional %s has no value type", t->name ? t->name : "?", 0, 0);
    if (t->elem->kind == CODEC_T_UNION)
        return fail(c, "optional %s holds a union (a union has its own empty state)",
                    t->name ? t->name : "?", 0, 0);
    if (t->value_offset < sizeof(bool) || t->value_offset > t->size ||
        t->elem->size > t->size - t->value_offset)
        return fail(c, "%soptional layout: value at %zu does not fit in %zu bytes", "",
                    t->value_offset, t->size);
    return check_child(c, t->elem, "?");
}

static int check_xmap(checker *c, const codec_type *t)
{
    const codec_xmap *x = t->xmap;
    if (!x || !x->wire || !x->to_wire || !x->from_wire)
        return fail(c, "xmap %s needs a wire type and both functions", t->name ? t->name : "?",
                    0, 0);
    if (x->wire->size > CODEC_XMAP_MAX_WIRE)
        return fail(c, "xmap %s wire type is %zu bytes (max %zu)", t->name ? t->name : "?",
                    x->wire->size, CODEC_XMAP_MAX_WIRE);
    return check_child(c, x->wire, "(wire)");
}

static int check_pointer(checker *c, const codec_type *t)
{
    if (!t->elem)
        return fail(c, "pointer %s has no target type", t->name ? t->name : "?", 0, 0);
    if (t->size != sizeof(void *))
        return fail(c, "pointer %s is %zu bytes, not a pointer's", t->name ? t->name : "?",
                    t->size, 0);
    return check_child(c, t->elem, "*");
}

static int check_type(checker *c, const codec_type *t)
{
    if (!t)
        return fail(c, "missing type%s", "", 0, 0);
    if (t->size == 0 || t->align == 0 || (t->align & (t->align - 1)))
        return fail(c, "type %s has size %zu and alignment %zu", t->name ? t->name : "?",
                    t->size, t->align);
    switch (t->kind) {
    case CODEC_T_STRUCT:
    case CODEC_T_UNION: return check_struct(c, t);
    case CODEC_T_ENUM: return check_enum(c, t);
    case CODEC_T_LIST:
        if (!t->elem)
            return fail(c, "list %s has no element type", t->name ? t->name : "?", 0, 0);
        return check_child(c, t->elem, "[]");
    case CODEC_T_MAP: return check_map(c, t);
    case CODEC_T_OPTIONAL: return check_optional(c, t);
    case CODEC_T_XMAP: return check_xmap(c, t);
    case CODEC_T_POINTER: return check_pointer(c, t);
    default:
        if (!leaf_kind(t->kind))
            return fail(c, "%sunknown kind %zu", "", (size_t)t->kind, 0);
        return CODEC_OK;
    }
}

int codec_type_check(const codec_type *t, codec_error *err)
{
    checker c = {.err = err};
    if (t && t->name)
        snprintf(c.path, sizeof c.path, "%s", t->name);
    return check_type(&c, t);
}

/* Depth-first search for a POINTER; `seen` holds the structs visited. */
static bool reaches_pointer(const codec_type *t, const codec_type **seen, size_t *n, size_t cap)
{
    if (!t)
        return false;
    switch (t->kind) {
    case CODEC_T_POINTER: return true;
    case CODEC_T_STRUCT:
    case CODEC_T_UNION:
        for (size_t i = 0; i < *n; i++)
            if (seen[i] == t)
                return false;
        if (*n == cap)
            return true;   /* too big to search: refuse rather than guess */
        seen[(*n)++] = t;
        for (size_t i = 0; i < t->count; i++)
            if (reaches_pointer(t->fields[i].type, seen, n, cap))
                return true;
        return false;
    case CODEC_T_MAP: return reaches_pointer(t->key, seen, n, cap) || reaches_pointer(t->elem, seen, n, cap);
    case CODEC_T_LIST:
    case CODEC_T_OPTIONAL: return reaches_pointer(t->elem, seen, n, cap);
    case CODEC_T_XMAP: return t->xmap && reaches_pointer(t->xmap->wire, seen, n, cap);
    default: return false;
    }
}

int codec__type_refuse_pointers(const codec_type *t, const char *stage, codec_error *err)
{
    const codec_type *seen[512];
    size_t n = 0;
    if (!reaches_pointer(t, seen, &n, sizeof seen / sizeof seen[0]))
        return CODEC_OK;
    return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, stage, CODEC_NO_OFFSET,
                           "%s: %s cannot carry pointer (CODEC_T_POINTER) fields yet; "
                           "only protobuf does", t && t->name ? t->name : "type", stage);
}
