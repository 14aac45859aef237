/* plan_encode_internal.h — the planned encode walk (plan_internal.h) shared by the CBOR and
 * MessagePack encoders. It is a template: each encode.c includes it once,
 * after defining what differs between the formats:
 *
 *   typedef ... fmt_options;  the format's options
 *   typedef struct enc { codec_buf *out; const fmt_options *o; codec_error *err; } enc;
 *   static int enc_any(enc *e, const codec_type *t, const void *v);
 *       the generic walker, for BIN_OP_OTHER and whatever the fast paths
 *       leave (out->len is current when it is called)
 *   static inline uint8_t *fmt_scalar(uint8_t *p, unsigned op, const void *v);
 *       writes a BOOL, integer or float op (room: 9 bytes); NULL for any
 *       other op
 *   static inline uint8_t *fmt_text_head(uint8_t *p, size_t n);
 *       the head of a text string of n bytes (room: 9)
 *   static inline uint8_t *fmt_head(uint8_t *p, bool map, size_t n);
 *       a map (entries) or array (items) head (room: 9)
 *   static inline bool fmt_planned(const enc *e, const bin_struct *s);
 *       false when struct s goes through enc_any instead
 *   FMT_STAGE      the stage name in error messages
 *   FMT_TEXT_MAX   longer strings go through enc_any (which refuses them)
 *   FMT_NULL       the null byte
 *   FMT_NOMEM(err) the format's out-of-memory status
 *
 * The walk keeps its write cursor and limit in locals (stores through a
 * uint8_t pointer may alias anything, so fields of `out` would be reloaded
 * after every byte) and syncs out->len around calls only. Each struct field
 * is one room check, one fixed-size copy of its key bytes and its value. */
#ifndef CODEC_BINARY_PLAN_ENCODE_H
#define CODEC_BINARY_PLAN_ENCODE_H

#include "formats/binary/plan_internal.h"
#include "core/buf_internal.h"

/* Reserves n bytes after p (the cursor, inside out): the new cursor, or
 * NULL with err set. Out of line: the hot path never comes here. */
static __attribute__((noinline)) uint8_t *plan_grow(enc *e, uint8_t *p, size_t n)
{
    p = codec__buf_grow(e->out, p, n);
    if (!p)
        FMT_NOMEM(e->err);
    return p;
}

/* The limit is set here, not in plan_grow: its address never leaves the
 * walk, so it stays in a register instead of a stack slot. */
static inline uint8_t *plan_room(enc *e, uint8_t *p, size_t n, uint8_t **lim)
{
    if (__builtin_expect((size_t)(*lim - p) >= n, 1))
        return p;
    p = plan_grow(e, p, n);
    *lim = e->out->data + e->out->cap;
    return p;
}

/* The cursor and limit of out. */
static inline uint8_t *plan_cursor(const codec_buf *out, uint8_t **lim)
{
    *lim = out->data + out->cap;
    return out->data + out->len;
}

/* A text string at p (room: 9 + its length): the end, or NULL with err
 * set when it is not UTF-8. */
static inline __attribute__((always_inline)) uint8_t *plan_text(enc *e, uint8_t *p,
                                                                const codec_string *s)
{
    size_t n = s->len;
    uint8_t *d = fmt_text_head(p, n);
    if (n && bin_copy_text(d, (const uint8_t *)s->ptr, n) &&
        !codec__utf8_valid((const uint8_t *)s->ptr, n)) {
        codec_error_set(e->err, CODEC_E_INVALID_VALUE, 0, FMT_STAGE, CODEC_NO_OFFSET,
                        "string is not valid UTF-8");
        return NULL;
    }
    return d + n;
}

static int plan_put_val(enc *e, const bin_val *val, const uint8_t *v);

/* A value the loops below do not write themselves: out->len synced to *p,
 * the call, then *p and *lim reloaded. */
static inline int plan_call(enc *e, uint8_t **p, uint8_t **lim, const bin_val *val,
                            const uint8_t *v)
{
    e->out->len = (size_t)(*p - e->out->data);
    int rc = plan_put_val(e, val, v);
    *p = plan_cursor(e->out, lim);
    return rc;
}

/* Writes the value of val at p when it needs no call: scalars, enums whose
 * number is a small valid one, strings (room: 9 + their length). Returns
 * the end; p itself when it wrote nothing (every value takes a byte); NULL
 * when it failed (err set). Forced inline: it is the body of every loop. */
