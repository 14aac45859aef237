/* codec/codegen.h — the run-time side of specialized code: what the encode
 * and decode functions written by `codec-gen --specialize` (protoc plugin
 * option `specialize=1`) call. Not meant for hand-written code.
 *
 * A generated message type carries a `codec_codegen` (codec_type.codegen):
 * per-message functions that read and write that message's fields in
 * straight-line code. The protobuf backend calls them instead of walking
 * its tables when they are present, through the same codec_parse() spec
 * (`protobuf:codegen=off` keeps the table-driven "descriptor path"). Every
 * field the generated code does not handle inline (lists, maps, oneofs,
 * message fields, unknown fields) and every record that is anything but the
 * expected well-formed case (another wire type, a truncated or overlong
 * varint, an out-of-range value, a string that is not UTF-8, an unknown
 * number) is handed back to the descriptor path with the functions below,
 * so both paths accept the same inputs, fail with the same error (family,
 * detail, offset, message) and write the same bytes.
 *
 * Fory IDL structs carry Fory functions instead (codec_codegen.reserved[0],
 * section "Fory" below): the Fory backend runs them for a root struct, and
 * on any input that is not the expected well-formed case decodes the
 * message again with its own code.
 *
 * Layouts here may change between versions (CODEC_CODEGEN_ABI says which):
 * code generated for another version is not used (the descriptor path runs
 * instead); regenerate it with the codec-gen of the library you link. */
#ifndef CODEC_CODEGEN_H
#define CODEC_CODEGEN_H

#include "types.h"

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version of the layouts and functions in this header. */
#define CODEC_CODEGEN_ABI 1u

/** The protobuf backend's per-message tables and decoder state: opaque. */
typedef struct codec_pb_msg codec_pb_msg;
typedef struct codec_pb_dec codec_pb_dec;
typedef struct codec_pb_fields codec_pb_fields;

/** The protobuf encoder's state. Generated code reads `end` only (room is
 * made with codec_pb_need()); the rest is the backend's. */
typedef struct codec_pb_enc {
    uint8_t *end;            /* end of the output buffer's capacity */
    codec_buf *buf;
    codec_error *err;
    size_t max_depth;
    const char *field;       /* the field being written, for messages */
    int rc;                  /* the status after a writer returned NULL */
} codec_pb_enc;

/** Decodes the records of one message, p..end, into `value`. `fields` is
 * the per-message decoding state the backend set up (list capacities),
 * passed back to codec_pb_dec_record()/codec_pb_dec_field(). Returns 0 or
 * the error (already set). `depth` is the message's nesting depth. */
typedef int (*codec_pb_decode_fn)(codec_pb_dec *d, const codec_pb_msg *m, void *value,
                                  codec_pb_fields *fields, const uint8_t *p, const uint8_t *end,
                                  size_t depth);

/** Writes the fields of one message at p (the depth limit is checked by the
 * caller); returns the new write position, or NULL after setting e->rc. */
typedef uint8_t *(*codec_pb_encode_fn)(codec_pb_enc *e, uint8_t *p, const codec_pb_msg *m,
                                       const void *value, size_t depth);

/** What a generated type carries (codec_type.codegen). `abi` must be
 * CODEC_CODEGEN_ABI, else the backend ignores the functions. */
typedef struct codec_codegen {
    uint32_t abi;
    codec_pb_decode_fn pb_decode;
    codec_pb_encode_fn pb_encode;
    /** reserved[0]: NULL, or the message's Fory functions, a
     * `codec_fory_codegen *` (below; written by codec-gen since 0.1 for
     * Fory IDL structs, docs/guides/codegen.md says which). The
     * others are zero: room for other backends without an ABI change. */
    void *reserved[4];
} codec_codegen;

/* ---------------------------------------------------------------------------
 * Fory (xlang): straight-line code for a struct root
 *
 * The Fory backend calls these functions for a root struct's fields, after
 * the bytes before them (xlang header, ref flag, type info and, in
 * compatible mode, the TypeDef) were written from, or compared with, the
 * plan's prebuilt root prefix. It uses them only when the layout below is
 * exactly the field order it computed itself (same fields, same Fory type
 * ids), for the root and for every struct the root holds (in fields, list
 * items and map values, whose own codec_fory_codegen the root's functions
 * follow); when no struct is held in compatible mode (held structs carry
 * TypeDefs there); when the nesting fits max_depth; `hash=on` is off and
 * the spec does not say `codegen=off`.
 * ------------------------------------------------------------------------ */

