/* adler32.c — zlib's Adler-32 (`adler32` stage and codec_adler32()),
 * computed by libdeflate's vectorised kernel (by zlib in a build without
 * libdeflate). */
#include "codec/integrity.h"
#include "trailer_internal.h"

#if CODEC_HAVE_LIBDEFLATE
#include <libdeflate.h>

uint32_t codec_adler32(uint32_t adler, const void *p, size_t n)
{
    return libdeflate_adler32(adler, p, n);
}
#else
#include <zlib.h>

uint32_t codec_adler32(uint32_t adler, const void *p, size_t n)
{
    return (uint32_t)adler32_z(adler, p, n);
}
#endif

static const checksum_trailer adler32_trailer = {codec_adler32, 1, NULL}; /* copy: in pieces */

int codec__stage_ctor_adler32(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)a, (void)t, (void)err;
    codec__checksum_trailer_stage(s, &adler32_trailer);
    return CODEC_OK;
}

codec *codec_adler32_trailer(codec_error *err)
{
    return codec__make("adler32", NULL, NULL, err);
}
