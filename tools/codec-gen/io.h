/* io.h — what protoc-gen-codec and codec-gen share around the generator:
 * reading a whole file, decoding protobuf with codec, writing outputs. */
#ifndef CODEC_GEN_IO_H
#define CODEC_GEN_IO_H

#include "gen.h"

#include <stdio.h>

/* The whole of `f` in a malloc'd buffer (*len bytes); NULL on error. */
uint8_t *codec__gen_read_all(FILE *f, size_t *len);

/* Decodes protobuf `in` into *value (of type t) in `arena`; prints the
 * error (with its offset) and returns -1 when it fails. */
int codec__gen_decode(const codec_type *t, const uint8_t *in, size_t n, void *value,
                      codec_arena *arena, const char *what);

/* Writes each output under `dir`, creating directories; -1 on error. */
int codec__gen_write_files(const codec__gen_result *r, const char *dir);

#endif
