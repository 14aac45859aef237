/* plan.c — builds the encode plan of a JSON codec (json_plan_internal.h): one
 * json_node per type, memoised so that recursive types close on
 * themselves; keys and enum names escaped once, here, by the writer's
 * escaper, so the encoder copies their bytes as they are. */
#include "formats/json/json_plan_internal.h"
#include "formats/json/json_internal.h"

#include <string.h>

typedef struct memo {
    const codec_type *type;
    json_node *node;
    struct memo *next;
} memo;

typedef struct builder {
    codec_arena *arena;
    codec_buf scratch;            /* a name being escaped */
    memo *built;
} builder;

static void *plan_alloc(builder *b, size_t size)
{
    void *p = codec_arena_alloc(b->arena, size, 0);
    if (p)
        memset(p, 0, size);
    return p;
}

/* `before` "name" `after` (escaped as the writer escapes it), at least
 * `pad` readable bytes, in the plan: its length, 0 when the name is not
 * valid UTF-8, or SIZE_MAX when out of memory. */
static size_t quoted(builder *b, const char *name, char before, char after, size_t pad,
                     const uint8_t **out)
{
    b->scratch.len = 0;
    if (before && codec_buf_append(&b->scratch, &before, 1))
        return SIZE_MAX;
    int rc = codec__json_put_string(&b->scratch, name, strlen(name));
    if (rc)
        return rc == CODEC_E_INVALID_VALUE ? 0 : SIZE_MAX;
    if (after && codec_buf_append(&b->scratch, &after, 1))
        return SIZE_MAX;
    size_t n = b->scratch.len;
    uint8_t *p = plan_alloc(b, n > pad ? n : pad);
    if (!p)
        return SIZE_MAX;
    memcpy(p, b->scratch.data, n);
    *out = p;
    return n;
}

static int node_for(builder *b, const codec_type *t, const json_node **out);

static json_op scalar_op(codec_type_kind k)
{
    switch (k) {
    case CODEC_T_BOOL: return JSON_OP_BOOL;
    case CODEC_T_INT8: return JSON_OP_I8;
    case CODEC_T_INT16: return JSON_OP_I16;
    case CODEC_T_INT32: return JSON_OP_I32;
    case CODEC_T_INT64: return JSON_OP_I64;
    case CODEC_T_UINT8: return JSON_OP_U8;
    case CODEC_T_UINT16: return JSON_OP_U16;
    case CODEC_T_UINT32: return JSON_OP_U32;
    case CODEC_T_UINT64: return JSON_OP_U64;
    case CODEC_T_FLOAT: return JSON_OP_F32;
    case CODEC_T_DOUBLE: return JSON_OP_F64;
    case CODEC_T_UUID: return JSON_OP_UUID;
    case CODEC_T_DATE: return JSON_OP_DATE;
    case CODEC_T_TIMESTAMP: return JSON_OP_TIMESTAMP;
    case CODEC_T_DECIMAL: return JSON_OP_DECIMAL;
    case CODEC_T_STRING: return JSON_OP_STRING;
    case CODEC_T_VALUE: return JSON_OP_VALUE;
    default: return JSON_OP_OTHER;
    }
}

static int enum_names(builder *b, const codec_type *t, json_node *n)
{
    json_text *names = plan_alloc(b, (t->count + 1) * sizeof *names);
    if (!names)
        return CODEC_E_NOMEM;
    for (size_t i = 0; i < t->count; i++) {
        names[i].len = quoted(b, t->values[i].name, 0, 0, 0, &names[i].bytes);
        if (names[i].len == SIZE_MAX)
            return CODEC_E_NOMEM;
    }
    n->names = names;
    n->op = JSON_OP_ENUM;
    return CODEC_OK;
}

/* The struct's keys first: a name that is not valid UTF-8, or a flat
 * union's members as keys, leave the whole struct to the reference walker
 * (op stays OTHER), decided before
 * any field type is visited, so a recursive reference sees the final op. */
