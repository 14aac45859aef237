/* proto3_cpp_codec.h — see proto3_cpp_codec.c. */
#ifndef CODEC_TEST_PROTO3_CPP_CODEC_H
#define CODEC_TEST_PROTO3_CPP_CODEC_H

#include "codec/codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes `data` as a TestAllTypesProto3 with the code codec-gen generated
 * (unknown fields kept) and encodes the decoded value into `out` (cleared
 * first). `specialized` picks the generated straight-line code ("protobuf")
 * or the descriptor path ("protobuf:codegen=off"). Returns 0, or the failing
 * step's status with err filled. */
int proto3_codec_round_trip(const uint8_t *data, size_t size, int specialized, codec_buf *out,
                            codec_error *err);

#ifdef __cplusplus
}
#endif

#endif
