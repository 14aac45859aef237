/* fuzz_msgpack.c — the MessagePack decoder on arbitrary bytes: schemaless
 * decoding, and typed decoding (maps by name, arrays by tag) into a struct
 * with every kind. Each must accept or fail with an invalid-payload error;
 * an accepted value must encode and decode again to the same bytes. Never
 * crash, never leak. */
#include "fuzz_target.h"
#include "fuzz_binary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *value_codec, *typed_codec, *array_codec;
    if (!value_codec) {
        value_codec = codec_parse("msgpack:duplicates=allow", codec_value_type(), NULL);
        typed_codec = codec_parse("msgpack:max-depth=64", &item_type, NULL);
        array_codec = codec_parse("msgpack:structs=array", &item_type, NULL);
        if (!value_codec || !typed_codec || !array_codec)
            abort();
    }
    codec_value v1, v2;
    check_codec(value_codec, data, size, &v1, &v2, true);
    item i1, i2;
    check_codec(typed_codec, data, size, &i1, &i2, true);
    check_codec(array_codec, data, size, &i1, &i2, true);
    return 0;
}
