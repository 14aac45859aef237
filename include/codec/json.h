/* codec/json.h — the JSON backend (RFC 8259), a pull reader and a writer.
 *
 * Three ways in, one tokenizer underneath (same strictness everywhere):
 *   1. A codec over a typed C value:  codec_json(&order_type, NULL, &err)
 *      or codec_parse("json:pretty | zstd", &order_type, &err).
 *   2. A codec over schemaless data: the type codec_value_type().
 *   3. Streaming, no descriptors: codec_json_reader (pull tokens) and
 *      codec_json_writer (push tokens), below.
 *
 * Decoding is strict RFC 8259: UTF-8 validated, no comments, no trailing
 * commas, no leading zeros, no NaN, no byte-order mark, no lone surrogates,
 * nothing but white space after the value. Errors report the byte offset.
 * docs/formats/json.md lists every policy and how each C kind is written.
 */
#ifndef CODEC_JSON_H
#define CODEC_JSON_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Defaults for the limits (0 in codec_json_options means these). */
#define CODEC_JSON_DEFAULT_MAX_DEPTH 128
#define CODEC_JSON_MAX_DEPTH_LIMIT 4096                  /* the highest max_depth */
#define CODEC_JSON_DEFAULT_MAX_SIZE ((size_t)64 << 20)   /* document bytes */
#define CODEC_JSON_DEFAULT_MAX_STRING ((size_t)16 << 20) /* decoded bytes per string */
#define CODEC_JSON_DEFAULT_MAX_ELEMENTS ((size_t)1 << 24) /* per array/object */

/** Options of the JSON codec. All-zero is the default: compact output,
 * unknown fields skipped, missing fields left zero/absent, duplicate keys
 * rejected, the default limits. The spec form is shown for each. */
typedef struct codec_json_options {
    bool pretty;            /* `json:pretty` — 2-space indent, "key": value */
    bool reject_unknown;    /* `unknown=reject` — a key the struct lacks is an error */
    bool require_all;       /* `require=all` — every non-optional field must appear */
    bool allow_duplicates;  /* `duplicates=allow` — last one wins (values keep all) */
    size_t max_depth;       /* `max-depth=N`: nesting of arrays/objects (<= 4096) */
    size_t max_size;        /* `max-size=SIZE`: input document bytes */
    size_t max_string;      /* `max-string=SIZE`: decoded bytes of one string */
    size_t max_elements;    /* `max-elements=N`: items of one array or object */
    /** Must be zero: room for new options without an ABI change
     * (docs/ARCHITECTURE.md, "ABI"); nonzero is CODEC_E_USAGE. Since 0.1. */
    uint64_t reserved[4];
} codec_json_options;

/** codec_json() — a JSON codec for values of type `t` (a descriptor, or
 * codec_value_type() for schemaless data). Same as codec_parse("json...").
 * @param t  must outlive the codec; checked with codec_type_check().
 * @param o  NULL or all-zero for the defaults; copied.
 * @return a codec (codec_free() it), or NULL with CODEC_E_USAGE (bad type
 *         or option; `err` says which) or CODEC_E_NOMEM.
 * Encode: CODEC_E_INVALID_VALUE for NaN/infinity, invalid UTF-8 in a string,
 *   an enum number without a name, a date outside years 0..9999.
 * Decode: CODEC_E_INVALID_PAYLOAD (detail TRUNCATED, CORRUPT, LIMIT or
 *   TRAILING) with the byte offset, also for an integer out of its field's
 *   range (never wrapped) and a missing required field.
 * Threads: the codec is immutable and may be shared. Since 0.1. */
CODEC_API codec *codec_json(const codec_type *t, const codec_json_options *o, codec_error *err);

/** codec_json_validate() — checks that in[0..n) is one RFC 8259 document
 * (the decoders' grammar, UTF-8 and escape rules), within o's max_size,
 * max_depth and max_string (NULL = defaults), without building anything.
 * Duplicate keys and numbers beyond double range are grammatical and pass
 * (decoding applies those policies). Allocates nothing.
 * @return 0, or CODEC_E_INVALID_PAYLOAD with the byte offset in `err`.
 * Threads: safe. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_json_validate(const uint8_t *in, size_t n, const codec_json_options *o,
                                  codec_error *err);

/* ---------------------------------------------------------------------------
 * Pull reader
 * ------------------------------------------------------------------------ */

typedef enum codec_json_token {
    CODEC_JSON_END = 0,        /* the document is complete */
    CODEC_JSON_OBJECT_START,
    CODEC_JSON_OBJECT_END,
    CODEC_JSON_ARRAY_START,
    CODEC_JSON_ARRAY_END,
    CODEC_JSON_KEY,            /* an object key; text in codec_json_reader_text() */
    CODEC_JSON_STRING,
    CODEC_JSON_NUMBER,         /* raw text in codec_json_reader_text() */
    CODEC_JSON_TRUE,
    CODEC_JSON_FALSE,
    CODEC_JSON_NULL
} codec_json_token;

/** A pull reader over one document in memory. Lives on the caller's stack;
 * all fields are private. Not thread-safe (one reader per thread). */
