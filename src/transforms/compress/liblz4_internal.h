/* liblz4_internal.h — the liblz4 functions of the lz4, lz4hc and
 * redisson-lz4 stages, reached through a table filled on first use
 * (core/dynlib_internal.h says how and why). A spec naming them parses
 * without it: each encode, decode and stream open opens it first. Include
 * this instead of <lz4.h>, <lz4frame.h> and <lz4hc.h>. */
#ifndef CODEC_LIBLZ4_INTERNAL_H
#define CODEC_LIBLZ4_INTERNAL_H

#include "core/dynlib_internal.h"

#include <lz4.h>
#define LZ4F_STATIC_LINKING_ONLY /* LZ4F_getErrorCode, exported by liblz4 1.9 */
#include <lz4frame.h>
#include <lz4hc.h>

#define CODEC__LIBLZ4_FUNCTIONS(X, T)                                                    \
    X(T, LZ4F_compressBegin)                                                             \
    X(T, LZ4F_compressBound)                                                             \
    X(T, LZ4F_compressEnd)                                                               \
    X(T, LZ4F_compressFrameBound)                                                        \
    X(T, LZ4F_compressUpdate)                                                            \
    X(T, LZ4F_createCompressionContext)                                                  \
    X(T, LZ4F_createDecompressionContext)                                                \
    X(T, LZ4F_decompress)                                                                \
    X(T, LZ4F_freeCompressionContext)                                                    \
    X(T, LZ4F_freeDecompressionContext)                                                  \
    X(T, LZ4F_getErrorCode)                                                              \
    X(T, LZ4F_getErrorName)                                                              \
    X(T, LZ4F_getFrameInfo)                                                              \
    X(T, LZ4F_isError)                                                                   \
    X(T, LZ4_compressBound)                                                              \
    X(T, LZ4_compress_fast_extState)                                                     \
    X(T, LZ4_decompress_safe)                                                            \
    X(T, LZ4_sizeofState)

/* The table (codec__liblz4_fn) and the library that fills it
 * (codec__liblz4, CODEC_SONAME_LIBLZ4). */
CODEC__DYNLIB_DECLARE(liblz4, CODEC__LIBLZ4_FUNCTIONS);

#if defined(CODEC_BUILDING) || defined(CODEC_DYNLIB_CALLS)
#define LZ4F_compressBegin (*codec__liblz4_fn.fn_LZ4F_compressBegin)
#define LZ4F_compressBound (*codec__liblz4_fn.fn_LZ4F_compressBound)
#define LZ4F_compressEnd (*codec__liblz4_fn.fn_LZ4F_compressEnd)
#define LZ4F_compressFrameBound (*codec__liblz4_fn.fn_LZ4F_compressFrameBound)
#define LZ4F_compressUpdate (*codec__liblz4_fn.fn_LZ4F_compressUpdate)
#define LZ4F_createCompressionContext (*codec__liblz4_fn.fn_LZ4F_createCompressionContext)
#define LZ4F_createDecompressionContext (*codec__liblz4_fn.fn_LZ4F_createDecompressionContext)
#define LZ4F_decompress (*codec__liblz4_fn.fn_LZ4F_decompress)
#define LZ4F_freeCompressionContext (*codec__liblz4_fn.fn_LZ4F_freeCompressionContext)
#define LZ4F_freeDecompressionContext (*codec__liblz4_fn.fn_LZ4F_freeDecompressionContext)
#define LZ4F_getErrorCode (*codec__liblz4_fn.fn_LZ4F_getErrorCode)
#define LZ4F_getErrorName (*codec__liblz4_fn.fn_LZ4F_getErrorName)
#define LZ4F_getFrameInfo (*codec__liblz4_fn.fn_LZ4F_getFrameInfo)
#define LZ4F_isError (*codec__liblz4_fn.fn_LZ4F_isError)
#define LZ4_compressBound (*codec__liblz4_fn.fn_LZ4_compressBound)
#define LZ4_compress_fast_extState (*codec__liblz4_fn.fn_LZ4_compress_fast_extState)
#define LZ4_decompress_safe (*codec__liblz4_fn.fn_LZ4_decompress_safe)
#define LZ4_sizeofState (*codec__liblz4_fn.fn_LZ4_sizeofState)
#endif

#endif /* CODEC_LIBLZ4_INTERNAL_H */
