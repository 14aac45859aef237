/* codec/msgpack.h — the MessagePack backend (msgpack spec, 2017 revision:
 * str/bin split, ext and the timestamp extension).
 *
 *   codec *c = codec_msgpack(&order_type, NULL, &err);
 *   codec *d = codec_parse("msgpack:structs=array | lz4", &order_type, &err);
 *
 * Writing: always the shortest form (fixint/fixstr/fixarray/fixmap first;
 * non-negative integers as positive fixint or uint 8..64, negative ones as
 * negative fixint or int 8..64), doubles as float 32 when that keeps the
 * value, structs as maps keyed by field name — or, with structs=array, as
 * arrays indexed by field tag (element tag-1; gaps and absent optionals are
 * nil). Timestamps use extension type -1 in its smallest size.
 * Reading: every format byte except the never-used 0xc1; every declared
 * length is checked against the remaining input before anything is
 * allocated. docs/formats/msgpack.md lists every policy.
 */
#ifndef CODEC_MSGPACK_H
#define CODEC_MSGPACK_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Defaults for the limits (0 in codec_msgpack_options means these). */
#define CODEC_MSGPACK_DEFAULT_MAX_DEPTH 128
#define CODEC_MSGPACK_MAX_DEPTH_LIMIT 4096
#define CODEC_MSGPACK_DEFAULT_MAX_SIZE ((size_t)64 << 20)
#define CODEC_MSGPACK_DEFAULT_MAX_STRING ((size_t)16 << 20)
#define CODEC_MSGPACK_DEFAULT_MAX_ELEMENTS ((size_t)1 << 24)

/** Options of the MessagePack codec. All-zero is the default: structs as
 * maps by name, unknown fields skipped, missing fields left zero, duplicate
 * keys rejected, the default limits. */
typedef struct codec_msgpack_options {
    bool struct_arrays;     /* `structs=array` — arrays by field tag */
    bool reject_unknown;    /* `unknown=reject` */
    bool require_all;       /* `require=all` */
    bool allow_duplicates;  /* `duplicates=allow` */
    size_t max_depth;       /* `max-depth=N`: nesting of arrays and maps (<= 4096) */
    size_t max_size;        /* `max-size=SIZE`: input bytes */
    size_t max_string;      /* `max-string=SIZE`: bytes of one str, bin or ext */
    size_t max_elements;    /* `max-elements=N`: items of one array or map */
    /** Must be zero: room for new options without an ABI change
     * (docs/ARCHITECTURE.md, "ABI"); nonzero is CODEC_E_USAGE. Since 0.1. */
    uint64_t reserved[4];
} codec_msgpack_options;

/** An extension value (any type, -128..127) for typed fields; declare the
 * field with CODEC_MSGPACK_EXT. Type -1 is the timestamp extension, which
 * codec_timestamp fields use. */
typedef struct codec_msgpack_ext {
    int8_t type;
    codec_bytes data;
} codec_msgpack_ext;

/** The descriptor of codec_msgpack_ext. MessagePack writes it as an ext
 * item; other backends see a struct {type, data}. Since 0.1. */
CODEC_API extern const codec_type codec_msgpack_ext_type;
#define CODEC_MSGPACK_EXT (&codec_msgpack_ext_type)

/** codec_msgpack() — a MessagePack codec for values of type `t` (a
 * descriptor, or codec_value_type() for schemaless data). Same as
 * codec_parse("msgpack...").
 * @param t  must outlive the codec; checked with codec_type_check().
 * @param o  NULL or all-zero for the defaults; copied.
 * @return a codec (codec_free() it), or NULL with CODEC_E_USAGE or NOMEM.
 * Encode: CODEC_E_INVALID_VALUE for invalid UTF-8 in a string, an enum
 *   number without a name, a decimal that is not a number, a timestamp
 *   with nanos outside 0..999999999, a string longer than 2^32-1 bytes.
 *   Allocates nothing once `out` is large enough.
 * Decode: CODEC_E_INVALID_PAYLOAD (TRUNCATED, CORRUPT, LIMIT, TRAILING) with
 *   the byte offset; also for a value the target cannot hold (an integer
 *   out of its field's range, an ext or a non-str map key into a
 *   codec_value).
 * Threads: the codec is immutable and may be shared. Since 0.1. */
CODEC_API codec *codec_msgpack(const codec_type *t, const codec_msgpack_options *o,
                               codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_MSGPACK_H */
