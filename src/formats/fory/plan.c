/* plan.c — turns descriptors into the plan the encoder and decoder walk:
 * one node per use of a type (with its Fory wire type id), and per struct
 * its fields in Fory's wire order, its user id and (compatible mode) its
 * TypeDef bytes. Built once per codec. */
#include "formats/fory/fory_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct builder {
    fory_plan *p;
    const codec_fory_registry *r;
    uint32_t next_id;
    codec_error *err;
} builder;

static int usage(builder *b, const char *what, const codec_type *t)
{
    return codec_error_set(b->err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "fory", CODEC_NO_OFFSET,
                           "%s (%s)", what, t && t->name ? t->name : "type");
}

static void *plan_alloc(builder *b, size_t n)
{
    void *m = codec_arena_alloc(&b->p->arena, n, 0);
    if (m)
        memset(m, 0, n);
    else
        FORY_NOMEM(b->err);
    return m;
}

static int node_for(builder *b, const codec_type *t, uint32_t field_flags, const fory_node **out);

static uint8_t scalar_tid(const codec_type *t, uint32_t flags)
{
    bool fixed = flags & CODEC_FIELD_FIXED, tagged = flags & CODEC_FIELD_TAGGED;
    switch (t->kind) {
    case CODEC_T_BOOL: return FT_BOOL;
    case CODEC_T_INT8: return FT_INT8;
    case CODEC_T_INT16: return FT_INT16;
    case CODEC_T_INT32: return fixed ? FT_INT32 : FT_VARINT32;
    case CODEC_T_INT64: return fixed ? FT_INT64 : tagged ? FT_TAGGED_INT64 : FT_VARINT64;
    case CODEC_T_UINT8: return FT_UINT8;
    case CODEC_T_UINT16: return FT_UINT16;
    case CODEC_T_UINT32: return fixed ? FT_UINT32 : FT_VAR_UINT32;
    case CODEC_T_UINT64: return fixed ? FT_UINT64 : tagged ? FT_TAGGED_UINT64 : FT_VAR_UINT64;
    case CODEC_T_FLOAT: return FT_FLOAT32;
    case CODEC_T_DOUBLE: return FT_FLOAT64;
    case CODEC_T_STRING: return FT_STRING;
    case CODEC_T_BYTES: return FT_BINARY;
    case CODEC_T_ENUM: return FT_ENUM;
    default: return FT_UNKNOWN;
    }
}

static uint8_t array_tid(const codec_type *elem)
{
    switch (elem->kind) {
    case CODEC_T_BOOL: return FT_BOOL_ARRAY;
    case CODEC_T_INT8: return FT_INT8_ARRAY;
    case CODEC_T_INT16: return FT_INT16_ARRAY;
    case CODEC_T_INT32: return FT_INT32_ARRAY;
    case CODEC_T_INT64: return FT_INT64_ARRAY;
    default: return FT_UNKNOWN;
    }
}

fory_struct *codec__fory_plan_struct_by_id(const fory_plan *p, uint32_t id)
{
    for (size_t i = 0; i < p->nstructs; i++)
        if (p->structs[i]->user_id == id)
            return p->structs[i];
    return NULL;
}

/* Fory compares snake_case names; camelCase descriptor names are converted. */
static char *snake_name(builder *b, const char *name, size_t *len)
{
    size_t n = strlen(name);
    char *s = plan_alloc(b, n * 2 + 1);
    if (!s)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (isupper(c)) {
            unsigned char prev = i ? (unsigned char)name[i - 1] : 0;
            bool next_lower = i + 1 < n && islower((unsigned char)name[i + 1]);
            if (i && (islower(prev) || isdigit(prev) || (isupper(prev) && next_lower)) && o &&
                s[o - 1] != '_')
                s[o++] = '_';
            s[o++] = (char)tolower(c);
        } else {
            s[o++] = (char)c;
        }
    }
    while (o && s[o - 1] == '_')
        o--;
    s[o] = '\0';
    *len = o;
    return s;
}

static bool is_primitive(uint8_t tid)
{
    return tid >= FT_BOOL && tid <= FT_FLOAT64;
}

static bool is_compressed(uint8_t tid)
{
    return tid == FT_VARINT32 || tid == FT_VAR_UINT32 || tid == FT_VARINT64 ||
           tid == FT_VAR_UINT64 || tid == FT_TAGGED_INT64 || tid == FT_TAGGED_UINT64;
}

/* For an enum whose values are numbered 0, 1, ... in order and fewer than
 * 128: their count (an ordinal is then one byte and equals the number),
 * else 0. */
