/* schema_convert.h — `codec convert --schema DESC --type NAME` (schema_convert.c). */
#ifndef CODEC_CLI_SCHEMA_CONVERT_H
#define CODEC_CLI_SCHEMA_CONVERT_H

#include "cli.h"

/* Converts `in` from protobuf (of message `type_name` in the descriptor set
 * at `schema_path`) to the schemaless format of `to_spec`, or from that
 * format to protobuf, and writes the result to standard output.
 * Returns a codec status with `err` filled. */
int cli_convert_with_schema(const char *from_spec, const char *to_spec, const char *schema_path,
                            const char *type_name, const cli_input *in, codec_error *err);

#endif
