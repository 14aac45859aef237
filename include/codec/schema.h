/* codec/schema.h — codec types built at run time from a protobuf
 * descriptor set, for messages a program was not compiled with (as upb and
 * protobuf's reflection do).
 *
 *   protoc --include_imports -o x.desc x.proto
 *
 *   codec_schema *s = codec_schema_from_descriptor_set(desc, desc_len, &err);
 *   const codec_type *t = codec_schema_type(s, "pkg.Msg");
 *   codec *c = codec_protobuf(t, NULL, &err);
 *   void *msg = codec_arena_alloc(&arena, t->size, t->align);
 *   codec_decode(c, bytes, n, msg, &arena, &err);
 *
 * The types follow the mapping of the generated code (docs/guides/codegen.md):
 * message fields are pointers, repeated fields lists, maps maps, proto3
 * `optional` and proto2 fields optionals, oneofs unions, enums open, and
 * every message keeps its unknown fields. The C layout of a value is the
 * one a C compiler gives the generated struct (fields in field-number
 * order); walk it through the descriptor (codec_field offsets), not by name. */
#ifndef CODEC_SCHEMA_H
#define CODEC_SCHEMA_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct codec_schema codec_schema;

/** codec_schema_from_descriptor_set() — reads a serialized
 * google.protobuf.FileDescriptorSet (protoc -o, with --include_imports so
 * every referenced type is in it) and builds a codec_type for each of its
 * messages and enums.
 * @return the schema (codec_schema_free() it; the types live as long as it
 *         does), or NULL with CODEC_E_INVALID_PAYLOAD (not a descriptor set,
 *         with the byte offset), CODEC_E_UNSUPPORTED (a proto2 group, a type
 *         name that is not in the set) or CODEC_E_NOMEM.
 * Threads: the schema is immutable once built and may be shared.
 * Since: 0.1 */
CODEC_API codec_schema *codec_schema_from_descriptor_set(const uint8_t *data, size_t n,
                                                         codec_error *err);

/** codec_schema_type() — the type of message or enum `full_name`
 * ("pkg.Outer.Inner", no leading dot), or NULL. Since: 0.1 */
CODEC_API const codec_type *codec_schema_type(const codec_schema *s, const char *full_name);

/** codec_schema_free() — frees the schema and every type in it; NULL is
 * allowed. Since: 0.1 */
CODEC_API void codec_schema_free(codec_schema *s);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_SCHEMA_H */
