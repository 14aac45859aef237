/* plan.c — turns a descriptor into the protobuf tables, once per codec:
 * key bytes and wire type of every field, the op of every value, one
 * pb_msg per struct type (shared, so recursive types work) and the tag
 * lookup tables. Shapes protobuf cannot express fail here, with the field
 * named, so encode and decode never meet them. */
#include "formats/protobuf/pb_internal.h"
#include "core/error_internal.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>

/* Tags 1..PB_DENSE_MAX are looked up in a direct table. */
#define PB_DENSE_MAX 1024u
#define PB_MAX_TAG 536870911u

struct pb_block {
    struct pb_block *next;
    size_t size;
    alignas(max_align_t) unsigned char data[];
};

typedef struct memo {
    const codec_type *type;
    pb_msg *msg;
    struct memo *next;
} memo;

typedef struct builder {
    pb_state *st;
    codec_error *err;
    memo *built;
    uint32_t depth;
} builder;

static void *plan_alloc(builder *b, size_t size)
{
    const codec_allocator *a = codec_default_allocator();
    struct pb_block *blk = a->alloc(a->ctx, sizeof *blk + size);
    if (!blk)
        return NULL;
    memset(blk->data, 0, size);
    blk->size = size;
    blk->next = b->st->blocks;
    b->st->blocks = blk;
    return blk->data;
}

void codec__pb_plan_free(pb_state *st)
{
    const codec_allocator *a = codec_default_allocator();
    while (st->blocks) {
        struct pb_block *next = st->blocks->next;
        a->release(a->ctx, st->blocks, sizeof *st->blocks + st->blocks->size);
        st->blocks = next;
    }
}

static int nomem(builder *b)
{
    return codec__nomem(b->err, PB_STAGE);
}

static int refuse(builder *b, const codec_type *t, const codec_field *f, const char *why)
{
    return codec_error_set(b->err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, PB_STAGE,
                           CODEC_NO_OFFSET, "%s%s%s: %s", t && t->name ? t->name : "type",
                           f ? "." : "", f ? f->name : "", why);
}

static int msg_for(builder *b, const codec_type *t, const pb_msg **out);

static bool is_container(const codec_type *t)
{
    return t->kind == CODEC_T_LIST || t->kind == CODEC_T_MAP || t->kind == CODEC_T_OPTIONAL;
}

static int int_val(builder *b, const codec_type *owner, const codec_field *f, pb_val *v,
                   bool is_signed, uint32_t flags)
{
    bool zig = flags & CODEC_FIELD_ZIGZAG, fix = flags & CODEC_FIELD_FIXED;
    if (zig && fix)
        return refuse(b, owner, f, "ZIGZAG and FIXED exclude each other");
    if (zig && !is_signed)
        return refuse(b, owner, f, "ZIGZAG needs a signed integer");
    v->is_signed = is_signed;
    if (zig)
        v->op = PB_OP_ZIGZAG;
    else if (fix)
        v->op = v->csize <= 4 ? PB_OP_FIXED32 : PB_OP_FIXED64;
    else
        v->op = PB_OP_VARINT;
    v->wire = v->op == PB_OP_FIXED32   ? PB_WT_I32
              : v->op == PB_OP_FIXED64 ? PB_WT_I64
                                       : PB_WT_VARINT;
    return CODEC_OK;
}

/* The op of one value of type t (not a list, map or optional). `flags` are
 * the field's ZIGZAG/FIXED bits. */
