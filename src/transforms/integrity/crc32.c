/* crc32.c — zlib's CRC-32 (`crc32` stage and codec_crc32()), computed by
 * libdeflate, whose folding kernels are far faster than zlib's crc32() (by
 * zlib in a build without libdeflate), opened on first use; by the small
 * table below where it cannot be opened (checksum_internal.h). */
#include "codec/integrity.h"
#include "checksum_internal.h"
#include "trailer_internal.h"

/* The portable kernel, four bits at a time: nibble[k] is the CRC register
 * after the 4 bits k, for zlib's polynomial 0x04C11DB7 in the reflected bit
 * order (0xEDB88320 = nibble[8]). Each is
 *     c = k; 4 times: c = (c >> 1) ^ (c & 1 ? 0xEDB88320 : 0)
 * and unit/test_dynlib checks the kernel against zlib's values. */
static const uint32_t nibble[16] = {
    0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
    0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
    0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c};

static uint32_t crc32_portable(uint32_t crc, const uint8_t *p, size_t n)
{
    uint32_t c = ~crc;
    for (; n; p++, n--) {
        c ^= *p;
        c = (c >> 4) ^ nibble[c & 15];
        c = (c >> 4) ^ nibble[c & 15];
    }
    return ~c;
}

uint32_t codec_crc32(uint32_t crc, const void *p, size_t n)
{
    if (checksum_lib_open("crc32"))
        return CHECKSUM_LIB_CRC32(crc, p, n);
    return crc32_portable(crc, p, n);
}

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
