/* libz.c — the table of libz_internal.h and the library that fills it on
 * first use (CODEC_SONAME_LIBZ, e.g. libz.so.1). */
#include "libz_internal.h"

CODEC__DYNLIB_DEFINE(libz, CODEC__LIBZ_FUNCTIONS, CODEC_SONAME_LIBZ);
