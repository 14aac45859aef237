/* fuzz_binary.h — what the CBOR and MessagePack fuzz targets share: a
 * struct with every kind (a tagged union and a list of them included), and
 * the decode / re-encode check. */
#ifndef CODEC_FUZZ_BINARY_H
#define CODEC_FUZZ_BINARY_H

#include "codec/codec.h"

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
    codec_uuid id;
    codec_date day;
    codec_msgpack_ext ext;
    codec_string amount;
    codec_value rest;
    int32_t tone;
    pick one;
    CODEC_LIST_OF(pick) many;
} item;

CODEC_LIST(ids_type, CODEC_INT32);
CODEC_UNION(pick_type, pick, CODEC_FIELD(pick, n, 1, CODEC_INT64),
            CODEC_FIELD(pick, s, 2, CODEC_STRING), CODEC_FIELD(pick, ids, 3, &ids_type));
CODEC_LIST(picks_type, &pick_type);
CODEC_MAP(weights_type, CODEC_STRING, CODEC_DOUBLE);
CODEC_OPTIONAL(small_type, uint8_t, CODEC_UINT8);
/* Numbers in and out of the decoders' one-byte fast path. */
CODEC_ENUM(tone_type, {"LOW", 0}, {"MID", 3}, {"TOP", 63}, {"FAR", 300});
CODEC_STRUCT(item_type, item,
             CODEC_FIELD(item, name, 1, CODEC_STRING),
             CODEC_FIELD(item, ids, 2, &ids_type),
             CODEC_FIELD(item, weights, 3, &weights_type),
             CODEC_FIELD(item, small, 4, &small_type),
             CODEC_FIELD(item, raw, 5, CODEC_BYTES),
             CODEC_FIELD(item, at, 6, CODEC_TIMESTAMP),
             CODEC_FIELD(item, id, 7, CODEC_UUID),
             CODEC_FIELD(item, day, 8, CODEC_DATE),
             CODEC_FIELD(item, ext, 9, CODEC_MSGPACK_EXT),
             CODEC_FIELD(item, amount, 10, CODEC_DECIMAL),
             CODEC_FIELD(item, rest, 11, CODEC_VALUE),
             CODEC_FIELD(item, tone, 12, &tone_type),
             CODEC_FIELD(item, one, 13, &pick_type),
             CODEC_FIELD(item, many, 14, &picks_type));

/* Decodes with c: success, or an invalid-payload error (and no success when
 * `well_formed` is false). What decodes must encode, decode and encode
 * again to the same bytes — except values the encoder refuses (a decimal
 * field left empty or too long, a timestamp beyond year 9999 with an
 * offset), which must fail as invalid values and nothing else. */
static void check_codec(const codec *c, const uint8_t *data, size_t size, void *v1, void *v2,
                        bool well_formed)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_error err;
    int rc = codec_decode(c, data, size, v1, &arena, &err);
    if (rc && err.family != CODEC_E_INVALID_PAYLOAD)
        abort();
    if (!rc) {
        if (!well_formed)
            abort();
        codec_buf a, b;
        codec_buf_init(&a, NULL);
        codec_buf_init(&b, NULL);
        int erc = codec_encode(c, v1, &a, &err);
        if (erc && err.family != CODEC_E_INVALID_VALUE)
            abort();
        if (!erc && (codec_decode(c, a.data, a.len, v2, &arena, &err) ||
                     codec_encode(c, v2, &b, &err) || a.len != b.len ||
                     memcmp(a.data, b.data, a.len)))
            abort();
        codec_buf_free(&a);
        codec_buf_free(&b);
    }
    codec_arena_free(&arena);
}

#endif
