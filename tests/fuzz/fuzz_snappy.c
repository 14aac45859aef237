/* fuzz_snappy.c — the raw snappy decoder (`snappy`, `redisson-snappy`). */
#include "fuzz_compress.h"

CODEC_FUZZ_COMPRESS_TARGET("snappy:max=4m", "redisson-snappy:max=1k")