/** The version of codec_fory_codegen (its `abi`): 2 since lists, maps,
 * enums and held structs (1: scalars and strings only, not used now). */
#define CODEC_FORY_CODEGEN_ABI 2u

/** What the backend hands the functions below. */
typedef struct codec_fory_gen_ctx {
    codec_arena *arena;       /* decoding: where lists, maps and strings go */
    char *pool;               /* decoding: the strings' (and bytes') pool, NULL at
                               * first (codec_fory_get_text) */
    size_t max_elements;      /* decoding: the codec's item limit per list or map */
    const void *plan;         /* the backend's, for user_id */
    /** The user id the plan gave struct type t (written as a list's item
     * type info: STRUCT, then this id). */
    uint32_t (*user_id)(const void *plan, const codec_type *t);
} codec_fory_gen_ctx;

/** Reads the fields of one struct, p..end (end: the end of the input),
 * into `value` (zeroed by the caller); strings, lists and maps go into
 * ctx->arena. Returns 1 when the bytes were exactly the expected
 * well-formed case and ended at `end`; 0 otherwise (anything else: another
 * null flag, list or map header, type info or chunk size, a varint of an
 * unexpected form, a bool that is not 0/1, an enum ordinal out of range, a
 * string that is not UTF-8 in a one- or two-byte header, a count over
 * ctx->max_elements or past the input, truncation, trailing bytes, no
 * memory). On 0 nothing is reported: the backend zeroes the value and
 * decodes the message again from its first byte with its own code, which
 * accepts or reports it. */
typedef int (*codec_fory_decode_fn)(const uint8_t *p, const uint8_t *end, void *value,
                                    codec_fory_gen_ctx *ctx);

/** Appends the fields of `value` to out. Returns 0; CODEC_E_NOMEM (the
 * backend reports it); or 1 for a value the functions leave to the
 * backend (an enum number that is not one of its values, a count or a
 * byte length over UINT32_MAX, a union's `which` past its cases, an array
 * of multi-byte items on a big-endian host): the backend drops what they
 * appended and writes the fields itself, which writes or reports them. */
typedef int (*codec_fory_encode_fn)(codec_buf *out, const void *value,
                                    const codec_fory_gen_ctx *ctx);

/** The Fory functions of one message (codec_codegen.reserved[0]). */
typedef struct codec_fory_codegen {
    uint32_t abi;                 /* CODEC_FORY_CODEGEN_ABI, else not used */
    uint32_t count;               /* the struct's field count */
    const uint16_t *order;        /* the descriptor index of each field, in the order the
                                   * functions read and write them */
    const uint8_t *tids;          /* the Fory type id each is written as (0x80: nullable) */
    codec_fory_decode_fn decode;
    codec_fory_encode_fn encode;
} codec_fory_codegen;

/** Room for n bytes at p, a cursor into out (out->len is behind it):
 * p itself, or where the grown buffer put it; NULL when out of memory. */
static inline uint8_t *codec_fory_need(codec_buf *out, uint8_t *p, size_t n)
{
    size_t at = (size_t)(p - out->data);
    if (__builtin_expect(out->cap - at >= n, 1))
        return p;
    out->len = at;
    if (codec_buf_reserve(out, n))
        return NULL;
    return out->data + at;
}

/** Fory's varuint32 of 1 to 5 bytes whose last byte is not 0 (the forms
 * Fory writes; a 5th byte carries the top 4 bits) at p: the position after
 * it, or NULL for any other form (the caller falls back). */
static inline const uint8_t *codec_fory_get_varu32(const uint8_t *p, const uint8_t *end,
                                                   uint32_t *out)
{
    uint32_t x = 0;
    for (unsigned i = 0; i < 4 && p + i < end; i++) {
        x |= (uint32_t)(p[i] & 0x7fu) << (7 * i);
        if (p[i] < 0x80) {
            if (i && !p[i])
                return NULL;
            *out = x;
            return p + i + 1;
        }
    }
    if (end - p < 5 || p[4] == 0 || p[4] > 0x0f)
        return NULL;
    *out = x | (uint32_t)p[4] << 28;
    return p + 5;
}

