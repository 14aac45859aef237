/* libdeflate.c — the table of libdeflate_internal.h and the library that
 * fills it on first use (CODEC_SONAME_LIBDEFLATE, e.g. libdeflate.so.0).
 * Built only with libdeflate (CMakeLists.txt leaves it out without). */
#include "libdeflate_internal.h"

CODEC__DYNLIB_DEFINE(libdeflate, CODEC__LIBDEFLATE_FUNCTIONS, CODEC_SONAME_LIBDEFLATE);
