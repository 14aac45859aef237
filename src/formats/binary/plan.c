/* plan.c — builds the binary backends' plans (plan_internal.h): one bin_struct per
 * struct type, memoised so that recursive types close on themselves. */
#include "formats/binary/plan_internal.h"
#include "core/error_internal.h"

#include "types/value_internal.h"

#include <string.h>

typedef struct memo {
    const codec_type *type;
    bin_struct *s;
    struct memo *next;
} memo;

typedef struct builder {
    bin_plan *plan;
    const bin_plan_spec *spec;
    memo *built;
} builder;

static void *plan_alloc(builder *b, size_t size)
{
    void *p = codec_arena_alloc(&b->plan->arena, size, 0);
    if (p)
        memset(p, 0, size);
    return p;
}

void codec__bin_plan_free(bin_plan *p)
{
    codec_arena_free(&p->arena);
}

static int struct_for(builder *b, const codec_type *t, const bin_struct **out);

static bin_op scalar_op(codec_type_kind k)
{
    switch (k) {
    case CODEC_T_BOOL: return BIN_OP_BOOL;
    case CODEC_T_INT8: return BIN_OP_I8;
    case CODEC_T_INT16: return BIN_OP_I16;
    case CODEC_T_INT32: return BIN_OP_I32;
    case CODEC_T_INT64: return BIN_OP_I64;
    case CODEC_T_UINT8: return BIN_OP_U8;
    case CODEC_T_UINT16: return BIN_OP_U16;
    case CODEC_T_UINT32: return BIN_OP_U32;
    case CODEC_T_UINT64: return BIN_OP_U64;
    case CODEC_T_FLOAT: return BIN_OP_F32;
    case CODEC_T_DOUBLE: return BIN_OP_F64;
    case CODEC_T_STRING: return BIN_OP_STRING;
    case CODEC_T_ENUM: return BIN_OP_ENUM;
    default: return BIN_OP_OTHER;
    }
}

static int val_for(builder *b, const codec_type *t, bin_val *v)
{
    v->type = t;
    v->op = (uint8_t)scalar_op(t->kind);
    bin_val *elem;
    switch (t->kind) {
    case CODEC_T_ENUM:
        for (size_t i = 0; i < t->count; i++)
            if (t->values[i].number >= 0 && t->values[i].number < 64)
                v->enum_small |= 1ull << t->values[i].number;
        return CODEC_OK;
    case CODEC_T_STRUCT:
        v->op = BIN_OP_STRUCT;
        return struct_for(b, t, &v->sub);
    case CODEC_T_LIST:
    case CODEC_T_OPTIONAL:
        if (!(elem = plan_alloc(b, sizeof *elem)))
            return CODEC_E_NOMEM;
        v->op = t->kind == CODEC_T_LIST ? BIN_OP_LIST : BIN_OP_OPTIONAL;
        v->value_offset = t->value_offset;
        v->elem = elem;
        return val_for(b, t->elem, elem);
    default:
        return CODEC_OK;
    }
}

/* Bytewise order of the encoded keys, shorter first on a tie (RFC 8949
 * §4.2.1, the order deterministic CBOR sorts map entries in). */
static int key_cmp(const bin_field *x, const bin_field *y)
{
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(x->key, y->key, n);
    if (c)
        return c;
    return x->key_len < y->key_len ? -1 : x->key_len > y->key_len;
}

/* Insertion sort: run once per struct at construction, no global state. */
static void sort_steps(bin_step *steps, size_t count)
{
    for (size_t i = 1; i < count; i++) {
        bin_step x = steps[i];
        size_t j = i;
        for (; j > 0 && key_cmp(x.f, steps[j - 1].f) < 0; j--)
            steps[j] = steps[j - 1];
        steps[j] = x;
    }
}

static bin_step step_of(const bin_field *f)
{
    bin_step st = {.op = f->val.op, .optional = f->optional, .key_len = f->key_len,
                   .offset = f->offset, .f = f};
    st.enum_small = f->val.enum_small;
    if (f->optional) {
        st.op = f->val.elem->op;
        st.value_offset = f->val.value_offset;
        st.enum_small = f->val.elem->enum_small;
    }
    if (f->key_len <= BIN_STEP_KEY)
        memcpy(st.key, f->key, f->key_len);
    else
        st.op = BIN_OP_OTHER; /* the walk's general path copies long keys */
    st.value_op = st.op;
    if (f->optional)
        st.op = BIN_OP_STEP_OPTIONAL;
    else if (f->skippable)
        st.op = BIN_OP_STEP_UNION;
    return st;
}

