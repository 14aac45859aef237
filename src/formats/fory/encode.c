/* encode.c — a C value to Fory xlang bytes, walking the plan. */
#include "formats/fory/fory_internal.h"

#include <string.h>

typedef struct enc {
    const fory_plan *p;
    codec_buf *out;
    codec_error *err;
    uint32_t next_def;                           /* compatible: TypeDefs written */
    uint16_t def_index[CODEC_FORY_MAX_STRUCTS];  /* 0 = not yet, else index + 1 */
} enc;

static int enc_value(enc *e, const fory_node *n, const void *v, bool declared);
static int enc_present(enc *e, const fory_node *n, const void *v, bool declared);
static int enc_list(enc *e, const fory_node *n, const codec_list *l, bool declared);
static int enc_struct(enc *e, const fory_struct *st, const void *v);
static int enc_union(enc *e, const fory_node *n, const uint8_t *v);

static int nomem(enc *e)
{
    return FORY_NOMEM(e->err);
}

/* A UTF-8 string at w: header (byte length << 2 | 2) then the bytes; the
 * caller has reserved len + 9 bytes. Returns the cursor after it. */
static inline uint8_t *put_str_at(uint8_t *w, const codec_string *str)
{
    size_t n = str->len;
    w = fory_w_varu64(w, (uint64_t)n << 2 | 2);
    const uint8_t *s = (const uint8_t *)str->ptr;
    /* Short strings, most of them, as two overlapping fixed-size copies
     * (inlined moves) rather than a call. */
    if (n >= 8 && n <= 16) {
        memcpy(w, s, 8);
        memcpy(w + n - 8, s + n - 8, 8);
    } else if (n > 16 && n <= 32) {
        memcpy(w, s, 16);
        memcpy(w + n - 16, s + n - 16, 16);
    } else if (n) {
        memcpy(w, s, n);
    }
    return w + n;
}

static inline int put_string(enc *e, const codec_string *str)
{
    if (codec__buf_room(e->out, str->len + 10))
        return nomem(e);
    e->out->len = (size_t)(put_str_at(e->out->data + e->out->len, str) - e->out->data);
    return CODEC_OK;
}

/* Type info of a struct: consistent = STRUCT + user id; compatible =
 * COMPATIBLE_STRUCT + marker (index << 1, | 1 when already written) and,
 * the first time, the TypeDef. */
static int enc_struct_info(enc *e, const fory_struct *st)
{
    if (e->p->o.mode == CODEC_FORY_CONSISTENT) {
        if (codec__buf_room(e->out, 6))
            return nomem(e);
        fory_put_u8(e->out, FT_STRUCT);
        fory_put_varu32(e->out, st->user_id);
        return CODEC_OK;
    }
    uint16_t seen = e->def_index[st->index];
    if (codec__buf_room(e->out, 6 + (seen ? 0 : st->type_def_len)))
        return nomem(e);
    fory_put_u8(e->out, FT_COMPATIBLE_STRUCT);
    if (seen) {
        fory_put_varu32(e->out, (uint32_t)(seen - 1) << 1 | 1);
        return CODEC_OK;
    }
    fory_put_varu32(e->out, e->next_def << 1);
    e->def_index[st->index] = (uint16_t)++e->next_def;
    memcpy(e->out->data + e->out->len, st->type_def, st->type_def_len);
    e->out->len += st->type_def_len;
    return CODEC_OK;
}