static uint8_t enum_direct(const fory_node *n)
{
    if (n->tid != FT_ENUM || n->t->count >= 128)
        return 0;
    for (size_t i = 0; i < n->t->count; i++)
        if (n->t->values[i].number != (int32_t)i)
            return 0;
    return (uint8_t)n->t->count;
}

static int primitive_size(uint8_t tid)
{
    switch (tid) {
    case FT_BOOL: case FT_INT8: case FT_UINT8: return 1;
    case FT_INT16: case FT_UINT16: return 2;
    case FT_INT32: case FT_VARINT32: case FT_UINT32: case FT_VAR_UINT32: case FT_FLOAT32:
        return 4;
    default: return 8;
    }
}

/* Group 0: non-nullable primitives, 1: nullable primitives, 2: the rest. */
static int field_group(const fory_field *f)
{
    if (!is_primitive(f->node->tid))
        return 2;
    return f->node->nullable ? 1 : 0;
}

static int compare_fields(const void *pa, const void *pb)
{
    const fory_field *a = pa, *b = pb;
    int ga = field_group(a), gb = field_group(b);
    if (ga != gb)
        return ga - gb;
    if (ga < 2) {
        uint8_t ta = a->node->tid, tb = b->node->tid;
        if (is_compressed(ta) != is_compressed(tb))
            return is_compressed(ta) ? 1 : -1;
        if (primitive_size(ta) != primitive_size(tb))
            return primitive_size(tb) - primitive_size(ta);
        if (ta != tb)
            return ta - tb;
    }
    return strcmp(a->name, b->name);
}

static uint32_t registered_id(builder *b, const codec_type *t, bool *found)
{
    *found = false;
    if (!b->r) {
        *found = true;
        return b->next_id++;
    }
    for (size_t i = 0; i < b->r->count; i++)
        if (b->r->items[i].t == t) {
            *found = true;
            return b->r->items[i].id;
        }
    return 0;
}

static int struct_for(builder *b, const codec_type *t, fory_struct **out)
{
    for (size_t i = 0; i < b->p->nstructs; i++)
        if (b->p->structs[i]->t == t) {
            *out = b->p->structs[i];
            return CODEC_OK;
        }
    if (b->p->nstructs == CODEC_FORY_MAX_STRUCTS)
        return usage(b, "more struct types than CODEC_FORY_MAX_STRUCTS", t);
    bool found;
    uint32_t id = registered_id(b, t, &found);
    if (!found)
        return usage(b, "struct type is not registered", t);
    fory_struct *st = plan_alloc(b, sizeof *st);
    if (!st || !(st->order = plan_alloc(b, t->count * sizeof *st->order)))
        return CODEC_E_NOMEM;
    st->t = t;
    st->user_id = id;
    st->count = t->count;
    st->index = (uint32_t)b->p->nstructs;
    b->p->structs[b->p->nstructs++] = st;
    *out = st;
    for (size_t i = 0; i < t->count; i++) {
        fory_field *f = &st->order[i];
        f->f = &t->fields[i];
        if (!(f->name = snake_name(b, f->f->name, &f->name_len)))
            return CODEC_E_NOMEM;
        int rc = node_for(b, f->f->type, f->f->flags, &f->node);
        if (rc)
            return rc;
        f->offset = f->f->offset;
        f->tid = f->node->tid;
        f->nullable = f->node->nullable;
        f->enum_direct = enum_direct(f->node);
    }
    qsort(st->order, st->count, sizeof *st->order, compare_fields);
    /* Primitives sort first; the encoder reserves their room in one go. */
    while (st->nprim < st->count && field_group(&st->order[st->nprim]) < 2) {
        uint8_t tid = st->order[st->nprim].node->tid;
        st->prim_max += (is_compressed(tid) ? 9 : (size_t)primitive_size(tid)) + 1;
        st->nprim++;
    }
    /* The rest all strings: one reservation covers the struct. */
    st->flat = true;
    for (size_t i = st->nprim; i < st->count; i++) {
        st->flat &= st->order[i].tid == FT_STRING;
        st->tail_max += 1 + 9;   /* null flag, varuint64 header */
    }
    if (codec__fory_struct_version(st, &st->version))
        return FORY_NOMEM(b->err);
    if (b->p->o.mode == CODEC_FORY_COMPATIBLE)
        return codec__fory_typedef_build(b->p, st, b->err);
    return CODEC_OK;
}

/* A union is a struct field (Fory's UNION, schema known from the field);
 * the root, list items and map keys or values would need TYPED_UNION or
 * NAMED_UNION type meta, which this backend does not write. */
