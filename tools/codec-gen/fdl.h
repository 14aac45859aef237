/* fdl.h — the Fory IDL reader: .fdl files to the file descriptors the
 * generator takes (gen.h). */
#ifndef CODEC_GEN_FDL_H
#define CODEC_GEN_FDL_H

#include "gen.h"

typedef struct codec__fdl_result {
    codec__google_protobuf_FileDescriptorProto *files;   /* imports first, the file read last */
    size_t count;
    codec__gen_fory_id *ids;                      /* [id=N] of messages and enums */
    size_t nids;
} codec__fdl_result;

/* Reads the .fdl file at `path`, known to the generated code as `name`
 * (its path relative to the include root), with its imports. Strings and
 * descriptors live in `arena`. Returns 0, or -1 with `err` ("file:line:
 * what"). */
int codec__fdl_read(const char *path, const char *name, codec_arena *arena,
                    codec__fdl_result *out, char *err, size_t errcap);

void codec__fdl_result_free(codec__fdl_result *r);

#endif
