/* crc32.c — zlib's CRC-32 (`crc32` stage and codec_crc32()), computed by
 * libdeflate, whose folding kernels are far faster than zlib's crc32(). */
#include "codec/integrity.h"
#include "trailer_internal.h"

#if CODEC_HAVE_LIBDEFLATE
#include <libdeflate.h>

uint32_t codec_crc32(uint32_t crc, const void *p, size_t n)
{
    return libdeflate_crc32(crc, p, n);
}
#else
#include <zlib.h>

/* A build without libdeflate: zlib's (slower) crc32. */
uint32_t codec_crc32(uint32_t crc, const void *p, size_t n)
{
    return (uint32_t)crc32_z(crc, p, n);
}
#endif

static const checksum_trailer crc32_trailer = {codec_crc32, 0, NULL}; /* copy: in pieces */

int codec__stage_ctor_crc32(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)a, (void)t, (void)err;
    codec__checksum_trailer_stage(s, &crc32_trailer);
    return CODEC_OK;
}

codec *codec_crc32_trailer(codec_error *err)
{
    return codec__make("crc32", NULL, NULL, err);
}
