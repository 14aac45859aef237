/* codec/cbor.h — the CBOR backend (RFC 8949).
 *
 * A codec over a typed C value (a descriptor from codec/types.h) or over a
 * schemaless codec_value:
 *
 *   codec *c = codec_cbor(&order_type, NULL, &err);
 *   codec *d = codec_parse("cbor:keys=tags,deterministic | zstd", &order_type, &err);
 *
 * Writing: shortest heads, floats in the shortest of half/single/double
 * that keeps the value (NaN as f9 7e00), definite lengths, structs as maps
 * keyed by field name (or by field tag with keys=tags), absent optional
 * fields left out. With `deterministic`, map entries are also sorted by the
 * bytes of their encoded keys (RFC 8949 §4.2.1).
 * Reading: every major type, indefinite lengths, half/single/double floats,
 * tags 0/1 (timestamps), 2/3 (bignums), 4 (decimal fractions), 37 (UUID),
 * 100/1004 (dates), 55799 (self-described CBOR); every declared length is
 * checked against the remaining input before anything is allocated.
 * docs/formats/cbor.md lists every policy (C kind <-> CBOR item, tags,
 * codec_value mapping, limits).
 */
#ifndef CODEC_CBOR_H
#define CODEC_CBOR_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Defaults for the limits (0 in codec_cbor_options means these); the same
 * values as the JSON backend. */
#define CODEC_CBOR_DEFAULT_MAX_DEPTH 128
#define CODEC_CBOR_MAX_DEPTH_LIMIT 4096
#define CODEC_CBOR_DEFAULT_MAX_SIZE ((size_t)64 << 20)
#define CODEC_CBOR_DEFAULT_MAX_STRING ((size_t)16 << 20)
#define CODEC_CBOR_DEFAULT_MAX_ELEMENTS ((size_t)1 << 24)

/** Options of the CBOR codec. All-zero is the default: struct keys are field
 * names, map entries in declaration/document order, unknown fields skipped,
 * missing fields left zero, duplicate keys rejected, the default limits. */
typedef struct codec_cbor_options {
    bool tag_keys;          /* `keys=tags` — struct keys are the field tags (uints) */
    bool deterministic;     /* `deterministic` — RFC 8949 §4.2.1 sorted map keys */
    bool reject_unknown;    /* `unknown=reject` */
    bool require_all;       /* `require=all` — every non-optional field must appear */
    bool allow_duplicates;  /* `duplicates=allow` — last one wins (values keep all) */
    size_t max_depth;       /* `max-depth=N`: nesting of arrays, maps and tags (<= 4096) */
    size_t max_size;        /* `max-size=SIZE`: input bytes */
    size_t max_string;      /* `max-string=SIZE`: bytes of one (joined) string */
    size_t max_elements;    /* `max-elements=N`: items of one array or map */
    /** Must be zero: room for new options without an ABI change
     * (docs/ARCHITECTURE.md, "ABI"); nonzero is CODEC_E_USAGE. Since 0.1. */
    uint64_t reserved[4];
} codec_cbor_options;

/** codec_cbor() — a CBOR codec for values of type `t` (a descriptor, or
 * codec_value_type() for schemaless data). Same as codec_parse("cbor...").
 * @param t  must outlive the codec; checked with codec_type_check().
 * @param o  NULL or all-zero for the defaults; copied.
 * @return a codec (codec_free() it), or NULL with CODEC_E_USAGE or NOMEM.
 * Encode: CODEC_E_INVALID_VALUE for invalid UTF-8 in a string, an enum
 *   number without a name, a decimal that is not a number, a timestamp out
 *   of range. Allocates nothing once `out` is large enough (deterministic
 *   mode sorts inside `out`'s spare capacity).
 * Decode: CODEC_E_INVALID_PAYLOAD (detail TRUNCATED, CORRUPT, LIMIT or
 *   TRAILING) with the byte offset; also for a value the target cannot hold
 *   (an integer out of its field's range, a bignum beyond 64 bits into an
 *   integer or a codec_value, a non-text map key into a codec_value).
 * Threads: the codec is immutable and may be shared. Since 0.1. */
CODEC_API codec *codec_cbor(const codec_type *t, const codec_cbor_options *o, codec_error *err);

/** codec_cbor_diagnose() — appends the diagnostic notation (RFC 8949 §8) of
 * the one CBOR item in in[0..n) to `out`: `{"a": [1, 2.5, h'00ff']}`,
 * `1(1363896240)`, `(_ "ab", "c")`, `simple(16)`, `undefined`, NaN,
 * Infinity. Floats are written as the shortest decimal that reads back.
 * Checks well-formedness only (nesting <= CODEC_CBOR_DEFAULT_MAX_DEPTH).
 * @return 0, CODEC_E_INVALID_PAYLOAD (err: offset), CODEC_E_NOMEM; on
 *         failure out->len is restored. Threads: safe. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_cbor_diagnose(const uint8_t *in, size_t n, codec_buf *out, codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_CBOR_H */
