/* fuzz_cbor.c — the CBOR decoder on arbitrary bytes, four ways: the
 * diagnostic printer (well-formedness), schemaless decoding, and typed
 * decoding into a struct with every kind (names, and tags + deterministic).
 * Each must accept or fail with an invalid-payload error; a value decoder
 * must not accept what the well-formedness check rejects; an accepted value
 * must encode and decode again to the same bytes. Never crash, never leak. */
#include "fuzz_target.h"
#include "fuzz_binary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *value_codec, *typed_codec, *sorted_codec;
    if (!value_codec) {
        value_codec = codec_parse("cbor:duplicates=allow", codec_value_type(), NULL);
        typed_codec = codec_parse("cbor:max-depth=64", &item_type, NULL);
        sorted_codec = codec_parse("cbor:deterministic,keys=tags", &item_type, NULL);
        if (!value_codec || !typed_codec || !sorted_codec)
            abort();
    }
    codec_buf diag;
    codec_buf_init(&diag, NULL);
    codec_error err;
    int rc = codec_cbor_diagnose(data, size, &diag, &err);
    if (rc && err.family != CODEC_E_INVALID_PAYLOAD)
        abort();
    codec_buf_free(&diag);
    codec_value v1, v2;
    check_codec(value_codec, data, size, &v1, &v2, rc == 0);
    item i1, i2;
    check_codec(typed_codec, data, size, &i1, &i2, rc == 0);
    check_codec(sorted_codec, data, size, &i1, &i2, rc == 0);
    return 0;
}
