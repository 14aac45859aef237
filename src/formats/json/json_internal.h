/* json_internal.h — what the JSON files share: the option block of a codec,
 * the failure helper and the typed walkers. */
#ifndef CODEC_JSON_INTERNAL_H
#define CODEC_JSON_INTERNAL_H

#include "codec/json.h"
#include "types/value_internal.h"

/* Fills `err` for a payload problem in the stage "json". */
#define JSON_FAIL(err, detail, offset, ...) \
    codec_error_set((err), CODEC_E_INVALID_PAYLOAD, (detail), "json", (uint64_t)(offset), \
                    __VA_ARGS__)
#define JSON_NOMEM(err) \
    codec_error_set((err), CODEC_E_NOMEM, 0, "json", CODEC_NO_OFFSET, "out of memory")

/* The options with every default filled in. */
void json_options_resolve(const codec_json_options *in, codec_json_options *out);

/* Descriptor-driven walkers (bind.c). The value at `value` has type `t`. */
int json_encode_typed(const codec_type *t, const void *value, const codec_json_options *o,
                      codec_buf *out, codec_error *err);
int json_decode_typed(const codec_type *t, const uint8_t *in, size_t n, void *value,
                      const codec_json_options *o, codec_arena *arena, codec_error *err);

/* Schemaless values (value.c), used by the walkers for CODEC_T_VALUE. */
int json_write_value(codec_json_writer *w, const codec_value *v, codec_error *err);
int json_read_value(codec_json_reader *r, codec_json_token tok, codec_value *out,
                    const codec_json_options *o, codec_error *err);

/* The string s with its bytes in the arena (copied when it still points into
 * the reader's input). len == SIZE_MAX when out of memory. */
codec_string json_keep_text(codec_json_reader *r, codec_arena *arena, codec_string s);

/* Inside an object: the next member's key (and the offset where it starts)
 * and the first token of its value, in one call; *tok is OBJECT_END when
 * the object closes (key untouched). The walkers' fast path. */
int json_next_member(codec_json_reader *r, codec_string *key, size_t *key_offset,
                     codec_json_token *tok, codec_error *err);

/* Writer helpers the walkers use directly. */
int json_write_raw_number(codec_json_writer *w, const char *s, size_t n);
int json_write_base64(codec_json_writer *w, const codec_bytes *b);

#endif
