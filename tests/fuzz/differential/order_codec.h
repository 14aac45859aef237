/* order_codec.h — see order_codec.c. */
#ifndef CODEC_TEST_ORDER_CODEC_H
#define CODEC_TEST_ORDER_CODEC_H

#include "codec/codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes `data` as an Order with codec (unknown fields skipped) and, when
 * that succeeds, appends its re-encoding to `again`. Returns the decode's
 * status (err filled), or -1 when what decoded cannot be encoded again. */
int order_codec_round_trip(const uint8_t *data, size_t size, codec_buf *again, codec_error *err);

#ifdef __cplusplus
}
#endif

#endif
