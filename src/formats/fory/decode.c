/* decode.c — Fory xlang bytes to a C value. Every length and count is
 * checked against the bytes left before anything is allocated; nesting is
 * bounded by max_depth; compatible mode reads each TypeDef once per message,
 * matches its fields to the local struct by name and type, and skips the
 * rest. */
#include "formats/fory/fory_internal.h"
#include "types/value_internal.h"

#include <string.h>

/* A field type as a TypeDef describes it. */
typedef struct rtype {
    uint8_t tid;
    bool nullable;
    const struct rtype *a, *b;      /* list item / map key, map value */
} rtype;

typedef struct rfield {
    rtype type;
    const fory_field *local;        /* NULL: skip */
} rfield;

typedef struct rdef {
    const fory_struct *st;          /* the local struct with that user id */
    size_t count;
    rfield *fields;                 /* NULL: the TypeDef is this side's own */
} rdef;

typedef struct dec {
    const fory_plan *p;
    fory_in in;
    codec_arena *arena;
    fory_pool pool;
    codec_error *err;
    size_t depth, max_depth, max_elements;
    const rdef **defs;              /* TypeDefs by marker index */
    size_t ndefs, capdefs;
    const rdef *defs_small[8];      /* enough for most messages */
    rdef own[8];                    /* TypeDefs equal to this side's own */
    size_t nown;
} dec;

static int dec_value(dec *d, const fory_node *n, void *v);
static int dec_present(dec *d, const fory_node *n, void *v);
static int dec_scalar(dec *d, const fory_node *n, void *v);
static int dec_list(dec *d, const fory_node *n, codec_list *l);
static int dec_struct(dec *d, const fory_struct *st, void *v);
static int skip_value(dec *d, const rtype *t);
static int skip_body(dec *d, uint8_t tid, const rtype *t);
static int dec_union(dec *d, const fory_node *n, uint8_t *v);

static int trunc_or(dec *d, int r, const char *what)
{
    return FORY_FAIL(d->err, r == -1 ? CODEC_D_TRUNCATED : CODEC_D_CORRUPT, fory_off(&d->in),
                     "%s: %s", r == -1 ? "input ends early" : "invalid varint", what);
}

static int corrupt(dec *d, const char *what)
{
    return FORY_FAIL(d->err, CODEC_D_CORRUPT, fory_off(&d->in), "%s", what);
}

