/* plan_internal.h — the tables the binary backends (CBOR, MessagePack) build once
 * per codec from the descriptor, so the typed walkers of their hot paths
 * never look at codec_field kinds, flags or names.
 *
 * One bin_struct per struct type reached through struct fields, lists and
 * optionals (shared, so recursive types work). Each field has its encoded
 * key bytes (the format's key head and text, or its tag as an integer),
 * written by the backend's key writer and padded so that encoders copy a
 * fixed BIN_KEY_PAD bytes; its value is a bin_val: an op from a small enum
 * plus what that op needs. Anything the plan does not specialise (maps,
 * xmaps, schemaless values, times, decimals...) is BIN_OP_OTHER and goes
 * through the backend's generic walker with its codec_type. */
#ifndef CODEC_BINARY_PLAN_H
#define CODEC_BINARY_PLAN_H

#include "codec/types.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Key bytes are stored with at least this many readable bytes, so a key
 * of up to BIN_KEY_PAD bytes is copied with one fixed-size memcpy. */
#define BIN_KEY_PAD 32

typedef enum bin_op {
    BIN_OP_OTHER,                 /* the generic walker, with val->type */
    BIN_OP_BOOL,
    BIN_OP_I8, BIN_OP_I16, BIN_OP_I32, BIN_OP_I64,
    BIN_OP_U8, BIN_OP_U16, BIN_OP_U32, BIN_OP_U64,
    BIN_OP_F32, BIN_OP_F64,
    BIN_OP_STRING,                /* codec_string, UTF-8 */
    BIN_OP_ENUM,                  /* int32_t, checked against the enum's numbers */
    BIN_OP_STRUCT,                /* val->sub */
    BIN_OP_LIST,                  /* codec_list of val->elem */
    BIN_OP_OPTIONAL,              /* {bool has; value at val->value_offset of val->elem} */
    BIN_OP_STEP_OPTIONAL,         /* steps only: an optional, its value's op in value_op */
    BIN_OP_STEP_UNION             /* steps only: a union, left out when `which` is 0 */
} bin_op;

typedef struct bin_struct bin_struct;

typedef struct bin_val {
    uint8_t op;                   /* bin_op */
    const codec_type *type;       /* the descriptor (generic walker, messages) */
    const bin_struct *sub;        /* STRUCT */
    const struct bin_val *elem;   /* LIST item, OPTIONAL value */
    size_t value_offset;          /* OPTIONAL: of the value in the optional */
    uint64_t enum_small;          /* ENUM: bit n set when n (0..63) is one of its numbers */
} bin_val;

typedef struct bin_field {
    const uint8_t *key;           /* encoded key, padded to >= BIN_KEY_PAD bytes */
    uint32_t key_len;
    bool optional;                /* an OPTIONAL: left out when absent */
    bool skippable;               /* an OPTIONAL or a UNION: encoders may leave it out */
    bool required;                /* decoding fails when it is missing */
    size_t offset;                /* of the member in its struct */
    bin_val val;
    const codec_field *cf;
} bin_field;

/* Keys of up to this many bytes are also held in the encoder's step. */
#define BIN_STEP_KEY 16

/* What the encoder reads for one field, in one place: the op of the value
 * it writes (an OPTIONAL's value op when `optional`: op then says so, and
 * the one dispatch on op serves the presence test too), where the member
 * is, and a short key's bytes, so the walk touches one record per field. */
typedef struct bin_step {
    uint8_t op;                   /* bin_op; BIN_OP_STEP_OPTIONAL for an optional */
    uint8_t value_op;             /* the op of the value written; BIN_OP_OTHER for a long key */
    bool optional;                /* left out when absent; else the value at value_offset */
    uint32_t key_len;
    size_t offset;                /* of the member in its struct */
    size_t value_offset;          /* optional: of the value in the optional */
    uint64_t enum_small;          /* ENUM: as in bin_val */
    uint8_t key[BIN_STEP_KEY];    /* the key when key_len <= BIN_STEP_KEY, zero padded */
    const bin_field *f;
} bin_step;

