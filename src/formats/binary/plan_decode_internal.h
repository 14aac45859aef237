/* plan_decode_internal.h — the planned decode walk (plan_internal.h) shared by the CBOR and
 * MessagePack decoders. A template like plan_encode_internal.h: each decode.c
 * includes it once, after defining
 *
 *   FMT_RD         its reader type (fields base, p, end, o, arena, err, depth;
 *                  o->max_size the input limit)
 *   FMT_NOMEM(err) its out-of-memory status
 *   FMT_FAIL(err, detail, offset, ...)  an invalid-payload error
 *   static int fmt_generic(FMT_RD *r, const codec_type *t, void *v);
 *       the generic walker from the item at r->p
 *   static inline int fmt_open(FMT_RD *r, bool map, uint64_t *count, size_t *at);
 *       a definite map (entries) or array (items) head in its usual form
 *       at r->p: CODEC_OK with *count, *at (its offset) set, the nesting
 *       level entered and the count checked against the input and the
 *       limits, exactly as the generic walker does; PLAN_OTHER_FORM with
 *       nothing consumed when the head is in another form; or a failure
 *       status (statuses are positive)
 *   static int fmt_entry(FMT_RD *r, const codec_type *t, uint8_t *v, uint64_t *seen,
 *                        size_t *expect);
 *       one struct map entry read the generic way
 *   static int fmt_missing(FMT_RD *r, const codec_type *t, const uint64_t *seen, size_t at);
 *       the required-field check after the entries
 *   static inline bool fmt_inline(FMT_RD *r, const bin_val *val, uint8_t *v);
 *       a scalar or string in its usual form: true when v was filled, false
 *       with nothing consumed otherwise
 *   static inline bool fmt_present(const FMT_RD *r);
 *       whether an optional's item at r->p is a plain value (not null, not
 *       the end, nothing the generic walker must look at first)
 *   static inline bool fmt_planned(const bin_struct *s);
 *       false when struct s is always read by fmt_generic
 *
 * Only values in their usual forms, with every bound holding, are stored
 * here; anything else is read again from its first byte by fmt_generic,
 * which accepts it or reports the exact error and offset. */
#ifndef CODEC_BINARY_PLAN_DECODE_H
#define CODEC_BINARY_PLAN_DECODE_H

#include "formats/binary/plan_internal.h"

static int plan_get_val(FMT_RD *r, const bin_val *val, uint8_t *v);

/* Past the expected field j, an optional whose key is not at p: the first
 * field after the optionals that follow it whose key is at p, or NULL when
 * a non-optional or a seen field comes first. Out of line: taken only when
 * the writer left an optional out. */
static __attribute__((noinline)) const bin_field *plan_past_optionals(const bin_struct *s,
                                                                     const uint64_t *seen,
                                                                     size_t j, const uint8_t *p,
                                                                     const uint8_t *end)
{
    while (++j < s->count && !(seen[j / 64] >> (j % 64) & 1)) {
        const bin_field *f = &s->fields[j];
        if (bin_key_at(f, p, end))
            return f;
        if (!f->skippable)
            break;
    }
    return NULL;
}

/* The field whose key is at p when it is the one expected next, or comes
 * after expected optionals that are absent (encoders leave them out): that
 * field marked seen and *expect moved past it. NULL (nothing changed) when
 * the key is another one, or a field on the way was seen already. */
static inline const bin_field *plan_next_field(const bin_struct *s, uint64_t *seen,
                                               size_t *expect, const uint8_t *p,
                                               const uint8_t *end)
{
    size_t j = *expect;
    if (j >= s->count || (seen[j / 64] >> (j % 64) & 1))
        return NULL;
    const bin_field *f = &s->fields[j];
    if (__builtin_expect(!bin_key_at(f, p, end), 0)) {
        if (!f->skippable || !(f = plan_past_optionals(s, seen, j, p, end)))
            return NULL;
        j = (size_t)(f - s->fields);
    }
    seen[j / 64] |= 1ull << (j % 64);
    *expect = j + 1;
    return f;
}

