/* fuzz_gzip.c — the gzip decoder (multi-member, libdeflate and zlib paths). */
#include "fuzz_compress.h"

CODEC_FUZZ_COMPRESS_TARGET("gzip:1,max=4m", "gzip:9,max=4m", "gzip:6,max=4m,gate=16")
