/* fuzz_zstd.c — the zstd frame decoder (sized and streaming paths) and the
 * Redisson length-prefixed framing. */
#include "fuzz_compress.h"

CODEC_FUZZ_COMPRESS_TARGET("zstd:1,max=4m", "zstd:-3,max=64k", "redisson-zstd:3,max=4m")