/* Writes a primitive at w (a cursor the primitive loop keeps in a
 * register); the caller has reserved its room. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline uint8_t *put_scalar(uint8_t *w, uint8_t tid, const void *v)
{
    switch (tid) {
    case FT_BOOL: *w = *(const bool *)v ? 1 : 0; return w + 1;
    case FT_INT8: case FT_UINT8: *w = *(const uint8_t *)v; return w + 1;
    case FT_INT16: case FT_UINT16: return fory_w_le(w, *(const uint16_t *)v, 2);
    case FT_INT32: case FT_UINT32: return fory_w_le(w, *(const uint32_t *)v, 4);
    case FT_INT64: case FT_UINT64: return fory_w_le(w, *(const uint64_t *)v, 8);
    case FT_VARINT32: return codec_leb128_put(w, codec_zigzag32(*(const int32_t *)v));
    case FT_VAR_UINT32: return codec_leb128_put(w, *(const uint32_t *)v);
    case FT_VARINT64: return fory_w_varu64(w, codec_zigzag64(*(const int64_t *)v));
    case FT_VAR_UINT64: return fory_w_varu64(w, *(const uint64_t *)v);
    case FT_TAGGED_INT64: {
        int64_t x = *(const int64_t *)v;
        if (x >= -(INT64_C(1) << 30) && x < (INT64_C(1) << 30))
            return fory_w_le(w, (uint32_t)((uint64_t)x << 1), 4);
        *w = 1;
        return fory_w_le(w + 1, (uint64_t)x, 8);
    }
    case FT_TAGGED_UINT64: {
        uint64_t x = *(const uint64_t *)v;
        if (x <= INT32_MAX)
            return fory_w_le(w, (uint32_t)(x << 1), 4);
        *w = 1;
        return fory_w_le(w + 1, x, 8);
    }
    case FT_FLOAT32: {
        uint32_t bits;
        memcpy(&bits, v, 4);
        return fory_w_le(w, bits, 4);
    }
    default: {
        uint64_t bits;
        memcpy(&bits, v, 8);
        return fory_w_le(w, bits, 8);
    }
    }
}

/* The null flag of optional field f (at fv) written at *w: the value's
 * address, or NULL when it is absent. */
static inline const uint8_t *put_flag(uint8_t **w, const fory_field *f, const uint8_t *fv)
{
    bool present = *(const bool *)fv;
    *(*w)++ = present ? FORY_NOT_NULL : FORY_NULL;
    return present ? fv + f->node->value_offset : NULL;
}

/* The leading primitive fields at w; the caller has reserved st->prim_max. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline uint8_t *put_prims(uint8_t *w, const fory_struct *st, const uint8_t *v)
{
    for (size_t i = 0; i < st->nprim; i++) {
        const fory_field *f = &st->order[i];
        const uint8_t *fv = v + f->offset;
        if (f->nullable && !(fv = put_flag(&w, f, fv)))
            continue;
        w = put_scalar(w, f->tid, fv);
    }
    return w;
}

/* A flat struct (primitives, then strings): the room for all of it is
 * reserved once, then everything is written through one cursor. */
static int enc_flat(enc *e, const fory_struct *st, const uint8_t *v)
{
    size_t need = st->prim_max + st->tail_max;
    for (size_t i = st->nprim; i < st->count; i++) {
        const fory_field *f = &st->order[i];
        const uint8_t *fv = v + f->offset;
        if (f->nullable && !*(const bool *)fv)
            continue;
        size_t len = ((const codec_string *)(fv + (f->nullable ? f->node->value_offset : 0)))->len;
        if ((need += len) < len)
            return nomem(e);
    }
    if (codec__buf_room(e->out, need))
        return nomem(e);
    uint8_t *w = put_prims(e->out->data + e->out->len, st, v);
    for (size_t i = st->nprim; i < st->count; i++) {
        const fory_field *f = &st->order[i];
        const uint8_t *fv = v + f->offset;
        if (f->nullable && !(fv = put_flag(&w, f, fv)))
            continue;
        w = put_str_at(w, (const codec_string *)fv);
    }
    e->out->len = (size_t)(w - e->out->data);
    return CODEC_OK;
}

