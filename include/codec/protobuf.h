/* codec/protobuf.h — the Protocol Buffers backend (proto3 binary wire format).
 *
 *   codec *c = codec_protobuf(&person_type, NULL, &err);
 *   codec *c = codec_parse("protobuf | zstd", &order_type, &err);
 *
 * The descriptor is the schema: a field's tag is its protobuf field number,
 * its kind picks the protobuf type (int32 -> varint, double -> fixed64,
 * string -> length-delimited, struct -> nested message, list -> repeated,
 * map -> repeated entry messages, CODEC_OPTIONAL_OF -> proto3 `optional`,
 * CODEC_POINTER to a struct -> a message field written when not NULL).
 * CODEC_FIELD_ZIGZAG gives sint32/sint64, CODEC_FIELD_FIXED gives
 * (s)fixed32/(s)fixed64 (for map keys: CODEC_TYPE_KEY_ZIGZAG/_FIXED on the
 * map type), CODEC_FIELD_UNPACKED writes a scalar list unpacked. The code
 * codec-gen generates from .proto files uses all of these
 * (docs/guides/codegen.md). docs/formats/protobuf.md lists every mapping with
 * the matching `.proto` declaration, and the .proto files of the benchmark
 * payloads (tests/data/protobuf/) so the bytes can be checked with protoc.
 *
 * The value must be a struct (a protobuf message). Protobuf has no
 * schemaless form: a codec_value (codec_value_type(), or a CODEC_VALUE field
 * anywhere in the type) is refused when the codec is built, with
 * CODEC_E_USAGE. So are shapes .proto cannot express: a list of lists or of
 * maps, a map of lists or maps, an optional list or map, tags above
 * 536870911 or in 19000..19999, ZIGZAG on an unsigned kind.
 *
 * Encoding writes fields in declaration order, scalars equal to their
 * default (0, false, "", empty) are left out unless the field is optional,
 * repeated scalars are packed. Decoding accepts fields in any order, packed
 * and unpacked repeated scalars, repeated occurrences of a message (merged)
 * and of a scalar (last wins), as the protobuf spec requires.
 */
#ifndef CODEC_PROTOBUF_H
#define CODEC_PROTOBUF_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CODEC_PROTOBUF_DEFAULT_MAX_DEPTH 100                    /* as Google's parsers */
#define CODEC_PROTOBUF_MAX_DEPTH_LIMIT 4096                     /* the highest max_depth */
#define CODEC_PROTOBUF_DEFAULT_MAX_SIZE ((size_t)64 << 20)      /* input bytes */
#define CODEC_PROTOBUF_DEFAULT_MAX_ELEMENTS ((size_t)1 << 24)   /* per list or map */

/** What decoding does with a field number the struct does not declare. */
typedef enum codec_protobuf_unknown {
    /** Keep its raw bytes in the struct's CODEC_FIELD_UNKNOWN_BYTES member
     * (in the arena) when it has one, so encoding writes them back; skip it
     * otherwise. The default. */
    CODEC_PROTOBUF_UNKNOWN_KEEP = 0,
    /** Skip it, even when the struct has a place for it. */
    CODEC_PROTOBUF_UNKNOWN_SKIP,
    /** Fail with CODEC_E_INVALID_PAYLOAD. */
    CODEC_PROTOBUF_UNKNOWN_REJECT
} codec_protobuf_unknown;

/** Options of the protobuf codec. All-zero means the defaults. The spec
 * form is shown for each. */
typedef struct codec_protobuf_options {
    codec_protobuf_unknown unknown;  /* `unknown=keep|skip|reject` */
    size_t max_depth;      /* `max-depth=N`: nested messages (<= 4096; default 100) */
    size_t max_size;       /* `max-size=SIZE`: input bytes (default 64m) */
    size_t max_elements;   /* `max-elements=N`: items of one list or map (default 16m) */
    /** Must be zero: room for new options without an ABI change
     * (docs/ARCHITECTURE.md, "ABI"); nonzero is CODEC_E_USAGE. Since 0.1. */
    uint64_t reserved[4];
} codec_protobuf_options;

/** codec_protobuf() — a protobuf codec for values of struct type `t`.
 * Same as codec_parse("protobuf...", t, err).
 * @param t  a CODEC_STRUCT descriptor; must outlive the codec. Checked with
 *           codec_type_check() and against what protobuf can express; the
 *           per-message tables (tag bytes, wire types, lookups) are built
 *           here, once, and kept in the codec.
 * @param o  NULL or all-zero for the defaults; copied.
 * @return a codec (codec_free() it), or NULL with CODEC_E_USAGE (`err` says
 *         which field cannot be expressed, or which option is bad) or
 *         CODEC_E_NOMEM.
 * Encode: CODEC_E_INVALID_VALUE for a string that is not UTF-8, a decimal
 *   that is not a decimal number, a timestamp outside years 1..9999 or with
 *   nanos outside 0..999999999, an xmap that refuses its value.
 * Decode: CODEC_E_INVALID_PAYLOAD (detail TRUNCATED, CORRUPT or LIMIT) with
 *   the byte offset: a wire type that does not match the field's, a varint
 *   over 10 bytes, a length past the end of its message, a group (wire type
 *   3 or 4, not supported), field number 0, an integer out of its C field's
 *   range (never wrapped), a string that is not UTF-8, a bad UUID length or
 *   timestamp, nesting deeper than max_depth, more than max_elements items.
 * Threads: the codec is immutable and may be shared. Since 0.1. */
CODEC_API codec *codec_protobuf(const codec_type *t, const codec_protobuf_options *o,
                                codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_PROTOBUF_H */
