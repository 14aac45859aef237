/* fuzz_redisson_lz4.c — the raw LZ4 block decoder behind `redisson-lz4`. */
#include "fuzz_compress.h"

CODEC_FUZZ_COMPRESS_TARGET("redisson-lz4:max=4m", "redisson-lz4:max=1k")
