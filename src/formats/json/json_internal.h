/* json_internal.h — what the JSON files share: the option block of a codec,
 * the failure helper and the typed walkers. */
#ifndef CODEC_JSON_INTERNAL_H
#define CODEC_JSON_INTERNAL_H

#include "codec/json.h"
#include "types/value_internal.h"
#include "core/error_internal.h"

/* Fills `err` for a payload problem in the stage "json". */
#define JSON_FAIL(err, ...) CODEC_PAYLOAD_FAIL((err), "json", __VA_ARGS__)
#define JSON_NOMEM(err) codec__nomem((err), "json")

/* The options with every default filled in. */
void codec__json_options_resolve(const codec_json_options *in, codec_json_options *out);

/* Descriptor-driven walkers (bind.c). The value at `value` has type `t`.
 * The typed entry points try the fast walkers (encode.c, decode.c) first;
 * the reference ones (the token reader and writer underneath) are the
 * definition of the format and report every error. */
struct json_plan;
int codec__json_encode_typed(const codec_type *t, const void *value, const codec_json_options *o,
                             const struct json_plan *plan, codec_buf *out, codec_error *err);
int codec__json_decode_typed(const codec_type *t, const uint8_t *in, size_t n, void *value,
                             const codec_json_options *o, bool plain_names, codec_arena *arena,
                             codec_error *err);
int codec__json_encode_reference(const codec_type *t, const void *value, bool pretty,
                                 codec_buf *out, codec_error *err);
/* No max_size check here (codec__json_decode_typed does it). */
int codec__json_decode_reference(const codec_type *t, const uint8_t *in, size_t n, void *value,
                                 const codec_json_options *o, codec_arena *arena, codec_error *err);

/* The fast compact encoder (encode.c) over the plan of the value's type
 * (json_plan_internal.h): 0, CODEC_E_NOMEM, or 1 (output truncated back) when the
 * value needs the reference walker, which then encodes it again and
 * reports any error. */
int codec__json_encode_fast(const struct json_plan *plan, const void *value, codec_buf *out,
                            codec_error *err);
/* Whether every field and enum name reachable from t is printable ASCII
 * without '"' and '\\' (plan.c: the decoder compares keys in place);
 * false when unsure (a graph too large to walk). */
bool codec__json_type_names_plain(const codec_type *t);
/* The reference walker for one compact value inside `depth` open
 * containers, appended to out (no separator before it). */
int codec__json_encode_one(codec_buf *out, uint32_t depth, const codec_type *t, const void *value,
                           codec_error *err);
/* Appends "s" with JSON escapes (writer.c): 0, CODEC_E_NOMEM, or
 * CODEC_E_INVALID_VALUE for invalid UTF-8. */
int codec__json_put_string(codec_buf *out, const char *s, size_t n);

/* The fast decoder (decode.c): 0, CODEC_E_NOMEM, or 1 when the document
 * needs the reference walker (codec__json_decode_typed decodes it again that way:
 * every error is reported by that walker alone). */
int codec__json_decode_fast(const codec_type *t, const uint8_t *in, size_t n, void *value,
                            const codec_json_options *o, bool plain_names, codec_arena *arena,
                            codec_error *err);
/* Whether in[0..n) is one document the reader accepts under o (resolved
 * options; max_size is the caller's): true is certain, false means "ask
 * the reader", which also finds the error and its offset. */
bool codec__json_valid_fast(const uint8_t *in, size_t n, const codec_json_options *o);
/* The reference walker for the one value at r's position (after
 * codec__json_reader_seek): decoded into v of type t, or skipped when t is NULL. */
int codec__json_decode_one(codec_json_reader *r, const codec_type *t, void *v,
                           const codec_json_options *o, codec_arena *arena, codec_error *err);
/* Puts the reader on a value that starts at p inside `depth` open
 * containers (the stack bits of those are not needed to read one value). */
void codec__json_reader_seek(codec_json_reader *r, const uint8_t *p, uint32_t depth);
/* Decodes the escapes of the raw string body s[0..n) (already UTF-8
 * checked) into dst (room for n bytes; NULL = check only). Returns the
 * decoded length, or (size_t)-1 with *bad at the offending byte. */
size_t codec__json_unescape(const uint8_t *s, size_t n, uint8_t *dst, const uint8_t **bad);