static inline __attribute__((always_inline)) uint8_t *plan_inline(enc *e, uint8_t *p,
                                                                 const bin_val *val,
                                                                 const uint8_t *v)
{
    uint8_t *end;
    switch (val->op) {
    case BIN_OP_STRING:
        if (((const codec_string *)v)->len > FMT_TEXT_MAX)
            return p;
        return plan_text(e, p, (const codec_string *)v);
    case BIN_OP_ENUM: {
        int32_t n = *(const int32_t *)v;
        return n >= 0 && n < 64 && (val->enum_small >> n & 1) ? fmt_scalar(p, BIN_OP_I32, v) : p;
    }
    default:
        end = fmt_scalar(p, val->op, v);
        return end ? end : p;
    }
}

/* The room plan_inline may need for val at v (text beyond FMT_TEXT_MAX is
 * left to enc_any, which refuses it, so this cannot overflow). */
static inline size_t plan_inline_room(const bin_val *val, const uint8_t *v)
{
    if (val->op != BIN_OP_STRING)
        return 9;
    size_t n = ((const codec_string *)v)->len;
    return n <= FMT_TEXT_MAX ? 9 + n : 9;
}

/* Copies the short key of step st to p: one fixed 16-byte copy (room:
 * BIN_STEP_KEY). Steps with longer keys have op BIN_OP_OTHER. */
static inline uint8_t *plan_key(uint8_t *p, const bin_step *st)
{
    memcpy(p, st->key, BIN_STEP_KEY);
    return p + st->key_len;
}

/* The scalar cases of a switch on an op: the key and the value, with the
 * op known at compile time (the struct's room covers both). */
#define PLAN_SCALAR_CASE(OP)                                                           \
    case OP:                                                                           \
        p = fmt_scalar(plan_key(p, st), OP, fv);                                       \
        continue

/* The body of a struct: inlined at the root (plan_encode), so a top-level
 * struct costs no call beyond the backend's own; plan_put_struct below is
 * the out-of-line copy nested structs call.
 *
 * Room is made once for s->room bytes (head, keys, values but a string's
 * bytes), and kept so: at every step at least the room of the steps left
 * is reserved. A string asks for s->room + its length, a call re-reserves
 * s->room after it. */
static inline __attribute__((always_inline)) int plan_struct_body(enc *e, const bin_struct *s,
                                                                  const uint8_t *v)
{
    if (!fmt_planned(e, s))
        return enc_any(e, s->type, v);
    codec_buf *out = e->out;
    uint8_t *lim, *p = plan_room(e, plan_cursor(out, &lim), s->room, &lim);
    if (!p)
        return CODEC_E_NOMEM;
    if (!s->head_in_steps) {
        size_t present = s->count;
        for (size_t i = 0; i < s->optional_count; i++)
            present -= !*(const bool *)(v + s->optionals[i]);
        for (size_t i = 0; i < s->union_count; i++)
            present -= !codec_union_which(v + s->unions[i]);
        p = fmt_head(p, true, present);
    }
    const bin_step *st = s->steps, *last = s->steps_end;
    for (; st < last; st++) {
        const uint8_t *fv = v + st->offset;
        unsigned op = st->op;
    dispatch:
        switch (op) {
        case BIN_OP_STEP_OPTIONAL:
            /* Present: the entry holds the optional's value itself. */
            if (!*(const bool *)fv)
                continue;
            fv += st->value_offset;
            op = st->value_op;
            goto dispatch;
        case BIN_OP_STEP_UNION:
            /* Present: written by the generic walker, key first. */
            if (!codec_union_which(fv))
                continue;
            break;
        PLAN_SCALAR_CASE(BIN_OP_BOOL);
        PLAN_SCALAR_CASE(BIN_OP_I8);
        PLAN_SCALAR_CASE(BIN_OP_I16);
        PLAN_SCALAR_CASE(BIN_OP_I32);
        PLAN_SCALAR_CASE(BIN_OP_I64);
        PLAN_SCALAR_CASE(BIN_OP_U8);
        PLAN_SCALAR_CASE(BIN_OP_U16);
        PLAN_SCALAR_CASE(BIN_OP_U32);
        PLAN_SCALAR_CASE(BIN_OP_U64);
        PLAN_SCALAR_CASE(BIN_OP_F32);
        PLAN_SCALAR_CASE(BIN_OP_F64);
        case BIN_OP_STRING: {
            const codec_string *str = (const codec_string *)fv;
            if (str->len > FMT_TEXT_MAX)
                break;
            if (!(p = plan_room(e, p, s->room + str->len, &lim)))
                return CODEC_E_NOMEM;
            if (!(p = plan_text(e, plan_key(p, st), str)))
                return CODEC_E_INVALID_VALUE;
            continue;
        }
        case BIN_OP_ENUM: {
            int32_t n = *(const int32_t *)fv;
            if (n < 0 || n >= 64 || !(st->enum_small >> n & 1))
                break;
            p = fmt_scalar(plan_key(p, st), BIN_OP_I32, fv);
            continue;
        }
        case BIN_OP_OTHER:
        case BIN_OP_STRUCT:
        case BIN_OP_LIST:
        case BIN_OP_OPTIONAL: break;
        default: __builtin_unreachable(); /* every op is a bin_op: no range check */
        }
        /* Containers, long keys and whatever the cases above left: the
         * key, then a call. */
        if (st->key_len <= BIN_STEP_KEY) {
            p = plan_key(p, st); /* the first may hold the map head too */
        } else {
            memcpy(p, st->f->key, st->key_len);
            p += st->key_len;
        }
        int rc = plan_call(e, &p, &lim, st->optional ? st->f->val.elem : &st->f->val, fv);
        if (rc)
            return rc;
        if (!(p = plan_room(e, p, s->room, &lim)))
            return CODEC_E_NOMEM;
    }
    out->len = (size_t)(p - out->data);
    return CODEC_OK;
}

