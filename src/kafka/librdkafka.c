/* librdkafka.c — the table of librdkafka_internal.h and the library that
 * fills it on first use (CODEC_SONAME_LIBRDKAFKA, e.g. librdkafka.so.1). */
#include "codec/kafka.h"
#include "librdkafka_internal.h"

CODEC__DYNLIB_DEFINE(librdkafka, CODEC__LIBRDKAFKA_FUNCTIONS, CODEC_SONAME_LIBRDKAFKA);
