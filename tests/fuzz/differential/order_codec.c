/* order_codec.c — codec's side of fuzz_diff_protobuf_cpp.cc, in C: the
 * Order model of tests/unit/json_payloads.h (order.proto's C mirror)
 * decoded by codec's protobuf backend and encoded again. */
#include "order_codec.h"

#include "json_payloads.h"

int order_codec_round_trip(const uint8_t *data, size_t size, codec_buf *again, codec_error *err)
{
    static codec *pb;
    if (!pb && !(pb = codec_parse("protobuf:unknown=skip", &order_type, NULL)))
        abort();
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    order decoded;
    int rc = codec_decode(pb, data, size, &decoded, &arena, err);
    if (!rc && codec_encode(pb, &decoded, again, err))
        rc = -1;
    codec_arena_free(&arena);
    return rc;
}
