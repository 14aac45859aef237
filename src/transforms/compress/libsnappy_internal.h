/* libsnappy_internal.h — the libsnappy functions of the snappy stages,
 * reached through a table filled on first use (core/dynlib_internal.h says
 * how and why: libsnappy alone brings in libstdc++). Include this instead
 * of <snappy-c.h>. */
#ifndef CODEC_LIBSNAPPY_INTERNAL_H
#define CODEC_LIBSNAPPY_INTERNAL_H

#include "core/dynlib_internal.h"

#include <snappy-c.h>

#define CODEC__LIBSNAPPY_FUNCTIONS(X, T)                                                 \
    X(T, snappy_compress)                                                                \
    X(T, snappy_max_compressed_length)                                                   \
    X(T, snappy_uncompress)                                                              \
    X(T, snappy_uncompressed_length)

/* The table (codec__libsnappy_fn) and the library that fills it
 * (codec__libsnappy, CODEC_SONAME_LIBSNAPPY). */
CODEC__DYNLIB_DECLARE(libsnappy, CODEC__LIBSNAPPY_FUNCTIONS);

#if defined(CODEC_BUILDING) || defined(CODEC_DYNLIB_CALLS)
#define snappy_compress (*codec__libsnappy_fn.fn_snappy_compress)
#define snappy_max_compressed_length (*codec__libsnappy_fn.fn_snappy_max_compressed_length)
#define snappy_uncompress (*codec__libsnappy_fn.fn_snappy_uncompress)
#define snappy_uncompressed_length (*codec__libsnappy_fn.fn_snappy_uncompressed_length)
#endif

#endif /* CODEC_LIBSNAPPY_INTERNAL_H */
