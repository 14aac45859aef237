/* json_internal.h — what the JSON files share: the option block of a codec,
 * the failure helper and the typed walkers. */
#ifndef CODEC_JSON_INTERNAL_H
#define CODEC_JSON_INTERNAL_H

#include "codec/json.h"

/* Fills `err` for a payload problem in the stage "json". */
#define JSON_FAIL(err, detail, offset, ...) \
    codec_error_set((err), CODEC_E_INVALID_PAYLOAD, (detail), "json", (uint64_t)(offset), \
                    __VA_ARGS__)
#define JSON_NOMEM(err) \
    codec_error_set((err), CODEC_E_NOMEM, 0, "json", CODEC_NO_OFFSET, "out of memory")

/* Length of the valid UTF-8 sequence at p[0] (a byte >= 0x80) within
 * p[0..end), or 0 when it is invalid: overlong forms, UTF-16 surrogates and
 * anything above U+10FFFF are refused. Shared by the reader and the writer. */
static inline size_t json_utf8_sequence(const uint8_t *p, const uint8_t *end)
{
    uint8_t c = p[0], lo = 0x80, hi = 0xBF;
    size_t need;
    if (c >= 0xC2 && c <= 0xDF)
        need = 1;
    else if (c >= 0xE0 && c <= 0xEF)
        need = 2, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        need = 3, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if ((size_t)(end - p) <= need || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i <= need; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return need + 1;
}

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

/* Finds a repeated key among n keys laid out `stride` bytes apart: each a
 * codec_string at the start of its element when raw_size is 0, else
 * raw_size bytes compared as is. Small sets are compared pairwise, larger
 * ones through a hash table in the arena, so hostile objects stay linear.
 * @return the index of a repeat, -1 if none, -2 when out of memory. */
long json_find_duplicate(const void *keys, size_t stride, size_t n, size_t raw_size,
                         codec_arena *arena);

/* Grows an arena array of esz-byte items so that index `count` fits
 * (doubling *cap); NULL when out of memory. */
void *json_grow(codec_arena *arena, void *items, size_t count, size_t *cap, size_t esz);

/* The string s with its bytes in the arena (copied when it still points into
 * the reader's input). len == SIZE_MAX when out of memory. */
codec_string json_keep_text(codec_json_reader *r, codec_arena *arena, codec_string s);

/* Inside an object: the next member's key (and the offset where it starts)
 * and the first token of its value, in one call; *tok is OBJECT_END when
 * the object closes (key untouched). The walkers' fast path. */
int json_next_member(codec_json_reader *r, codec_string *key, size_t *key_offset,
                     codec_json_token *tok, codec_error *err);

/* 0 when s[0..n) is exactly one JSON number. */
int json_check_number(const char *s, size_t n);

/* Writer helpers the walkers use directly. */
int json_write_raw_number(codec_json_writer *w, const char *s, size_t n);
int json_write_base64(codec_json_writer *w, const codec_bytes *b);

#endif
