/* test_decode_nomem.c — every format and every transform in front of one,
 * decoding an Order of 100 items with an arena that runs out at each of the
 * decode's allocations in turn (nomem_checks.h): each run fails with
 * CODEC_E_NOMEM, never with a payload error or a crash, and once the arena
 * is large enough the value decodes and encodes back to the same bytes.
 * The schemaless readers (codec_value) get the same with a nested value. */
#include "check.h"
#include "nomem_checks.h"
#include "json_payloads.h"

static const char *const specs[] = {
    "json", "cbor", "msgpack", "protobuf", "fory",
    "json|gzip", "json|deflate", "json|zstd", "json|lz4", "json|lz4hc", "json|snappy",
    "json|brotli", "json|redisson-lz4", "json|redisson-zstd", "json|redisson-snappy",
    "json|base64", "json|base32", "json|hex", "json|crc32c", "json|crc32", "json|adler32",
    "cbor|zstd|base64", "msgpack|lz4|crc32c",
};

int main(void)
{
    line_item items[100];
    char text[100 * 64];
    order o = payload_order(items, text);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        codec_error err;
        codec *c = codec_parse(specs[i], &order_type, &err);
        if (!c) {
            /* Only a stage this build left out may refuse (compose.h). */
            fprintf(stderr, "%s: %s\n", specs[i], err.message);
            CHECK(err.family == CODEC_E_UNSUPPORTED && strstr(err.message, "built without"));
            continue;
        }
        int nomem = nomem_check_value(c, &o, sizeof o);
        printf("%-24s ran out of memory at %d arena sizes\n", specs[i], nomem);
        CHECK(nomem > 0);
        codec_free(c);
    }
    /* A nested value, read from JSON, through each schemaless reader. */
    static const char doc[] = "{\"a\":[1,-2,3.5,\"x\",true,null,[{\"b\":\"\\u00e9t\\u00e9\"}]],"
                              "\"c\":{\"d\":[18446744073709551615,-9223372036854775808]},"
                              "\"e\":\"a longer string, so that it needs its own block\"}";
    codec_error err;
    codec *json = codec_parse("json", codec_value_type(), &err);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_value v;
    CHECK_INT(codec_decode(json, (const uint8_t *)doc, sizeof doc - 1, &v, &arena, &err), 0);
    static const char *const readers[] = {"json", "cbor", "msgpack", "fory"};
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
        codec *c = codec_parse(readers[i], codec_value_type(), &err);
        CHECK(c != NULL);
        int nomem = c ? nomem_check_value(c, &v, sizeof v) : -1;
        printf("%-8s (value)          ran out of memory at %d arena sizes\n", readers[i], nomem);
        CHECK(nomem > 0);
        codec_free(c);
    }
    codec_arena_free(&arena);
    codec_free(json);
    return check_done("decode_nomem");
}
