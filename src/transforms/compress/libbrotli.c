/* libbrotli.c — the tables of libbrotli_internal.h and the libraries that
 * fill them on first use (CODEC_SONAME_LIBBROTLIENC and
 * CODEC_SONAME_LIBBROTLIDEC, e.g. libbrotlienc.so.1). */
#include "libbrotli_internal.h"

CODEC__DYNLIB_DEFINE(libbrotlienc, CODEC__LIBBROTLIENC_FUNCTIONS, CODEC_SONAME_LIBBROTLIENC);
CODEC__DYNLIB_DEFINE(libbrotlidec, CODEC__LIBBROTLIDEC_FUNCTIONS, CODEC_SONAME_LIBBROTLIDEC);