static int plan_get_struct(FMT_RD *r, const bin_struct *s, uint8_t *v)
{
    const codec_type *t = s->type;
    uint64_t count;
    size_t at;
    int rc = fmt_planned(s) ? fmt_open(r, true, &count, &at) : PLAN_OTHER_FORM;
    if (rc == PLAN_OTHER_FORM)
        return fmt_generic(r, t, v);
    if (rc)
        return rc;
    uint64_t seen_small[BIN_SEEN_SMALL];
    uint64_t *seen = bin_seen_bitmap(r->arena, t->count, seen_small);
    if (!seen)
        return FMT_NOMEM(r->err);
    size_t expect = 0;
    for (uint64_t i = 0; i < count; i++) {
        const bin_field *f = plan_next_field(s, seen, &expect, r->p, r->end);
        /* The next field's key, not seen before (past optionals the
         * encoder left out): its value is read here; anything else (and a
         * repeat) goes through the generic entry. */
        if (f) {
            r->p += f->key_len;
            uint8_t *fv = v + f->offset;
            if (!fmt_inline(r, &f->val, fv) && (rc = plan_get_val(r, &f->val, fv)))
                return rc;
            continue;
        }
        if ((rc = fmt_entry(r, t, v, seen, &expect)))
            return rc;
    }
    r->depth--;
    return s->has_required ? fmt_missing(r, t, seen, at) : CODEC_OK;
}

static int plan_get_list(FMT_RD *r, const bin_val *val, codec_list *l)
{
    uint64_t count;
    size_t at;
    int rc = fmt_open(r, false, &count, &at);
    if (rc == PLAN_OTHER_FORM)
        return fmt_generic(r, val->type, l);
    if (rc)
        return rc;
    const bin_val *ev = val->elem;
    size_t esz = ev->type->size, n = (size_t)count;
    uint8_t *items = NULL;
    if (n) {
        if (!(items = codec_arena_alloc(r->arena, n * esz, ev->type->align)))
            return FMT_NOMEM(r->err);
        memset(items, 0, n * esz);
    }
    for (size_t i = 0; i < n; i++)
        if (!fmt_inline(r, ev, items + i * esz) && (rc = plan_get_val(r, ev, items + i * esz)))
            return rc;
    r->depth--;
    l->items = items;
    l->count = n;
    return CODEC_OK;
}

static int plan_get_val(FMT_RD *r, const bin_val *val, uint8_t *v)
{
    switch (val->op) {
    case BIN_OP_STRUCT: return plan_get_struct(r, val->sub, v);
    case BIN_OP_LIST: return plan_get_list(r, val, (codec_list *)v);
    case BIN_OP_OPTIONAL:
        if (!fmt_present(r))
            break;
        *(bool *)v = true;
        return plan_get_val(r, val->elem, v + val->value_offset);
    default:
        if (fmt_inline(r, val, v))
            return CODEC_OK;
        break;
    }
    return fmt_generic(r, val->type, v);
}

/* Decodes a whole input (r->p to r->end, r->p at its start) as one value of
 * the plan's root into value (t->size bytes, zeroed first): the input's
 * size limit, the walk, then no bytes after the item. */
static int plan_decode(FMT_RD *r, const bin_plan *plan, const codec_type *t, void *value)
{
    size_t n = (size_t)(r->end - r->p);
    if (n > r->o->max_size)
        return FMT_FAIL(r->err, CODEC_D_LIMIT, 0, "input of %zu bytes exceeds max-size (%zu)",
                        n, r->o->max_size);
    memset(value, 0, t->size);
    int rc = plan_get_val(r, &plan->root, value);
    if (!rc && r->p != r->end)
        rc = FMT_FAIL(r->err, CODEC_D_TRAILING, r->p - r->base, "bytes after the item");
    return rc;
}

#endif
