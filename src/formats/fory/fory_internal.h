/* fory_internal.h — what the Fory files share: wire type ids, the plan
 * built from the descriptors when a codec is made, and the encoder and
 * decoder entry points. */
#ifndef CODEC_FORY_INTERNAL_H
#define CODEC_FORY_INTERNAL_H

#include "core/varint_internal.h"
#include "codec/codegen.h"
#include "codec/fory.h"
#include "types/value_internal.h"
#include "core/error_internal.h"
#include "core/buf_internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Fory xlang type ids, as Fory C++ at the commit in docs/formats/fory.md
 * writes them (ids not in the interop vectors are marked "inferred"). */
enum fory_tid {
    FT_UNKNOWN = 0,
    FT_BOOL = 1, FT_INT8 = 2, FT_INT16 = 3, FT_INT32 = 4, FT_VARINT32 = 5,
    FT_INT64 = 6, FT_VARINT64 = 7, FT_TAGGED_INT64 = 8,
    FT_UINT8 = 9, FT_UINT16 = 10, FT_UINT32 = 11, FT_VAR_UINT32 = 12,
    FT_UINT64 = 13, FT_VAR_UINT64 = 14, FT_TAGGED_UINT64 = 15,
    FT_FLOAT32 = 19, FT_FLOAT64 = 20,
    FT_STRING = 21, FT_LIST = 22, FT_SET = 23, FT_MAP = 24,
    FT_ENUM = 25, FT_NAMED_ENUM = 26,
    FT_STRUCT = 27, FT_COMPATIBLE_STRUCT = 28,
    FT_NAMED_STRUCT = 29, FT_NAMED_COMPATIBLE_STRUCT = 30,   /* inferred */
    FT_UNION = 33, FT_TYPED_UNION = 34, FT_NAMED_UNION = 35, /* xlang spec, see fory.md */
    FT_BINARY = 41,
    FT_BOOL_ARRAY = 43, FT_INT8_ARRAY = 44, FT_INT16_ARRAY = 45,  /* inferred */
    FT_INT32_ARRAY = 46, FT_INT64_ARRAY = 47
};

/* Reference / null flags (0xfe, a back reference, is refused). */
#define FORY_NULL 0xfd
#define FORY_NOT_NULL 0xff
#define FORY_REF_VALUE 0x00

/* List element header bits. */
#define FORY_ELEM_TRACK_REF 0x01
#define FORY_ELEM_HAS_NULL 0x02
#define FORY_ELEM_DECL 0x04
#define FORY_ELEM_SAME 0x08

/* Map chunk header bits. */
#define FORY_KEY_TRACK_REF 0x01
#define FORY_KEY_NULL 0x02
#define FORY_KEY_DECL 0x04
#define FORY_VAL_TRACK_REF 0x08
#define FORY_VAL_NULL 0x10
#define FORY_VAL_DECL 0x20

typedef struct fory_node fory_node;
typedef struct fory_in fory_in;
typedef struct fory_struct fory_struct;

/* How one value is written: a node per use of a type (field flags can change
 * the wire type of a scalar), structs shared through fory_struct. */
struct fory_node {
    const codec_type *t;        /* the C type (after the OPTIONAL wrapper) */
    uint8_t tid;                /* wire type id */
    bool nullable;              /* the use is an OPTIONAL (or a UNION): null flag first */
    size_t value_offset;        /* OPTIONAL: where the value sits */
    const fory_node **cases;    /* UNION: one per member, in member order */
    const fory_node *elem;      /* LIST item / MAP value */
    const fory_node *key;       /* MAP key */
    fory_struct *st;            /* STRUCT */
};

typedef struct fory_field {
    const codec_field *f;
    const fory_node *node;
    size_t offset;              /* f->offset, kept here for the hot loops */
    uint8_t tid;                /* node->tid */
    bool nullable;              /* node->nullable */
    uint8_t enum_direct;        /* ENUM numbered 0..n-1, n < 128: n, else 0 */
    char *name;                 /* wire (snake_case) name */
    size_t name_len;
} fory_field;