static int no_union(builder *b, const codec_type *t, const codec_type *owner)
{
    return t->kind == CODEC_T_UNION
               ? usage(b, "a Fory union must be a struct field (not the root, a list item, "
                          "a map key or value, or a union member)", owner)
               : CODEC_OK;
}

/* The node of each member: its case value is written with its own type info. */
static int union_cases(builder *b, const codec_type *t, fory_node *n)
{
    const fory_node **cases = plan_alloc(b, t->count * sizeof *cases);
    if (!cases)
        return CODEC_E_NOMEM;
    n->cases = cases;
    for (size_t i = 0; i < t->count; i++) {
        /* An enum case value's type meta would need the enum's registered
         * id (ENUM + user id), which this backend does not write. */
        if (t->fields[i].type->kind == CODEC_T_ENUM)
            return usage(b, "a Fory union case cannot be an enum here (wrap it in a struct)", t);
        int rc = no_union(b, t->fields[i].type, t);
        if (rc || (rc = node_for(b, t->fields[i].type, t->fields[i].flags, &cases[i])))
            return rc;
    }
    return CODEC_OK;
}

static int node_for(builder *b, const codec_type *t, uint32_t flags, const fory_node **out)
{
    fory_node *n = plan_alloc(b, sizeof *n);
    if (!n)
        return CODEC_E_NOMEM;
    if (t->kind == CODEC_T_OPTIONAL) {
        if (t->elem->kind == CODEC_T_OPTIONAL)
            return usage(b, "an optional of an optional has no Fory form", t);
        n->nullable = true;
        n->value_offset = t->value_offset;
        t = t->elem;
    }
    n->t = t;
    int rc = CODEC_OK;
    switch (t->kind) {
    case CODEC_T_STRUCT:
        n->tid = b->p->o.mode == CODEC_FORY_COMPATIBLE ? FT_COMPATIBLE_STRUCT : FT_STRUCT;
        rc = struct_for(b, t, &n->st);
        break;
    case CODEC_T_LIST:
        if (t->flags & CODEC_TYPE_ARRAY) {
            if (!(n->tid = array_tid(t->elem)))
                return usage(b, "a Fory array holds bool or int8..int64 items", t);
            break;
        }
        n->tid = FT_LIST;
        if (t->elem->kind == CODEC_T_OPTIONAL && t->elem->elem->kind == CODEC_T_STRUCT)
            return usage(b, "lists of optional structs are not supported", t);
        if (!(rc = no_union(b, t->elem, t)))
            rc = node_for(b, t->elem, 0, &n->elem);
        break;
    case CODEC_T_MAP:
        n->tid = FT_MAP;
        if (t->key->kind == CODEC_T_OPTIONAL || t->elem->kind == CODEC_T_OPTIONAL)
            return usage(b, "map keys and values cannot be optional in Fory maps here", t);
        if (!(rc = no_union(b, t->key, t)) && !(rc = no_union(b, t->elem, t)) &&
            !(rc = node_for(b, t->key, 0, &n->key)))
            rc = node_for(b, t->elem, 0, &n->elem);
        break;
    case CODEC_T_UNION:
        /* Nullable: an empty union is written as Fory's null. */
        n->tid = FT_UNION;
        n->nullable = true;
        rc = union_cases(b, t, n);
        break;
    default:
        if (!(n->tid = scalar_tid(t, flags)))
            return usage(b, "kind has no Fory mapping in this backend", t);
    }
    *out = n;
    return rc;
}

/* For a struct root that is not optional, the bytes before its fields are
 * the same in every message (in compatible mode its TypeDef is the first,
 * marker 0): the encoder copies them, the decoder compares them to take
 * the fields in local order without reading the type info. */
static int root_prefix(builder *b)
{
    fory_plan *p = b->p;
    const fory_node *n = p->root;
    if (!n->st || n->nullable)
        return CODEC_OK;
    const fory_struct *st = n->st;
    bool compatible = p->o.mode == CODEC_FORY_COMPATIBLE;
    uint8_t *w = plan_alloc(b, 2 + 1 + 5 + (compatible ? st->type_def_len : 0));
    if (!w)
        return CODEC_E_NOMEM;
    p->root_prefix = w;
    *w++ = 0x01;   /* xlang */
    *w++ = p->o.track_ref ? FORY_REF_VALUE : FORY_NOT_NULL;
    if (compatible) {
        *w++ = FT_COMPATIBLE_STRUCT;
        *w++ = 0;   /* marker: TypeDef 0, sent here */
        memcpy(w, st->type_def, st->type_def_len);
        w += st->type_def_len;
    } else {
        *w++ = FT_STRUCT;
        w = codec_leb128_put(w, st->user_id);
    }
    p->root_prefix_len = (size_t)(w - p->root_prefix);
    return CODEC_OK;
}

