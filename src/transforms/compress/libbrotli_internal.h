/* libbrotli_internal.h — the libbrotlienc and libbrotlidec functions of the
 * brotli stage, reached through tables filled on first use
 * (core/dynlib_internal.h says how and why: linked, the two libraries,
 * libbrotlicommon and libm behind libbrotlienc cost every run about
 * 0.5 MiB of resident memory, brotli or not). Each direction opens its own
 * library: a decode never loads the encoder. Include this instead of
 * <brotli/encode.h> and <brotli/decode.h>. */
#ifndef CODEC_LIBBROTLI_INTERNAL_H
#define CODEC_LIBBROTLI_INTERNAL_H

#include "core/dynlib_internal.h"

#include <brotli/decode.h>
#include <brotli/encode.h>

#define CODEC__LIBBROTLIENC_FUNCTIONS(X, T)                                              \
    X(T, BrotliEncoderCompress)                                                          \
    X(T, BrotliEncoderCompressStream)                                                    \
    X(T, BrotliEncoderCreateInstance)                                                    \
    X(T, BrotliEncoderDestroyInstance)                                                   \
    X(T, BrotliEncoderIsFinished)                                                        \
    X(T, BrotliEncoderMaxCompressedSize)                                                 \
    X(T, BrotliEncoderSetParameter)

#define CODEC__LIBBROTLIDEC_FUNCTIONS(X, T)                                              \
    X(T, BrotliDecoderCreateInstance)                                                    \
    X(T, BrotliDecoderDecompressStream)                                                  \
    X(T, BrotliDecoderDestroyInstance)                                                   \
    X(T, BrotliDecoderErrorString)                                                       \
    X(T, BrotliDecoderGetErrorCode)

/* The tables (codec__libbrotlienc_fn, codec__libbrotlidec_fn) and the
 * libraries that fill them (CODEC_SONAME_LIBBROTLIENC, ..._LIBBROTLIDEC). */
CODEC__DYNLIB_DECLARE(libbrotlienc, CODEC__LIBBROTLIENC_FUNCTIONS);
CODEC__DYNLIB_DECLARE(libbrotlidec, CODEC__LIBBROTLIDEC_FUNCTIONS);

#if defined(CODEC_BUILDING) || defined(CODEC_DYNLIB_CALLS)
#define BrotliEncoderCompress (*codec__libbrotlienc_fn.fn_BrotliEncoderCompress)
#define BrotliEncoderCompressStream (*codec__libbrotlienc_fn.fn_BrotliEncoderCompressStream)
#define BrotliEncoderCreateInstance (*codec__libbrotlienc_fn.fn_BrotliEncoderCreateInstance)
#define BrotliEncoderDestroyInstance (*codec__libbrotlienc_fn.fn_BrotliEncoderDestroyInstance)
#define BrotliEncoderIsFinished (*codec__libbrotlienc_fn.fn_BrotliEncoderIsFinished)
#define BrotliEncoderMaxCompressedSize (*codec__libbrotlienc_fn.fn_BrotliEncoderMaxCompressedSize)
#define BrotliEncoderSetParameter (*codec__libbrotlienc_fn.fn_BrotliEncoderSetParameter)
#define BrotliDecoderCreateInstance (*codec__libbrotlidec_fn.fn_BrotliDecoderCreateInstance)
#define BrotliDecoderDecompressStream (*codec__libbrotlidec_fn.fn_BrotliDecoderDecompressStream)
#define BrotliDecoderDestroyInstance (*codec__libbrotlidec_fn.fn_BrotliDecoderDestroyInstance)
#define BrotliDecoderErrorString (*codec__libbrotlidec_fn.fn_BrotliDecoderErrorString)
#define BrotliDecoderGetErrorCode (*codec__libbrotlidec_fn.fn_BrotliDecoderGetErrorCode)
#endif

#endif /* CODEC_LIBBROTLI_INTERNAL_H */
