/* pb_internal.h — the protobuf backend's precomputed tables ("plans") and
 * what the encoder, decoder and stage share.
 *
 * A plan is built once per codec (plan.c) from the descriptor: one pb_msg
 * per struct type reached, holding for each field its key bytes, wire type,
 * how its C value is laid out and a dense tag -> field table for decoding.
 * Encoding and decoding then never look at codec_field flags or kinds. */
#ifndef CODEC_PB_INTERNAL_H
#define CODEC_PB_INTERNAL_H

#include "core/varint_internal.h"
#include "codec/protobuf.h"
#include "codec/codegen.h"
#include "compose/stage_internal.h"
#include "types/value_internal.h"

#include <string.h>

#define PB_STAGE "protobuf"

/* Wire types. */
enum { PB_WT_VARINT = 0, PB_WT_I64 = 1, PB_WT_LEN = 2, PB_WT_SGROUP = 3, PB_WT_EGROUP = 4,
       PB_WT_I32 = 5 };

/* How one value is written (the kinds collapse onto these). */
typedef enum pb_op {
    PB_OP_BOOL,       /* varint 0/1 */
    PB_OP_VARINT,     /* int*, uint*, enum, date: signed ones sign-extend to 64 bits */
    PB_OP_ZIGZAG,     /* sint32/sint64 */
    PB_OP_FIXED32,    /* fixed32, sfixed32, float (the bits) */
    PB_OP_FIXED64,    /* fixed64, sfixed64, double (the bits) */
    PB_OP_STRING,     /* UTF-8 checked */
    PB_OP_BYTES,
    PB_OP_DECIMAL,    /* the decimal text as a string, grammar checked */
    PB_OP_UUID,       /* 16 bytes */
    PB_OP_MESSAGE,    /* nested struct */
    PB_OP_TIMESTAMP,  /* {int64 seconds = 1; int32 nanos = 2; sint32 offset_minutes = 3} */
    PB_OP_XMAP        /* converted to its wire type first */
} pb_op;

typedef struct codec_pb_msg pb_msg;

/* One value: its op, wire type and C layout. */
typedef struct pb_val {
    uint8_t op;              /* pb_op */
    uint8_t wire;            /* wire type of one value */
    uint8_t csize;           /* C bytes of integer and float values */
    bool is_signed;          /* integers: range checks and sign extension */
    const pb_msg *msg;       /* PB_OP_MESSAGE */
    const codec_type *type;  /* the descriptor (names, xmap) */
    const struct pb_val *xwire;  /* PB_OP_XMAP: how the wire value is written */
} pb_val;

/* How a field holds its value(s). */
typedef enum pb_mode {
    PB_SINGLE,        /* implicit presence: left out when default */
    PB_OPTIONAL,      /* CODEC_OPTIONAL_OF: written when has */
    PB_PACKED,        /* list of scalars: one packed record */
    PB_REPEATED,      /* list of length-delimited values: one record each */
    PB_MAP,           /* repeated {key = 1, value = 2} entries */
    PB_POINTER,       /* CODEC_T_POINTER to a message: written when not NULL */
    PB_ONEOF,         /* one member of a union field: written when it is the active one */
    PB_UNKNOWN        /* the CODEC_FIELD_UNKNOWN_BYTES sink, not on the wire */
} pb_mode;

typedef struct pb_field {
    uint8_t key[8];          /* the record key's varint bytes (copied 8 at a time); for an
                                unpacked list, an item's */
    uint8_t key_len;
    uint8_t mode;            /* pb_mode */
    bool required;           /* CODEC_FIELD_REQUIRED */
    bool unpacked;           /* PACKED: written one record per item (CODEC_FIELD_UNPACKED) */
    bool boxed;              /* ONEOF: the member is a CODEC_T_POINTER to its message */
    uint32_t tag;
    uint32_t rep_slot;       /* PACKED/REPEATED/MAP: index into the decoder's caps */
    size_t offset;           /* of the member in its struct (ONEOF: of the union) */
    size_t value_offset;     /* OPTIONAL: of `value` in the optional; ONEOF: of the member */
    uint32_t case_index;     /* ONEOF: the union's `which` when this member is active */
    uint32_t case_count;     /* ONEOF: the union's member count */
    size_t union_size;       /* ONEOF: sizeof the union, cleared when the member changes */
    size_t elem_size;        /* list item / map value / pointer target C size */
    size_t key_size;         /* map key C size */
    pb_val val;              /* the value, list item or map value */
    pb_val mkey;             /* map key */
    const char *name;
} pb_field;

struct codec_pb_msg {
    const codec_type *type;
    pb_field *fields;        /* declaration order (the encode order); a union
                                field is its members, one PB_ONEOF each */
    size_t count;
    const pb_field *unknown; /* the PB_UNKNOWN field, or NULL */
    uint32_t nrep;           /* PACKED/REPEATED/MAP fields */
    bool has_required;
    uint32_t dense_max;      /* tags 1..dense_max use `dense` */
    uint16_t *dense;         /* tag -> field index + 1 (0 = unknown) */
    uint64_t *sparse;        /* tags above dense_max: tag << 32 | index, sorted */
    size_t sparse_count;
    const codec_codegen *gen;  /* the type's specialized functions, or NULL */
};

/* A stage's state: options and the plan, with every block it allocated. */
typedef struct pb_state {
    codec_protobuf_options o;
    const pb_msg *root;
    bool no_codegen;          /* `codegen=off`: the descriptor path only */
    struct pb_block *blocks;  /* everything the plan owns */
} pb_state;

/* plan.c */
int codec__pb_plan_build(pb_state *st, const codec_type *t, codec_error *err);
void codec__pb_plan_free(pb_state *st);
const pb_field *codec__pb_field_sparse(const pb_msg *m, uint32_t tag);

/* The field with number `tag`, or NULL. */
static inline const pb_field *pb_field_by_tag(const pb_msg *m, uint32_t tag)
{
    if (tag <= m->dense_max) {
        uint16_t i = m->dense[tag];
        return i ? &m->fields[i - 1] : NULL;
    }
    return codec__pb_field_sparse(m, tag);
}

/* encode.c / decode.c */
int codec__pb_encode(const pb_state *st, const void *value, codec_buf *out, codec_error *err);
int codec__pb_decode(const pb_state *st, const uint8_t *in, size_t n, void *value,
                     codec_arena *arena, codec_error *err);

#endif
