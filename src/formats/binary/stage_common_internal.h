/* stage_common_internal.h — the option plumbing the binary backends share: the four
 * decode limits (the JSON backend's names and defaults), reading them from
 * a spec, and writing a spec text back for codec_cbor()/codec_msgpack(). */
#ifndef CODEC_BINARY_STAGE_COMMON_H
#define CODEC_BINARY_STAGE_COMMON_H

#include "compose/stage_internal.h"

#define BIN_DEFAULT_MAX_DEPTH 128
#define BIN_MAX_DEPTH_LIMIT 4096
#define BIN_DEFAULT_MAX_SIZE ((size_t)64 << 20)
#define BIN_DEFAULT_MAX_STRING ((size_t)16 << 20)
#define BIN_DEFAULT_MAX_ELEMENTS ((size_t)1 << 24)

/* The limit fields of one option block. */
typedef struct bin_limits {
    size_t *depth, *size, *string, *elements;
} bin_limits;

/* One on/off option as spec text ("keys=tags"). */
typedef struct bin_flag {
    bool on;
    const char *text;
} bin_flag;

/* Zero means the default; depth is clamped to BIN_MAX_DEPTH_LIMIT. */
void codec__bin_limits_resolve(bin_limits l);

/* Reads max-depth, max-size, max-string and max-elements. */
int codec__bin_limits_read(codec_args *a, bin_limits l, codec_error *err);

/* Builds "flag,flag,max-x=N" from the flags that are on and the limits
 * that are not the defaults, then makes the codec from registry `name`. */
codec *codec__bin_make(const char *name, const codec_type *t, const bin_flag *flags, size_t count,
                       bin_limits l, codec_error *err);

/* The constructor's tail: checks the type, copies the `size`-byte option
 * block `o` into a new state, fills the stage. */
int codec__bin_stage_init(codec_stage *s, const codec_stage_ops *ops, const codec_type *t,
                          const void *o, size_t size, codec_error *err);

#endif
