/* fuzz_fory_value.c — schemaless Fory (a codec_value: scalars, LISTs,
 * MAPs, arrays of numbers) on arbitrary bytes. It must accept or fail with
 * an invalid-payload or unsupported error; an accepted value must encode
 * (or be refused as an invalid value: no Fory form), and what it encodes to
 * must decode and encode to the same bytes again. (Values are compared by
 * their encodings: a schemaless map may repeat a key, which vu_equal's
 * lookup by key cannot compare.) */
#include "fuzz_target.h"
#include "codec/codec.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *c;
    if (!c && !(c = codec_parse("fory", codec_value_type(), NULL)))
        abort();
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_error err;
    codec_value v1, v2;
    int rc = codec_decode(c, data, size, &v1, &arena, &err);
    if (rc == 0) {
        codec_buf a, b;
        codec_buf_init(&a, NULL);
        codec_buf_init(&b, NULL);
        rc = codec_encode(c, &v1, &a, &err);
        if (rc == 0) {
            if (codec_decode(c, a.data, a.len, &v2, &arena, &err) ||
                codec_encode(c, &v2, &b, &err) || a.len != b.len ||
                memcmp(a.data, b.data, a.len) != 0)
                abort();
        } else if (rc != CODEC_E_INVALID_VALUE) {
            abort();
        }
        codec_buf_free(&a);
        codec_buf_free(&b);
    } else if (rc != CODEC_E_INVALID_PAYLOAD && rc != CODEC_E_UNSUPPORTED &&
               rc != CODEC_E_NOMEM) {
        abort();
    }
    codec_arena_free(&arena);
    return 0;
}
