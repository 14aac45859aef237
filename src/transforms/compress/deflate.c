/* deflate.c — `deflate:L`: a zlib stream (RFC 1950: 2-byte header, deflate
 * data, Adler-32), what the JDK's Deflater writes. Engine and stage: flate.c. */
#include "compress_internal.h"

#include "codec/compress.h"

int codec__stage_ctor_deflate(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    return codec__flate_stage_init(s, a, CODEC_FLATE_ZLIB, err);
}

codec *codec_deflate(int level, codec_error *err)
{
    return codec__make_leveled("deflate", level, NULL, err);
}
