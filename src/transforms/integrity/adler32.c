/* adler32.c — zlib's Adler-32 (`adler32` stage and codec_adler32()),
 * computed by libdeflate's vectorised kernel (by zlib in a build without
 * libdeflate), opened on first use; by the loop below where it cannot be
 * opened (checksum_internal.h). */
#include "codec/integrity.h"
#include "checksum_internal.h"
#include "trailer_internal.h"

/* The largest prime below 2^16, and the most bytes whose sums cannot pass
 * 2^32 before they are reduced: the largest n with
 * 255 n (n + 1) / 2 + (n + 1) (ADLER_MOD - 1) < 2^32. */
#define ADLER_MOD 65521u
#define ADLER_NMAX 5552

static uint32_t adler32_portable(uint32_t adler, const uint8_t *p, size_t n)
{
    uint32_t a = adler & 0xffff, b = adler >> 16;
    while (n) {
        size_t k = n < ADLER_NMAX ? n : ADLER_NMAX;
        n -= k;
        for (; k; p++, k--) {
            a += *p;
            b += a;
        }
        a %= ADLER_MOD;
        b %= ADLER_MOD;
    }
    return b << 16 | a;
}

uint32_t codec_adler32(uint32_t adler, const void *p, size_t n)
{
    if (checksum_lib_open("adler32"))
        return CHECKSUM_LIB_ADLER32(adler, p, n);
    return adler32_portable(adler, p, n);
}

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
