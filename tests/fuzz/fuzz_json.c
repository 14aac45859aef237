/* fuzz_json.c — the JSON decoder on arbitrary bytes, three ways: the syntax
 * validator, schemaless decoding and typed decoding into a struct with every
 * kind. Each must accept or fail with an invalid-payload error; the syntax
 * validator must accept whatever the value decoder accepts; an accepted value
 * must encode and decode again to the same text. The fast typed walkers
 * (decode.c, encode.c) must agree with the reference walkers: whatever the
 * fast decoder accepts the reference accepts with the same value, and the
 * fast encoder writes the reference's bytes; the validator agrees with the
 * pull reader. Never crash, never leak. */
#include "codec/codec.h"
#include "formats/json/json_internal.h"
#include "formats/json/json_plan.h"

#include <stdlib.h>
#include <string.h>

typedef struct item {
    codec_string name;
    CODEC_LIST_OF(int32_t) ids;
    CODEC_MAP_OF(codec_string, double) weights;
    CODEC_OPTIONAL_OF(uint8_t) small;
    codec_bytes raw;
    codec_timestamp at;
    codec_value rest;
} item;

CODEC_LIST(ids_type, CODEC_INT32);
CODEC_MAP(weights_type, CODEC_STRING, CODEC_DOUBLE);
CODEC_OPTIONAL(small_type, uint8_t, CODEC_UINT8);
CODEC_STRUCT(item_type, item,
             CODEC_FIELD(item, name, 1, CODEC_STRING),
             CODEC_FIELD(item, ids, 2, &ids_type),
             CODEC_FIELD(item, weights, 3, &weights_type),
             CODEC_FIELD(item, small, 4, &small_type),
             CODEC_FIELD(item, raw, 5, CODEC_BYTES),
             CODEC_FIELD(item, at, 6, CODEC_TIMESTAMP),
             CODEC_FIELD(item, rest, 7, CODEC_VALUE));

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

/* Encodes v compactly with the reference walker into a fresh buffer. */
static void reference_text(const void *v, codec_buf *out)
{
    codec_buf_init(out, NULL);
    if (json_encode_reference(&item_type, v, false, out, NULL))
        abort();
}

static void check_fast_paths(const uint8_t *data, size_t size)
{
    codec_json_options o = {.max_depth = 64};
    json_options_resolve(&o, &o);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    item fast, ref;
    memset(&fast, 0, sizeof fast);
    /* Names compared in place (as the stage does: they are plain) or not. */
    bool plain = size % 2 && json_type_names_plain(&item_type);
    int rc = json_decode_fast(&item_type, data, size, &fast, &o, plain, &arena, NULL);
    if (rc == 0) {
        if (json_decode_reference(&item_type, data, size, &ref, &o, &arena, NULL))
            abort();
        codec_buf a, b, c;
        reference_text(&fast, &a);
        reference_text(&ref, &b);
        codec_buf_init(&c, NULL);
        if (a.len != b.len || memcmp(a.data, b.data, a.len))
            abort();
        json_plan plan;
        if (json_plan_build(&plan, &item_type))
            abort();
        int enc = json_encode_fast(&plan, &fast, &c, NULL);
        if (enc == 0 ? c.len != a.len || memcmp(a.data, c.data, a.len) : enc != 1 || c.len)
            abort();
        json_plan_free(&plan);
        codec_buf_free(&a);
        codec_buf_free(&b);
        codec_buf_free(&c);
    } else if (rc != 1) {
        abort();
    }
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