static int enc_fields(enc *e, const fory_struct *st, const uint8_t *v)
{
    if (e->p->o.schema_hash && e->p->o.mode == CODEC_FORY_CONSISTENT) {
        if (codec__buf_room(e->out, 4))
            return nomem(e);
        fory_put_le(e->out, st->version, 4);
    }
    if (st->flat)
        return enc_flat(e, st, v);
    if (codec__buf_room(e->out, st->prim_max))
        return nomem(e);
    e->out->len = (size_t)(put_prims(e->out->data + e->out->len, st, v) - e->out->data);
    for (size_t i = st->nprim; i < st->count; i++) {
        const fory_field *f = &st->order[i];
        const fory_node *n = f->node;
        const uint8_t *fv = v + f->offset;
        int rc;
        if (f->tid == FT_UNION) {   /* its own null flag: `which` 0 */
            if ((rc = enc_union(e, n, fv)))
                return rc;
            continue;
        }
        if (f->nullable) {
            if (codec__buf_room(e->out, 1))
                return nomem(e);
            if (!*(const bool *)fv) {
                fory_put_u8(e->out, FORY_NULL);
                continue;
            }
            fory_put_u8(e->out, FORY_NOT_NULL);
            fv += n->value_offset;
        }
        /* The common kinds go straight to their writer. */
        switch (f->tid) {
        case FT_STRING: rc = put_string(e, (const codec_string *)fv); break;
        case FT_LIST: rc = enc_list(e, n, (const codec_list *)fv, true); break;
        case FT_STRUCT: case FT_COMPATIBLE_STRUCT: rc = enc_struct(e, n->st, fv); break;
        case FT_ENUM:   /* the number is the ordinal: one byte */
            if ((uint32_t)*(const int32_t *)fv < f->enum_direct && !codec__buf_room(e->out, 1)) {
                fory_put_u8(e->out, (uint8_t)*(const int32_t *)fv);
                rc = CODEC_OK;
                break;
            }
            rc = enc_present(e, n, fv, true);
            break;
        default: rc = enc_present(e, n, fv, true); break;
        }
        if (rc)
            return rc;
    }
    return CODEC_OK;
}

static int enc_struct(enc *e, const fory_struct *st, const void *v)
{
    if (e->p->o.mode == CODEC_FORY_COMPATIBLE) {
        int rc = enc_struct_info(e, st);
        if (rc)
            return rc;
    }
    return enc_fields(e, st, v);
}

static int enc_type_info(enc *e, const fory_node *n)
{
    if (n->st)
        return enc_struct_info(e, n->st);
    if (codec__buf_room(e->out, 5))
        return nomem(e);
    fory_put_varu32(e->out, n->tid);
    return CODEC_OK;
}

/* A list or map count (varuint32). */
static int put_count(enc *e, size_t count, const char *what)
{
    if (count > UINT32_MAX)
        return codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, "fory", CODEC_NO_OFFSET,
                               "%s of %zu items is too long", what, count);
    if (codec__buf_room(e->out, 6))
        return nomem(e);
    fory_put_varu32(e->out, (uint32_t)count);
    return CODEC_OK;
}

static int enc_list(enc *e, const fory_node *n, const codec_list *l, bool declared)
{
    const fory_node *el = n->elem;
    int rc = put_count(e, l->count, "list");
    if (rc || !l->count)
        return rc;
    if (el->st) {
        /* Structs: same type, its type info once, then each one's fields. */
        fory_put_u8(e->out, FORY_ELEM_SAME);
        if ((rc = enc_struct_info(e, el->st)))
            return rc;
        const uint8_t *item = l->items;
        for (size_t i = 0; i < l->count; i++, item += el->t->size)
            if ((rc = enc_fields(e, el->st, item)))
                return rc;
        return CODEC_OK;
    }
    uint8_t header = FORY_ELEM_SAME | (declared ? FORY_ELEM_DECL : 0) |
                     (el->nullable ? FORY_ELEM_HAS_NULL : 0);
    fory_put_u8(e->out, header);
    if (!declared && (rc = enc_type_info(e, el)))
        return rc;
    size_t esz = n->t->elem->size;
    const uint8_t *item = l->items;
    if (el->tid == FT_STRING && !el->nullable) {
        const codec_string *strs = l->items;
        for (size_t i = 0; i < l->count; i++)
            if ((rc = put_string(e, &strs[i])))
                return rc;
        return CODEC_OK;
    }
    for (size_t i = 0; i < l->count; i++, item += esz)
        if ((rc = enc_value(e, el, item, true)))
            return rc;
    return CODEC_OK;
}

