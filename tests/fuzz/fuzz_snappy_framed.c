/* fuzz_snappy_framed.c — the snappy framing format decoder
 * (`snappy:framed`): stream identifier, compressed and stored chunks with
 * their masked CRC-32C, padding and skippable chunks, reserved types. */
#include "fuzz_compress.h"

CODEC_FUZZ_COMPRESS_TARGET("snappy:framed,max=4m", "snappy:framed,max=1k")
