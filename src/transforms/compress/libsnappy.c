/* libsnappy.c — the table of libsnappy_internal.h and the library that
 * fills it on first use (CODEC_SONAME_LIBSNAPPY, e.g. libsnappy.so.1). */
#include "libsnappy_internal.h"

CODEC__DYNLIB_DEFINE(libsnappy, CODEC__LIBSNAPPY_FUNCTIONS, CODEC_SONAME_LIBSNAPPY);