/* The escape at s[0] (a backslash, with the input ending at end) decoded
 * to dst (up to 4 bytes, *len of them): its length in the input, or 0 when
 * it is not one codec__json_unescape accepts (nothing written). */
size_t codec__json_unescape_one(const uint8_t *s, const uint8_t *end, uint8_t *dst, size_t *len);

/* The string-body scanner kernel (x86/string_avx2.c; call only when
 * codec_cpu_has(CODEC_CPU_FOR_AVX2)). From p, at the start of a UTF-8
 * sequence inside a string, with end - p >= 32: the first '"', '\\' or
 * control byte, all UTF-8 before it valid; or, when fewer than 32 bytes are
 * left without one, the start of the sequence where checking stopped
 * (the caller goes on from there); NULL for invalid UTF-8. */
const uint8_t *codec__json_scan_string_avx2(const uint8_t *p, const uint8_t *end);

/* The string-body copier: the scan above that also copies what it passes
 * to dst, one pass over each byte. From p (a sequence start inside a
 * string) and dst: the first '"', '\\' or control byte q, with p[0..q-p)
 * copied to dst[0..q-p) and all UTF-8 before q valid (bytes after that may
 * be written too, never at or past dst_end); or, when fewer than 32 bytes
 * are left of the input or of dst[..dst_end) before one, the sequence start
 * where it stopped (bytes before it copied; the caller goes on from there);
 * NULL for invalid UTF-8 (the AVX2 kernel may also say so for bytes after
 * q in the same 32-byte block: a valid document is valid UTF-8 throughout).
 * codec__json_copy_string_avx2 (x86/string_avx2.c) only when
 * codec_cpu_has(CODEC_CPU_FOR_AVX2); codec__json_copy_string (string_copy.c)
 * anywhere: 16 bytes of ASCII a step (8 without SSE2), each non-ASCII
 * sequence checked on its own. */
const uint8_t *codec__json_copy_string_avx2(const uint8_t *p, const uint8_t *end, uint8_t *dst,
                                            const uint8_t *dst_end);
const uint8_t *codec__json_copy_string(const uint8_t *p, const uint8_t *end, uint8_t *dst,
                                       const uint8_t *dst_end);

/* The length of the escape at s[0] (a backslash) that codec__json_unescape
 * accepts, with the input ending at end; 0 for an invalid one. */
size_t codec__json_escape_length(const uint8_t *s, const uint8_t *end);

/* The container skipper kernel (x86/skip_avx512.c; call only when
 * codec_cpu_has(CODEC_CPU_FOR_AVX512)). From p,
 * a '{' or '[' with p < end: the byte after the bracket that closes it
 * when everything up to there is what the reader accepts (grammar,
 * escapes, UTF-8, control bytes, strings of at most max_string bytes) and
 * at most `room` levels are open at once (the first bracket counts); NULL
 * when not, or when unsure: more than 63 levels, or a string longer than
 * max_string before unescaping. max_string must be at least
 * JSON_SKIP_MIN_MAX_STRING (strings within one 64-byte block are not
 * measured). */
#define JSON_SKIP_MIN_MAX_STRING 63
const uint8_t *codec__json_skip_avx512(const uint8_t *p, const uint8_t *end, uint32_t room,
                                       size_t max_string);

/* Schemaless values (value.c), used by the walkers for CODEC_T_VALUE. */
int codec__json_write_value(codec_json_writer *w, const codec_value *v, codec_error *err);
int codec__json_read_value(codec_json_reader *r, codec_json_token tok, codec_value *out,
                           const codec_json_options *o, codec_error *err);

/* The string s with its bytes in the arena (copied when it still points into
 * the reader's input). len == SIZE_MAX when out of memory. */
codec_string codec__json_keep_text(codec_json_reader *r, codec_arena *arena, codec_string s);

/* Inside an object: the next member's key (and the offset where it starts)
 * and the first token of its value, in one call; *tok is OBJECT_END when
 * the object closes (key untouched). The walkers' fast path. */
int codec__json_next_member(codec_json_reader *r, codec_string *key, size_t *key_offset,
                            codec_json_token *tok, codec_error *err);

/* Writer helpers the walkers use directly. */
int codec__json_write_raw_number(codec_json_writer *w, const char *s, size_t n);
int codec__json_write_base64(codec_json_writer *w, const codec_bytes *b);

#endif
