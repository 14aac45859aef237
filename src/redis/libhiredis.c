/* libhiredis.c — the table of libhiredis_internal.h and the library that
 * fills it on first use (CODEC_SONAME_LIBHIREDIS, e.g. libhiredis.so.0.14). */
#include "libhiredis_internal.h"

CODEC__DYNLIB_DEFINE(libhiredis, CODEC__LIBHIREDIS_FUNCTIONS, CODEC_SONAME_LIBHIREDIS);