struct bin_struct {
    const codec_type *type;
    bin_field *fields;            /* declaration order */
    const bin_step *steps;        /* the encode order */
    const bin_step *steps_end;    /* steps + count: no multiply on entry */
    const size_t *optionals;      /* offsets of the OPTIONAL members */
    size_t optional_count;
    const size_t *unions;         /* offsets of the UNION members */
    size_t union_count;
    size_t count;
    /* Room for the map head, every key, every value but a string's bytes,
     * and the key copies' padding: what the encoder reserves per struct. */
    size_t room;
    bool has_required;
    /* No optionals or unions, and the map head fits in the first step's key with
     * that key: it starts with the head, so the walk writes no head. */
    bool head_in_steps;
};

/* Writes the encoded key of field f (room for BIN_KEY_MAX_HEAD + strlen of
 * its name) and returns its length. */
#define BIN_KEY_MAX_HEAD 9
typedef size_t (*bin_key_writer)(const codec_field *f, const void *ctx, uint8_t *dst);

/* Writes the head of a map of n entries (room: BIN_KEY_MAX_HEAD) and
 * returns its length. */
typedef size_t (*bin_map_head_writer)(size_t n, uint8_t *dst);

/* Plan options: the key and map head writers, whether require=all applies, and whether
 * fields are encoded in the bytewise order of their keys (deterministic
 * CBOR) rather than in declaration order. */
typedef struct bin_plan_spec {
    bin_key_writer key;
    const void *key_ctx;
    bin_map_head_writer map_head;
    bool require_all;
    bool sort_keys;
} bin_plan_spec;

/* A codec's plan; its memory lives in `arena` (built in place: the plan
 * must not move afterwards). */
typedef struct bin_plan {
    bin_val root;
    codec_arena arena;
} bin_plan;

/* Builds the plan of type t (already checked by codec_type_check). 0 or
 * CODEC_E_NOMEM with `stage` named in err; on failure nothing is kept. */
int codec__bin_plan_build(bin_plan *p, const codec_type *t, const bin_plan_spec *spec,
                          const char *stage, codec_error *err);

/* Releases what codec__bin_plan_build allocated. */
void codec__bin_plan_free(bin_plan *p);

/* True when the input at p (end is the end of the input) starts with the
 * key bytes of f: the in-order fast path of the decoders. */
static inline bool bin_key_at(const bin_field *f, const uint8_t *p, const uint8_t *end)
{
    size_t n = f->key_len;
    if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && n <= 16 && end - p >= 16) {
        uint64_t a0, a1, k0, k1;
        __builtin_memcpy(&a0, p, 8);
        __builtin_memcpy(&a1, p + 8, 8);
        __builtin_memcpy(&k0, f->key, 8);
        __builtin_memcpy(&k1, f->key + 8, 8);
        /* Little-endian loads: the key's bytes are the low ones. */
        uint64_t m0 = n >= 8 ? ~0ull : (1ull << (8 * n)) - 1;
        uint64_t m1 = n >= 16 ? ~0ull : n <= 8 ? 0 : (1ull << (8 * (n - 8))) - 1;
        return !(((a0 ^ k0) & m0) | ((a1 ^ k1) & m1));
    }
    return (size_t)(end - p) >= n && __builtin_memcmp(p, f->key, n) == 0;
}

/* The decoders' answer for an item they leave to their generic walker
 * (statuses are 0 or positive). */
#define PLAN_OTHER_FORM (-1)

/* Stores x into the integer member of op (BIN_OP_I8..BIN_OP_U64) at v
 * when it fits that width; false (nothing stored) otherwise. */
static inline bool bin_store_int(unsigned op, uint8_t *v, int64_t x)
{
    switch (op) {
    case BIN_OP_I8: return x >= INT8_MIN && x <= INT8_MAX && (*(int8_t *)v = (int8_t)x, true);
    case BIN_OP_I16:
        return x >= INT16_MIN && x <= INT16_MAX && (*(int16_t *)v = (int16_t)x, true);
    case BIN_OP_I32:
        return x >= INT32_MIN && x <= INT32_MAX && (*(int32_t *)v = (int32_t)x, true);
    case BIN_OP_I64: return *(int64_t *)v = x, true;
    case BIN_OP_U8: return x >= 0 && x <= UINT8_MAX && (*(uint8_t *)v = (uint8_t)x, true);
    case BIN_OP_U16: return x >= 0 && x <= UINT16_MAX && (*(uint16_t *)v = (uint16_t)x, true);
    case BIN_OP_U32: return x >= 0 && x <= UINT32_MAX && (*(uint32_t *)v = (uint32_t)x, true);
    default: return x >= 0 && (*(uint64_t *)v = (uint64_t)x, true);
    }
}

#endif
