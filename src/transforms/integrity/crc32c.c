/* crc32c.c — CRC-32C (Castagnoli): the portable slicing-by-8 kernel (the
 * reference) and its fused checksum-and-copy twin, kernel dispatch, codec_crc32c() and the `crc32c` stage. */
#include "codec/integrity.h"
#include "crc32c_internal.h"
#include "core/cpu_internal.h"
#include "trailer_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* table[k][b] = CRC register after byte b followed by k zero bytes, so
 * eight table look-ups consume eight bytes at once. Filled once. */
static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void table_build(void)
{
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int i = 0; i < 8; i++)
            c = (c >> 1) ^ (c & 1 ? CRC32C_POLY : 0);
        table[0][b] = c;
    }
    for (int k = 1; k < 8; k++)
        for (uint32_t b = 0; b < 256; b++)
            table[k][b] = (table[k - 1][b] >> 8) ^ table[0][table[k - 1][b] & 0xff];
}

/* Little-endian 32-bit load, independent of the host's byte order. */
static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Slicing-by-8; with `copy` each 8 bytes read are also written to dst (the
 * fused kernel's reference). Inlined with a constant `copy`. */
static inline __attribute__((always_inline)) uint32_t
crc32c_scalar_body(uint32_t crc, uint8_t *dst, const uint8_t *p, size_t n, bool copy)
{
    uint32_t c = ~crc;
    for (; n >= 8; p += 8, n -= 8) {
        if (copy) {
            memcpy(dst, p, 8);
            dst += 8;
        }
        uint32_t lo = c ^ le32(p), hi = le32(p + 4);
        c = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^
            table[4][lo >> 24] ^ table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
            table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
    }
    for (; n; p++, n--) {
        if (copy)
            *dst++ = *p;
        c = (c >> 8) ^ table[0][(c ^ *p) & 0xff];
    }
    return ~c;
}

static uint32_t crc32c_scalar(uint32_t crc, const void *buf, size_t n)
{
    return crc32c_scalar_body(crc, NULL, buf, n, false);
}

static uint32_t crc32c_copy_scalar(uint32_t crc, void *dst, const void *src, size_t n)
{
    return crc32c_scalar_body(crc, dst, src, n, true);
}

crc32c_kernel_fn codec__crc32c_kernel(int id)
{
    pthread_once(&table_once, table_build);
    bool avx512 = codec_cpu_has(CODEC_CPU_FOR_AVX512VPCLMUL),
         sse42 = codec_cpu_has(CODEC_CPU_FOR_SSE42);
    switch (id) {
    case CRC32C_AUTO:
        return avx512 ? CODEC_KERNEL(codec__crc32c_avx512)
               : sse42 ? CODEC_KERNEL(codec__crc32c_sse42) : crc32c_scalar;
    case CRC32C_SCALAR: return crc32c_scalar;
    case CRC32C_SSE42: return sse42 ? CODEC_KERNEL(codec__crc32c_sse42) : NULL;
    case CRC32C_AVX512: return avx512 ? CODEC_KERNEL(codec__crc32c_avx512) : NULL;
    default: return NULL;
    }
}

crc32c_copy_fn codec__crc32c_copy_kernel(int id)
{
    crc32c_kernel_fn fn = codec__crc32c_kernel(id);
    if (fn == crc32c_scalar)
        return crc32c_copy_scalar;
    if (fn && fn == CODEC_KERNEL(codec__crc32c_sse42))
        return CODEC_KERNEL(codec__crc32c_copy_sse42);
    if (fn && fn == CODEC_KERNEL(codec__crc32c_avx512))
        return CODEC_KERNEL(codec__crc32c_copy_avx512);
    return NULL;
}

/* The public function resolves the kernel once per process; codecs keep
 * their own choice in the stage instead. */
static crc32c_kernel_fn best_kernel;
static pthread_once_t best_once = PTHREAD_ONCE_INIT;

static void best_pick(void)
{
    best_kernel = codec__crc32c_kernel(CRC32C_AUTO);
}

uint32_t codec_crc32c(uint32_t crc, const void *p, size_t n)
{
    pthread_once(&best_once, best_pick);
    return best_kernel(crc, p, n);
}

/* One static trailer per kernel, so the stage state needs no allocation. */
static const checksum_trailer trailers[CRC32C_KERNEL_COUNT] = {
    [CRC32C_SCALAR] = {crc32c_scalar, 0, crc32c_copy_scalar},
    [CRC32C_SSE42] = {CODEC_KERNEL(codec__crc32c_sse42), 0,
                      CODEC_KERNEL(codec__crc32c_copy_sse42)},
    [CRC32C_AVX512] = {CODEC_KERNEL(codec__crc32c_avx512), 0,
                       CODEC_KERNEL(codec__crc32c_copy_avx512)},
};

static const char *const kernel_names[] = {"auto", "scalar", "sse42", "avx512", NULL};

int codec__stage_ctor_crc32c(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    size_t id;
    int rc = codec__args_choice(a, "kernel", false, kernel_names, CRC32C_AUTO, &id, err);
    if (rc)
        return rc;
    crc32c_kernel_fn fn = codec__crc32c_kernel((int)id);
    if (!fn)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                               "kernel '%s' is not supported by this CPU", kernel_names[id]);
    for (size_t i = CRC32C_SCALAR; i < CRC32C_KERNEL_COUNT; i++)
        if (trailers[i].fn == fn)
            codec__checksum_trailer_stage(s, &trailers[i]);
    return CODEC_OK;
}

codec *codec_crc32c_trailer(const char *kernel, codec_error *err)
{
    if (!kernel)
        return codec__make("crc32c", NULL, NULL, err);
    char args[32];
    int w = snprintf(args, sizeof args, "kernel=%s", kernel);
    if (w < 0 || (size_t)w >= sizeof args) {
        codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "crc32c", CODEC_NO_OFFSET,
                        "unknown kernel: expected auto, scalar, sse42 or avx512");
        return NULL;
    }
    return codec__make("crc32c", args, NULL, err);
}
