/* crc32c_internal.h — the CRC-32C kernels and the constants they share.
 *
 * Every kernel has zlib's chaining convention (start from 0, pass the last
 * result on) and gives identical results; crc32c_scalar() is the
 * reference. The x86 kernels live in x86/ and are only called after
 * codec__crc32c_kernel() has checked the CPU.
 *
 * Folding constants. In the reflected bit order a 32-bit value v stands for
 * the polynomial whose x^(31-i) coefficient is bit i of v, and
 *     CRC32C_Xe = x^e mod P(x),  P = 0x1EDC6F41 (reflected 0x82F63B78).
 * They come from the three-line routine below, run once when these
 * constants were written; tests/unit/test_integrity.c re-derives every one:
 *     uint32_t v = 0x80000000;                           (x^0)
 *     while (e--) v = (v >> 1) ^ (v & 1 ? 0x82F63B78 : 0); (times x, mod P)
 * Why these exponents (docs/formats/integrity.md, "Kernels"): carry-less
 * multiplying two reflected 64-bit halves yields the product times x, and a
 * 32-bit constant sits 32 bits high in its 64-bit half, so folding a 128-bit
 * block D bits forward multiplies its first half by x^(D+31) and its second
 * half by x^(D-33); moving a finished CRC over L bytes of later data
 * multiplies it by x^(8L-33) before the crc32 instruction reduces it. */
#ifndef CODEC_INTEGRITY_CRC32C_INTERNAL_H
#define CODEC_INTEGRITY_CRC32C_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#define CRC32C_POLY 0x82F63B78u

/* Folding distances of the 512-bit kernel: D = 2048, 1536, 1024, 512 bits
 * (between zmm registers), 384, 256, 128 bits (between 128-bit lanes) and
 * 9728 bits (2048 + the 960 stream bytes of a hybrid chunk). */
#define CRC32C_X9759 0x93781dc7u
#define CRC32C_X9695 0xb3af077au
#define CRC32C_X2079 0xdcb17aa4u
#define CRC32C_X2015 0xb9e02b86u
#define CRC32C_X1567 0xa87ab8a8u
#define CRC32C_X1503 0xab7aff2au
#define CRC32C_X1055 0x6992cea2u
#define CRC32C_X991 0x0d3b6092u
#define CRC32C_X543 0x740eef02u
#define CRC32C_X479 0x9e4addf8u
#define CRC32C_X415 0x1c291d04u
#define CRC32C_X351 0xddc0152bu
#define CRC32C_X287 0x3da6d0cbu
#define CRC32C_X223 0xba4fc28eu
#define CRC32C_X159 0xf20c0dfeu
#define CRC32C_X95 0x493c7d27u
/* Stream shifts (x^(8L-33)): the 3-way SSE4.2 kernel's L = 1024 and 2048
 * bytes (x^8159, x^16351) and L = 128 and 256 bytes (x^991, x^2015 above);
 * the 512-bit kernel's streams, L = 320 and 640 bytes (x^2527, x^5087). */
#define CRC32C_X2527 0xbac2fd7bu
#define CRC32C_X5087 0x6b749fb2u
#define CRC32C_X8159 0x170076fau
#define CRC32C_X16351 0xa51b6135u

typedef uint32_t (*crc32c_kernel_fn)(uint32_t crc, const void *p, size_t n);

/* Kernel choices, in the order of the stage's `kernel=` argument. */
enum crc32c_kernel_id { CRC32C_AUTO, CRC32C_SCALAR, CRC32C_SSE42, CRC32C_AVX512,
                        CRC32C_KERNEL_COUNT };

/* The kernel `id` (CRC32C_AUTO = the fastest available), or NULL when this
 * CPU lacks it. Thread-safe; prepares the scalar tables on first use. */
crc32c_kernel_fn codec__crc32c_kernel(int id);

uint32_t codec__crc32c_sse42(uint32_t crc, const void *p, size_t n);
uint32_t codec__crc32c_avx512(uint32_t crc, const void *p, size_t n);

/* Fused kernels: the CRC of src[0..n) (same chaining) while copying it to
 * dst[0..n) in the same pass, so a trailer stage reads its payload once.
 * dst and src must not overlap. Each is its checksum kernel storing every
 * block it loads; the scalar one is the reference. */
typedef uint32_t (*crc32c_copy_fn)(uint32_t crc, void *dst, const void *src, size_t n);

uint32_t codec__crc32c_copy_sse42(uint32_t crc, void *dst, const void *src, size_t n);
uint32_t codec__crc32c_copy_avx512(uint32_t crc, void *dst, const void *src, size_t n);

/* The fused kernel that goes with kernel `id` (as codec__crc32c_kernel()),
 * or NULL when this CPU lacks it. */
crc32c_copy_fn codec__crc32c_copy_kernel(int id);

#endif
