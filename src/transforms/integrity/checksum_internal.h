/* checksum_internal.h — where CRC-32 and Adler-32 come from (crc32.c,
 * adler32.c: codec_crc32(), codec_adler32(), their stages, and through
 * them gzip's and zlib's trailers and our inflate's checks).
 *
 * CRC-32 is folded by codec's own kernel where the CPU can (crc32.c). Else
 * libdeflate computes them (zlib in a build without libdeflate), opened on
 * first use like every library codec calls (core/dynlib_internal.h): a
 * process that never checksums never maps it. The two functions return a
 * value, not an error, so when the library cannot be opened they compute
 * with a portable kernel of their own instead (a table look-up, or two
 * additions, per byte): slower, the same values, never a wrong one.
 * unit/test_integrity and unit/test_dynlib check those kernels against
 * zlib's values. */
#ifndef CODEC_INTEGRITY_CHECKSUM_INTERNAL_H
#define CODEC_INTEGRITY_CHECKSUM_INTERNAL_H

#include "codec/core.h"

#include <stdbool.h>

#if CODEC_HAVE_LIBDEFLATE
#include "transforms/compress/libdeflate_internal.h"
#define CHECKSUM_LIB codec__libdeflate
#define CHECKSUM_LIB_CRC32(crc, p, n) libdeflate_crc32((crc), (p), (n))
#define CHECKSUM_LIB_ADLER32(adler, p, n) libdeflate_adler32((adler), (p), (n))
#else
#include "transforms/compress/libz_internal.h"
#define CHECKSUM_LIB codec__libz
#define CHECKSUM_LIB_CRC32(crc, p, n) ((uint32_t)crc32_z((crc), (p), (n)))
#define CHECKSUM_LIB_ADLER32(adler, p, n) ((uint32_t)adler32_z((adler), (p), (n)))
#endif

/* Whether the library is open: the first call opens it (`name` is only
 * for the loader's report, which nobody reads here). */
static inline bool checksum_lib_open(const char *name)
{
    return codec__dynlib_open(&CHECKSUM_LIB, name, NULL) == CODEC_OK;
}

#endif /* CODEC_INTEGRITY_CHECKSUM_INTERNAL_H */