/** Fory's varuint64 (8 LEB128 bytes, then a 9th byte with the top 8 bits;
 * every form is valid) at p: the position after it, or NULL when the input
 * ends inside it. */
static inline const uint8_t *codec_fory_get_varu64(const uint8_t *p, const uint8_t *end,
                                                   uint64_t *out)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < 8; i++) {
        if (p + i >= end)
            return NULL;
        x |= (uint64_t)(p[i] & 0x7fu) << (7 * i);
        if (p[i] < 0x80) {
            *out = x;
            return p + i + 1;
        }
    }
    if (p + 8 >= end)
        return NULL;
    *out = x | (uint64_t)p[8] << 56;
    return p + 9;
}

/** codec_fory_text_valid() — whether s[0..n) is UTF-8 as the Fory decoder
 * requires (no overlongs, surrogates or code points above U+10FFFF): its
 * own check, for generated code. Since 0.1. */
CODEC_API bool codec_fory_text_valid(const uint8_t *s, size_t n);

/** A UTF-8 string (header: byte length << 2 | 2, in one or two bytes) at
 * p, checked and copied into *pool (taken from the arena on the first
 * string: as many bytes as the input has left, so every later string
 * fits). The position after it, or NULL for anything else (another
 * encoding, a header of three bytes or more, invalid UTF-8, truncation, no
 * memory). */
static inline const uint8_t *codec_fory_get_text(const uint8_t *p, const uint8_t *end,
                                                  codec_arena *arena, char **pool,
                                                  codec_string *out)
{
    size_t left = (size_t)(end - p), h, n;
    if (left < 1 || (p[0] & 3) != 2)
        return NULL;
    if (p[0] < 0x80) {
        h = 1;
        n = p[0] >> 2;
    } else if (left >= 2 && p[1] < 0x80) {
        h = 2;
        n = (size_t)((p[0] & 0x7f) >> 2 | p[1] << 5);
    } else {
        return NULL;
    }
    if (n > left - h)
        return NULL;
    if (!n) {
        *out = (codec_string){"", 0};
        return p + h;
    }
    if (!*pool && !(*pool = (char *)codec_arena_alloc(arena, left - h, 1)))
        return NULL;
    /* Copied 8 bytes at a time, noting bytes >= 0x80 on the way: only text
     * with such bytes takes the full UTF-8 check. */
    const uint8_t *s = p + h;
    char *d = *pool;
    uint64_t any = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        memcpy(d + i, &w, 8);
        any |= w;
    }
    if (i < n && n >= 8) {   /* the tail as the last 8 bytes, overlapping */
        uint64_t w;
        memcpy(&w, s + n - 8, 8);
        memcpy(d + n - 8, &w, 8);
        any |= w;
        i = n;
    }
    for (; i < n; i++) {
        d[i] = (char)s[i];
        any |= s[i];
    }
    if ((any & 0x8080808080808080u) && !codec_fory_text_valid(s, n))
        return NULL;
    *out = (codec_string){*pool, n};
    *pool += n;
    return p + h + n;
}

/** Fory's varuint64 at p (room for 9 bytes made by the caller). */
static inline uint8_t *codec_fory_put_varu64(uint8_t *p, uint64_t x)
{
    for (unsigned i = 0; i < 8; i++) {
        if (x < 0x80) {
            *p++ = (uint8_t)x;
            return p;
        }
        *p++ = (uint8_t)(x | 0x80);
        x >>= 7;
    }
    *p++ = (uint8_t)x;
    return p;
}

/** A string: header and bytes (room for len + 9 made by the caller). */
static inline uint8_t *codec_fory_put_string(uint8_t *p, const codec_string *s)
{
    size_t n = s->len;
    p = codec_fory_put_varu64(p, (uint64_t)n << 2 | 2);
    if (n - 8 <= 8) {   /* 8..16 bytes: two overlapping moves, no call */
        memcpy(p, s->ptr, 8);
        memcpy(p + n - 8, s->ptr + n - 8, 8);
    } else if (n) {
        memcpy(p, s->ptr, n);
    }
    return p + n;
}