typedef struct codec_json_reader {
#if defined(CODEC_STATIC_LINKING_ONLY) || defined(CODEC_BUILDING)
    const uint8_t *base, *p, *end;
    codec_arena *arena;        /* unescaped strings; NULL = validate only */
    size_t max_string;
    uint32_t max_depth, depth;
    int state;
    bool number_is_int, number_neg, number_overflow;
    uint64_t number_mag;       /* |integer| when number_is_int && !overflow */
    size_t token_offset;
    codec_string text;
    uint64_t stack[CODEC_JSON_MAX_DEPTH_LIMIT / 64];  /* bit set: level is an object */
#else
    /* The same layout (its size is ABI); the meaning of the fields is not,
     * and shows only with CODEC_STATIC_LINKING_ONLY. */
    const void *private_p[4];
    size_t private_z;
    uint32_t private_u[2];
    int private_i;
    bool private_b[3];
    uint64_t private_q;
    size_t private_z2;
    codec_string private_s;
    uint64_t private_stack[CODEC_JSON_MAX_DEPTH_LIMIT / 64];
#endif
} codec_json_reader;

/** codec_json_reader_init() — reads in[0..n). Strings containing escapes are
 * unescaped into `arena` (reset it between documents); with arena NULL they
 * are validated but codec_json_reader_text() gives the raw (escaped) text.
 * Only max_depth and max_string of `o` apply (NULL = defaults); max_size is
 * the caller's to check. Nothing is allocated here. Since 0.1. */
CODEC_API void codec_json_reader_init(codec_json_reader *r, const uint8_t *in, size_t n,
                                      codec_arena *arena, const codec_json_options *o);

/** codec_json_next() — the next token into *tok. After an error every call
 * fails again. @return 0, or CODEC_E_INVALID_PAYLOAD (err: offset, what),
 * CODEC_E_NOMEM. At the end of a valid document *tok is CODEC_JSON_END. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_json_next(codec_json_reader *r, codec_json_token *tok, codec_error *err);

/** codec_json_skip() — after a token that starts a value (or any scalar),
 * consumes the rest of that value (a whole array/object). Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_json_skip(codec_json_reader *r, codec_json_token tok, codec_error *err);

/** The text of the last KEY/STRING (unescaped) or NUMBER (raw) token; valid
 * until the arena is reset or the input freed. Since 0.1. */
CODEC_API codec_string codec_json_reader_text(const codec_json_reader *r);

/** The byte offset where the last token started. Since 0.1. */
CODEC_API size_t codec_json_reader_offset(const codec_json_reader *r);

/** The last NUMBER token as an int64 / uint64 / double.
 * @return 0, or -1 when it has a fraction/exponent (integers only) or is out
 * of range (the double: overflows to infinity). Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_json_reader_int64(const codec_json_reader *r, int64_t *out);
CODEC_API CODEC_NODISCARD int codec_json_reader_uint64(const codec_json_reader *r, uint64_t *out);
CODEC_API CODEC_NODISCARD int codec_json_reader_double(const codec_json_reader *r, double *out);

/* ---------------------------------------------------------------------------
 * Writer
 * ------------------------------------------------------------------------ */

/** A push writer appending to a caller-owned codec_buf. It places commas,
 * colons and (when pretty) newlines and indentation; the caller pairs
 * starts with ends and alternates keys and values inside objects.
 * Lives on the caller's stack; fields are private. */
typedef struct codec_json_writer {
#if defined(CODEC_STATIC_LINKING_ONLY) || defined(CODEC_BUILDING)
    codec_buf *out;
    uint32_t depth;
    bool pretty, first, after_key;
#else
    /* The same layout; fields only with CODEC_STATIC_LINKING_ONLY. */
    void *private_p;
    uint32_t private_u;
    bool private_b[3];
#endif
} codec_json_writer;

/** codec_json_writer_init() — writes to `out` (appends; not cleared). Since 0.1. */
CODEC_API void codec_json_writer_init(codec_json_writer *w, codec_buf *out, bool pretty);

/* Each returns 0, CODEC_E_NOMEM, or CODEC_E_INVALID_VALUE (a non-finite
 * double, a string that is not valid UTF-8, containers nested deeper than
 * CODEC_JSON_MAX_DEPTH_LIMIT); an end without its start is CODEC_E_USAGE.
 * Strings are escaped minimally:
 * `"`, `\` and control characters only; other characters are written as is. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_json_write_object_start(codec_json_writer *w);
CODEC_API CODEC_NODISCARD int codec_json_write_object_end(codec_json_writer *w);
CODEC_API CODEC_NODISCARD int codec_json_write_array_start(codec_json_writer *w);
CODEC_API CODEC_NODISCARD int codec_json_write_array_end(codec_json_writer *w);
CODEC_API CODEC_NODISCARD int codec_json_write_key(codec_json_writer *w, const char *s, size_t n);
CODEC_API CODEC_NODISCARD int codec_json_write_string(codec_json_writer *w, const char *s, size_t n);
CODEC_API CODEC_NODISCARD int codec_json_write_int64(codec_json_writer *w, int64_t v);
CODEC_API CODEC_NODISCARD int codec_json_write_uint64(codec_json_writer *w, uint64_t v);
/* Shortest text that reads back exactly, always with a fraction or exponent. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_json_write_double(codec_json_writer *w, double v);
CODEC_API CODEC_NODISCARD int codec_json_write_bool(codec_json_writer *w, bool v);
CODEC_API CODEC_NODISCARD int codec_json_write_null(codec_json_writer *w);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_JSON_H */
