/* fuzz_kafka_message.c — codec_kafka_deserialize on a message with
 * arbitrary payload bytes (through `json | zstd:3` and `protobuf` over an
 * order type): it decodes or fails with a payload-family status whose
 * message is one bounded line starting with the message's place in the log
 * ("? [P] @O: "), the codec's stage kept; a decoded value encodes again.
 * The first input byte picks the partition, the pipeline and the offset. */
#include "fuzz_target.h"
#include "codec/codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CODEC_HAVE_KAFKA
#include "codec/kafka.h"

typedef struct item { codec_string sku; int32_t quantity; double price; } item;
typedef struct order { int64_t id; codec_string customer; CODEC_LIST_OF(item) items; } order;
CODEC_STRUCT(item_type, item, CODEC_FIELD(item, sku, 1, CODEC_STRING),
             CODEC_FIELD(item, quantity, 2, CODEC_INT32), CODEC_FIELD(item, price, 3, CODEC_DOUBLE));
CODEC_LIST(items_type, &item_type);
CODEC_STRUCT(order_type, order, CODEC_FIELD(order, id, 1, CODEC_INT64),
             CODEC_FIELD(order, customer, 2, CODEC_STRING),
             CODEC_FIELD(order, items, 3, &items_type));

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    codec *c = codec_parse(data[0] & 1 ? "protobuf" : "json | zstd:3", &order_type, NULL);
    if (!c)
        abort();
    /* Only the public fields: no handle, so the spec header is not read. */
    rd_kafka_message_t m = {.partition = data[0] >> 1, .payload = (void *)(data + 1),
                            .len = size - 1, .offset = (int64_t)data[0] << 40};
    const codec *codecs[] = {c};
    codec_kafka_decoder d = {.codecs = codecs, .count = 1, .check = CODEC_KAFKA_SPEC_IGNORE};
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    order v;
    codec_error err;
    int rc = codec_kafka_deserialize(&d, &m, &v, &arena, NULL, &err);
    if (rc == 0) {
        codec_buf out;
        codec_buf_init(&out, NULL);
        if (codec_encode(c, &v, &out, &err) != 0)
            abort();
        codec_buf_free(&out);
    } else {
        char where[64];
        snprintf(where, sizeof where, "? [%d] @%lld: ", (int)m.partition, (long long)m.offset);
        if ((rc != CODEC_E_INVALID_PAYLOAD && rc != CODEC_E_UNSUPPORTED && rc != CODEC_E_NOMEM) ||
            strncmp(err.message, where, strlen(where)) != 0 ||
            !memchr(err.message, '\0', sizeof err.message) || !err.stage[0])
            abort();
    }
    codec_arena_free(&arena);
    codec_free(c);
    return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)data, (void)size;
    return 0;
}
#endif