/* ---------------------------------------------------------------------------
 * Decoding
 * ------------------------------------------------------------------------ */

/** codec_pb_dec_record() — decodes the record at *pp (its key included)
 * with the descriptor path: a known field as its table says, an unknown one
 * per the unknown-field option; every check and error of the descriptor
 * path. Advances *pp. Returns 0 or the error. Since 0.1. */
CODEC_API int codec_pb_dec_record(codec_pb_dec *d, const codec_pb_msg *m, void *value,
                                  codec_pb_fields *fields, const uint8_t **pp,
                                  const uint8_t *end, size_t depth);

/** codec_pb_dec_field() — the value of field `index` (its position in the
 * backend's table: descriptor order, a union field counted as its members)
 * whose key, of wire type `wt`, started at `rec` and ended at *pp: the
 * descriptor path from there. Returns 0 or the error. Since 0.1. */
CODEC_API int codec_pb_dec_field(codec_pb_dec *d, const codec_pb_msg *m, size_t index,
                                 void *value, codec_pb_fields *fields, unsigned wt,
                                 const uint8_t **pp, const uint8_t *end, const uint8_t *rec,
                                 size_t depth);

/** codec_pb_dec_varint_slow() — a varint of 2..10 bytes at p: the position
 * after it, or NULL (truncated, overlong or over 64 bits; nothing is
 * reported: hand the record to codec_pb_dec_record()). Since 0.1. */
CODEC_API const uint8_t *codec_pb_dec_varint_slow(const uint8_t *p, const uint8_t *end,
                                                  uint64_t *out);

/** codec_pb_dec_text() — a length-delimited value at p (its length varint
 * first) copied into the decoder's arena as *out; with `utf8`, checked to
 * be UTF-8. The position after it, or NULL on anything wrong (length past
 * `end`, bad UTF-8, no memory): nothing is reported, the caller hands the
 * record to codec_pb_dec_record(), which reports it. Since 0.1. */
CODEC_API const uint8_t *codec_pb_dec_text(codec_pb_dec *d, const uint8_t *p,
                                           const uint8_t *end, codec_bytes *out, int utf8);

/** A varint at p: up to 5 bytes inline (when they are all in the input),
 * longer ones, and any at the end of the input, with
 * codec_pb_dec_varint_slow(). */
static inline const uint8_t *codec_pb_dec_varint(const uint8_t *p, const uint8_t *end,
                                                 uint64_t *out)
{
    if (p < end && *p < 0x80) {
        *out = *p;
        return p + 1;
    }
    if (end - p >= 5) {
        uint64_t x = p[0] & 0x7fu;
        for (unsigned i = 1; i < 5; i++) {
            x |= (uint64_t)(p[i] & 0x7fu) << (7 * i);
            if (p[i] < 0x80) {
                *out = x;
                return p + i + 1;
            }
        }
    }
    return codec_pb_dec_varint_slow(p, end, out);
}