/* Puts the map head of s in front of its first step's key when that head
 * is always the same (no optionals) and both fit (bin_struct). */
static void prefix_head(bin_struct *s, const bin_plan_spec *spec)
{
    bin_step *first = (bin_step *)s->steps;
    uint8_t head[BIN_KEY_MAX_HEAD];
    if (s->optional_count || s->union_count || !s->count)
        return;
    size_t n = spec->map_head(s->count, head);
    if (first->key_len + n > BIN_STEP_KEY)
        return;
    memmove(first->key + n, first->key, first->key_len);
    memcpy(first->key, head, n);
    first->key_len += (uint32_t)n;
    s->head_in_steps = true;
}

static int field_for(builder *b, const codec_field *cf, bin_field *f)
{
    size_t name = strlen(cf->name);
    size_t room = BIN_KEY_MAX_HEAD + name;
    uint8_t *key = plan_alloc(b, room > BIN_KEY_PAD ? room : BIN_KEY_PAD);
    if (!key)
        return CODEC_E_NOMEM;
    f->key = key;
    f->key_len = (uint32_t)b->spec->key(cf, b->spec->key_ctx, key);
    f->offset = cf->offset;
    f->cf = cf;
    f->optional = cf->type->kind == CODEC_T_OPTIONAL;
    f->skippable = codec_field_may_be_absent(cf);
    f->required = (cf->flags & CODEC_FIELD_REQUIRED) || (b->spec->require_all && !f->skippable);
    return val_for(b, cf->type, &f->val);
}

static int struct_for(builder *b, const codec_type *t, const bin_struct **out)
{
    for (memo *e = b->built; e; e = e->next)
        if (e->type == t) {
            *out = e->s;
            return CODEC_OK;
        }
    memo *e = plan_alloc(b, sizeof *e);
    bin_struct *s = plan_alloc(b, sizeof *s);
    bin_step *steps = plan_alloc(b, (t->count + 1) * sizeof *steps);
    size_t *optionals = plan_alloc(b, (t->count + 1) * sizeof *optionals);
    size_t *unions = plan_alloc(b, (t->count + 1) * sizeof *unions);
    if (!e || !s || !steps || !optionals || !unions ||
        !(s->fields = plan_alloc(b, (t->count + 1) * sizeof *s->fields)))
        return CODEC_E_NOMEM;
    /* Registered before the fields, so a recursive reference finds it. */
    *e = (memo){t, s, b->built};
    b->built = e;
    s->type = t;
    s->count = t->count;
    s->steps = steps;
    s->steps_end = steps + t->count;
    s->optionals = optionals;
    s->unions = unions;
    s->room = BIN_KEY_MAX_HEAD + BIN_KEY_PAD;
    *out = s;
    for (size_t i = 0; i < t->count; i++) {
        bin_field *f = &s->fields[i];
        int rc = field_for(b, &t->fields[i], f);
        if (rc)
            return rc;
        if (f->optional)
            optionals[s->optional_count++] = f->offset;
        else if (f->skippable)
            unions[s->union_count++] = f->offset;
        s->has_required |= f->required;
        s->room += f->key_len + 9;
        steps[i] = step_of(f);
    }
    if (b->spec->sort_keys)
        sort_steps(steps, t->count);
    prefix_head(s, b->spec);
    return CODEC_OK;
}

int codec__bin_plan_build(bin_plan *p, const codec_type *t, const bin_plan_spec *spec,
                          const char *stage, codec_error *err)
{
    builder b = {.plan = p, .spec = spec};
    memset(p, 0, sizeof *p);
    codec_arena_init(&p->arena, NULL, 0);
    if (val_for(&b, t, &p->root)) {
        codec__bin_plan_free(p);
        return codec__nomem(err, stage);
    }
    return CODEC_OK;
}