static int enc_map(enc *e, const fory_node *n, const codec_map *m, bool declared)
{
    int rc = put_count(e, m->count, "map");
    if (rc)
        return rc;
    const uint8_t *k = m->keys, *v = m->values;
    size_t ksz = n->key->t->size, vsz = n->elem->t->size;
    /* Struct values in compatible mode carry their type info (and TypeDef)
     * so that a reader with another version of the struct can map fields. */
    bool val_decl = declared && !(n->elem->st && e->p->o.mode == CODEC_FORY_COMPATIBLE);
    for (size_t done = 0; done < m->count;) {
        size_t chunk = m->count - done < 255 ? m->count - done : 255;
        if (codec__buf_room(e->out, 2))
            return nomem(e);
        fory_put_u8(e->out,
                    (uint8_t)((declared ? FORY_KEY_DECL : 0) | (val_decl ? FORY_VAL_DECL : 0)));
        fory_put_u8(e->out, (uint8_t)chunk);
        if ((!declared && (rc = enc_type_info(e, n->key))) ||
            (!val_decl && (rc = enc_type_info(e, n->elem))))
            return rc;
        for (size_t i = 0; i < chunk; i++, k += ksz, v += vsz) {
            if ((rc = enc_value(e, n->key, k, true)))
                return rc;
            if (n->elem->st)
                rc = enc_fields(e, n->elem->st, v);
            else
                rc = enc_value(e, n->elem, v, true);
            if (rc)
                return rc;
        }
        done += chunk;
    }
    return CODEC_OK;
}

static int enc_enum(enc *e, const codec_type *t, int32_t number)
{
    /* Most enums number their values 0, 1, ... in order: no search. */
    if (number >= 0 && (size_t)number < t->count && t->values[number].number == number) {
        if (codec__buf_room(e->out, 5))
            return nomem(e);
        fory_put_varu32(e->out, (uint32_t)number);
        return CODEC_OK;
    }
    for (size_t i = 0; i < t->count; i++)
        if (t->values[i].number == number) {
            if (codec__buf_room(e->out, 5))
                return nomem(e);
            fory_put_varu32(e->out, (uint32_t)i);
            return CODEC_OK;
        }
    return codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, "fory", CODEC_NO_OFFSET,
                           "%s value: %d is not one of its names", t->name ? t->name : "enum",
                           (int)number);
}

static int enc_bytes(enc *e, uint32_t header, const void *data, size_t n)
{
    if (codec__buf_room(e->out, n + 5))
        return nomem(e);
    fory_put_varu32(e->out, header);
    if (n)
        memcpy(e->out->data + e->out->len, data, n);
    e->out->len += n;
    return CODEC_OK;
}

static int enc_array(enc *e, const fory_node *n, const codec_list *l)
{
    size_t esz = n->t->elem->size;
    if (l->count > UINT32_MAX / esz)
        return codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, "fory", CODEC_NO_OFFSET,
                               "array of %zu items is too long", l->count);
    size_t bytes = l->count * esz;
    if (codec__buf_room(e->out, bytes + 5))
        return nomem(e);
    fory_put_varu32(e->out, (uint32_t)bytes);
    if (bytes)   /* an empty list may have no items pointer */
        fory_copy_le(e->out->data + e->out->len, l->items, bytes, esz);
    e->out->len += bytes;
    return CODEC_OK;
}

static int enc_scalar(enc *e, uint8_t tid, const void *v)
{
    if (codec__buf_room(e->out, 10))
        return nomem(e);
    e->out->len = (size_t)(put_scalar(e->out->data + e->out->len, tid, v) - e->out->data);
    return CODEC_OK;
}

/* The value of `n` itself, without a null flag (n->nullable is ignored). */
static int enc_present(enc *e, const fory_node *n, const void *v, bool declared)
{
    switch (n->tid) {
    case FT_STRING: return put_string(e, v);
    case FT_BINARY: {
        const codec_bytes *b = v;
        if (b->len > UINT32_MAX)
            return codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, "fory", CODEC_NO_OFFSET,
                                   "binary of %zu bytes is too long", b->len);
        return enc_bytes(e, (uint32_t)b->len, b->data, b->len);
    }
    case FT_ENUM: return enc_enum(e, n->t, *(const int32_t *)v);
    case FT_LIST: return enc_list(e, n, v, declared);
    case FT_MAP: return enc_map(e, n, v, declared);
    case FT_STRUCT:
    case FT_COMPATIBLE_STRUCT: return enc_struct(e, n->st, v);
    case FT_BOOL_ARRAY: case FT_INT8_ARRAY: case FT_INT16_ARRAY: case FT_INT32_ARRAY:
    case FT_INT64_ARRAY: return enc_array(e, n, v);
    default: return enc_scalar(e, n->tid, v);
    }
}