struct fory_struct {
    const codec_type *t;
    uint32_t user_id;
    uint32_t index;             /* position in the plan's struct table */
    size_t count;
    fory_field *order;          /* fields in Fory wire order */
    size_t nprim;               /* the leading primitive fields (groups 1 and 2) */
    size_t prim_max;            /* the most bytes those can take */
    bool flat;                  /* every other field is a string (maybe optional): the
                                 * encoder reserves the whole struct in one go */
    size_t tail_max;            /* flat: the most bytes the strings take beyond their
                                 * text (null flag and header) */
    uint8_t *type_def;          /* compatible mode: the TypeDef bytes */
    size_t type_def_len;
    size_t type_def_body;       /* where the body starts (after the size header) */
    uint64_t type_def_header;   /* its first 8 bytes, as a number */
    uint32_t version;           /* schema hash (struct version) */
};

/* TypeDefs of other writers (another schema version, another Fory's hash
 * bits) kept parsed by the decoder: at most FORY_DEF_CACHE of them, each
 * entry (bytes and field mapping) at most FORY_DEF_CACHE_BYTES (decode.c). */
#define FORY_DEF_CACHE 8
#define FORY_DEF_CACHE_BYTES 16384
typedef struct fory_def_entry fory_def_entry;

typedef struct fory_plan {
    codec_arena arena;          /* every node, field table and TypeDef */
    codec_fory_options o;
    const fory_node *root;
    uint8_t *root_prefix;       /* a struct root that is not optional: the bytes before its
                                 * fields (xlang header, ref flag, type info, TypeDef) */
    size_t root_prefix_len;     /* 0: no such root */
    bool no_codegen;            /* `codegen=off`: never the generated functions */
    const codec_fory_codegen *gen;   /* the root's generated functions (codec-gen
                                      * --specialize), when their layout is the plan's */
    fory_struct *structs[CODEC_FORY_MAX_STRUCTS];
    size_t nstructs;
    fory_def_entry *def_cache[FORY_DEF_CACHE];   /* filled in order, published with
                                                  * atomics: decoders share the plan */
} fory_plan;

/* The registry handle. */
typedef struct fory_reg_entry {
    const codec_type *t;
    uint32_t id;
} fory_reg_entry;

struct codec_fory_registry {
    fory_reg_entry *items;
    size_t count, cap;
};

/* plan.c: builds the plan; `r` NULL assigns ids from 100. */
int codec__fory_plan_build(fory_plan *p, const codec_fory_registry *r, const codec_type *root,
                           codec_error *err);
void codec__fory_plan_free(fory_plan *p);
fory_struct *codec__fory_plan_struct_by_id(const fory_plan *p, uint32_t id);
/* codec_fory_gen_ctx.user_id: the user id of struct type t in plan `plan`. */
uint32_t codec__fory_gen_user_id(const void *plan, const codec_type *t);

/* metastring.c: field names. */
size_t codec__fory_metastring_encode(const char *s, size_t n, uint8_t *out, int *encoding);
int codec__fory_metastring_decode(const uint8_t *in, size_t n, int encoding, char *out, size_t cap,
                                  size_t *out_len);

/* Where decoded strings go: UTF-8 ones are carved from a text pool
 * (types/value_internal.h), the others allocated alone; start it as
 * {.arena = arena}. */
typedef struct fory_pool {
    codec_arena *arena;
    codec_text_pool text;
} fory_pool;

/* string.c: reads a string (any of the three encodings) as UTF-8 into the
 * pool; fails on invalid UTF-8 or a length past the input. */
int codec__fory_read_string(fory_in *in, fory_pool *pool, codec_string *out, codec_error *err);

/* typedef.c. TypeDef header bits and meta-header flags. */
#define FORY_TD_SIZE_MASK 0xffu     /* header bits 0-7: body size, 0xff = more follows */
#define FORY_TD_COMPRESSED 0x100u   /* header bit 8 */
#define FORY_TD_STRUCT 0x80u        /* meta header: a struct (else enum/ext/union kind) */
#define FORY_TD_COMPATIBLE 0x40u    /* meta header: COMPATIBLE_STRUCT */
#define FORY_TD_BY_NAME 0x20u       /* meta header: registered by name */
int codec__fory_typedef_build(fory_plan *p, fory_struct *st, codec_error *err);
int codec__fory_struct_version(fory_struct *st, uint32_t *version);


/* encode.c / decode.c */
int codec__fory_encode(const fory_plan *p, const void *value, codec_buf *out, codec_error *err);
int codec__fory_decode(const fory_plan *p, const uint8_t *in, size_t n, void *value,
                       codec_arena *arena, codec_error *err);
void codec__fory_def_cache_free(fory_plan *p);

/* value.c: schemaless. */
int codec__fory_encode_value(const fory_plan *p, const codec_value *v, codec_buf *out,
                             codec_error *err);
