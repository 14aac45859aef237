/* liblz4.c — the table of liblz4_internal.h and the library that fills it
 * on first use (CODEC_SONAME_LIBLZ4, e.g. liblz4.so.1). */
#include "liblz4_internal.h"

CODEC__DYNLIB_DEFINE(liblz4, CODEC__LIBLZ4_FUNCTIONS, CODEC_SONAME_LIBLZ4);