static int enc_value(enc *e, const fory_node *n, const void *v, bool declared)
{
    if (n->nullable) {
        if (codec__buf_room(e->out, 1))
            return nomem(e);
        if (!*(const bool *)v) {
            fory_put_u8(e->out, FORY_NULL);
            return CODEC_OK;
        }
        fory_put_u8(e->out, FORY_NOT_NULL);
        v = (const uint8_t *)v + n->value_offset;
    }
    return enc_present(e, n, v, declared);
}

/* A value with its own ref flag and type info, as at the root and in a
 * union case (the spec's "Any-style" value). */
static int enc_typed(enc *e, const fory_node *n, const void *v)
{
    if (codec__buf_room(e->out, 1))
        return nomem(e);
    fory_put_u8(e->out, n->st && e->p->o.track_ref ? FORY_REF_VALUE : FORY_NOT_NULL);
    int rc = enc_type_info(e, n);
    if (rc)
        return rc;
    if (n->st)
        return enc_fields(e, n->st, v);
    return enc_present(e, n, v, false);
}

/* The xlang UNION payload with its null flag: null when empty, else
 * varuint32 case_id (the member's tag) and the member as a typed value. */
static int enc_union(enc *e, const fory_node *n, const uint8_t *v)
{
    if (codec__buf_room(e->out, 6))
        return nomem(e);
    if (!codec_union_which(v)) {
        fory_put_u8(e->out, FORY_NULL);
        return CODEC_OK;
    }
    const codec_field *f = codec_union_active(n->t, v);
    if (!f)
        return codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, "fory", CODEC_NO_OFFSET,
                               "%s value: `which` is past the last member",
                               n->t->name ? n->t->name : "union");
    fory_put_u8(e->out, FORY_NOT_NULL);
    fory_put_varu32(e->out, f->tag);
    return enc_typed(e, n->cases[f - n->t->fields], v + f->offset);
}

/* memcpy for the few dozen bytes of a root prefix: 16 at a time, inline
 * (a call costs about as much as the copy). */
static inline void copy_short(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n < 16) {
        memcpy(d, s, n);
        return;
    }
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        memcpy(d + i, s + i, 16);
    if (i < n)
        memcpy(d + n - 16, s + n - 16, 16);
}

int codec__fory_encode(const fory_plan *p, const void *value, codec_buf *out, codec_error *err)
{
    enc e;   /* not zero-initialised as a whole: only the slots in use are cleared */
    e.p = p;
    e.out = out;
    e.err = err;
    e.next_def = 0;
    const fory_node *n = p->root;
    if (p->root_prefix_len) {
        /* A struct root: its type info (and TypeDef) as built with the plan. */
        if (codec__buf_room(out, p->root_prefix_len))
            return nomem(&e);
        copy_short(out->data + out->len, p->root_prefix, p->root_prefix_len);
        out->len += p->root_prefix_len;
        if (p->gen) {   /* the generated code (codec/codegen.h) */
            codec_fory_gen_ctx g = {.plan = p, .user_id = codec__fory_gen_user_id};
            size_t fields_at = out->len;
            int rc = p->gen->encode(out, value, &g);
            if (rc != 1)
                return rc ? nomem(&e) : CODEC_OK;
            out->len = fields_at;   /* left to this code: it writes or reports it */
        }
        if (p->o.mode == CODEC_FORY_COMPATIBLE && !n->st->flat) {
            /* Nested structs may follow: the root's TypeDef is number 0. */
            memset(e.def_index, 0, p->nstructs * sizeof e.def_index[0]);
            e.def_index[n->st->index] = 1;
            e.next_def = 1;
        }
        return enc_fields(&e, n->st, value);
    }
    if (p->o.mode == CODEC_FORY_COMPATIBLE)
        memset(e.def_index, 0, p->nstructs * sizeof e.def_index[0]);
    if (codec__buf_room(out, 2))
        return nomem(&e);
    fory_put_u8(out, 0x01);   /* xlang */
    if (n->nullable && !*(const bool *)value) {
        fory_put_u8(out, FORY_NULL);
        return CODEC_OK;
    }
    if (n->nullable)
        value = (const uint8_t *)value + n->value_offset;
    return enc_typed(&e, n, value);
}
