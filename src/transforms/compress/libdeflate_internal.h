/* libdeflate_internal.h — the libdeflate functions of the gzip and deflate
 * stages (levels 1..5, the one-shot decoder) and of CRC-32 and Adler-32
 * (integrity/checksum_internal.h), reached through a table filled on first
 * use (core/dynlib_internal.h says how and why). Only in a build with
 * libdeflate (CODEC_HAVE_LIBDEFLATE). Include this instead of
 * <libdeflate.h>. */
#ifndef CODEC_LIBDEFLATE_INTERNAL_H
#define CODEC_LIBDEFLATE_INTERNAL_H

#include "core/dynlib_internal.h"

#include <libdeflate.h>

#define CODEC__LIBDEFLATE_FUNCTIONS(X, T)                                                \
    X(T, libdeflate_adler32)                                                             \
    X(T, libdeflate_alloc_compressor)                                                    \
    X(T, libdeflate_alloc_decompressor)                                                  \
    X(T, libdeflate_crc32)                                                               \
    X(T, libdeflate_free_compressor)                                                     \
    X(T, libdeflate_free_decompressor)                                                   \
    X(T, libdeflate_gzip_compress)                                                       \
    X(T, libdeflate_gzip_compress_bound)                                                 \
    X(T, libdeflate_gzip_decompress_ex)                                                  \
    X(T, libdeflate_zlib_compress)                                                       \
    X(T, libdeflate_zlib_compress_bound)                                                 \
    X(T, libdeflate_zlib_decompress_ex)

/* The table (codec__libdeflate_fn) and the library that fills it
 * (codec__libdeflate, CODEC_SONAME_LIBDEFLATE). */
CODEC__DYNLIB_DECLARE(libdeflate, CODEC__LIBDEFLATE_FUNCTIONS);

#if defined(CODEC_BUILDING) || defined(CODEC_DYNLIB_CALLS)
#define libdeflate_adler32 (*codec__libdeflate_fn.fn_libdeflate_adler32)
#define libdeflate_alloc_compressor (*codec__libdeflate_fn.fn_libdeflate_alloc_compressor)
#define libdeflate_alloc_decompressor (*codec__libdeflate_fn.fn_libdeflate_alloc_decompressor)
#define libdeflate_crc32 (*codec__libdeflate_fn.fn_libdeflate_crc32)
#define libdeflate_free_compressor (*codec__libdeflate_fn.fn_libdeflate_free_compressor)
#define libdeflate_free_decompressor (*codec__libdeflate_fn.fn_libdeflate_free_decompressor)
#define libdeflate_gzip_compress (*codec__libdeflate_fn.fn_libdeflate_gzip_compress)
#define libdeflate_gzip_compress_bound (*codec__libdeflate_fn.fn_libdeflate_gzip_compress_bound)
#define libdeflate_gzip_decompress_ex (*codec__libdeflate_fn.fn_libdeflate_gzip_decompress_ex)
#define libdeflate_zlib_compress (*codec__libdeflate_fn.fn_libdeflate_zlib_compress)
#define libdeflate_zlib_compress_bound (*codec__libdeflate_fn.fn_libdeflate_zlib_compress_bound)
#define libdeflate_zlib_decompress_ex (*codec__libdeflate_fn.fn_libdeflate_zlib_decompress_ex)
#endif

#endif /* CODEC_LIBDEFLATE_INTERNAL_H */
