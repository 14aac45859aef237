/* fuzz_lz4.c — the LZ4 frame decoder (frames back to back, content sizes). */
#include "fuzz_compress.h"

CODEC_FUZZ_COMPRESS_TARGET("lz4:max=4m", "lz4hc:3,max=4m", "lz4:max=64k")
