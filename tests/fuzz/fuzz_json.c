/* fuzz_json.c — the JSON decoder on arbitrary bytes, three ways: the syntax
 * validator, schemaless decoding and typed decoding into a struct with every
 * kind. Each must accept or fail with an invalid-payload error; the syntax
 * validator must accept whatever the value decoder accepts; an accepted value
 * must encode and decode again to the same text. The fast walkers
 * (decode.c, encode.c) must agree with the reference walkers, for the
 * struct and for a codec_value: whatever the fast decoder accepts the
 * reference accepts with the same value, and the
 * fast encoder writes the reference's bytes; the validator agrees with the
 * pull reader. Never crash, never leak. */
#include "fuzz_target.h"
#include "codec/codec.h"
#include "formats/json/json_internal.h"
#include "formats/json/json_plan_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct pick {
    uint32_t which;
    union {
        int64_t n;
        codec_string s;
        CODEC_LIST_OF(int32_t) ids;
    };
} pick;

typedef struct item {
    codec_string name;
    CODEC_LIST_OF(int32_t) ids;
    CODEC_MAP_OF(codec_string, double) weights;
    CODEC_OPTIONAL_OF(uint8_t) small;
    codec_bytes raw;
    codec_timestamp at;
    codec_value rest;
    pick one;                       /* a tagged union, and a list of them */
    CODEC_LIST_OF(pick) many;
    pick flat;                      /* a union whose members are item's keys */
} item;

CODEC_LIST(ids_type, CODEC_INT32);
CODEC_UNION(pick_type, pick, CODEC_FIELD(pick, n, 1, CODEC_INT64),
            CODEC_FIELD(pick, s, 2, CODEC_STRING), CODEC_FIELD(pick, ids, 3, &ids_type));
CODEC_LIST(picks_type, &pick_type);
CODEC_UNION_FLAT(flat_pick_type, pick, CODEC_FIELD_EX(pick, n, "fn", 1, CODEC_INT64, 0),
                 CODEC_FIELD_EX(pick, s, "fs", 2, CODEC_STRING, 0),
                 CODEC_FIELD_EX(pick, ids, "fids", 3, &ids_type, 0));
CODEC_MAP(weights_type, CODEC_STRING, CODEC_DOUBLE);
CODEC_OPTIONAL(small_type, uint8_t, CODEC_UINT8);
CODEC_STRUCT(item_type, item,
             CODEC_FIELD(item, name, 1, CODEC_STRING),
             CODEC_FIELD(item, ids, 2, &ids_type),
             CODEC_FIELD(item, weights, 3, &weights_type),
             CODEC_FIELD(item, small, 4, &small_type),
             CODEC_FIELD(item, raw, 5, CODEC_BYTES),
             CODEC_FIELD(item, at, 6, CODEC_TIMESTAMP),
             CODEC_FIELD(item, rest, 7, CODEC_VALUE),
             CODEC_FIELD(item, one, 8, &pick_type),
             CODEC_FIELD(item, many, 9, &picks_type),
             CODEC_FIELD(item, flat, 10, &flat_pick_type));

/* Decodes with c, re-encodes, decodes that and re-encodes: same text. */
static void check_codec(const codec *c, const uint8_t *data, size_t size, void *v1, void *v2,
                        bool syntax)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_error err;
    int rc = codec_decode(c, data, size, v1, &arena, &err);
    if (rc && err.family != CODEC_E_INVALID_PAYLOAD)
        abort();
    if (!rc) {
        if (!syntax)
            abort();
        codec_buf a, b;
        codec_buf_init(&a, NULL);
        codec_buf_init(&b, NULL);
        if (codec_encode(c, v1, &a, &err) || codec_decode(c, a.data, a.len, v2, &arena, &err) ||
            codec_encode(c, v2, &b, &err) || a.len != b.len || memcmp(a.data, b.data, a.len))
            abort();
        codec_buf_free(&a);
        codec_buf_free(&b);
    }
    codec_arena_free(&arena);
}

/* The fast decoder of t against the reference on data: whatever the fast
 * one accepts the reference accepts with the same value (compared as the
 * reference encoder's text, left in *text, initialised either way).
 * Returns the fast decoder's answer (0, or 1 when it gave up). */
static int decode_agrees(const codec_type *t, const uint8_t *data, size_t size, bool plain,
                         codec_arena *arena, void *fast, codec_buf *text)
{
    codec_json_options o = {.max_depth = 64};
    codec__json_options_resolve(&o, &o);
    memset(fast, 0, t->size);
    codec_buf_init(text, NULL);
    int rc = codec__json_decode_fast(t, data, size, fast, &o, plain, arena, NULL);
    if (rc == 0) {
        void *ref = calloc(1, t->size);
        codec_buf b;
        codec_buf_init(&b, NULL);
        if (!ref || codec__json_decode_reference(t, data, size, ref, &o, arena, NULL) ||
            codec__json_encode_reference(t, fast, false, text, NULL) ||
            codec__json_encode_reference(t, ref, false, &b, NULL) || text->len != b.len ||
            memcmp(text->data, b.data, b.len))
            abort();
        codec_buf_free(&b);
        free(ref);
    } else if (rc != 1) {
        abort();
    }
    return rc;
}

/* The fast encoder of t on v against `text`, the reference's: the same
 * bytes, or it gives up and writes nothing. */
static void encode_agrees(const codec_type *t, const void *v, const codec_buf *text)
{
    json_plan plan;
    codec_buf c;
    codec_buf_init(&c, NULL);
    if (codec__json_plan_build(&plan, t))
        abort();
    int enc = codec__json_encode_fast(&plan, v, &c, NULL);
    if (enc == 0 ? c.len != text->len || memcmp(text->data, c.data, c.len) : enc != 1 || c.len)
        abort();
    codec__json_plan_free(&plan);
    codec_buf_free(&c);
}

static void check_fast_paths(const uint8_t *data, size_t size)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    item fast;
    codec_value value;
    codec_buf text;
    /* Names compared in place (as the stage does: they are plain) or not. */
    bool plain = size % 2 && codec__json_type_names_plain(&item_type);
    if (decode_agrees(&item_type, data, size, plain, &arena, &fast, &text) == 0)
        encode_agrees(&item_type, &fast, &text);
    codec_buf_free(&text);
    if (decode_agrees(codec_value_type(), data, size, false, &arena, &value, &text) == 0)
        encode_agrees(codec_value_type(), &value, &text);
    codec_buf_free(&text);
    codec_arena_free(&arena);
}

/* The pull reader alone, token by token: the definition of validity. */
static bool reader_accepts(const uint8_t *data, size_t size)
{
    codec_json_reader r;
    codec_json_token tok;
    codec_json_reader_init(&r, data, size, NULL, NULL);
    int rc;
    while (!(rc = codec_json_next(&r, &tok, NULL)) && tok != CODEC_JSON_END)
        ;
    return rc == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *value_codec, *typed_codec;
    if (!value_codec) {
        value_codec = codec_parse("json:duplicates=allow", codec_value_type(), NULL);
        typed_codec = codec_parse("json:max-depth=64", &item_type, NULL);
        if (!value_codec || !typed_codec)
            abort();
    }
    bool syntax = codec_json_validate(data, size, NULL, NULL) == 0;
    if (syntax != reader_accepts(data, size))
        abort();
    codec_value v1, v2;
    check_codec(value_codec, data, size, &v1, &v2, syntax);
    item i1, i2;
    check_codec(typed_codec, data, size, &i1, &i2, syntax);
    check_fast_paths(data, size);
    return 0;
}
