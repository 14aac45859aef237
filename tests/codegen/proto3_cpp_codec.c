/* proto3_cpp_codec.c — codec's side of proto3_cpp_differential.cc, in C:
 * TestAllTypesProto3 as codec-gen generated it from Google's conformance
 * schema (specialize=1), decoded and encoded again. */
#include "proto3_cpp_codec.h"

#include "test_messages_proto3.codec.h"

#include <stdio.h>
#include <stdlib.h>

static codec *path(int specialized)
{
    static codec *paths[2];
    if (!paths[specialized]) {
        codec_error err;
        paths[specialized] =
            codec_parse(specialized ? "protobuf" : "protobuf:codegen=off",
                        &protobuf_test_messages_proto3_TestAllTypesProto3_type, &err);
        if (!paths[specialized]) {
            char m[300];
            fprintf(stderr, "codec_parse: %s\n", codec_error_format(&err, m, sizeof m));
            exit(2);
        }
    }
    return paths[specialized];
}

int proto3_codec_round_trip(const uint8_t *data, size_t size, int specialized, codec_buf *out,
                            codec_error *err)
{
    codec *c = path(specialized != 0);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    protobuf_test_messages_proto3_TestAllTypesProto3 m;
    codec_buf_clear(out);
    int rc = codec_decode(c, data, size, &m, &arena, err);
    if (!rc)
        rc = codec_encode(c, &m, out, err);
    codec_arena_free(&arena);
    return rc;
}