int codec__fory_decode_value(const fory_plan *p, const uint8_t *in, size_t n, codec_value *v,
                             codec_arena *arena, codec_error *err);

#define FORY_FAIL(err, ...) CODEC_PAYLOAD_FAIL((err), "fory", __VA_ARGS__)
#define FORY_NOMEM(err) codec__nomem((err), "fory")

/* ---------------------------------------------------------------------------
 * Output helpers: callers reserve first, then put bytes without checks.
 * ------------------------------------------------------------------------ */

static inline void fory_put_u8(codec_buf *b, uint8_t v)
{
    b->data[b->len++] = v;
}

/* Raw writers on a cursor, returning the cursor after the bytes (stores
 * through uint8_t would make the compiler reload a codec_buf's fields after
 * each byte, so hot loops keep a cursor in a register). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FORY_HOST_BIG_ENDIAN 1
#else
#define FORY_HOST_BIG_ENDIAN 0
#endif

static inline uint8_t *fory_w_le(uint8_t *w, uint64_t v, size_t n)
{
#if FORY_HOST_BIG_ENDIAN
    v = __builtin_bswap64(v);   /* the low bytes first in memory */
#endif
    memcpy(w, &v, n);   /* the low n bytes */
    return w + n;
}

/* Copies `bytes` bytes of `esz`-byte numbers (1, 2, 4 or 8) between the
 * little-endian wire and host memory: one copy on little-endian CPUs, each
 * number's bytes reversed on big-endian ones. */
static inline void fory_copy_le(void *dst, const void *src, size_t bytes, size_t esz)
{
#if FORY_HOST_BIG_ENDIAN
    uint8_t *d = dst;
    const uint8_t *s = src;
    for (size_t at = 0; at < bytes; at += esz)
        for (size_t i = 0; i < esz; i++)
            d[at + i] = s[at + esz - 1 - i];
#else
    (void)esz;
    memcpy(dst, src, bytes);
#endif
}

/* Fory's varuint64: LEB128 for 8 bytes, then a 9th byte with the top 8 bits. */
static inline uint8_t *fory_w_varu64(uint8_t *w, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        if (v < 0x80) {
            *w++ = (uint8_t)v;
            return w;
        }
        *w++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *w++ = (uint8_t)v;
    return w;
}

static inline void fory_put_le(codec_buf *b, uint64_t v, size_t n)
{
    b->len = (size_t)(fory_w_le(b->data + b->len, v, n) - b->data);
}

static inline void fory_put_varu32(codec_buf *b, uint32_t v)
{
    b->len = (size_t)(codec_leb128_put(b->data + b->len, v) - b->data);
}

static inline void fory_put_varu64(codec_buf *b, uint64_t v)
{
    b->len = (size_t)(fory_w_varu64(b->data + b->len, v) - b->data);
}

/* ---------------------------------------------------------------------------
 * Input cursor: every read is bounded; failures record the offset.
 * ------------------------------------------------------------------------ */

struct fory_in {
    const uint8_t *base, *p, *end;
};

static inline size_t fory_left(const fory_in *in)
{
    return (size_t)(in->end - in->p);
}
static inline size_t fory_off(const fory_in *in)
{
    return (size_t)(in->p - in->base);
}

static inline int fory_get_u8(fory_in *in, uint8_t *v)
{
    if (in->p == in->end)
        return -1;
    *v = *in->p++;
    return 0;
}

/* n <= 8 bytes, little-endian. */
static inline int fory_get_le(fory_in *in, size_t n, uint64_t *v)
{
    if (fory_left(in) < n)
        return -1;
    uint64_t x = 0;
    memcpy(&x, in->p, n);
#if FORY_HOST_BIG_ENDIAN
    x = __builtin_bswap64(x);   /* the first byte is the lowest */
#endif
    in->p += n;
    *v = x;
    return 0;
}

static inline int fory_get_varu32(fory_in *in, uint32_t *v)
{
    uint64_t x;
    int r = codec_leb128_get(&in->p, in->end, 32, &x);
    if (r == 0)
        *v = (uint32_t)x;
    return r;
}

static inline int fory_get_varu64(fory_in *in, uint64_t *v)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) {
        if (in->p == in->end)
            return -1;
        uint8_t b = *in->p++;
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    if (in->p == in->end)
        return -1;
    *v = x | (uint64_t)*in->p++ << 56;
    return 0;
}

#endif
