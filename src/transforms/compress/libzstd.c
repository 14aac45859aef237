/* libzstd.c — the table of libzstd_internal.h and the library that fills
 * it on first use (CODEC_SONAME_LIBZSTD, e.g. libzstd.so.1). */
#include "libzstd_internal.h"

CODEC__DYNLIB_DEFINE(libzstd, CODEC__LIBZSTD_FUNCTIONS, CODEC_SONAME_LIBZSTD);