static int val_for(builder *b, const codec_type *owner, const codec_field *f,
                   const codec_type *t, uint32_t flags, pb_val *v)
{
    memset(v, 0, sizeof *v);
    v->type = t;
    v->csize = (uint8_t)(t->size <= 8 ? t->size : 0);
    bool int_like = codec_kind_is_signed(t->kind) || codec_kind_is_unsigned(t->kind) ||
                    t->kind == CODEC_T_DATE;
    if ((flags & (CODEC_FIELD_ZIGZAG | CODEC_FIELD_FIXED)) && !int_like && t->kind != CODEC_T_XMAP)
        return refuse(b, owner, f, "ZIGZAG and FIXED apply to integers only");
    if (int_like)
        return int_val(b, owner, f, v, !codec_kind_is_unsigned(t->kind), flags);
    v->wire = PB_WT_LEN;
    switch (t->kind) {
    case CODEC_T_BOOL: v->op = PB_OP_BOOL, v->wire = PB_WT_VARINT; return CODEC_OK;
    case CODEC_T_ENUM:
        v->op = PB_OP_VARINT, v->wire = PB_WT_VARINT, v->is_signed = true;
        return CODEC_OK;
    case CODEC_T_FLOAT: v->op = PB_OP_FIXED32, v->wire = PB_WT_I32; return CODEC_OK;
    case CODEC_T_DOUBLE: v->op = PB_OP_FIXED64, v->wire = PB_WT_I64; return CODEC_OK;
    case CODEC_T_STRING: v->op = PB_OP_STRING; return CODEC_OK;
    case CODEC_T_BYTES: v->op = PB_OP_BYTES; return CODEC_OK;
    case CODEC_T_DECIMAL: v->op = PB_OP_DECIMAL; return CODEC_OK;
    case CODEC_T_UUID: v->op = PB_OP_UUID; return CODEC_OK;
    case CODEC_T_TIMESTAMP: v->op = PB_OP_TIMESTAMP; return CODEC_OK;
    case CODEC_T_STRUCT: v->op = PB_OP_MESSAGE; return msg_for(b, t, &v->msg);
    case CODEC_T_XMAP: {
        const codec_type *w = t->xmap->wire;
        if (is_container(w) || w->kind == CODEC_T_VALUE)
            return refuse(b, owner, f, "an xmap's wire type must be a single value for protobuf");
        pb_val *x = plan_alloc(b, sizeof *x);
        if (!x)
            return nomem(b);
        int rc = val_for(b, owner, f, w, flags, x);
        if (rc)
            return rc;
        v->op = PB_OP_XMAP, v->wire = x->wire, v->xwire = x;
        return CODEC_OK;
    }
    case CODEC_T_UNION:
        return refuse(b, owner, f, "a protobuf oneof is a field of a message: a union must be "
                                   "a struct field, not a list item, map value or member");
    case CODEC_T_VALUE:
        return refuse(b, owner, f,
                      "protobuf has no schemaless form: a codec_value cannot be encoded "
                      "(use json, cbor or msgpack for schemaless data)");
    default:
        return refuse(b, owner, f, "protobuf cannot nest a list, map or optional here "
                                   "(wrap the inner one in a struct)");
    }
}

/* The field flags a map's key flags stand for. */
static uint32_t key_flags(uint32_t type_flags)
{
    return (type_flags & CODEC_TYPE_KEY_ZIGZAG ? CODEC_FIELD_ZIGZAG : 0) |
           (type_flags & CODEC_TYPE_KEY_FIXED ? CODEC_FIELD_FIXED : 0);
}

static void set_key(pb_field *f, uint32_t tag, uint8_t wire)
{
    /* A tag of at most 29 bits and 3 wire bits take at most 5 bytes. */
    uint8_t key[10];
    f->key_len = (uint8_t)(codec_leb128_put(key, (uint64_t)tag << 3 | wire) - key);
    memcpy(f->key, key, f->key_len);
}

static bool tag_ok(uint32_t tag)
{
    return tag >= 1 && tag <= PB_MAX_TAG && !(tag >= 19000 && tag <= 19999);
}

/* The fields of one oneof: member i of union field `cf` becomes out[i]. */
static int oneof_fields(builder *b, const codec_field *cf, pb_field *out)
{
    const codec_type *u = cf->type;
    for (uint32_t i = 0; i < u->count; i++) {
        const codec_field *mf = &u->fields[i];
        pb_field *f = &out[i];
        if (!tag_ok(mf->tag))
            return refuse(b, u, mf, "protobuf field numbers are 1..536870911 except 19000..19999");
        if (is_container(mf->type))
            return refuse(b, u, mf, "a protobuf oneof member cannot be a list, map or optional "
                                    "(wrap it in a struct)");
        if (mf->flags & (CODEC_FIELD_UNKNOWN_BYTES | CODEC_FIELD_REQUIRED))
            return refuse(b, u, mf, "UNKNOWN_BYTES and REQUIRED do not apply to a union member");
        *f = (pb_field){.mode = PB_ONEOF, .tag = mf->tag, .offset = cf->offset,
                        .value_offset = mf->offset, .case_index = i + 1,
                        .case_count = (uint32_t)u->count, .union_size = u->size,
                        .required = cf->flags & CODEC_FIELD_REQUIRED, .name = mf->name};
        const codec_type *mt = mf->type;
        if (mt->kind == CODEC_T_POINTER) {
            if (mt->elem->kind != CODEC_T_STRUCT)
                return refuse(b, u, mf, "protobuf pointers must point to a struct (a message)");
            f->boxed = true;
            f->elem_size = mt->elem->size;
            mt = mt->elem;
        }
        int rc = val_for(b, u, mf, mt, mf->flags, &f->val);
        if (rc)
            return rc;
        set_key(f, mf->tag, f->val.wire);
    }
    return CODEC_OK;
}