static int struct_plan(builder *b, const codec_type *t, json_node *n)
{
    json_struct *st = plan_alloc(b, sizeof *st);
    json_field *fields = plan_alloc(b, (t->count + 1) * sizeof *fields);
    if (!st || !fields)
        return CODEC_E_NOMEM;
    st->room = 2;
    for (size_t i = 0; i < t->count; i++) {
        if (codec_union_is_flat(t->fields[i].type))
            return CODEC_OK;   /* keys of members: the reference walker's */
        size_t len = quoted(b, t->fields[i].name, ',', ':', JSON_KEY_PAD, &fields[i].key);
        if (len == SIZE_MAX)
            return CODEC_E_NOMEM;
        if (!len)
            return CODEC_OK;
        fields[i].key_len = (uint32_t)len;
        st->room += (len > JSON_KEY_PAD ? len : JSON_KEY_PAD) + JSON_SCALAR_ROOM;
    }
    st->fields = fields;
    st->end = fields + t->count;
    n->st = st;
    n->op = JSON_OP_STRUCT;
    for (size_t i = 0; i < t->count; i++) {
        const codec_field *cf = &t->fields[i];
        json_field *f = &fields[i];
        const codec_type *vt = cf->type;
        f->offset = cf->offset;
        if (vt->kind == CODEC_T_OPTIONAL) {
            f->presence = JSON_IF_HAS;
            f->value_offset = vt->value_offset;
            vt = vt->elem;
        }
        if (vt->kind == CODEC_T_UNION)
            f->presence = JSON_IF_MEMBER;
        int rc = node_for(b, vt, &f->node);
        if (rc)
            return rc;
        f->op = f->node->op;
    }
    return CODEC_OK;
}

static int node_for(builder *b, const codec_type *t, const json_node **out)
{
    for (memo *e = b->built; e; e = e->next)
        if (e->type == t) {
            *out = e->node;
            return CODEC_OK;
        }
    memo *e = plan_alloc(b, sizeof *e);
    json_node *n = plan_alloc(b, sizeof *n);
    if (!e || !n)
        return CODEC_E_NOMEM;
    /* Registered before its parts, so a recursive reference finds it. */
    *e = (memo){t, n, b->built};
    b->built = e;
    n->type = t;
    n->op = (uint8_t)scalar_op(t->kind);
    *out = n;
    switch (t->kind) {
    case CODEC_T_ENUM:
        return enum_names(b, t, n);
    case CODEC_T_STRUCT:
        return struct_plan(b, t, n);
    case CODEC_T_MAP:
        if (t->key->kind != CODEC_T_STRING)
            return CODEC_OK;
        n->op = JSON_OP_MAP;
        return node_for(b, t->elem, &n->elem);
    case CODEC_T_LIST:
    case CODEC_T_OPTIONAL:
        n->op = t->kind == CODEC_T_LIST ? JSON_OP_LIST : JSON_OP_OPTIONAL;
        n->value_offset = t->value_offset;
        return node_for(b, t->elem, &n->elem);
    default:
        return CODEC_OK;
    }
}

int codec__json_plan_build(json_plan *p, const codec_type *t)
{
    codec_arena_init(&p->arena, codec_default_allocator(), 0);
    builder b = {.arena = &p->arena};
    codec_buf_init(&b.scratch, NULL);
    int rc = node_for(&b, t, &p->root);
    codec_buf_free(&b.scratch);
    if (rc)
        codec__json_plan_free(p);
    return rc;
}

void codec__json_plan_free(json_plan *p)
{
    codec_arena_free(&p->arena);
    p->root = NULL;
}

/* ---------------------------------------------------------------------------
 * Plain names (the decoder's in-place key compare)
 * ------------------------------------------------------------------------ */

static bool plain_name(const char *s)
{
    for (; *s; s++)
        if ((uint8_t)*s < 0x20 || (uint8_t)*s >= 0x80 || *s == '"' || *s == '\\')
            return false;
    return true;
}

/* Depth-first over the descriptor graph; `seen` holds the types already
 * visited (graphs may be cyclic). */
static bool names_plain(const codec_type *t, const codec_type **seen, size_t *n, size_t cap)
{
    for (size_t i = 0; i < *n; i++)
        if (seen[i] == t)
            return true;
    if (*n == cap)
        return false;
    seen[(*n)++] = t;
    switch (t->kind) {
    case CODEC_T_STRUCT:
    case CODEC_T_UNION:
        for (size_t i = 0; i < t->count; i++)
            if (!plain_name(t->fields[i].name) || !names_plain(t->fields[i].type, seen, n, cap))
                return false;
        return true;
    case CODEC_T_ENUM:
        for (size_t i = 0; i < t->count; i++)
            if (!plain_name(t->values[i].name))
                return false;
        return true;
    case CODEC_T_MAP:
        return names_plain(t->key, seen, n, cap) && names_plain(t->elem, seen, n, cap);
    case CODEC_T_LIST:
    case CODEC_T_OPTIONAL:
        return names_plain(t->elem, seen, n, cap);
    default:   /* xmap and the leaves: written by the reference walker or nameless */
        return true;
    }
}

bool codec__json_type_names_plain(const codec_type *t)
{
    const codec_type *seen[256];
    size_t n = 0;
    return names_plain(t, seen, &n, sizeof seen / sizeof seen[0]);
}
