/* fuzz_deflate.c — the zlib-stream decoder (libdeflate guess, zlib fallback). */
#include "fuzz_compress.h"

CODEC_FUZZ_COMPRESS_TARGET("deflate:1,max=4m", "deflate:6,max=4m", "deflate:9,max=64k")