#undef PLAN_SCALAR_CASE

static __attribute__((noinline)) int plan_put_struct(enc *e, const bin_struct *s,
                                                    const uint8_t *v)
{
    return plan_struct_body(e, s, v);
}

static __attribute__((noinline)) int plan_put_list(enc *e, const bin_val *val,
                                                  const codec_list *l)
{
    codec_buf *out = e->out;
    const bin_val *ev = val->elem;
    const uint8_t *item = l->items;
    size_t esz = ev->type->size;
    uint8_t *lim, *p = plan_room(e, plan_cursor(out, &lim), 9, &lim);
    if (!p)
        return CODEC_E_NOMEM;
    p = fmt_head(p, false, l->count);
    if (ev->op == BIN_OP_STRUCT) {
        /* Records: straight to the struct writer, no per-item dispatch. */
        out->len = (size_t)(p - out->data);
        for (size_t i = 0; i < l->count; i++, item += esz) {
            int rc = plan_put_struct(e, ev->sub, item);
            if (rc)
                return rc;
        }
        return CODEC_OK;
    }
    for (size_t i = 0; i < l->count; i++, item += esz) {
        if (!(p = plan_room(e, p, plan_inline_room(ev, item), &lim)))
            return CODEC_E_NOMEM;
        uint8_t *end = plan_inline(e, p, ev, item);
        if (!end)
            return CODEC_E_INVALID_VALUE;
        if (end != p) {
            p = end;
            continue;
        }
        int rc = plan_call(e, &p, &lim, ev, item);
        if (rc)
            return rc;
    }
    out->len = (size_t)(p - out->data);
    return CODEC_OK;
}

static int plan_put_val(enc *e, const bin_val *val, const uint8_t *v)
{
    switch (val->op) {
    case BIN_OP_STRUCT: return plan_put_struct(e, val->sub, v);
    case BIN_OP_LIST: return plan_put_list(e, val, (const codec_list *)v);
    case BIN_OP_OPTIONAL: {
        if (*(const bool *)v)
            return plan_put_val(e, val->elem, v + val->value_offset);
        uint8_t *lim, *p = plan_room(e, plan_cursor(e->out, &lim), 1, &lim);
        if (!p)
            return CODEC_E_NOMEM;
        *p = FMT_NULL;
        e->out->len++;
        return CODEC_OK;
    }
    default: {
        uint8_t *lim, *p = plan_room(e, plan_cursor(e->out, &lim), plan_inline_room(val, v), &lim);
        if (!p)
            return CODEC_E_NOMEM;
        uint8_t *end = plan_inline(e, p, val, v);
        if (!end)
            return CODEC_E_INVALID_VALUE;
        if (end == p)
            return enc_any(e, val->type, v);
        e->out->len = (size_t)(end - e->out->data);
        return CODEC_OK;
    }
    }
}

/* Encodes the value v of the plan's root; on failure out->len is restored. */
static inline int plan_encode(enc *e, const bin_plan *plan, const void *v)
{
    const bin_val *root = &plan->root;
    size_t base = e->out->len;
    /* The walk does arithmetic on out->data: give an empty buffer storage
     * first (a value takes at least one byte anyway). */
    if (!e->out->data && codec_buf_reserve(e->out, 1))
        return FMT_NOMEM(e->err);
    int rc = root->op == BIN_OP_STRUCT ? plan_struct_body(e, root->sub, v)
                                       : plan_put_val(e, root, v);
    if (rc)
        e->out->len = base;
    return rc;
}

#endif
