/* crc32_internal.h — zlib's CRC-32 by folding: the constants and the x86
 * kernel (x86/crc32_sse42.c), which codec_crc32() (crc32.c) calls only
 * after checking the CPU.
 *
 * The method and the conventions are CRC-32C's (crc32c_internal.h): in the
 * reflected bit order CRC32_Xe = x^e mod P(x), P = 0x04C11DB7 (reflected
 * 0xEDB88320), from the same three-line routine, which
 * tests/unit/test_integrity.c re-derives; folding a 128-bit block D bits
 * forward multiplies its first half by x^(D+31) and its second half by
 * x^(D-33). CRC-32 has no crc32 instruction to reduce the last block, so
 * the kernel hands it back and crc32.c runs its table over those 16 bytes. */
#ifndef CODEC_INTEGRITY_CRC32_INTERNAL_H
#define CODEC_INTEGRITY_CRC32_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#define CRC32_POLY 0xEDB88320u

/* D = 512 bits (four 128-bit accumulators to the next 64 bytes) and 128. */
#define CRC32_X543 0x8f352d95u
#define CRC32_X479 0x1d9513d7u
#define CRC32_X159 0xae689191u
#define CRC32_X95 0xccaa009eu

/* The shortest input worth folding (one 16-byte block to fold into). */
#define CRC32_FOLD_MIN 32

/* A folding kernel: p[0..n) (n >= CRC32_FOLD_MIN, a multiple of 16), with
 * the raw CRC register c (not inverted) XORed over its first 4 bytes, into
 * 16 bytes with the same CRC from a register of 0, stored at out. */
typedef void (*crc32_fold_fn)(uint32_t c, const uint8_t *p, size_t n, uint8_t out[16]);
void codec__crc32_fold_sse42(uint32_t c, const uint8_t *p, size_t n, uint8_t out[16]);

/* Every function has codec_crc32()'s convention (start from 0, pass the
 * last result on) and its values. */
/* The table kernel, a byte at a time (every CPU, the reference). */
uint32_t codec__crc32_table(uint32_t crc, const void *p, size_t n);
/* The folding kernel this CPU can run, or NULL. */
crc32_fold_fn codec__crc32_fold_kernel(void);
/* CRC-32 with folding kernel fn (the table for inputs too short to fold,
 * and for the last 16 bytes folded and the bytes after them). */
uint32_t codec__crc32_folded(crc32_fold_fn fn, uint32_t crc, const void *p, size_t n);

#endif /* CODEC_INTEGRITY_CRC32_INTERNAL_H */