static int get_u8(dec *d, uint8_t *v, const char *what)
{
    return fory_get_u8(&d->in, v) ? trunc_or(d, -1, what) : CODEC_OK;
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int get_u32_long(dec *d, uint32_t *v, const char *what)
{
    int r = fory_get_varu32(&d->in, v);
    return r ? trunc_or(d, r, what) : CODEC_OK;
}

/* Most varints here (type ids, markers, counts) are one byte: inline. */
static inline int get_u32(dec *d, uint32_t *v, const char *what)
{
    if (d->in.p != d->in.end && *d->in.p < 0x80) {
        *v = *d->in.p++;
        return CODEC_OK;
    }
    return get_u32_long(d, v, what);
}

static int enter(dec *d)
{
    if (++d->depth > d->max_depth)
        return FORY_FAIL(d->err, CODEC_D_LIMIT, fory_off(&d->in), "nesting deeper than %zu",
                         d->max_depth);
    return CODEC_OK;
}

/* A count of items each at least `min_bytes` long must fit in what is left. */
static int check_count(dec *d, uint32_t count, size_t min_bytes, const char *what)
{
    if (count > d->max_elements)
        return FORY_FAIL(d->err, CODEC_D_LIMIT, fory_off(&d->in), "%s: %u items over the limit",
                         what, count);
    if (min_bytes && count > fory_left(&d->in) / min_bytes)
        return FORY_FAIL(d->err, CODEC_D_TRUNCATED, fory_off(&d->in),
                         "%s: %u items cannot fit in %zu bytes", what, count, fory_left(&d->in));
    return CODEC_OK;
}

static void *alloc0(dec *d, size_t n)
{
    void *p = codec_arena_alloc(d->arena, n ? n : 1, 0);
    if (p)
        memset(p, 0, n);
    return p;
}

/* Reads the flag in front of a nullable value; *present is false for null. */
static inline int get_null_flag(dec *d, bool *present)
{
    if (d->in.p == d->in.end)
        return trunc_or(d, -1, "null flag");
    uint8_t flag = *d->in.p++;
    *present = flag != FORY_NULL;
    if (*present && flag != FORY_NOT_NULL && flag != FORY_REF_VALUE)
        return corrupt(d, "unexpected reference flag");
    return CODEC_OK;
}

/* Inline: a non-empty UTF-8 string under 4 KiB (a header of one or two
 * bytes), the common case, taken from the pool (which the first string of
 * a message fills); anything else (and every error) goes to
 * codec__fory_read_string. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int dec_string(dec *d, codec_string *out)
{
    const uint8_t *p = d->in.p;
    size_t left = fory_left(&d->in);
    if (left >= 2 && (*p & 3) == 2 && (*p < 0x80 || p[1] < 0x80)) {
        size_t hlen = *p < 0x80 ? 1 : 2;
        size_t len = hlen == 1 ? (size_t)(*p >> 2) : (size_t)((*p & 0x7f) >> 2 | p[1] << 5);
        if (len && len <= left - hlen) {
            char *o = codec_text_pool_take(&d->pool.text, d->arena, left - hlen, len);
            if (o && (!codec_copy_ascii((uint8_t *)o, p + hlen, len) ||
                      codec__utf8_valid(p + hlen, len))) {
                d->in.p = p + hlen + len;
                *out = (codec_string){o, len};
                return CODEC_OK;
            }
        }
    }
    return codec__fory_read_string(&d->in, &d->pool, out, d->err);
}

/* ---------------------------------------------------------------------------
 * TypeDefs (compatible mode)
 * ------------------------------------------------------------------------ */

static int read_rtype(dec *d, rtype *t, bool flagged, int depth)
{
    uint32_t h;
    int rc = get_u32(d, &h, "field type");
    if (rc)
        return rc;
    if (depth > 16)
        return corrupt(d, "field type nests too deep");
    t->tid = (uint8_t)(flagged ? h >> 2 : h);
    t->nullable = flagged ? (h & 2) != 0 : t->nullable;
    if ((flagged ? h >> 2 : h) > 255)
        return corrupt(d, "unknown field type id");
    if (t->tid == FT_LIST || t->tid == FT_SET || t->tid == FT_MAP) {
        rtype *g = alloc0(d, 2 * sizeof *g);
        if (!g)
            return FORY_NOMEM(d->err);
        t->a = &g[0];
        if ((rc = read_rtype(d, &g[0], true, depth + 1)))
            return rc;
        if (t->tid == FT_MAP) {
            t->b = &g[1];
            rc = read_rtype(d, &g[1], true, depth + 1);
        }
    }
    return rc;
}

static uint8_t norm(uint8_t tid)
{
    if (tid >= FT_STRUCT && tid <= FT_NAMED_COMPATIBLE_STRUCT)
        return FT_STRUCT;
    if (tid == FT_NAMED_ENUM)
        return FT_ENUM;
    if (tid == FT_SET)
        return FT_LIST;
    return tid;
}

static bool types_match(const rtype *r, const fory_node *n)
{
    if (norm(r->tid) != norm(n->tid))
        return false;
    if (n->tid == FT_LIST)
        return types_match(r->a, n->elem);
    if (n->tid == FT_MAP)
        return types_match(r->a, n->key) && types_match(r->b, n->elem);
    return true;
}

static const fory_field *match_field(const fory_struct *st, const char *name, size_t len,
                                     const rtype *t)
{
    for (size_t i = 0; i < st->count; i++) {
        const fory_field *f = &st->order[i];
        if (f->name_len == len && memcmp(f->name, name, len) == 0)
            return types_match(t, f->node) ? f : NULL;
    }
    return NULL;
}

/* ---------------------------------------------------------------------------
 * TypeDefs of other writers, parsed once per codec. Parsing depends only on
 * the TypeDef's bytes and the plan, so a TypeDef equal byte for byte to one
 * parsed before gives the same field mapping; only TypeDefs that parsed
 * without error are kept. Entries are immutable once published; a full
 * cache (FORY_DEF_CACHE entries) only means later TypeDefs are parsed per
 * message, as before.
 * ------------------------------------------------------------------------ */

struct fory_def_entry {
    size_t alloc_size;
    size_t len;                     /* the TypeDef's bytes, header included */
    const uint8_t *bytes;
    rdef def;                       /* fields and their type trees follow the entry */
};

static size_t rtype_children(const rtype *t)
{
    return t->a ? 2 + rtype_children(t->a) + (t->b ? rtype_children(t->b) : 0) : 0;
}

static void rtype_copy(rtype *dst, const rtype *src, rtype **more)
{
    *dst = *src;
    if (!src->a)
        return;
    rtype *g = *more;
    *more += 2;
    memset(g, 0, 2 * sizeof *g);
    dst->a = &g[0];
    rtype_copy(&g[0], src->a, more);
    if (src->b) {
        dst->b = &g[1];
        rtype_copy(&g[1], src->b, more);
    }
}

static const rdef *def_cache_find(const fory_plan *p, const uint8_t *td, size_t len)
{
    for (size_t i = 0; i < FORY_DEF_CACHE; i++) {
        const fory_def_entry *e = __atomic_load_n(&p->def_cache[i], __ATOMIC_ACQUIRE);
        if (!e)
            return NULL;
        if (e->len == len && memcmp(e->bytes, td, len) == 0)
            return &e->def;
    }
    return NULL;
}

/* Keeps a copy of `def` (parsed from td[0..len)) if there is room; running
 * out of memory here only means it is not kept. */
static void def_cache_put(const fory_plan *p, const uint8_t *td, size_t len, const rdef *def)
{
    if (len > FORY_DEF_CACHE_BYTES ||
        __atomic_load_n(&p->def_cache[FORY_DEF_CACHE - 1], __ATOMIC_ACQUIRE))
        return;
    size_t nodes = 0;
    for (size_t i = 0; i < def->count; i++)
        nodes += rtype_children(&def->fields[i].type);
    size_t size = sizeof(fory_def_entry) + def->count * sizeof(rfield) + nodes * sizeof(rtype) + len;
    if (size > FORY_DEF_CACHE_BYTES)
        return;
    const codec_allocator *a = codec_default_allocator();
    fory_def_entry *e = a->alloc(a->ctx, size);
    if (!e)
        return;
    rfield *fields = (rfield *)(e + 1);
    rtype *more = (rtype *)(fields + def->count);
    uint8_t *bytes = (uint8_t *)(more + nodes);
    for (size_t i = 0; i < def->count; i++) {
        fields[i].local = def->fields[i].local;
        rtype_copy(&fields[i].type, &def->fields[i].type, &more);
    }
    memcpy(bytes, td, len);
    *e = (fory_def_entry){size, len, bytes, {.st = def->st, .count = def->count, .fields = fields}};
    for (size_t i = 0; i < FORY_DEF_CACHE; i++) {
        fory_def_entry *seen = NULL;
        if (__atomic_compare_exchange_n((fory_def_entry **)&p->def_cache[i], &seen, e, false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return;
        if (seen->len == len && memcmp(seen->bytes, td, len) == 0)
            break;   /* another thread kept it first */
    }
    a->release(a->ctx, e, size);
}

void codec__fory_def_cache_free(fory_plan *p)
{
    const codec_allocator *a = codec_default_allocator();
    for (size_t i = 0; i < FORY_DEF_CACHE && p->def_cache[i]; i++) {
        a->release(a->ctx, p->def_cache[i], p->def_cache[i]->alloc_size);
        p->def_cache[i] = NULL;
    }
}

static int read_typedef(dec *d, const rdef **out)
{
    size_t at = fory_off(&d->in);
    uint64_t header;
    if (fory_get_le(&d->in, 8, &header))
        return trunc_or(d, -1, "TypeDef header");
    if (header & FORY_TD_COMPRESSED)
        return codec_error_set(d->err, CODEC_E_UNSUPPORTED, 0, "fory", at,
                               "compressed TypeDefs are not supported");
    /* The hash bits are not checked: Fory versions hash differently and
     * its own readers use them only as a cache key. */
    size_t size = header & FORY_TD_SIZE_MASK;
    if (size == FORY_TD_SIZE_MASK) {
        uint32_t extra;
        int rc = get_u32(d, &extra, "TypeDef size");
        if (rc)
            return rc;
        size += extra;
    }
    if (size > fory_left(&d->in))
        return FORY_FAIL(d->err, CODEC_D_TRUNCATED, at, "TypeDef of %zu bytes past the end", size);
    const uint8_t *end = d->in.p + size;
    /* The common case: the writer's definition is byte for byte ours, so
     * the fields are read in local order. The headers are compared first
     * (cheap, and they differ between structs), then the bodies. */
    for (size_t i = 0; i < d->p->nstructs; i++) {
        const fory_struct *own = d->p->structs[i];
        size_t body = own->type_def_len - own->type_def_body;
        if (own->type_def_header == header && body == size &&
            memcmp(own->type_def + own->type_def_body, d->in.p, size) == 0) {
            rdef *def = d->nown < sizeof d->own / sizeof d->own[0] ? &d->own[d->nown++]
                                                                    : alloc0(d, sizeof *def);
            if (!def)
                return FORY_NOMEM(d->err);
            *def = (rdef){.st = own};
            d->in.p = end;
            *out = def;
            return CODEC_OK;
        }
    }
    const uint8_t *td = d->in.base + at;
    if ((*out = def_cache_find(d->p, td, (size_t)(end - td)))) {
        d->in.p = end;
        return CODEC_OK;
    }
    fory_in saved = d->in;
    d->in.end = end;   /* the TypeDef's own bytes bound everything in it */
    uint8_t mh = 0;
    uint32_t count, id;
    int rc;
    if ((rc = get_u8(d, &mh, "TypeDef")))
        goto done;
    count = mh & 0x1f;
    if (count == 31) {
        uint32_t extra;
        if ((rc = get_u32(d, &extra, "TypeDef field count")))
            goto done;
        count += extra;
    }
    if (!(mh & FORY_TD_STRUCT)) {
        rc = codec_error_set(d->err, CODEC_E_UNSUPPORTED, 0, "fory", at,
                             "TypeDefs of enums, extensions and unions are not supported");
        goto done;
    }
    if (mh & FORY_TD_BY_NAME) {
        rc = codec_error_set(d->err, CODEC_E_UNSUPPORTED, 0, "fory", at,
                             "types registered by name are not supported");
        goto done;
    }
    if ((rc = get_u32(d, &id, "TypeDef type id")))
        goto done;
    const fory_struct *st = codec__fory_plan_struct_by_id(d->p, id);
    if (!st) {
        rc = FORY_FAIL(d->err, CODEC_D_CORRUPT, at, "type id %u is not registered", id);
        goto done;
    }
    if ((rc = check_count(d, count, 2, "TypeDef fields")))
        goto done;
    rdef *def = alloc0(d, sizeof *def);
    if (!def || !(def->fields = alloc0(d, count * sizeof *def->fields))) {
        rc = FORY_NOMEM(d->err);
        goto done;
    }
    def->st = st;
    def->count = count;
    for (uint32_t i = 0; i < count && !rc; i++) {
        uint8_t fh = 0;
        if ((rc = get_u8(d, &fh, "field header")))
            break;
        size_t nlen = (fh >> 2) & 15;
        if (nlen == 15) {
            uint32_t extra;
            if ((rc = get_u32(d, &extra, "field name size")))
                break;
            nlen += extra;
        }
        nlen += 1;
        rfield *f = &def->fields[i];
        f->type.nullable = (fh & 2) != 0;
        if ((rc = read_rtype(d, &f->type, false, 0)))
            break;
        int encoding = fh >> 6;
        if (encoding == 3) {   /* tag id instead of a name */
            for (size_t k = 0; k < st->count; k++)
                if (st->order[k].f->tag == nlen - 1 && types_match(&f->type, st->order[k].node))
                    f->local = &st->order[k];
            continue;
        }
        if (nlen > fory_left(&d->in)) {
            rc = trunc_or(d, -1, "field name");
            break;
        }
        char name[1024];
        size_t len;
        if (codec__fory_metastring_decode(d->in.p, nlen, encoding, name, sizeof name, &len)) {
            rc = corrupt(d, "field name is not a valid meta string");
            break;
        }
        d->in.p += nlen;
        f->local = match_field(st, name, len, &f->type);
    }
    if (!rc)
        *out = def;
done:
    if (!rc && d->in.p != end)
        rc = corrupt(d, "TypeDef size does not match its fields");
    d->in.end = saved.end;
    if (!rc)
        def_cache_put(d->p, td, (size_t)(end - td), *out);
    return rc;
}

/* Reads struct type info; `def` is set in compatible mode. */
static int dec_struct_info(dec *d, const fory_struct *want, const rdef **def)
{
    size_t at = fory_off(&d->in);
    uint32_t tid;
    int rc = get_u32(d, &tid, "type info");
    if (rc)
        return rc;
    if (d->p->o.mode == CODEC_FORY_CONSISTENT) {
        uint32_t id;
        if (tid != FT_STRUCT)
            return FORY_FAIL(d->err, CODEC_D_CORRUPT, at, "expected a struct, found type id %u",
                             tid);
        if ((rc = get_u32(d, &id, "user type id")))
            return rc;
        if (!want || id != want->user_id)
            return FORY_FAIL(d->err, CODEC_D_CORRUPT, at, "user type id %u is not the %s expected",
                             id, want ? (want->t->name ? want->t->name : "struct") : "type");
        *def = NULL;
        return CODEC_OK;
    }
    if (tid != FT_COMPATIBLE_STRUCT && tid != FT_STRUCT)
        return FORY_FAIL(d->err, CODEC_D_CORRUPT, at, "expected a struct, found type id %u", tid);
    uint32_t marker;
    if ((rc = get_u32(d, &marker, "TypeDef marker")))
        return rc;
    if (marker & 1) {
        if ((marker >> 1) >= d->ndefs)
            return FORY_FAIL(d->err, CODEC_D_CORRUPT, at, "TypeDef index %u was never sent",
                             marker >> 1);
        *def = d->defs[marker >> 1];
    } else {
        if ((marker >> 1) != d->ndefs)
            return FORY_FAIL(d->err, CODEC_D_CORRUPT, at, "TypeDef index %u out of order",
                             marker >> 1);
        if (d->ndefs == d->capdefs) {
            size_t ncap = d->capdefs * 2;
            const rdef **n = codec_arena_alloc(d->arena, ncap * sizeof *n, 0);
            if (!n)
                return FORY_NOMEM(d->err);
            if (d->ndefs)
                memcpy(n, d->defs, d->ndefs * sizeof *n);
            d->defs = n;
            d->capdefs = ncap;
        }
        if ((rc = read_typedef(d, &d->defs[d->ndefs])))
            return rc;
        *def = d->defs[d->ndefs++];
    }
    if (want && (*def)->st != want)
        return FORY_FAIL(d->err, CODEC_D_CORRUPT, at, "user type id %u is not the %s expected",
                         (*def)->st->user_id, want->t->name ? want->t->name : "struct");
    return CODEC_OK;
}

/* ---------------------------------------------------------------------------
 * Values
 * ------------------------------------------------------------------------ */

/* LEB128 of at most 5 bytes, the 5th carrying 4 bits; the caller checked
 * that 5 bytes are there. NULL: not a valid varuint32. */
static inline const uint8_t *get_varu32_fast(const uint8_t *p, uint32_t *v)
{
    uint64_t x;
    if (*p < 0x80) {   /* most numbers: one byte */
        *v = *p;
        return p + 1;
    }
    if (codec_leb128_get(&p, p + 5, 32, &x) != 0)
        return NULL;
    *v = (uint32_t)x;
    return p;
}

/* Fory's varuint64 (8 LEB128 bytes, then a 9th with the top 8 bits); the
 * caller checked that 9 bytes are there. Every form is valid. */
static inline const uint8_t *get_varu64_fast(const uint8_t *p, uint64_t *v)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t b = p[i];
        x |= (b & 0x7f) << (7 * i);
        if (b < 0x80) {
            *v = x;
            return p + i + 1;
        }
    }
    *v = x | (uint64_t)p[8] << 56;
    return p + 9;
}

/* The leading primitive fields (groups 1 and 2) when the most bytes they
 * can take (st->prim_max) are all there: no bounds check per field. */
static int dec_prims(dec *d, const fory_struct *st, uint8_t *v)
{
    const uint8_t *p = d->in.p, *at = p;
    const char *bad = NULL;
    for (size_t i = 0; i < st->nprim && !bad; i++) {
        const fory_field *f = &st->order[i];
        uint8_t *fv = v + f->offset;
        at = p;
        if (f->nullable) {
            uint8_t flag = *p++;
            if (flag == FORY_NULL)
                continue;
            if (flag != FORY_NOT_NULL && flag != FORY_REF_VALUE) {
                bad = "unexpected reference flag";
                break;
            }
            *(bool *)fv = true;
            fv += f->node->value_offset;
            at = p;
        }
        uint32_t u;
        uint64_t x;
        switch (f->tid) {
        case FT_BOOL:
            if (*p > 1)
                bad = "bool is neither 0 nor 1";
            *(bool *)fv = *p++ != 0;
            break;
        case FT_INT8: case FT_UINT8: *fv = *p++; break;
        case FT_INT16: case FT_UINT16: fory_copy_le(fv, p, 2, 2); p += 2; break;
        case FT_INT32: case FT_UINT32: case FT_FLOAT32: fory_copy_le(fv, p, 4, 4); p += 4; break;
        case FT_INT64: case FT_UINT64: case FT_FLOAT64: fory_copy_le(fv, p, 8, 8); p += 8; break;
        case FT_VARINT32:
            if (!(p = get_varu32_fast(p, &u)))
                bad = "invalid varint: number";
            else
                *(int32_t *)fv = codec_unzigzag32(u);
            break;
        case FT_VAR_UINT32:
            if (!(p = get_varu32_fast(p, (uint32_t *)fv)))
                bad = "invalid varint: number";
            break;
        case FT_VARINT64:
            p = get_varu64_fast(p, &x);
            *(int64_t *)fv = codec_unzigzag64(x);
            break;
        case FT_VAR_UINT64: p = get_varu64_fast(p, (uint64_t *)fv); break;
        default: {   /* the tagged integers, rare: the checked reader */
            d->in.p = p;
            int rc = dec_scalar(d, f->node, fv);
            if (rc)
                return rc;
            p = d->in.p;
            break;
        }
        }
    }
    if (bad) {
        d->in.p = at;
        return corrupt(d, bad);
    }
    d->in.p = p;
    return CODEC_OK;
}

/* The same near the end of the input, every read checked. */
static int dec_prims_checked(dec *d, const fory_struct *st, uint8_t *v)
{
    for (size_t i = 0; i < st->nprim; i++) {
        const fory_field *f = &st->order[i];
        int rc = f->nullable ? dec_value(d, f->node, v + f->offset)
                             : dec_scalar(d, f->node, v + f->offset);
        if (rc)
            return rc;
    }
    return CODEC_OK;
}

static int dec_fields(dec *d, const fory_struct *st, const rdef *def, uint8_t *v)
{
    int rc = enter(d);
    if (rc)
        return rc;
    if (!def || !def->fields) {
        if (!def && d->p->o.schema_hash) {
            uint64_t version;
            size_t at = fory_off(&d->in);
            if (fory_get_le(&d->in, 4, &version))
                return trunc_or(d, -1, "struct version");
            if ((uint32_t)version != st->version)
                return FORY_FAIL(d->err, CODEC_D_CORRUPT, at,
                                 "struct version %08x does not match %s (%08x)",
                                 (unsigned)version, st->t->name ? st->t->name : "struct",
                                 (unsigned)st->version);
        }
        rc = fory_left(&d->in) >= st->prim_max ? dec_prims(d, st, v) : dec_prims_checked(d, st, v);
        if (rc)
            return rc;
        for (size_t i = st->nprim; i < st->count; i++) {
            const fory_field *f = &st->order[i];
            uint8_t *fv = v + f->offset;
            if (f->nullable) {
                bool present;
                if ((rc = get_null_flag(d, &present)))
                    return rc;
                if (!present)
                    continue;
                if (f->tid != FT_UNION) {   /* a union's `which` says it is there */
                    *(bool *)fv = true;
                    fv += f->node->value_offset;
                }
            }
            /* The common kinds go straight to their reader. */
            switch (f->tid) {
            case FT_STRING: rc = dec_string(d, (codec_string *)fv); break;
            case FT_LIST: rc = dec_list(d, f->node, (codec_list *)fv); break;
            case FT_STRUCT: case FT_COMPATIBLE_STRUCT: rc = dec_struct(d, f->node->st, fv); break;
            case FT_ENUM:   /* the ordinal is the number: one byte */
                if (d->in.p != d->in.end && *d->in.p < f->enum_direct) {
                    *(int32_t *)fv = *d->in.p++;
                    break;
                }
                rc = dec_scalar(d, f->node, fv);
                break;
            default: rc = dec_present(d, f->node, fv); break;
            }
            if (rc)
                return rc;
        }
    } else {
        for (size_t i = 0; i < def->count; i++) {
            const rfield *rf = &def->fields[i];
            if (!rf->local) {
                if ((rc = skip_value(d, &rf->type)))
                    return rc;
                continue;
            }
            const fory_node *n = rf->local->node;
            uint8_t *fv = v + rf->local->f->offset;
            if (rf->type.nullable) {
                uint8_t flag = 0;
                if ((rc = get_u8(d, &flag, "null flag")))
                    return rc;
                if (flag == FORY_NULL)
                    continue;
                if (flag != FORY_NOT_NULL && flag != FORY_REF_VALUE)
                    return corrupt(d, "unexpected reference flag");
            }
            if (n->nullable && n->tid != FT_UNION) {
                *(bool *)fv = true;
                fv += n->value_offset;
            }
            if ((rc = dec_present(d, n, fv)))
                return rc;
        }
    }
    d->depth--;
    return CODEC_OK;
}

static int dec_struct(dec *d, const fory_struct *st, void *v)
{
    const rdef *def = NULL;
    if (d->p->o.mode == CODEC_FORY_COMPATIBLE) {
        int rc = dec_struct_info(d, st, &def);
        if (rc)
            return rc;
    }
    return dec_fields(d, st, def, v);
}

static int dec_elem_flag(dec *d, uint8_t header, bool *present)
{
    *present = true;
    if (!(header & (FORY_ELEM_TRACK_REF | FORY_ELEM_HAS_NULL)))
        return CODEC_OK;
    uint8_t flag = 0;
    int rc = get_u8(d, &flag, "element flag");
    if (rc)
        return rc;
    if (flag == FORY_NULL)
        *present = false;
    else if (flag != FORY_NOT_NULL && flag != FORY_REF_VALUE)
        return corrupt(d, "shared references are not supported");
    return CODEC_OK;
}

/* Type info written before items whose type is not declared: a struct's
 * (setting *def in compatible mode) or a plain id that must be `n`'s. */
static int dec_item_info(dec *d, const fory_node *n, const rdef **def, const char *what)
{
    if (n->st)
        return dec_struct_info(d, n->st, def);
    uint32_t tid;
    int rc = get_u32(d, &tid, what);
    if (rc)
        return rc;
    return tid == n->tid ? CODEC_OK : corrupt(d, what);
}

static int dec_list(dec *d, const fory_node *n, codec_list *l)
{
    uint32_t count;
    int rc = get_u32(d, &count, "list length");
    if (rc || (rc = check_count(d, count, 1, "list")) || (rc = enter(d)))
        return rc;
    l->count = 0;
    if (!count) {
        d->depth--;
        return CODEC_OK;
    }
    uint8_t header = 0;
    if ((rc = get_u8(d, &header, "list header")))
        return rc;
    const fory_node *el = n->elem;
    size_t esz = n->t->elem->size;
    uint8_t *items = alloc0(d, (size_t)count * esz);
    if (!items)
        return FORY_NOMEM(d->err);
    const rdef *def = NULL;
    bool per_item_info = !(header & (FORY_ELEM_SAME | FORY_ELEM_DECL));
    if ((header & FORY_ELEM_SAME) && !(header & FORY_ELEM_DECL)) {
        if ((rc = dec_item_info(d, el, &def, "list element type does not match")))
            return rc;
    } else if ((header & FORY_ELEM_DECL) && el->st && d->p->o.mode == CODEC_FORY_COMPATIBLE) {
        return corrupt(d, "struct elements need their type info");
    }
    bool bare_strings = el->tid == FT_STRING && !el->nullable && !per_item_info &&
                        !(header & (FORY_ELEM_TRACK_REF | FORY_ELEM_HAS_NULL));
    for (uint32_t i = 0; bare_strings && i < count; i++)
        if ((rc = dec_string(d, (codec_string *)items + i)))
            return rc;
    bool flagged = header & (FORY_ELEM_TRACK_REF | FORY_ELEM_HAS_NULL);
    for (uint32_t i = 0; !bare_strings && i < count; i++) {
        uint8_t *item = items + (size_t)i * esz;
        bool present = true;
        if (flagged && (rc = dec_elem_flag(d, header, &present)))
            return rc;
        if (!present)
            continue;
        if (per_item_info && (rc = dec_item_info(d, el, &def, "list element type does not match")))
            return rc;
        if (el->nullable) {
            *(bool *)item = true;
            item += el->value_offset;
        }
        rc = el->st ? dec_fields(d, el->st, def, item) : dec_present(d, el, item);
        if (rc)
            return rc;
    }
    l->items = items;
    l->count = count;
    d->depth--;
    return CODEC_OK;
}

/* A map chunk's header and size (1..left); null and shared entries are
 * refused. */
static int get_chunk(dec *d, uint32_t left, uint8_t *header, uint8_t *chunk)
{
    *header = *chunk = 0;
    int rc = get_u8(d, header, "map chunk header");
    if (rc)
        return rc;
    if (*header & (FORY_KEY_NULL | FORY_VAL_NULL | FORY_KEY_TRACK_REF | FORY_VAL_TRACK_REF))
        return codec_error_set(d->err, CODEC_E_UNSUPPORTED, 0, "fory", fory_off(&d->in) - 1,
                               "map chunks with null or shared entries are not supported");
    if ((rc = get_u8(d, chunk, "map chunk size")))
        return rc;
    if (*chunk == 0 || *chunk > left)
        return corrupt(d, "map chunk size is out of range");
    return CODEC_OK;
}

static int dec_map(dec *d, const fory_node *n, codec_map *m)
{
    uint32_t count;
    int rc = get_u32(d, &count, "map size");
    if (rc || (rc = check_count(d, count, 2, "map")) || (rc = enter(d)))
        return rc;
    size_t ksz = n->t->key->size, vsz = n->t->elem->size;
    uint8_t *keys = alloc0(d, (size_t)count * ksz), *values = alloc0(d, (size_t)count * vsz);
    if (!keys || !values)
        return FORY_NOMEM(d->err);
    for (uint32_t done = 0; done < count;) {
        uint8_t header, chunk;
        if ((rc = get_chunk(d, count - done, &header, &chunk)))
            return rc;
        const rdef *def = NULL;
        if ((!(header & FORY_KEY_DECL) &&
             (rc = dec_item_info(d, n->key, &def, "map key type does not match"))) ||
            (!(header & FORY_VAL_DECL) &&
             (rc = dec_item_info(d, n->elem, &def, "map value type does not match"))))
            return rc;
        for (uint32_t i = 0; i < chunk; i++, done++) {
            if ((rc = dec_value(d, n->key, keys + (size_t)done * ksz)))
                return rc;
            if (n->elem->st)
                rc = dec_fields(d, n->elem->st, def, values + (size_t)done * vsz);
            else
                rc = dec_value(d, n->elem, values + (size_t)done * vsz);
            if (rc)
                return rc;
        }
    }
    m->keys = keys;
    m->values = values;
    m->count = count;
    d->depth--;
    return CODEC_OK;
}

static int dec_array(dec *d, const fory_node *n, codec_list *l)
{
    uint32_t bytes;
    int rc = get_u32(d, &bytes, "array size");
    if (rc)
        return rc;
    size_t esz = n->t->elem->size;
    if (bytes % esz)
        return corrupt(d, "array size is not a multiple of its item size");
    if (bytes > fory_left(&d->in))
        return trunc_or(d, -1, "array");
    if ((rc = check_count(d, bytes / (uint32_t)esz, 0, "array")))
        return rc;
    uint8_t *items = codec_arena_alloc(d->arena, bytes ? bytes : 1, 0);
    if (!items)
        return FORY_NOMEM(d->err);
    fory_copy_le(items, d->in.p, bytes, esz);
    if (n->tid == FT_BOOL_ARRAY)
        for (uint32_t i = 0; i < bytes; i++)
            if (items[i] > 1)
                return corrupt(d, "bool is neither 0 nor 1");
    d->in.p += bytes;
    l->items = items;
    l->count = bytes / esz;
    return CODEC_OK;
}

static int dec_scalar(dec *d, const fory_node *n, void *v)
{
    uint64_t x;
    int r = 0;
    switch (n->tid) {
    case FT_BOOL:
        if ((r = fory_get_le(&d->in, 1, &x)))
            break;
        if (x > 1)
            return corrupt(d, "bool is neither 0 nor 1");
        *(bool *)v = x != 0;
        return CODEC_OK;
    case FT_INT8: case FT_UINT8:
        if (!(r = fory_get_le(&d->in, 1, &x)))
            *(uint8_t *)v = (uint8_t)x;
        break;
    case FT_INT16: case FT_UINT16:
        if (!(r = fory_get_le(&d->in, 2, &x)))
            *(uint16_t *)v = (uint16_t)x;
        break;
    case FT_INT32: case FT_UINT32:
        if (!(r = fory_get_le(&d->in, 4, &x)))
            *(uint32_t *)v = (uint32_t)x;
        break;
    case FT_FLOAT32:
        if (!(r = fory_get_le(&d->in, 4, &x))) {
            uint32_t bits = (uint32_t)x;
            memcpy(v, &bits, 4);
        }
        break;
    case FT_INT64: case FT_UINT64: case FT_FLOAT64:
        if (!(r = fory_get_le(&d->in, 8, &x)))
            memcpy(v, &x, 8);
        break;
    case FT_VARINT32: {
        uint32_t u;
        if (!(r = fory_get_varu32(&d->in, &u)))
            *(int32_t *)v = codec_unzigzag32(u);
        break;
    }
    case FT_VAR_UINT32:
        r = fory_get_varu32(&d->in, v);
        break;
    case FT_VARINT64:
        if (!(r = fory_get_varu64(&d->in, &x)))
            *(int64_t *)v = codec_unzigzag64(x);
        break;
    case FT_VAR_UINT64:
        r = fory_get_varu64(&d->in, v);
        break;
    case FT_TAGGED_INT64: case FT_TAGGED_UINT64: {
        if ((r = fory_get_le(&d->in, 4, &x)))
            break;
        if (x & 1) {
            d->in.p -= 3;
            if (!(r = fory_get_le(&d->in, 8, &x)))
                memcpy(v, &x, 8);
        } else if (n->tid == FT_TAGGED_INT64) {
            *(int64_t *)v = (int32_t)(uint32_t)x >> 1;
        } else {
            *(uint64_t *)v = (uint32_t)x >> 1;
        }
        break;
    }
    case FT_ENUM: {
        uint32_t ord;
        size_t at = fory_off(&d->in);
        if ((r = fory_get_varu32(&d->in, &ord)))
            break;
        if (ord >= n->t->count)
            return FORY_FAIL(d->err, CODEC_D_CORRUPT, at, "enum ordinal %u out of range (%s)",
                             ord, n->t->name ? n->t->name : "enum");
        *(int32_t *)v = n->t->values[ord].number;
        return CODEC_OK;
    }
    default:
        return corrupt(d, "unsupported type");
    }
    return r ? trunc_or(d, r, "number") : CODEC_OK;
}

/* The value of `n` itself, after any null flag (n->nullable is ignored). */
static int dec_present(dec *d, const fory_node *n, void *v)
{
    switch (n->tid) {
    case FT_STRING: return dec_string(d, v);
    case FT_BINARY: {
        uint32_t len;
        int rc = get_u32(d, &len, "binary length");
        if (rc)
            return rc;
        if (len > fory_left(&d->in))
            return trunc_or(d, -1, "binary");
        uint8_t *p = codec_arena_alloc(d->arena, len ? len : 1, 1);
        if (!p)
            return FORY_NOMEM(d->err);
        memcpy(p, d->in.p, len);
        d->in.p += len;
        *(codec_bytes *)v = (codec_bytes){p, len};
        return CODEC_OK;
    }
    case FT_LIST: return dec_list(d, n, v);
    case FT_MAP: return dec_map(d, n, v);
    case FT_STRUCT:
    case FT_COMPATIBLE_STRUCT: return dec_struct(d, n->st, v);
    case FT_BOOL_ARRAY: case FT_INT8_ARRAY: case FT_INT16_ARRAY: case FT_INT32_ARRAY:
    case FT_INT64_ARRAY: return dec_array(d, n, v);
    case FT_UNION: return dec_union(d, n, v);
    default: return dec_scalar(d, n, v);
    }
}

/* A value after its ref flag, as at the root and in a union case: its type
 * info (a struct's, or an id that must be n's), then the value. */
static int dec_typed(dec *d, const fory_node *n, void *v)
{
    int rc;
    if (n->st) {
        const rdef *def;
        if ((rc = dec_struct_info(d, n->st, &def)))
            return rc;
        return dec_fields(d, n->st, def, v);
    }
    size_t at = fory_off(&d->in);
    uint32_t tid;
    if ((rc = get_u32(d, &tid, "type id")))
        return rc;
    if (tid != n->tid)
        return FORY_FAIL(d->err, CODEC_D_CORRUPT, at, "type id %u is not the %u expected", tid,
                         n->tid);
    return dec_present(d, n, v);
}

/* The xlang UNION payload after its null flag: varuint32 case_id, then the
 * member as a typed value. The C union has no carrier for a case_id it
 * does not declare, so one is refused (never dropped). */
static int dec_union(dec *d, const fory_node *n, uint8_t *v)
{
    size_t at = fory_off(&d->in);
    uint32_t case_id;
    int rc = get_u32(d, &case_id, "union case id");
    if (rc)
        return rc;
    const codec_field *f = codec_type_field_by_tag(n->t, case_id);
    if (!f)
        return FORY_FAIL(d->err, CODEC_D_CORRUPT, at, "unknown union case_id %u (%s)", case_id,
                         n->t->name ? n->t->name : "union");
    size_t i = codec_type_field_index(n->t, f);
    memset(v, 0, n->t->size);
    *(uint32_t *)v = (uint32_t)i + 1;
    bool present;
    if ((rc = get_null_flag(d, &present)))
        return rc;
    if (!present)
        return corrupt(d, "a union case value is null");
    return dec_typed(d, n->cases[i], v + f->offset);
}

static int dec_value(dec *d, const fory_node *n, void *v)
{
    if (n->nullable) {
        bool present;
        int rc = get_null_flag(d, &present);
        if (rc || !present)
            return rc;
        *(bool *)v = true;
        v = (uint8_t *)v + n->value_offset;
    }
    return dec_present(d, n, v);
}

/* ---------------------------------------------------------------------------
 * Skipping fields this side does not have (compatible mode)
 * ------------------------------------------------------------------------ */

static int skip_bytes(dec *d, uint64_t n, const char *what)
{
    if (n > fory_left(&d->in))
        return trunc_or(d, -1, what);
    d->in.p += n;
    return CODEC_OK;
}

/* The fields of a struct whose definition is `def`. */
static int skip_struct(dec *d, const rdef *def)
{
    if (!def->fields) {   /* our own definition: read it into scratch */
        void *scratch = alloc0(d, def->st->t->size);
        return scratch ? dec_fields(d, def->st, def, scratch) : FORY_NOMEM(d->err);
    }
    int rc = enter(d);
    if (rc)
        return rc;
    for (size_t i = 0; i < def->count; i++)
        if ((rc = skip_value(d, &def->fields[i].type)))
            return rc;
    d->depth--;
    return CODEC_OK;
}

/* Type info before undeclared items: a struct's sets *def, others are ids. */
static int skip_item_info(dec *d, const rtype *t, const rdef **def)
{
    if (norm(t->tid) == FT_STRUCT)
        return dec_struct_info(d, NULL, def);
    uint32_t tid;
    *def = NULL;
    return get_u32(d, &tid, "item type");
}

static int skip_item(dec *d, const rtype *t, const rdef *def)
{
    if (norm(t->tid) == FT_STRUCT)
        return def ? skip_struct(d, def) : corrupt(d, "struct item without its type info");
    return skip_body(d, t->tid, t);
}

static int skip_body(dec *d, uint8_t tid, const rtype *t)
{
    uint64_t x;
    uint32_t u;
    int rc;
    switch (tid) {
    case FT_BOOL: case FT_INT8: case FT_UINT8: return skip_bytes(d, 1, "value");
    case FT_INT16: case FT_UINT16: return skip_bytes(d, 2, "value");
    case FT_INT32: case FT_UINT32: case FT_FLOAT32: return skip_bytes(d, 4, "value");
    case FT_INT64: case FT_UINT64: case FT_FLOAT64: return skip_bytes(d, 8, "value");
    case FT_VARINT32: case FT_VAR_UINT32: case FT_ENUM:
        return get_u32(d, &u, "varint");
    case FT_VARINT64: case FT_VAR_UINT64:
        rc = fory_get_varu64(&d->in, &x);
        return rc ? trunc_or(d, rc, "varint") : CODEC_OK;
    case FT_TAGGED_INT64: case FT_TAGGED_UINT64:
        if (fory_get_le(&d->in, 1, &x))
            return trunc_or(d, -1, "tagged integer");
        return skip_bytes(d, x & 1 ? 8 : 3, "tagged integer");
    case FT_STRING:
        if ((rc = fory_get_varu64(&d->in, &x)))
            return trunc_or(d, rc, "string header");
        return skip_bytes(d, x >> 2, "string");
    case FT_BINARY: case FT_BOOL_ARRAY: case FT_INT8_ARRAY: case FT_INT16_ARRAY:
    case FT_INT32_ARRAY: case FT_INT64_ARRAY:
        if ((rc = get_u32(d, &u, "length")))
            return rc;
        return skip_bytes(d, u, "bytes");
    case FT_STRUCT: case FT_COMPATIBLE_STRUCT: case FT_NAMED_STRUCT:
    case FT_NAMED_COMPATIBLE_STRUCT: {
        const rdef *def;
        if ((rc = dec_struct_info(d, NULL, &def)))
            return rc;
        return skip_struct(d, def);
    }
    case FT_LIST: case FT_SET: {
        uint8_t header = 0;
        const rdef *def = NULL;
        if ((rc = get_u32(d, &u, "list length")) || (rc = check_count(d, u, 1, "list")))
            return rc;
        if (!u)
            return CODEC_OK;
        if ((rc = get_u8(d, &header, "list header")) || (rc = enter(d)))
            return rc;
        if (!t || !t->a)
            return codec_error_set(d->err, CODEC_E_UNSUPPORTED, 0, "fory", fory_off(&d->in),
                                   "cannot skip a list without its element type");
        bool per_item = !(header & (FORY_ELEM_SAME | FORY_ELEM_DECL));
        if ((header & FORY_ELEM_SAME) && !(header & FORY_ELEM_DECL) &&
            (rc = skip_item_info(d, t->a, &def)))
            return rc;
        for (uint32_t i = 0; i < u; i++) {
            bool present;
            if ((rc = dec_elem_flag(d, header, &present)))
                return rc;
            if (present && ((per_item && (rc = skip_item_info(d, t->a, &def))) ||
                            (rc = skip_item(d, t->a, def))))
                return rc;
        }
        d->depth--;
        return CODEC_OK;
    }
    case FT_MAP: {
        if ((rc = get_u32(d, &u, "map size")) || (rc = check_count(d, u, 2, "map")) ||
            (rc = enter(d)))
            return rc;
        if (!t || !t->a || !t->b)
            return codec_error_set(d->err, CODEC_E_UNSUPPORTED, 0, "fory", fory_off(&d->in),
                                   "cannot skip a map without its key and value types");
        for (uint32_t done = 0; done < u;) {
            uint8_t header, chunk;
            const rdef *kdef = NULL, *vdef = NULL;
            if ((rc = get_chunk(d, u - done, &header, &chunk)))
                return rc;
            if ((!(header & FORY_KEY_DECL) && (rc = skip_item_info(d, t->a, &kdef))) ||
                (!(header & FORY_VAL_DECL) && (rc = skip_item_info(d, t->b, &vdef))))
                return rc;
            for (uint32_t i = 0; i < chunk; i++, done++)
                if ((rc = skip_item(d, t->a, kdef)) || (rc = skip_item(d, t->b, vdef)))
                    return rc;
        }
        d->depth--;
        return CODEC_OK;
    }
    case FT_UNION: {
        /* case_id, then a typed value: a struct's type info is read by
         * its skip, any other id here. */
        bool present;
        if ((rc = get_u32(d, &u, "union case id")) || (rc = get_null_flag(d, &present)) ||
            !present)
            return rc;
        const uint8_t *info = d->in.p;
        if ((rc = get_u32(d, &u, "type id")))
            return rc;
        if (u > 255)
            return corrupt(d, "unknown type id");
        if (norm((uint8_t)u) == FT_STRUCT)
            d->in.p = info;
        if ((rc = enter(d)) || (rc = skip_body(d, (uint8_t)u, NULL)))
            return rc;
        d->depth--;
        return CODEC_OK;
    }
    default:
        return codec_error_set(d->err, CODEC_E_UNSUPPORTED, 0, "fory", fory_off(&d->in),
                               "cannot skip a field of type id %u", tid);
    }
}

static int skip_value(dec *d, const rtype *t)
{
    if (t->nullable) {
        bool present;
        int rc = get_null_flag(d, &present);
        if (rc || !present)
            return rc;
    }
    return skip_body(d, t->tid, t);
}

/* ---------------------------------------------------------------------------
 * Root
 * ------------------------------------------------------------------------ */

/* a[0..n) == b[0..n), 8 bytes at a time (the prefixes compared are short,
 * a call to memcmp costs about as much as the comparison). */
static inline bool same_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint64_t x, y, diff = 0;
    size_t i = 0;
    if (n < 8)
        return memcmp(a, b, n) == 0;
    for (; i + 16 <= n; i += 16) {
        uint64_t x2, y2;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        memcpy(&x2, a + i + 8, 8);
        memcpy(&y2, b + i + 8, 8);
        diff |= (x ^ y) | (x2 ^ y2);
    }
    for (; i + 8 <= n; i += 8) {
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        diff |= x ^ y;
    }
    if (i < n) {
        memcpy(&x, a + n - 8, 8);
        memcpy(&y, b + n - 8, 8);
        diff |= x ^ y;
    }
    return diff == 0;
}

