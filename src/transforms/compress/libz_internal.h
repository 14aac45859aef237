/* libz_internal.h — the zlib functions of the gzip and deflate stages and
 * of `codec inspect`, reached through a table filled on first use
 * (core/dynlib_internal.h says how and why). zlib runs only where our own
 * code and libdeflate do not: deflate levels 1..5 when streaming, the
 * one-shot decoder's short streams, gzip members after the first and its
 * reports of a corrupt stream (flate.c), and CRC-32 / Adler-32 in a build
 * without libdeflate. Each of those opens it first: the stream decoder
 * (our inflate) and levels 6..9 (our encoder) never load it. Include this
 * instead of <zlib.h>. */
#ifndef CODEC_LIBZ_INTERNAL_H
#define CODEC_LIBZ_INTERNAL_H

#include "core/dynlib_internal.h"

#include <zlib.h>

/* inflateInit2() and deflateInit2() are zlib's macros around
 * inflateInit2_() and deflateInit2_(). */
#if CODEC_HAVE_LIBDEFLATE
#define CODEC__LIBZ_CHECKSUMS(X, T)
#else
#define CODEC__LIBZ_CHECKSUMS(X, T) X(T, adler32_z) X(T, crc32_z)
#endif
#define CODEC__LIBZ_FUNCTIONS(X, T)                                                      \
    X(T, deflate)                                                                        \
    X(T, deflateEnd)                                                                     \
    X(T, deflateInit2_)                                                                  \
    X(T, deflateSetHeader)                                                               \
    X(T, inflate)                                                                        \
    X(T, inflateEnd)                                                                     \
    X(T, inflateInit2_)                                                                  \
    X(T, inflateReset)                                                                   \
    CODEC__LIBZ_CHECKSUMS(X, T)

/* The table (codec__libz_fn) and the library that fills it (codec__libz,
 * CODEC_SONAME_LIBZ). */
CODEC__DYNLIB_DECLARE(libz, CODEC__LIBZ_FUNCTIONS);

#if defined(CODEC_BUILDING) || defined(CODEC_DYNLIB_CALLS)
#define deflate (*codec__libz_fn.fn_deflate)
#define deflateEnd (*codec__libz_fn.fn_deflateEnd)
#define deflateInit2_ (*codec__libz_fn.fn_deflateInit2_)
#define deflateSetHeader (*codec__libz_fn.fn_deflateSetHeader)
#define inflate (*codec__libz_fn.fn_inflate)
#define inflateEnd (*codec__libz_fn.fn_inflateEnd)
#define inflateInit2_ (*codec__libz_fn.fn_inflateInit2_)
#define inflateReset (*codec__libz_fn.fn_inflateReset)
#if !CODEC_HAVE_LIBDEFLATE
#define adler32_z (*codec__libz_fn.fn_adler32_z)
#define crc32_z (*codec__libz_fn.fn_crc32_z)
#endif
#endif

#endif /* CODEC_LIBZ_INTERNAL_H */
