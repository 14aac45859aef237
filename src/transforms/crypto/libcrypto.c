/* libcrypto.c — the table of libcrypto_internal.h and the library that
 * fills it on first use (CODEC_SONAME_LIBCRYPTO: the SONAME of the
 * libcrypto CMake found, e.g. libcrypto.so.3). */
#include "libcrypto_internal.h"

CODEC__DYNLIB_DEFINE(libcrypto, CODEC__LIBCRYPTO_FUNCTIONS, CODEC_SONAME_LIBCRYPTO);
