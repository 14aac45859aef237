/* proto.c — the descriptor.proto and plugin.proto types codec-gen reads
 * descriptor sets and CodeGeneratorRequests with. descriptor.proto's is
 * libcodec's own copy (src/schema/proto/, which src/schema/schema.c
 * #includes too); plugin.proto's is codec-gen's (tools/codec-gen/proto/).
 * Both are generated with `static=1` (tools/codec-gen/regen-bootstrap.sh):
 * their headers give the C types, and this file, which #includes the code,
 * is the one that has the descriptors. */
#include "google/protobuf/descriptor.codec.c"
#include "google/protobuf/compiler/plugin.codec.c"
#include "gen.h"

const codec_type *const codec__gen_file_set_type = &codec__google_protobuf_FileDescriptorSet_type;
const codec_type *const codec__gen_request_type =
    &codec__google_protobuf_compiler_CodeGeneratorRequest_type;
const codec_type *const codec__gen_response_type =
    &codec__google_protobuf_compiler_CodeGeneratorResponse_type;