int codec__fory_decode(const fory_plan *p, const uint8_t *in, size_t n, void *value,
                       codec_arena *arena, codec_error *err)
{
    /* Field by field: an initializer would also zero the inline arrays. */
    dec d;
    d.p = p;
    d.in = (fory_in){in, in, in + n};
    d.arena = arena;
    d.pool = (fory_pool){.arena = arena};
    d.err = err;
    d.depth = 0;
    d.max_depth = p->o.max_depth;
    d.max_elements = p->o.max_elements;
    d.defs = d.defs_small;
    d.ndefs = 0;
    d.capdefs = sizeof d.defs_small / sizeof d.defs_small[0];
    d.nown = 0;
    const fory_node *root = p->root;
    memset(value, 0, root->nullable ? root->t->size + root->value_offset : root->t->size);
    uint8_t header = 0, flag = 0;
    int rc;
    size_t pre = p->root_prefix_len;
    if (pre && n >= pre && in[0] == 0x01 && (in[1] == FORY_NOT_NULL || in[1] == FORY_REF_VALUE) &&
        same_bytes(in + 2, p->root_prefix + 2, pre - 2)) {
        /* A struct root whose type info is this side's (in compatible
         * mode: its own TypeDef, number 0): the fields in local order. The
         * generated code (codec/codegen.h) takes the expected well-formed
         * case; anything else is read again below, from the start. */
        if (p->gen) {
            codec_fory_gen_ctx g = {.arena = arena, .max_elements = p->o.max_elements,
                                    .plan = p, .user_id = codec__fory_gen_user_id};
            if (p->gen->decode(in + pre, in + n, value, &g))
                return CODEC_OK;
            memset(value, 0, root->t->size);
        }
        const rdef *def = NULL;
        if (p->o.mode == CODEC_FORY_COMPATIBLE) {
            d.own[0] = (rdef){.st = root->st};
            d.defs[0] = &d.own[0];
            d.ndefs = d.nown = 1;
            def = &d.own[0];
        }
        d.in.p = in + pre;
        if ((rc = dec_fields(&d, root->st, def, value)))
            return rc;
        if (d.in.p != d.in.end)
            return FORY_FAIL(err, CODEC_D_TRAILING, fory_off(&d.in), "%zu bytes after the value",
                             fory_left(&d.in));
        return CODEC_OK;
    }
    if ((rc = get_u8(&d, &header, "header")))
        return rc;
    if (header != 0x01)
        return codec_error_set(err, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, "fory", 0,
                               "header 0x%02x: only xlang payloads (0x01) are read", header);
    if ((rc = get_u8(&d, &flag, "root flag")))
        return rc;
    if (flag == FORY_NULL) {
        if (!root->nullable)
            return FORY_FAIL(err, CODEC_D_CORRUPT, 1, "root value is null");
    } else {
        if (flag != FORY_NOT_NULL && flag != FORY_REF_VALUE)
            return FORY_FAIL(err, CODEC_D_CORRUPT, 1, "unexpected root reference flag 0x%02x",
                             flag);
        void *v = value;
        if (root->nullable) {
            *(bool *)v = true;
            v = (uint8_t *)v + root->value_offset;
        }
        if ((rc = dec_typed(&d, root, v)))
            return rc;
    }
    if (d.in.p != d.in.end)
        return FORY_FAIL(err, CODEC_D_TRAILING, fory_off(&d.in), "%zu bytes after the value",
                         fory_left(&d.in));
    return CODEC_OK;
}
