/* gzip.c — `gzip:L`: one RFC 1952 member per value; decode also takes
 * members back to back, as `gzip -d` does. Engine and stage: flate.c. */
#include "compress_internal.h"

#include "codec/compress.h"

int codec__stage_ctor_gzip(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    return codec__flate_stage_init(s, a, CODEC_FLATE_GZIP, err);
}

codec *codec_gzip(int level, codec_error *err)
{
    return codec__make_leveled("gzip", level, NULL, err);
}
