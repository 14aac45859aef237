/* crc32.c — zlib's CRC-32 (`crc32` stage and codec_crc32()): folded by
 * carry-less multiplication where the CPU has it (x86/crc32_sse42.c, as
 * fast as libdeflate's and no library to map: a gzip stream then loads
 * none), else computed by libdeflate (zlib in a build without it), opened
 * on first use, else by the table below (checksum_internal.h). */
#include "codec/integrity.h"
#include "checksum_internal.h"
#include "core/cpu_internal.h"
#include "crc32_internal.h"
#include "trailer_internal.h"

#include <pthread.h>

/* table[b] = the CRC register after byte b. Filled once. */
static uint32_t table[256];
static crc32_fold_fn fold;
static pthread_once_t crc32_once = PTHREAD_ONCE_INIT;

static void crc32_init(void)
{
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int i = 0; i < 8; i++)
            c = (c >> 1) ^ (c & 1 ? CRC32_POLY : 0);
        table[b] = c;
    }
    fold = codec_cpu_has(CODEC_CPU_FOR_SSE42) ? CODEC_KERNEL(codec__crc32_fold_sse42) : NULL;
}

/* The raw register c (not inverted) over p[0..n), a byte at a time. */
static uint32_t crc32_bytes(uint32_t c, const uint8_t *p, size_t n)
{
    for (; n; p++, n--)
        c = (c >> 8) ^ table[(c ^ *p) & 0xff];
    return c;
}

uint32_t codec__crc32_table(uint32_t crc, const void *p, size_t n)
{
    pthread_once(&crc32_once, crc32_init);
    return ~crc32_bytes(~crc, p, n);
}

crc32_fold_fn codec__crc32_fold_kernel(void)
{
    pthread_once(&crc32_once, crc32_init);
    return fold;
}

uint32_t codec__crc32_folded(crc32_fold_fn fn, uint32_t crc, const void *p, size_t n)
{
    pthread_once(&crc32_once, crc32_init);
    const uint8_t *b = p;
    uint32_t c = ~crc;
    if (n >= CRC32_FOLD_MIN) {
        uint8_t last[16];
        size_t whole = n & ~(size_t)15;
        fn(c, b, whole, last);
        c = crc32_bytes(0, last, sizeof last);
        b += whole, n -= whole;
    }
    return ~crc32_bytes(c, b, n);
}

uint32_t codec_crc32(uint32_t crc, const void *p, size_t n)
{
    crc32_fold_fn fn = codec__crc32_fold_kernel();
    if (fn)
        return codec__crc32_folded(fn, crc, p, n);
    if (checksum_lib_open("crc32"))
        return CHECKSUM_LIB_CRC32(crc, p, n);
    return codec__crc32_table(crc, p, n);
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
