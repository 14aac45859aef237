/* libzstd_internal.h — the libzstd functions of the zstd stages, of
 * codec_zstd_train_dict() and of `codec inspect`, reached through a table
 * filled on first use (core/dynlib_internal.h says how and why: linked,
 * libzstd, liblz4, zlib and libdeflate cost every run about 0.4 MiB of
 * resident memory, used or not). The zstd stage constructor opens it (the
 * level's range is the library's, ZSTD_maxCLevel()). Include this instead
 * of <zstd.h>, <zstd_errors.h> and <zdict.h>. */
#ifndef CODEC_LIBZSTD_INTERNAL_H
#define CODEC_LIBZSTD_INTERNAL_H

#include "core/dynlib_internal.h"

#include <zdict.h>
#include <zstd.h>
#include <zstd_errors.h>

#define CODEC__LIBZSTD_FUNCTIONS(X, T)                                                   \
    X(T, ZDICT_getErrorName)                                                             \
    X(T, ZDICT_isError)                                                                  \
    X(T, ZDICT_trainFromBuffer)                                                          \
    X(T, ZSTD_CCtx_refCDict)                                                             \
    X(T, ZSTD_CCtx_reset)                                                                \
    X(T, ZSTD_CCtx_setParameter)                                                         \
    X(T, ZSTD_CCtx_setPledgedSrcSize)                                                    \
    X(T, ZSTD_DCtx_refDDict)                                                             \
    X(T, ZSTD_DCtx_reset)                                                                \
    X(T, ZSTD_compress2)                                                                 \
    X(T, ZSTD_compressBound)                                                             \
    X(T, ZSTD_compressCCtx)                                                              \
    X(T, ZSTD_compressStream2)                                                           \
    X(T, ZSTD_compress_usingCDict)                                                       \
    X(T, ZSTD_createCCtx)                                                                \
    X(T, ZSTD_createCDict)                                                               \
    X(T, ZSTD_createDCtx)                                                                \
    X(T, ZSTD_createDDict)                                                               \
    X(T, ZSTD_decompressDCtx)                                                            \
    X(T, ZSTD_decompressStream)                                                          \
    X(T, ZSTD_decompress_usingDDict)                                                     \
    X(T, ZSTD_findFrameCompressedSize)                                                   \
    X(T, ZSTD_freeCCtx)                                                                  \
    X(T, ZSTD_freeCDict)                                                                 \
    X(T, ZSTD_freeDCtx)                                                                  \
    X(T, ZSTD_freeDDict)                                                                 \
    X(T, ZSTD_getErrorCode)                                                              \
    X(T, ZSTD_getErrorName)                                                              \
    X(T, ZSTD_getFrameContentSize)                                                       \
    X(T, ZSTD_isError)                                                                   \
    X(T, ZSTD_maxCLevel)                                                                 \
    X(T, ZSTD_sizeof_CCtx)                                                               \
    X(T, ZSTD_sizeof_DCtx)

/* The table (codec__libzstd_fn) and the library that fills it
 * (codec__libzstd, CODEC_SONAME_LIBZSTD). */
CODEC__DYNLIB_DECLARE(libzstd, CODEC__LIBZSTD_FUNCTIONS);

#if defined(CODEC_BUILDING) || defined(CODEC_DYNLIB_CALLS)
#define ZDICT_getErrorName (*codec__libzstd_fn.fn_ZDICT_getErrorName)
#define ZDICT_isError (*codec__libzstd_fn.fn_ZDICT_isError)
#define ZDICT_trainFromBuffer (*codec__libzstd_fn.fn_ZDICT_trainFromBuffer)
#define ZSTD_CCtx_refCDict (*codec__libzstd_fn.fn_ZSTD_CCtx_refCDict)
#define ZSTD_CCtx_reset (*codec__libzstd_fn.fn_ZSTD_CCtx_reset)
#define ZSTD_CCtx_setParameter (*codec__libzstd_fn.fn_ZSTD_CCtx_setParameter)
#define ZSTD_CCtx_setPledgedSrcSize (*codec__libzstd_fn.fn_ZSTD_CCtx_setPledgedSrcSize)
#define ZSTD_DCtx_refDDict (*codec__libzstd_fn.fn_ZSTD_DCtx_refDDict)
#define ZSTD_DCtx_reset (*codec__libzstd_fn.fn_ZSTD_DCtx_reset)
#define ZSTD_compress2 (*codec__libzstd_fn.fn_ZSTD_compress2)
#define ZSTD_compressBound (*codec__libzstd_fn.fn_ZSTD_compressBound)
#define ZSTD_compressCCtx (*codec__libzstd_fn.fn_ZSTD_compressCCtx)
#define ZSTD_compressStream2 (*codec__libzstd_fn.fn_ZSTD_compressStream2)
#define ZSTD_compress_usingCDict (*codec__libzstd_fn.fn_ZSTD_compress_usingCDict)
#define ZSTD_createCCtx (*codec__libzstd_fn.fn_ZSTD_createCCtx)
#define ZSTD_createCDict (*codec__libzstd_fn.fn_ZSTD_createCDict)
#define ZSTD_createDCtx (*codec__libzstd_fn.fn_ZSTD_createDCtx)
#define ZSTD_createDDict (*codec__libzstd_fn.fn_ZSTD_createDDict)
#define ZSTD_decompressDCtx (*codec__libzstd_fn.fn_ZSTD_decompressDCtx)
#define ZSTD_decompressStream (*codec__libzstd_fn.fn_ZSTD_decompressStream)
#define ZSTD_decompress_usingDDict (*codec__libzstd_fn.fn_ZSTD_decompress_usingDDict)
#define ZSTD_findFrameCompressedSize (*codec__libzstd_fn.fn_ZSTD_findFrameCompressedSize)
#define ZSTD_freeCCtx (*codec__libzstd_fn.fn_ZSTD_freeCCtx)
#define ZSTD_freeCDict (*codec__libzstd_fn.fn_ZSTD_freeCDict)
#define ZSTD_freeDCtx (*codec__libzstd_fn.fn_ZSTD_freeDCtx)
#define ZSTD_freeDDict (*codec__libzstd_fn.fn_ZSTD_freeDDict)
#define ZSTD_getErrorCode (*codec__libzstd_fn.fn_ZSTD_getErrorCode)
#define ZSTD_getErrorName (*codec__libzstd_fn.fn_ZSTD_getErrorName)
#define ZSTD_getFrameContentSize (*codec__libzstd_fn.fn_ZSTD_getFrameContentSize)
#define ZSTD_isError (*codec__libzstd_fn.fn_ZSTD_isError)
#define ZSTD_maxCLevel (*codec__libzstd_fn.fn_ZSTD_maxCLevel)
#define ZSTD_sizeof_CCtx (*codec__libzstd_fn.fn_ZSTD_sizeof_CCtx)
#define ZSTD_sizeof_DCtx (*codec__libzstd_fn.fn_ZSTD_sizeof_DCtx)
#endif

#endif /* CODEC_LIBZSTD_INTERNAL_H */
