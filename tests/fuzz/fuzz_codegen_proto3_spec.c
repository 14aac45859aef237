/* fuzz_codegen_proto3_spec.c — the specialized code codec-gen writes for
 * TestAllTypesProto3 (`specialize=1`, codec/codegen.h) against the
 * descriptor path of the same type (`protobuf:codegen=off`), on arbitrary
 * bytes: both must accept the same inputs, refuse the others with the same
 * error (family, detail, offset, message), and the values they decode must
 * encode to the same bytes with either encoder. The generated sources come
 * from codec_generate() at build time (tests/CMakeLists.txt). */
#include "codec/codec.h"
#include "fuzz_target.h"
#include "../two_paths.h"
#include "test_messages_proto3.codec.h"

#include <stdlib.h>
#include <string.h>

typedef protobuf_test_messages_proto3_TestAllTypesProto3 msg;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *spec, *plain;
    const codec_type *t = &protobuf_test_messages_proto3_TestAllTypesProto3_type;
    if (!spec && (!t->codegen ||
                  !(spec = codec_parse("protobuf:max-elements=100000", t, NULL)) ||
                  !(plain = codec_parse("protobuf:max-elements=100000,codegen=off", t, NULL))))
        abort();
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_error e1, e2;
    msg m1, m2;
    int r1 = codec_decode(spec, data, size, &m1, &arena, &e1);
    int r2 = codec_decode(plain, data, size, &m2, &arena, &e2);
    if (!r1 != !r2)
        abort();
    if (r1) {
        if (e1.family != CODEC_E_INVALID_PAYLOAD || e1.offset > size || e1.family != e2.family ||
            e1.detail != e2.detail || e1.offset != e2.offset || strcmp(e1.message, e2.message))
            abort();
    } else {
        codec_buf b[4];
        for (int i = 0; i < 4; i++)
            codec_buf_init(&b[i], NULL);
        two_paths_encode(spec, &m1, &b[0]);
        two_paths_encode(plain, &m2, &b[1]);
        two_paths_encode(plain, &m1, &b[2]);
        two_paths_encode(spec, &m2, &b[3]);
        if (!two_paths_same(&b[0], &b[1]) || !two_paths_same(&b[0], &b[2]) ||
            !two_paths_same(&b[0], &b[3]))
            abort();
        for (int i = 0; i < 4; i++)
            codec_buf_free(&b[i]);
    }
    codec_arena_free(&arena);
    return 0;
}