static int field_for(builder *b, const codec_type *t, const codec_field *cf, pb_field *f,
                     uint32_t *nrep)
{
    f->tag = cf->tag;
    f->offset = cf->offset;
    f->name = cf->name;
    f->required = cf->flags & CODEC_FIELD_REQUIRED;
    if (cf->flags & CODEC_FIELD_UNKNOWN_BYTES) {
        if (cf->type->kind != CODEC_T_BYTES)
            return refuse(b, t, cf, "CODEC_FIELD_UNKNOWN_BYTES needs a codec_bytes member");
        f->mode = PB_UNKNOWN;
        return CODEC_OK;
    }
    if (cf->type->kind == CODEC_T_UNION)
        return oneof_fields(b, cf, f);
    if (!tag_ok(cf->tag))
        return refuse(b, t, cf, "protobuf field numbers are 1..536870911 except 19000..19999");
    const codec_type *ft = cf->type;
    int rc;
    uint8_t wire;
    switch (ft->kind) {
    case CODEC_T_OPTIONAL:
        if (is_container(ft->elem))
            return refuse(b, t, cf, "protobuf has no optional list or map");
        f->mode = PB_OPTIONAL;
        f->value_offset = ft->value_offset;
        rc = val_for(b, t, cf, ft->elem, cf->flags, &f->val);
        wire = f->val.wire;
        break;
    case CODEC_T_LIST:
        if (is_container(ft->elem))
            return refuse(b, t, cf, "protobuf cannot repeat a list, map or optional "
                                    "(wrap the element in a struct)");
        rc = val_for(b, t, cf, ft->elem, cf->flags, &f->val);
        f->mode = f->val.wire == PB_WT_LEN ? PB_REPEATED : PB_PACKED;
        f->unpacked = f->mode == PB_PACKED && (cf->flags & CODEC_FIELD_UNPACKED);
        f->elem_size = ft->elem->size;
        f->rep_slot = (*nrep)++;
        /* The key is only written: unpacked items carry their own wire type. */
        wire = f->unpacked ? f->val.wire : PB_WT_LEN;
        break;
    case CODEC_T_POINTER:
        if (ft->elem->kind != CODEC_T_STRUCT)
            return refuse(b, t, cf, "protobuf pointers must point to a struct (a message)");
        f->mode = PB_POINTER;
        f->elem_size = ft->elem->size;
        rc = val_for(b, t, cf, ft->elem, cf->flags, &f->val);
        wire = PB_WT_LEN;
        break;
    case CODEC_T_MAP:
        if (is_container(ft->elem))
            return refuse(b, t, cf, "protobuf map values cannot be lists, maps or optionals");
        f->mode = PB_MAP;
        f->elem_size = ft->elem->size;
        f->key_size = ft->key->size;
        f->rep_slot = (*nrep)++;
        rc = val_for(b, t, cf, ft->key, key_flags(ft->flags), &f->mkey);
        if (!rc)
            rc = val_for(b, t, cf, ft->elem, cf->flags, &f->val);
        wire = PB_WT_LEN;
        break;
    default:
        f->mode = PB_SINGLE;
        rc = val_for(b, t, cf, ft, cf->flags, &f->val);
        wire = f->val.wire;
        break;
    }
    if (rc)
        return rc;
    set_key(f, cf->tag, wire);
    return CODEC_OK;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A oneof member's number repeating another field's: the struct's own tags
 * are unique (codec_type_check), union members are not checked against them. */
static int duplicate_tag(builder *b, const pb_msg *m, const pb_field *f)
{
    char why[96];
    snprintf(why, sizeof why, "field number %u is used twice (oneof members share the "
                              "message's numbers)", (unsigned)f->tag);
    return codec_error_set(b->err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, PB_STAGE,
                           CODEC_NO_OFFSET, "%s.%s: %s", m->type->name ? m->type->name : "type",
                           f->name, why);
}

static int build_lookup(builder *b, pb_msg *m)
{
    uint32_t max = 0;
    for (size_t i = 0; i < m->count; i++)
        if (m->fields[i].mode != PB_UNKNOWN) {
            if (m->fields[i].tag > max)
                max = m->fields[i].tag;
            if (m->fields[i].tag > PB_DENSE_MAX)
                m->sparse_count++;
        }
    m->dense_max = max < PB_DENSE_MAX ? max : PB_DENSE_MAX;
    m->dense = plan_alloc(b, (m->dense_max + 1) * sizeof *m->dense);
    m->sparse = plan_alloc(b, (m->sparse_count + 1) * sizeof *m->sparse);
    if (!m->dense || !m->sparse)
        return nomem(b);
    size_t s = 0;
    for (size_t i = 0; i < m->count; i++) {
        const pb_field *f = &m->fields[i];
        if (f->mode == PB_UNKNOWN)
            continue;
        if (f->tag <= m->dense_max) {
            if (m->dense[f->tag])
                return duplicate_tag(b, m, f);
            m->dense[f->tag] = (uint16_t)(i + 1);
        } else {
            m->sparse[s++] = (uint64_t)f->tag << 32 | i;
        }
    }
    qsort(m->sparse, m->sparse_count, sizeof *m->sparse, cmp_u64);
    for (size_t i = 1; i < m->sparse_count; i++)
        if (m->sparse[i] >> 32 == m->sparse[i - 1] >> 32)
            return duplicate_tag(b, m, &m->fields[(uint32_t)m->sparse[i]]);
    return CODEC_OK;
}

const pb_field *codec__pb_field_sparse(const pb_msg *m, uint32_t tag)
{
    size_t lo = 0, hi = m->sparse_count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uint32_t t = (uint32_t)(m->sparse[mid] >> 32);
        if (t == tag)
            return &m->fields[(uint32_t)m->sparse[mid]];
        if (t < tag)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int msg_for(builder *b, const codec_type *t, const pb_msg **out)
{
    for (memo *e = b->built; e; e = e->next)
        if (e->type == t) {
            *out = e->msg;
            return CODEC_OK;
        }
    /* A union field is one pb_field per member. */
    size_t count = 0;
    for (size_t i = 0; i < t->count; i++)
        count += t->fields[i].type->kind == CODEC_T_UNION ? t->fields[i].type->count : 1;
    if (count > UINT16_MAX - 1)
        return refuse(b, t, NULL, "more than 65534 fields");
    memo *e = plan_alloc(b, sizeof *e);
    pb_msg *m = plan_alloc(b, sizeof *m);
    if (!e || !m || !(m->fields = plan_alloc(b, count * sizeof *m->fields)))
        return nomem(b);
    /* Registered before the fields, so a recursive reference finds it. */
    *e = (memo){t, m, b->built};
    b->built = e;
    m->type = t;
    m->count = count;
    for (size_t i = 0, j = 0; i < t->count; i++) {
        pb_field *f = &m->fields[j];
        int rc = field_for(b, t, &t->fields[i], f, &m->nrep);
        if (rc)
            return rc;
        j += f->mode == PB_ONEOF ? f->case_count : 1;
        if (f->mode == PB_UNKNOWN) {
            if (m->unknown)
                return refuse(b, t, &t->fields[i], "a second CODEC_FIELD_UNKNOWN_BYTES member");
            m->unknown = f;
        }
        m->has_required |= f->required;
    }
    /* Specialized code (codec/codegen.h) of this library's version; a
     * message with required fields keeps the descriptor path, which
     * tracks them. */
    if (!b->st->no_codegen && t->codegen && t->codegen->abi == CODEC_CODEGEN_ABI &&
        t->codegen->pb_decode && t->codegen->pb_encode && !m->has_required)
        m->gen = t->codegen;
    *out = m;
    return build_lookup(b, m);
}

int codec__pb_plan_build(pb_state *st, const codec_type *t, codec_error *err)
{
    builder b = {.st = st, .err = err};
    if (t && t->kind == CODEC_T_VALUE)
        return refuse(&b, t, NULL,
                      "protobuf has no schemaless form: a codec_value cannot be encoded "
                      "(use json, cbor or msgpack for schemaless data)");
    int rc = codec_type_check(t, err);
    if (rc)
        return rc;
    if (t->kind != CODEC_T_STRUCT)
        return refuse(&b, t, NULL, "a protobuf payload is a message: the type must be a struct");
    return msg_for(&b, t, &st->root);
}
