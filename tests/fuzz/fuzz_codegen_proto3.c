/* fuzz_codegen_proto3.c — the code codec-gen generates from Google's
 * conformance schema (TestAllTypesProto3: every scalar, packed and unpacked
 * lists, maps of every key kind, a oneof, recursion through pointers, the
 * well-known types, unknown fields kept) on arbitrary bytes. Each decode
 * must succeed or fail with an invalid-payload error and an offset inside
 * the input; a decoded value must encode, decode again and encode to the
 * same bytes. The generated sources come from codec_generate() at build
 * time (tests/CMakeLists.txt). */
#include "codec/codec.h"
#include "fuzz_target.h"
#include "test_messages_proto3.codec.h"

#include <stdlib.h>
#include <string.h>

typedef protobuf_test_messages_proto3_TestAllTypesProto3 msg;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *c;
    if (!c && !(c = codec_parse("protobuf:max-elements=100000",
                                &protobuf_test_messages_proto3_TestAllTypesProto3_type, NULL)))
        abort();
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_error err;
    msg m1, m2;
    int rc = codec_decode(c, data, size, &m1, &arena, &err);
    if (rc && (err.family != CODEC_E_INVALID_PAYLOAD || err.offset > size))
        abort();
    if (!rc) {
        codec_buf a, b;
        codec_buf_init(&a, NULL);
        codec_buf_init(&b, NULL);
        if (codec_encode(c, &m1, &a, &err) || codec_decode(c, a.data, a.len, &m2, &arena, &err) ||
            codec_encode(c, &m2, &b, &err) || a.len != b.len ||
            (a.len && memcmp(a.data, b.data, a.len)))
            abort();
        codec_buf_free(&a);
        codec_buf_free(&b);
    }
    codec_arena_free(&arena);
    return 0;
}
