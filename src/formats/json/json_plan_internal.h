/* json_plan_internal.h — the encode plan of a JSON codec (plan.c): built once from
 * the descriptor when the codec is made, so that the fast encoder
 * (encode.c) never looks at field kinds, flags or names per value.
 *
 * One json_node per type reached (memoised, so recursive types close on
 * themselves): an op from a small enum plus what that op needs. Each
 * struct field holds its key as the exact bytes `,"name":` (escaped as the
 * writer escapes names) padded for fixed-size copies, the op of the value
 * it writes (an optional field's inner value, with `optional` set) and the
 * member's offset. Anything the plan does not specialise (bytes, xmap,
 * maps with non-string keys, names that are not valid
 * UTF-8) is JSON_OP_OTHER and goes to the reference
 * walker with its codec_type, which also reports every error. */
#ifndef CODEC_JSON_PLAN_H
#define CODEC_JSON_PLAN_H

#include "codec/types.h"
#include "core/number_internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Key bytes are stored with at least this many readable bytes after their
 * start, so a key of up to JSON_KEY_PAD bytes is copied with two fixed
 * 16-byte moves. */
#define JSON_KEY_PAD 32

typedef enum json_op {
    JSON_OP_OTHER,                /* the reference walker, with node->type */
    JSON_OP_BOOL,
    JSON_OP_I8, JSON_OP_I16, JSON_OP_I32, JSON_OP_I64,
    JSON_OP_U8, JSON_OP_U16, JSON_OP_U32, JSON_OP_U64,
    JSON_OP_F32, JSON_OP_F64,
    JSON_OP_UUID, JSON_OP_DATE, JSON_OP_TIMESTAMP, /* quoted text, nothing to escape;
                                     BOOL..TIMESTAMP fit in JSON_SCALAR_ROOM */
    JSON_OP_DECIMAL,              /* codec_string: its text, when a JSON number */
    JSON_OP_STRING,               /* codec_string */
    JSON_OP_ENUM,                 /* int32_t, written as node->names[index] */
    JSON_OP_STRUCT,               /* node->st */
    JSON_OP_LIST,                 /* codec_list of node->elem */
    JSON_OP_MAP,                  /* codec_map, codec_string keys, node->elem values */
    JSON_OP_OPTIONAL,             /* {bool has; value at node->value_offset of node->elem} */
    JSON_OP_VALUE                 /* codec_value (schemaless) */
} json_op;

typedef struct json_struct json_struct;

/* A JSON string literal, quotes included; len 0 when it has none (a name
 * that is not valid UTF-8: the reference walker reports it). */
typedef struct json_text {
    const uint8_t *bytes;
    size_t len;
} json_text;

typedef struct json_node {
    uint8_t op;                   /* json_op */
    const codec_type *type;       /* the descriptor (reference walker) */
    const json_struct *st;        /* STRUCT */
    const struct json_node *elem; /* LIST item, MAP value, OPTIONAL value */
    size_t value_offset;          /* OPTIONAL: of the value in the optional */
    const json_text *names;       /* ENUM: one per type->values[i] */
} json_node;

/* When a struct member is written. */
typedef enum json_presence {
    JSON_ALWAYS,                  /* every time */
    JSON_IF_HAS,                  /* an OPTIONAL: when `has`, its value at value_offset */
    JSON_IF_MEMBER                /* a UNION: when `which` is not 0 */
} json_presence;

typedef struct json_field {
    uint8_t op;                   /* the op of the value written (node->op) */
    uint8_t presence;             /* json_presence */
    uint32_t key_len;             /* `,"name":` */
    size_t offset;                /* of the member in its struct */
    size_t value_offset;
    const uint8_t *key;           /* padded to >= JSON_KEY_PAD bytes */
    const json_node *node;        /* of the value written */
} json_field;

struct json_struct {
    const json_field *fields;     /* declaration order */
    const json_field *end;
    /* Room for '{', every key with its copy's padding, every value that
     * has a bounded size (and SCALAR_ROOM for the others) and '}': what
     * the encoder makes once per struct and again after a value of
     * unbounded size. */
    size_t room;
};

/* A codec's plan; its memory lives in `arena`. */
typedef struct json_plan {
    const json_node *root;
    codec_arena arena;
} json_plan;

/* Room that any scalar value (a quoted timestamp is the longest), the
 * literals and a separator fit in. */
#define JSON_SCALAR_ROOM (CODEC_NUMBER_MAX_CHARS + 8)

/* Builds the plan of t (already checked by codec_type_check) in place
 * (the plan must not move afterwards): 0 or CODEC_E_NOMEM (nothing kept). */
int codec__json_plan_build(json_plan *p, const codec_type *t);

/* Releases what codec__json_plan_build allocated. */
void codec__json_plan_free(json_plan *p);

#endif
