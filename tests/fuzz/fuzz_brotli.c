/* fuzz_brotli.c — the streaming brotli decoder and its cap. */
#include "fuzz_compress.h"

CODEC_FUZZ_COMPRESS_TARGET("brotli:1,max=4m", "brotli:5,max=64k")
