/* fuzz_protobuf.c — the protobuf decoder on arbitrary bytes, into Person,
 * Order and a struct with every shape (packed and repeated lists, maps,
 * optionals, a timestamp, a UUID, a recursive list, a oneof, an
 * unknown-fields sink).
 * Each decode must succeed or fail with an invalid-payload error; a decoded
 * value must encode, decode again, and encode to the same bytes. */
#include "fuzz_target.h"
#include "codec/codec.h"
#include "json_payloads.h"

#include <stdlib.h>
#include <string.h>

typedef struct pair {
    int32_t a;
    codec_string b;
} pair;
CODEC_STRUCT(pair_type, pair, CODEC_FIELD(pair, a, 1, CODEC_INT32),
             CODEC_FIELD(pair, b, 2, CODEC_STRING));

/* A oneof: fields 12 (sint64), 13 (string), 14 (message) of tree. */
typedef struct choice {
    uint32_t which;
    union {
        int64_t n;
        codec_string s;
        pair p;
    };
} choice;
CODEC_UNION(choice_type, choice, CODEC_FIELD_EX(choice, n, "n", 12, CODEC_INT64, CODEC_FIELD_ZIGZAG),
            CODEC_FIELD(choice, s, 13, CODEC_STRING), CODEC_FIELD(choice, p, 14, &pair_type));

typedef struct tree tree;
struct tree {
    int32_t id;
    CODEC_LIST_OF(int64_t) zz;
    CODEC_LIST_OF(double) reals;
    CODEC_LIST_OF(codec_string) names;
    CODEC_MAP_OF(uint32_t, codec_bytes) blobs;
    CODEC_OPTIONAL_OF(bool) flag;
    codec_timestamp at;
    codec_uuid uuid;
    codec_string price;
    CODEC_LIST_OF(tree) kids;
    codec_bytes unknown;
    choice pick;
};

static const codec_type tree_type;
CODEC_LIST(zz_type, CODEC_INT64);
CODEC_LIST(reals_type, CODEC_DOUBLE);
CODEC_LIST(names_type, CODEC_STRING);
CODEC_MAP(blobs_type, CODEC_UINT32, CODEC_BYTES);
CODEC_OPTIONAL(flag_type, bool, CODEC_BOOL);
CODEC_LIST(kids_type, &tree_type);
CODEC_STRUCT(tree_type, tree,
             CODEC_FIELD(tree, id, 1, CODEC_INT32),
             CODEC_FIELD_EX(tree, zz, "zz", 2, &zz_type, CODEC_FIELD_ZIGZAG),
             CODEC_FIELD(tree, reals, 3, &reals_type),
             CODEC_FIELD(tree, names, 4, &names_type),
             CODEC_FIELD(tree, blobs, 5, &blobs_type),
             CODEC_FIELD(tree, flag, 6, &flag_type),
             CODEC_FIELD(tree, at, 7, CODEC_TIMESTAMP),
             CODEC_FIELD(tree, uuid, 8, CODEC_UUID),
             CODEC_FIELD(tree, price, 9, CODEC_DECIMAL),
             CODEC_FIELD(tree, kids, 10, &kids_type),
             CODEC_FIELD_EX(tree, unknown, "unknown", 11, CODEC_BYTES,
                            CODEC_FIELD_UNKNOWN_BYTES),
             CODEC_FIELD(tree, pick, 15, &choice_type));

static void check_codec(const codec *c, const uint8_t *data, size_t size, void *v1, void *v2)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_error err;
    int rc = codec_decode(c, data, size, v1, &arena, &err);
    if (rc && err.family != CODEC_E_INVALID_PAYLOAD)
        abort();
    if (!rc) {
        codec_buf a, b;
        codec_buf_init(&a, NULL);
        codec_buf_init(&b, NULL);
        if (codec_encode(c, v1, &a, &err) || codec_decode(c, a.data, a.len, v2, &arena, &err) ||
            codec_encode(c, v2, &b, &err) || a.len != b.len ||
            (a.len && memcmp(a.data, b.data, a.len)))
            abort();
        codec_buf_free(&a);
        codec_buf_free(&b);
    }
    codec_arena_free(&arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *person_codec, *order_codec, *tree_codec;
    if (!person_codec) {
        person_codec = codec_parse("protobuf", &person_type, NULL);
        order_codec = codec_parse("protobuf:max-elements=1000", &order_type, NULL);
        tree_codec = codec_parse("protobuf:max-depth=32", &tree_type, NULL);
        if (!person_codec || !order_codec || !tree_codec)
            abort();
    }
    person p1, p2;
    check_codec(person_codec, data, size, &p1, &p2);
    order o1, o2;
    check_codec(order_codec, data, size, &o1, &o2);
    tree t1, t2;
    check_codec(tree_codec, data, size, &t1, &t2);
    return 0;
}