/** Little-endian loads of 4 and 8 bytes. */
static inline uint32_t codec_pb_le32(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
#else
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

static inline uint64_t codec_pb_le64(const uint8_t *p)
{
    return codec_pb_le32(p) | (uint64_t)codec_pb_le32(p + 4) << 32;
}

/* ---------------------------------------------------------------------------
 * Encoding
 * ------------------------------------------------------------------------ */

/** codec_pb_grow() — grows the output so n bytes fit at p; the new p, or
 * NULL (CODEC_E_NOMEM in e->rc). Since 0.1. */
CODEC_API uint8_t *codec_pb_grow(codec_pb_enc *e, uint8_t *p, size_t n);

/** Room for n bytes at p: p itself (or where the grown buffer put it). */
static inline uint8_t *codec_pb_need(codec_pb_enc *e, uint8_t *p, size_t n)
{
    if (__builtin_expect((size_t)(e->end - p) >= n, 1))
        return p;
    return codec_pb_grow(e, p, n);
}

/** codec_pb_enc_field() — writes field `index` of `value` (as for
 * codec_pb_dec_field) with the descriptor path. Since 0.1. */
CODEC_API uint8_t *codec_pb_enc_field(codec_pb_enc *e, uint8_t *p, const codec_pb_msg *m,
                                      size_t index, const void *value, size_t depth);

/** codec_pb_enc_text() — writes string or bytes field `index` of the
 * message, `s` (not empty, or an explicit presence field): key, length,
 * bytes, UTF-8 checked for strings (CODEC_E_INVALID_VALUE naming the
 * field). Since 0.1. */
CODEC_API uint8_t *codec_pb_enc_text(codec_pb_enc *e, uint8_t *p, const codec_pb_msg *m,
                                     size_t index, const codec_bytes *s);

/** codec_pb_put_text() — the same record as codec_pb_enc_text(e, p, m,
 * index, s), written inline when it is short: `key` is the field's key
 * varint as a little-endian integer of `kn` bytes (1 or 2). A value under
 * 128 bytes (so its length is one byte) that fits the room left, and with
 * `utf8` is ASCII, is copied here; anything else (longer, no room, bytes
 * >= 0x80 in a string) goes to codec_pb_enc_text(), which grows the buffer,
 * checks UTF-8 and reports errors. Since 0.1. */
static inline uint8_t *codec_pb_put_text(codec_pb_enc *e, uint8_t *p, const codec_pb_msg *m,
                                         size_t index, uint32_t key, unsigned kn,
                                         const codec_bytes *s, int utf8)
{
    size_t n = s->len;
    if (__builtin_expect(n >= 0x80 || (size_t)(e->end - p) < 3 + n, 0))
        return codec_pb_enc_text(e, p, m, index, s);
    p[0] = (uint8_t)key;
    p[1] = (uint8_t)(key >> 8);   /* room for 2 key bytes: 3 + n >= kn + 1 + n */
    uint8_t *d = p + kn;
    *d++ = (uint8_t)n;
    const uint8_t *src = s->data;
    uint64_t high;
    if (n >= 8) {   /* 8-byte words, the last one overlapping its predecessor */
        uint64_t w;
        high = 0;
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&w, src + i, 8);
            memcpy(d + i, &w, 8);
            high |= w;
        }
        memcpy(&w, src + n - 8, 8);
        memcpy(d + n - 8, &w, 8);
        high |= w;
        high &= 0x8080808080808080u;
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, src, 4);
        memcpy(&b, src + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
        high = (a | b) & 0x80808080u;
    } else {
        high = 0;
        for (size_t i = 0; i < n; i++)
            high |= d[i] = src[i];
        high &= 0x80u;
    }
    if (__builtin_expect(utf8 && high, 0))   /* not ASCII: checked there */
        return codec_pb_enc_text(e, p, m, index, s);
    return d + n;
}

/** A varint (room for 10 bytes made by the caller). */
static inline uint8_t *codec_pb_put_varint(uint8_t *p, uint64_t x)
{
    while (x >= 0x80) {
        *p++ = (uint8_t)(x | 0x80);
        x >>= 7;
    }
    *p++ = (uint8_t)x;
    return p;
}

static inline uint8_t *codec_pb_put_le32(uint8_t *p, uint32_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &x, 4);
#else
    p[0] = (uint8_t)x, p[1] = (uint8_t)(x >> 8), p[2] = (uint8_t)(x >> 16), p[3] = (uint8_t)(x >> 24);
#endif
    return p + 4;
}

static inline uint8_t *codec_pb_put_le64(uint8_t *p, uint64_t x)
{
    return codec_pb_put_le32(codec_pb_put_le32(p, (uint32_t)x), (uint32_t)(x >> 32));
}

/** The unknown-fields bytes kept by decoding, written back last. */
static inline uint8_t *codec_pb_put_unknown(codec_pb_enc *e, uint8_t *p, const codec_bytes *u)
{
    if (!u->len)
        return p;
    if (!(p = codec_pb_need(e, p, u->len)))
        return NULL;
    memcpy(p, u->data, u->len);
    return p + u->len;
}

#ifdef __cplusplus
}
#endif
#endif /* CODEC_CODEGEN_H */