/* Struct st's generated functions, when their layout is the plan's: the
 * same fields in the same order with the same type ids. */
static const codec_fory_codegen *struct_codegen(const fory_struct *st)
{
    const codec_type *t = st->t;
    if (!t->codegen || t->codegen->abi != CODEC_CODEGEN_ABI || !t->codegen->reserved[0])
        return NULL;
    const codec_fory_codegen *g = t->codegen->reserved[0];
    if (g->abi != CODEC_FORY_CODEGEN_ABI || g->count != st->count || !g->decode || !g->encode)
        return NULL;
    for (size_t i = 0; i < st->count; i++)
        if (g->order[i] >= st->count || st->order[i].f != &t->fields[g->order[i]] ||
            g->tids[i] != (st->order[i].tid | (st->order[i].nullable ? 0x80 : 0)))
            return NULL;
    return g;
}

/* Whether the generated functions of st and of every struct it holds (in
 * fields, list items, map values: the generated code follows theirs) have
 * the plan's layout; *depth: the nesting the decoder counts for it (a
 * struct 1, a list or map 1 more). `seen`: the structs on the way down (a
 * cycle says no; codec-gen writes no functions for those). */
static bool codegen_tree(const fory_plan *p, const fory_struct *st, uint8_t *seen, size_t *depth)
{
    if (seen[st->index] || !struct_codegen(st))
        return false;
    seen[st->index] = 1;
    size_t deepest = 0;
    bool ok = true;
    for (size_t i = 0; i < st->count && ok; i++) {
        const fory_node *n = st->order[i].node;
        size_t d = 0, under = 0;
        const fory_node *held = n->st ? n : (n->tid == FT_LIST || n->tid == FT_MAP) ? n->elem : NULL;
        if (n->tid == FT_LIST || n->tid == FT_MAP)
            d = 1;
        if (held && held->st) {
            /* compatible mode: held structs carry TypeDefs, left to the backend */
            ok = p->o.mode != CODEC_FORY_COMPATIBLE && codegen_tree(p, held->st, seen, &under);
            d += under;
        }
        if (d > deepest)
            deepest = d;
    }
    seen[st->index] = 0;
    *depth = 1 + deepest;
    return ok;
}

/* The root struct's generated functions (codec/codegen.h), used when they
 * read and write exactly the plan's field order and type ids (the root's
 * and those of the structs it holds), the nesting fits max_depth, and
 * nothing else precedes the fields (no struct version: `hash=on`). */
static void root_codegen(fory_plan *p)
{
    const fory_node *n = p->root;
    if (p->no_codegen || !p->root_prefix_len || p->o.schema_hash)
        return;
    uint8_t seen[CODEC_FORY_MAX_STRUCTS] = {0};
    size_t depth = 0;
    if (codegen_tree(p, n->st, seen, &depth) && depth <= p->o.max_depth)
        p->gen = n->t->codegen->reserved[0];
}

/* For generated code (codec_fory_gen_ctx.user_id): the user id of struct
 * type t, which codegen_tree found in the plan. */
uint32_t codec__fory_gen_user_id(const void *plan, const codec_type *t)
{
    const fory_plan *p = plan;
    for (size_t i = 0; i < p->nstructs; i++)
        if (p->structs[i]->t == t)
            return p->structs[i]->user_id;
    return 0;
}

int codec__fory_plan_build(fory_plan *p, const codec_fory_registry *r, const codec_type *root,
                           codec_error *err)
{
    builder b = {.p = p, .r = r, .next_id = 100, .err = err};
    codec_arena_init(&p->arena, NULL, 4096);
    if (root->kind == CODEC_T_VALUE)
        return CODEC_OK;
    int rc = no_union(&b, root, root);
    if (!rc)
        rc = node_for(&b, root, 0, &p->root);
    /* Registered structs the root does not reach are still known, so that
     * compatible mode can skip fields of those types. */
    for (size_t i = 0; r && !rc && i < r->count; i++) {
        fory_struct *st;
        if (r->items[i].t->kind == CODEC_T_STRUCT)
            rc = struct_for(&b, r->items[i].t, &st);
    }
    if (!rc)
        rc = root_prefix(&b);
    if (!rc)
        root_codegen(p);
    if (rc == CODEC_E_NOMEM)
        FORY_NOMEM(err);
    return rc;
}

void codec__fory_plan_free(fory_plan *p)
{
    codec__fory_def_cache_free(p);
    codec_arena_free(&p->arena);
}
